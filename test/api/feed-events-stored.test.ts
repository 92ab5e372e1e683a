// A feed's state is told on the stream only once it is stored: a listener that reads indexing.json the
// moment it hears of a change finds that change there, whether a hand move or the autopilot's timed steps
// made it. What a client saw a restart shows.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/shared/stream';
import type { FeedView } from '../../src/shared/indexing';
import { startSandbox, tempDir } from '../helpers/sandbox';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface StoredFeed {
  siteId: string;
  feedId: number;
  state: string;
  history: unknown[];
}

/** A sandbox on a data dir, and every feed message it tells, each beside the feed as stored right then. */
async function listening() {
  const { dir, cleanup } = tempDir('feed-events-stored-');
  cleanups.push(cleanup);
  const sandbox = await startSandbox({ dataDir: dir });
  cleanups.push(() => sandbox.close());
  const heard: Array<{ told: FeedView; stored: StoredFeed | undefined }> = [];
  const stop = sandbox.core.bus.on((message: StreamMessage) => {
    if (message.type !== 'feed') return;
    const told = message.data as FeedView;
    const { feeds } = JSON.parse(readFileSync(path.join(dir, 'indexing.json'), 'utf8')) as {
      feeds: StoredFeed[];
    };
    heard.push({
      told,
      stored: feeds.find((f) => f.siteId === told.siteId && f.feedId === told.id),
    });
  });
  cleanups.push(stop);
  return { sandbox, heard };
}

/**
 * Each message's feed is on disk when it is told: its last history entry is stored (later ones may be
 * too, by then), and, when nothing came after it, its state.
 */
function expectStored(heard: Array<{ told: FeedView; stored: StoredFeed | undefined }>) {
  expect(heard.length).toBeGreaterThan(0);
  for (const { told, stored } of heard) {
    const entries = (stored?.history ?? []).map((e) => JSON.stringify(e));
    const last = JSON.stringify(told.history.at(-1));
    expect(entries, `feed ${told.id} told "${told.state}"`).toContain(last);
    if (entries.at(-1) === last) expect(stored?.state).toBe(told.state);
  }
}

describe('feed messages on the stream', () => {
  it('tell a hand move once indexing.json holds it', async () => {
    const { sandbox, heard } = await listening();
    const res = await fetch(`${sandbox.url}/_sandbox/feeds/demo42/42/transition`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'waiting' }),
    });
    expect(res.status).toBe(200);
    expect(heard.map((h) => h.told.state)).toContain('waiting');
    expectStored(heard);
  });

  it("tell the autopilot's timed steps once indexing.json holds each", async () => {
    const { sandbox, heard } = await listening();
    const started = await fetch(`${sandbox.url}/_sandbox/feeds/demo42/43/transition`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'regen_waiting' }),
    });
    expect(started.status).toBe(200);
    // the cart feed runs through its timed steps (regeneration, waiting, running) to done
    const moved = await fetch(`${sandbox.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT2H' }),
    });
    expect(moved.status).toBe(200);
    const states = heard.filter((h) => h.told.id === 43).map((h) => h.told.state);
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('done');
    expectStored(heard);
  });
});
