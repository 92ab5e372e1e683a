// The Feeds board sees an index run progress: while the parse reads a large feed, feed views on the stream
// carry how far it got (bytes, products), and beacons keep being answered and placed on timelines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { FeedView } from '../../src/shared/indexing';
import { postBeacon } from '../helpers/sandbox';
import { startFrozen, upload } from './indexing-helpers';

let sandbox: Sandbox;
let base: string;

beforeAll(async () => {
  sandbox = await startFrozen();
  base = sandbox.url;
});
afterAll(async () => {
  await sandbox.close();
});

/** A CSV of about 6 MB: far more than one slice of parsing on any machine. */
function bigCsv(): string {
  const rows = ['id,sku,name,price,description'];
  for (let i = 0; i < 60_000; i++)
    rows.push(`${i},SKU-${i},Trail product ${i},${(i % 300) + 0.99},"Light, tough and repairable"`);
  return `${rows.join('\n')}\n`;
}

describe('an index run in progress', () => {
  it('shows its parse on the feed view and the stream, while beacons are answered', async () => {
    const views: FeedView[] = [];
    const off = sandbox.core.bus.on((m) => {
      const view = m.data as FeedView;
      if (m.type === 'feed' && view.id === 42) views.push(view);
    });
    expect((await upload(base, 'feedId=42', bigCsv())).status).toBe(200);
    const move = (to: string) =>
      fetch(`${base}/_sandbox/feeds/demo42/42/transition`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to }),
      });
    // the answer to the move is written as the parse starts: nothing read yet
    const running = (await (await move('running')).json()) as FeedView;
    expect(running.state).toBe('running');
    expect(running.parsing).toEqual({ bytes: 0, products: 0 });
    // a beacon sent while the feed parses is answered and lands on its timeline
    const beacon = postBeacon(base, 'demo42/search/render', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'http://localhost/search?q=x',
        userId: 'u1',
        sessionId: 's1',
        pageLoadId: 'p-during-parse',
        initiator: 'progress-test',
      },
      data: { responseId: 'r1' },
    });
    const done = (await (await move('done')).json()) as FeedView;
    expect((await beacon).status).toBe(200);
    off();
    expect(done).toMatchObject({ state: 'done', products: 60_000, parsing: null });
    const progress = views.filter((v) => v.parsing && v.parsing.bytes > 0).map((v) => v.parsing!);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.bytes).toBeLessThanOrEqual(done.lastRun!.bytes);
    expect(progress.at(-1)!.products).toBeLessThanOrEqual(60_000);
    expect(sandbox.core.timelines.find('p-during-parse')).toHaveLength(1);
  });
});
