// Uploads sent at once to one feed, on a data directory (where storing an upload takes a write): the feed
// takes one, and refuses the others as already queued, as it does one after the other. Before, each was
// judged while the first's file was still being stored: all were answered 200, one file was indexed, and
// the other requests were lost (their requesters told of a run that indexed someone else's file).
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { admin, fixture, restartableSandboxes, START, upload } from './indexing-helpers';

const { start, dataDir } = restartableSandboxes();

const FILES = [
  { name: 'products.csv', by: 'a@shop.example' },
  { name: 'broken-rows.csv', by: 'b@shop.example' },
  { name: 'products.csv', by: 'c@shop.example' },
];

describe('uploads sent at once to one feed', () => {
  it('are taken one: the others are refused as already queued, and the history holds each request once', async () => {
    const sb = await start(dataDir(), new SandboxClock({ frozen: true, start: START }));
    const answers = await Promise.all(
      FILES.map(async ({ name, by }) => {
        const res = await upload(
          sb.url,
          `feedId=42&requestedBy=${encodeURIComponent(by)}`,
          fixture(name),
          name,
        );
        return { by, status: res.status, body: (await res.json()) as any };
      }),
    );
    const taken = answers.filter((a) => a.status === 200);
    expect(taken).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/already queued/);
    }

    const feed = (await admin(sb.url, 'GET', '/feeds/demo42/42')).body;
    expect(feed.state).toBe('waiting');
    const requests = feed.history.filter((h: any) => h.kind === 'request');
    expect(requests).toHaveLength(FILES.length);
    const accepted = requests.filter((h: any) => h.accepted);
    expect(accepted.map((h: any) => h.requestedBy)).toEqual([taken[0]!.by]);
    expect(accepted[0].status).toBe(200);
  });
});
