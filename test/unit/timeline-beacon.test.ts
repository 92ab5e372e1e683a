// Zero false alarms on the provider's own client: a visit driven through @athoscommerce/beacon (debounce,
// merged batches, clicks and redirects overtaking queued events) must come out `pass`, read from a HAR.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { parseInput } from '../../src/main/tracking/timeline/inputs';
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
    expect(firstImpression.data.banners).toEqual([{ uid: 'banner-header' }]);
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
    expect(pages[0]!.responses.map((r) => r.responseId)).toHaveLength(3);
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
