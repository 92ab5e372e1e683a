// Zero false alarms on the provider's own client: a visit driven through @athoscommerce/beacon (debounce,
// merged batches, clicks and redirects overtaking queued events) must come out `pass`, read from a HAR.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { checkOffline } from '../../src/main/tracking/timeline/offline-check';
import { parseInput } from '../../src/main/recordings/inputs';
import { capturingFetch, shopperVisit, toHar, type Captured } from './timeline-beacon';

beforeEach(() => {
  vi.useFakeTimers({
    now: Date.parse('2026-11-21T04:00:00.000Z'),
    toFake: ['setTimeout', 'clearTimeout', 'Date'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

async function visit(mode: 'production' | 'development') {
  const captured: Captured[] = [];
  await shopperVisit(
    capturingFetch(captured),
    async (ms) => {
      await vi.advanceTimersByTimeAsync(ms);
    },
    { mode },
  );
  const har = JSON.stringify(toHar(captured));
  const read = parseInput(har, 'visit.har');
  const engine = new TimelineEngine({
    clock: new SandboxClock({ frozen: true }),
    settings: defaultTimelineSettings(),
  });
  for (const ev of read.events) engine.apply(ev);
  engine.finish();
  engine.dispose();
  return { captured, read, pages: engine.pagesDto() };
}

describe('traffic of @athoscommerce/beacon', () => {
  it('exercises batching and reordering, and every page passes without a warning or error', async () => {
    const { captured, read, pages } = await visit('development');
    const beacons = captured.filter((c) => c.url.includes('/beacon/v2/'));
    // merged: four impression calls and a banner impression went out as one request
    const firstImpression = JSON.parse(
      beacons.find((c) => c.url.endsWith('/search/impression'))!.body,
    );
    expect(firstImpression.data.results.map((r: { uid: string }) => r.uid)).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(firstImpression.data.banners).toEqual([{ uid: '81001' }]);
    // reordered: the click arrived before the impression of the clicked uid, queued earlier
    const order = beacons.map(
      (c) =>
        `${c.url.split('/').pop()}:${
          JSON.parse(c.body)
            .data.results?.map((r: { uid: string }) => r.uid)
            .join('+') ?? ''
        }`,
    );
    const impressionOf7 = order.findIndex(
      (o) => o.startsWith('impression:') && o.split(/[:+]/).includes('7'),
    );
    expect(order[impressionOf7]).toBe('impression:5+6+7');
    expect(order.indexOf('clickthrough:7')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('clickthrough:7')).toBeLessThan(impressionOf7);
    // the redirect overtook the render, impression and addtocart queued before it
    expect(order.indexOf('redirect:')).toBeLessThan(order.lastIndexOf('addtocart:21'));
    // the context the client sends: empty shopperId, no userAgent, dev flag in development mode
    const ctx = JSON.parse(beacons[0]!.body).context;
    expect(ctx.shopperId).toBe('');
    expect(ctx).not.toHaveProperty('userAgent');
    expect(ctx.dev).toBe(true);

    expect(read.events.every((e) => e.accepted)).toBe(true);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.responses.map((r) => r.responseId)).toHaveLength(4);
    for (const page of pages) {
      expect(page.findings, page.pageUrl).toEqual([]);
      expect(page.verdict).toBe('pass');
    }
  });

  it('in production mode only adds the informational dev-flag finding', async () => {
    const { pages } = await visit('production');
    for (const page of pages) {
      expect(page.verdict).toBe('pass');
      expect(page.findings.map((f) => `${f.rule}/${f.severity}`)).toEqual(['dev-flag/info']);
    }
  });
});

describe('a click that navigates away while impressions are queued', () => {
  it('loses those impressions in the client: info that says so, the page passes (the provider client does this)', async () => {
    const { Beacon } = await import('@athoscommerce/beacon');
    const captured: Captured[] = [];
    const beacon = new Beacon(
      { siteId: 'demo42' },
      {
        mode: 'development',
        href: 'http://localhost:3000/search?q=shoes',
        apis: { fetch: capturingFetch(captured) as unknown as typeof fetch },
        requesters: { beacon: { origin: 'https://analytics.searchspring.net/beacon/v2' } },
      },
    );
    const product = (uid: string) => ({ type: 'product' as const, uid, parentId: uid, sku: uid });
    const r = 'resp-unload';
    beacon.events.search.render({ data: { responseId: r } });
    // the first tiles have been visible for a second
    await vi.advanceTimersByTimeAsync(1000);
    beacon.events.search.impression({
      data: { responseId: r, results: [product('1'), product('2')], banners: [] },
    });
    await vi.advanceTimersByTimeAsync(400);
    // the shopper scrolls: a tile comes into view every 150 ms, each resetting the client's 300 ms debounce
    for (const uid of ['3', '4', '5']) {
      beacon.events.search.impression({
        data: { responseId: r, results: [product(uid)], banners: [] },
      });
      await vi.advanceTimersByTimeAsync(150);
    }
    beacon.events.search.clickThrough({ data: { responseId: r, results: [product('5')] } });
    await vi.advanceTimersByTimeAsync(0);
    // the click navigates: the page unloads and the client's queue (impressions of 3, 4, 5) is gone
    const internals = beacon as unknown as {
      requests: unknown[];
      batchIntervalTimeout: ReturnType<typeof setTimeout>;
    };
    clearTimeout(internals.batchIntervalTimeout);
    internals.requests = [];
    await vi.advanceTimersByTimeAsync(1000);

    const read = parseInput(JSON.stringify(toHar(captured)), 'unload.har');
    expect(read.events.map((e) => e.event)).toEqual(['render', 'impression', 'clickthrough']);
    const [page] = checkOffline(read.events);
    expect(page!.verdict).toBe('pass');
    expect(page!.findings.map((f) => `${f.rule}/${f.severity}`)).toEqual([
      'click-not-impressed-at-exit/info',
    ]);
    expect(page!.findings[0]!.message).toContain('the click was the last event of the page');
  });
});
