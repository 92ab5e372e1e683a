// Beacon v2 search events for e2e tests and the UI bench: valid bodies by default, one page per builder,
// so a test reads as the story of a storefront page ("render, impress two tiles, click one").
import { randomUUID } from 'node:crypto';
import { postBeacon } from '../../helpers/sandbox';
import { CREATED_AFTER_MS } from '../../../src/shared/snippets';
import type { SearchEventName } from '../../../src/shared/events';

export const SITE_ID = 'demo42';

export interface PageIds {
  userId: string;
  sessionId: string;
  pageLoadId: string;
  responseId: string;
  pageUrl: string;
  /** when the page searched (ms): events without their own time are stamped after it as the client would */
  startedMs?: number;
  /** the latest such stamp */
  lastMs?: number;
}

export function newPage(overrides: Partial<PageIds> = {}): PageIds {
  return {
    userId: randomUUID(),
    sessionId: randomUUID(),
    pageLoadId: randomUUID(),
    responseId: randomUUID(),
    pageUrl: 'https://shop.example.com/search?q=shirt',
    // in the recent past, so that the stamps below are never ahead of the receive time
    startedMs: Date.now() - 10_000,
    ...overrides,
  };
}

/**
 * The time of an event without its own: when the provider's client creates it after the search (the same
 * offsets as Connect's snippets), events of one page at least its queue's debounce apart.
 */

function stamp(event: string, page: PageIds): number {
  if (page.startedMs === undefined) return Date.now();
  const t = Math.max(
    page.startedMs + (CREATED_AFTER_MS[event as SearchEventName] ?? 0),
    (page.lastMs ?? -Infinity) + 350,
  );
  page.lastMs = t;
  return t;
}

function product(uid: string) {
  return { type: 'product', uid, parentId: `${uid}-p` };
}

/** The body of one search event on `page`, at `at` (ms), as the provider's client would send it. */
export function searchBody(
  event: string,
  page: PageIds,
  opts: { at?: number; uids?: string[]; responseId?: string } = {},
): Record<string, unknown> {
  const context = {
    timestamp: new Date(opts.at ?? stamp(event, page)).toISOString(),
    pageUrl: page.pageUrl,
    userId: page.userId,
    sessionId: page.sessionId,
    pageLoadId: page.pageLoadId,
    initiator: 'search-sandbox/e2e',
    dev: true,
  };
  const responseId = opts.responseId ?? page.responseId;
  const uids = opts.uids ?? ['1001', '1002'];
  switch (event) {
    case 'render':
      return { context, data: { responseId } };
    case 'impression':
      return { context, data: { responseId, results: uids.map(product), banners: [] } };
    case 'clickthrough':
      return { context, data: { responseId, results: uids.slice(0, 1).map(product) } };
    case 'addtocart':
      return {
        context,
        data: {
          responseId,
          results: uids
            .slice(0, 1)
            .map((uid) => ({ uid, parentId: `${uid}-p`, qty: 1, price: 10 })),
        },
      };
    case 'redirect':
      return { context, data: { responseId, redirect: 'https://shop.example.com/landing' } };
    default:
      throw new Error(`unknown search event ${event}`);
  }
}

/** POST one search event and insist on the answer (a test that sends a bad body means to). */
export async function send(
  base: string,
  event: string,
  body: unknown,
  expectStatus = 200,
): Promise<void> {
  const res = await postBeacon(base, `${SITE_ID}/search/${event}`, body);
  const text = await res.text();
  if (res.status !== expectStatus)
    throw new Error(
      `POST search/${event} answered ${res.status} (expected ${expectStatus}): ${text}`,
    );
}

/** POST one event of another kind (category, autocomplete, recommendations, bundles). */
export async function sendAs(
  base: string,
  kind: string,
  event: string,
  body: unknown,
): Promise<void> {
  const res = await postBeacon(base, `${SITE_ID}/${kind}/${event}`, body);
  if (res.status !== 200)
    throw new Error(`POST ${kind}/${event} answered ${res.status}: ${await res.text()}`);
}

