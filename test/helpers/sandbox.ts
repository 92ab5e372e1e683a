// Start real sandboxes for tests: port 0 on 127.0.0.1, in memory, demo fixtures unless told otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, DEMO_CONFIG_PATH, type SandboxConfig } from '../../src/main/config';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/main/sandbox';

/** The demo config, in memory, on a free port; `overrides` replace top-level keys. */
export function testConfig(overrides: Partial<SandboxConfig> = {}): SandboxConfig {
  const base = loadConfig(
    { ephemeral: true, port: 0, host: '127.0.0.1', config: DEMO_CONFIG_PATH },
    {},
  );
  return { ...base, ...overrides };
}

export async function startSandbox(
  overrides: Partial<SandboxConfig> = {},
  options: SandboxOptions = {},
): Promise<Sandbox> {
  return createSandbox(testConfig(overrides), { rendererDir: null, ...options });
}

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix = 'search-sandbox-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** POST a JSON body the way the provider's browser client does (text/plain). */
export function postBeacon(
  base: string,
  pathAfterV2: string,
  body: unknown,
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${base}/beacon/v2/${pathAfterV2}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8', ...(init.headers ?? {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/**
 * A search/impression body of one tile, without a render before it on its page: accepted, and its page
 * fails missing-render (what the `tail` tests follow).
 */
export function unrenderedImpression(pageLoadId: string, responseId = 'r1') {
  return {
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'http://localhost:3000/search?q=tail',
      userId: 'u',
      sessionId: 's',
      pageLoadId,
      initiator: 'tail-test',
      dev: true,
    },
    data: { responseId, results: [{ type: 'product', uid: '1', parentId: '1' }], banners: [] },
  };
}
