// Shared by the indexing API tests: credentials, uploads, and waiting on a feed's state over the bus.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxClock } from '../../src/main/clock';
import type { Sandbox } from '../../src/main/sandbox';
import type { FeedView } from '../../src/shared/indexing';
import { afterEach } from 'vitest';
import { startSandbox, tempDir } from '../helpers/sandbox';
import type { SandboxConfig } from '../../src/main/config';

export const START = Date.parse('2026-11-21T04:36:00Z');
export const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/feeds',
);
export const AUTH = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;

/** A sandbox on a frozen clock: feeds move only when a test advances it. */
export function startFrozen(overrides: Partial<SandboxConfig> = {}): Promise<Sandbox> {
  return startSandbox(overrides, { clock: new SandboxClock({ frozen: true, start: START }) });
}

export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

export function upload(
  base: string,
  query: string,
  data: Buffer | string,
  name = 'feed.csv',
  init: { field?: string; auth?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const form = new FormData();
  form.append(init.field ?? 'feedFile', new Blob([data]), name);
  return fetch(`${base}/api/index/feed?${query}`, {
    method: 'POST',
    headers: { ...init.headers, authorization: init.auth ?? AUTH },
    body: form,
  });
}

export function put(base: string, query: string, auth = AUTH): Promise<Response> {
  return fetch(`${base}/api/index/feed?${query}`, {
    method: 'PUT',
    headers: { authorization: auth },
  });
}

export function status(base: string, auth = AUTH): Promise<Response> {
  return fetch(`${base}/api/index/status`, { headers: { authorization: auth } });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are shaped by the assertions
export async function admin<T = any>(
  base: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/_sandbox${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

export function advance(base: string, duration: string) {
  return admin(base, 'POST', '/clock', { advance: duration });
}

/** Resolve with the feed's view once `done(view)` holds (checked now and on every `feed` message). */
export function waitForFeed(
  sandbox: Sandbox,
  feedId: number,
  done: (f: FeedView) => boolean,
  timeoutMs = 10_000,
  siteId = 'demo42',
): Promise<FeedView> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const view = sandbox.core.indexing.feed(siteId, feedId)!;
      if (!done(view)) return false;
      off();
      clearTimeout(timer);
      resolve(view);
      return true;
    };
    const off = sandbox.core.bus.on((m) => {
      if (m.type === 'feed') check();
    });
    const timer = setTimeout(() => {
      off();
      const view = sandbox.core.indexing.feed(siteId, feedId)!;
      reject(
        new Error(
          `feed ${feedId} did not reach the expected state in ${timeoutMs} ms; it is ${view.state}`,
        ),
      );
    }, timeoutMs);
    check();
  });
}

/** Drive a just-accepted run to its end: advance the clock in steps until the feed rests again. */
export async function runToEnd(
  sandbox: Sandbox,
  feedId: number,
  siteId = 'demo42',
): Promise<FeedView> {
  const resting = (f: FeedView) => ['done', 'error', 'regen_error'].includes(f.state);
  for (let i = 0; i < 20; i++) {
    await advance(sandbox.url, 'PT5M');
    const view = sandbox.core.indexing.feed(siteId, feedId)!;
    if (resting(view)) return view;
    if (view.state === 'running') {
      // the parse runs in real time; its end is armed once it is done
      await sandbox.core.indexing.engine.parseResult(
        sandbox.core.indexing.engine.record(siteId, feedId)!,
      );
    }
  }
  return waitForFeed(sandbox, feedId, resting, 10_000, siteId);
}

/**
 * A clock running at real-time pace from a few seconds past the current whole hour. A fresh feed's
 * schedule counts from the whole hour its sandbox started in (its fixture's lastIndexed), so a day on
 * its scheduled index is due a few seconds before the clock, not up to an hour: the hardest case for a
 * test that advances a day, pinned whatever the time of day the test runs at.
 */
export function clockJustPastTheHour(): SandboxClock {
  return new SandboxClock({ start: Math.floor(Date.now() / 3_600_000) * 3_600_000 + 5_000 });
}

/**
 * A day and ten minutes: past the end of the scheduled indexes a day reaches. A fresh feed's index is due
 * at the whole hour a day after its sandbox started, and a cart feed's (regeneration first) takes 160 s
 * of sandbox time: after a bare day it can still be under way, going on at real-time pace.
 */
export const PAST_A_DAYS_INDEXES = 'P1DT10M';

/**
 * Sandboxes a test starts, stops and starts again on one data directory (a restart): whatever is still
 * open is closed after each test, and the data directories made with `dataDir()` removed. Each start
 * is on a new clock at real time unless given one.
 */
export function restartableSandboxes(): {
  start(dataDir?: string, clock?: SandboxClock): Promise<Sandbox>;
  stop(sb: Sandbox): Promise<void>;
  dataDir(): string;
} {
  let open: Sandbox[] = [];
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    for (const sb of open) await sb.close();
    open = [];
    for (const c of cleanups.splice(0)) c();
  });
  return {
    async start(dataDir, clock) {
      const sb = await startSandbox(dataDir ? { dataDir } : {}, clock ? { clock } : {});
      open.push(sb);
      return sb;
    },
    async stop(sb) {
      await sb.close();
      open = open.filter((s) => s !== sb);
    },
    dataDir() {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      return dir;
    },
  };
}
