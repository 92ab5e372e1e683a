// Sandboxes configured for pass-through (search upstream, beacon forwarding) to fake upstreams on 127.0.0.1.
import { parseSandboxAccounts } from '../../src/main/config';
import type { SandboxConfig } from '../../src/main/config';
import { startSandbox } from './sandbox';
import type { Sandbox } from '../../src/main/sandbox';

export const SITE = 'abc123';

/** One account `abc123` with the given `search` and `tracking` settings, parsed like a config file. */
export function passThroughAccounts(settings: {
  search?: Record<string, unknown>;
  tracking?: Record<string, unknown>;
}): SandboxConfig['accounts'] {
  return parseSandboxAccounts(
    [{ siteId: SITE, secretKey: 'k', feeds: [], ...settings }],
    process.cwd(),
    'test config',
  );
}

export function startPassThrough(
  settings: Parameters<typeof passThroughAccounts>[0],
  overrides: Partial<SandboxConfig> = {},
): Promise<Sandbox> {
  return startSandbox({ accounts: passThroughAccounts(settings), ...overrides });
}

let n = 0;
/** A valid beacon body for `abc123` on page `pageLoadId`. */
export function beacon(pageLoadId: string, data: Record<string, unknown>) {
  return {
    context: {
      // a little over a second apart: a tile is impressed once it has been visible for a second
      timestamp: new Date(Date.now() - 30_000 + ++n * 1_100).toISOString(),
      pageUrl: 'https://shop.example/search?q=jacket',
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId,
      initiator: 'search-sandbox/pass-through-test',
    },
    data,
  };
}
