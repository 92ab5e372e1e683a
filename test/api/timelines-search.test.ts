// Searching inside pages is the server's: GET /_sandbox/timelines?q= finds a page by a uid its events
// reported (or an order id), and &event= keeps the pages holding an event of that type.
import { afterEach, describe, expect, it } from 'vitest';
import { postBeacon, startSandbox } from '../helpers/sandbox';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

const context = (pageLoadId: string) => ({
  timestamp: new Date().toISOString(),
  pageUrl: 'http://localhost:3000/search?q=boots',
  userId: 'u1',
  sessionId: 's1',
  pageLoadId,
  initiator: 'search-test',
  dev: true,
});

describe('GET /_sandbox/timelines?q=&event=', () => {
  it('finds pages by a uid their events reported and by event type; a bad parameter is a 400', async () => {
    const s = await startSandbox();
    stops.push(() => s.close());
    await postBeacon(s.url, 'demo42/search/render', {
      context: context('a'),
      data: { responseId: 'ra' },
    });
    await postBeacon(s.url, 'demo42/search/impression', {
      context: context('a'),
      data: {
        responseId: 'ra',
        results: [{ type: 'product', uid: 'UID-Needle-7', parentId: 'P7' }],
        banners: [],
      },
    });
    await postBeacon(s.url, 'demo42/search/render', {
      context: context('b'),
      data: { responseId: 'rb' },
    });
    const ids = async (query: string) =>
      (
        (await (await fetch(`${s.url}/_sandbox/timelines?view=summary&${query}`)).json()) as {
          pages: Array<{ pageLoadId: string }>;
        }
      ).pages.map((p) => p.pageLoadId);
    expect(await ids('q=uid-needle')).toEqual(['a']);
    expect(await ids('q=p7')).toEqual(['a']);
    expect(await ids('event=impression')).toEqual(['a']);
    expect(await ids('event=render')).toEqual(['a', 'b']);
    expect(await ids('q=nothing-like-it')).toEqual([]);
    // the UI asks only which pages: each page as its site and pageLoadId
    const keys = (await (
      await fetch(`${s.url}/_sandbox/timelines?view=keys&q=needle`)
    ).json()) as Record<string, unknown>;
    expect(keys).toEqual({
      pages: [{ siteId: 'demo42', pageLoadId: 'a' }],
      total: 1,
      verdicts: expect.any(Object),
    });
    const finished = (await (
      await fetch(`${s.url}/_sandbox/timelines?view=keys&finished=true&event=render`)
    ).json()) as { pages: unknown[] };
    expect(finished.pages).toEqual([
      { siteId: 'demo42', pageLoadId: 'a' },
      { siteId: 'demo42', pageLoadId: 'b' },
    ]);
    const bad = await fetch(`${s.url}/_sandbox/timelines?event=a&event=b`);
    expect(bad.status).toBe(400);
  });
});