/** A page that follows the spec: render, impression, clickthrough, addtocart. */
export async function sendGoodPage(
  base: string,
  page: PageIds = newPage(),
  t0 = Date.now(),
): Promise<PageIds> {
  // as the provider's client creates them: tiles impressed once visible for a second
  await send(base, 'render', searchBody('render', page, { at: t0 }));
  await send(base, 'impression', searchBody('impression', page, { at: t0 + 1_200 }));
  await send(base, 'clickthrough', searchBody('clickthrough', page, { at: t0 + 2_500 }));
  await send(base, 'addtocart', searchBody('addtocart', page, { at: t0 + 3_500 }));
  return page;
}

/**
 * A page a broken integration produces: a clickthrough of a tile never impressed, an impression sent
 * before its render (by timestamp), and a render whose body the service rejects.
 */
export async function sendBadPage(
  base: string,
  page: PageIds = newPage(),
  t0 = Date.now(),
): Promise<PageIds> {
  await send(base, 'impression', searchBody('impression', page, { at: t0, uids: ['2001'] }));
  await send(base, 'render', searchBody('render', page, { at: t0 + 3000 }));
  await send(
    base,
    'clickthrough',
    searchBody('clickthrough', page, { at: t0 + 4000, uids: ['9999'] }),
  );
  const bad = searchBody('render', page, { at: t0 + 4500 });
  delete (bad.context as Record<string, unknown>).timestamp;
  await send(base, 'render', bad, 400);
  return page;
}

/** A page with a warning only: the same tile reported in two impressions of one response. */
export async function sendWarnPage(
  base: string,
  page: PageIds = newPage(),
  t0 = Date.now(),
): Promise<PageIds> {
  await send(base, 'render', searchBody('render', page, { at: t0 }));
  await send(
    base,
    'impression',
    searchBody('impression', page, { at: t0 + 1_100, uids: ['3001', '3002'] }),
  );
  await send(
    base,
    'impression',
    searchBody('impression', page, { at: t0 + 1_700, uids: ['3002', '3003'] }),
  );
  return page;
}

/** Several sessions of a few pages each, passing, warning and failing, as a busy storefront leaves them. */
export async function sendShoppingDay(base: string): Promise<void> {
  const queries = ['shirt', 'trail+runner', 'rain+jacket', 'socks', 'gift+card', 'backpack'];
  for (let s = 0; s < 3; s++) {
    const shopper = newPage();
    for (let p = 0; p < 3; p++) {
      const page = newPage({
        sessionId: shopper.sessionId,
        userId: shopper.userId,
        pageUrl: `https://shop.example.com/search?q=${queries[(s * 3 + p) % queries.length]}`,
      });
      if ((s + p) % 4 === 1) await sendWarnPage(base, page);
      else if (s === 2 && p === 2) await sendBadPage(base, page);
      else await sendGoodPage(base, page);
    }
  }
}

/**
 * Product pages of one production session (no context.dev: `dev-flag`, an info, on its first page), five
 * seconds apart: uids 7001, 7002, … each on page `${prefix}-${uid}`, of site `siteId`.
 */
export async function sendProductionSession(
  url: string,
  sessionId: string,
  pages: number,
  prefix = sessionId,
  siteId = SITE_ID,
): Promise<void> {
  const start = Date.now() - 60_000;
  for (let i = 0; i < pages; i++) {
    const uid = `${7001 + i}`;
    const res = await fetch(`${url}/beacon/v2/${siteId}/product/pageview`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({
        context: {
          timestamp: new Date(start + i * 5000).toISOString(),
          pageUrl: `https://shop.example/p/${uid}`,
          userId: 'prod-user',
          sessionId,
          pageLoadId: `${prefix}-${uid}`,
          initiator: 'search-sandbox/test',
        },
        data: { result: { uid, parentId: uid, sku: `S-${uid}` } },
      }),
    });
    if (res.status !== 200) throw new Error(`product/pageview ${uid}: ${res.status}`);
  }
}
