// One shopper journey as a storefront sends it, recorded as many times as a test needs: each run gets new
// session/user/page-load ids, new responseIds and orderIds, new timestamps and the host the test asks for,
// so two runs differ in everything a baseline comparison ignores. Tests edit the journey's pages to make
// one storefront regression at a time.
import { randomUUID } from 'node:crypto';

export interface JourneyEvent {
  category: string;
  event: string;
  /** the event's data; `responseId: 'R<n>'` is a response of the run (a new id per run), orderId likewise */
  data: Record<string, unknown>;
}

export interface JourneyPage {
  /**
   * the URL's path and query; `{ORDER}` (any name of an orderId or responseId of the page) is that id of the
   * run, `{sessionId}` the run's sessionId, `{random}` a new value each run (a cache buster)
   */
  path: string;
  events: JourneyEvent[];
}

/** Sessions of pages; one session's pages in the order visited. */
export type Journey = JourneyPage[][];

const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: `sku-${uid}` });

export function journey(): Journey {
  return [
    [
      {
        path: '/search?q=shoes',
        events: [
          { category: 'search', event: 'render', data: { responseId: 'R1' } },
          {
            category: 'search',
            event: 'impression',
            data: {
              responseId: 'R1',
              results: [tile('101'), tile('102'), tile('103')],
              banners: [],
            },
          },
          {
            category: 'search',
            event: 'clickthrough',
            data: { responseId: 'R1', results: [tile('102')] },
          },
        ],
      },
      {
        path: '/product/102',
        events: [
          {
            category: 'product',
            event: 'pageview',
            data: { result: { uid: '102', parentId: '102', sku: 'sku-102' } },
          },
          {
            category: 'recommendations',
            event: 'render',
            data: { responseId: 'R2', tag: 'similar' },
          },
          {
            category: 'recommendations',
            event: 'impression',
            data: {
              responseId: 'R2',
              tag: 'similar',
              results: [tile('104'), tile('105')],
              banners: [],
            },
          },
        ],
      },
      {
        path: '/checkout/thanks',
        events: [
          {
            category: 'order',
            event: 'transaction',
            data: {
              orderId: 'ORDER',
              transactionTotal: 100,
              total: 100,
              results: [{ uid: '102', parentId: '102', sku: 'sku-102', qty: 1, price: 100 }],
            },
          },
        ],
      },
    ],
    [
      {
        path: '/shop/boots?sort=price',
        events: [
          { category: 'category', event: 'render', data: { responseId: 'R1' } },
          {
            category: 'category',
            event: 'impression',
            data: { responseId: 'R1', results: [tile('201'), tile('202')], banners: [] },
          },
        ],
      },
    ],
  ];
}

export interface RunOptions {
  /** scheme, host and port of the storefront */
  origin?: string;
  /** the sessions in the order recorded (their indexes) */
  order?: number[];
  /** first timestamp */
  start?: number;
  /** the siteId of the beacon paths (default demo42) */
  siteId?: string;
}

/** One run of a journey: recorded events ({siteId, category, event, body}), one per NDJSON line. */
export function run(j: Journey, opts: RunOptions = {}): string {
  const origin = opts.origin ?? 'http://localhost:3000';
  let ms = opts.start ?? Date.parse('2026-11-21T04:00:00Z');
  const userId = randomUUID();
  const lines: string[] = [];
  for (const s of opts.order ?? j.map((_, i) => i)) {
    const sessionId = randomUUID();
    for (const page of j[s]!) {
      const pageLoadId = randomUUID();
      const ids = new Map<string, string>();
      const fresh = (v: unknown) => {
        if (typeof v !== 'string') return v;
        if (!ids.has(v)) ids.set(v, randomUUID());
        return ids.get(v);
      };
      const path = page.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'sessionId' ? sessionId : name === 'random' ? randomUUID() : String(fresh(name)),
      );
      for (const e of page.events) {
        ms += 250;
        const data = { ...e.data };
        if ('responseId' in data) data.responseId = fresh(data.responseId);
        if ('orderId' in data) data.orderId = fresh(data.orderId);
        const context = {
          timestamp: new Date(ms).toISOString(),
          initiator: 'athos/beaconjs/1.3.0',
          shopperId: '',
          sessionId,
          userId,
          pageLoadId,
          pageUrl: `${origin}${path}`,
        };
        lines.push(
          JSON.stringify({
            siteId: opts.siteId ?? 'demo42',
            category: e.category,
            event: e.event,
            body: { context, data },
          }),
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Send a run of a journey (`run(journey())`'s NDJSON) to the sandbox at `url` as the storefront sent it,
 * one beacon after another; throws on one it did not accept.
 */
export async function sendRun(url: string, ndjson: string): Promise<void> {
  for (const line of ndjson.trim().split('\n')) {
    const { siteId, category, event, body } = JSON.parse(line) as Record<string, string>;
    const res = await fetch(`${url}/beacon/v2/${siteId}/${category}/${event}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200)
      throw new Error(`${category}/${event} answered ${res.status}: ${await res.text()}`);
  }
}
