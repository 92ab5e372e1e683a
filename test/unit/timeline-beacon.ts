// Drives the provider's own client (@athoscommerce/beacon) through a shopper's visit and captures what it
// puts on the wire (debounce, merged impressions and addtocarts, immediate clicks and redirects), as HAR.
import { Beacon } from '@athoscommerce/beacon';

export interface Captured {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** when the client handed the request to fetch (its Date: fake in tests) */
  at: Date;
}

/** the provider's beacon host, as a storefront talking to the real service records it */
export const BEACON_ORIGIN = 'https://analytics.searchspring.net/beacon/v2';

/** A fetch that records instead of sending, answering like the real service. */
export function capturingFetch(into: Captured[]) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    into.push({
      url: String(input),
      method: init.method ?? 'GET',
      headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>)),
      body: typeof init.body === 'string' ? init.body : '',
      at: new Date(),
    });
    return new Response('{"success":true}', {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
}

const product = (uid: string) => ({
  type: 'product' as const,
  uid,
  parentId: uid,
  sku: `SKU-${uid}`,
});

/**
 * A visit: a search page scrolled (impressions merged per flush), a quick add and a click sent while
 * impressions are still queued, two more searches on the same SPA page (one an infinite-scroll next
 * page), a return to the first search (its cached response in production; in development, where the
 * client's cache is off, a new request with a new responseId), then a redirecting search on a new page.
 * `advance` lets time pass (fake timers in tests, real time in the fixture generator).
 */
export async function shopperVisit(
  fetchApi: ReturnType<typeof capturingFetch>,
  advance: (ms: number) => Promise<void>,
  options: { mode?: 'production' | 'development'; siteId?: string; origin?: string } = {},
): Promise<void> {
  const config = (href: string) => ({
    mode: options.mode ?? 'development',
    href,
    apis: { fetch: fetchApi as unknown as typeof fetch },
    requesters: {
      beacon: { origin: options.origin ?? BEACON_ORIGIN },
      personalization: { origin: 'https://demo42.a.searchspring.io' },
    },
  });
  const siteId = options.siteId ?? 'demo42';
  const search = new Beacon({ siteId }, config('http://localhost:3000/search?q=shoes'));
  const r1 = 'a9071d8e-0c5f-4a55-9f2e-3d1c2b7f0001';
  const r2 = 'a9071d8e-0c5f-4a55-9f2e-3d1c2b7f0002';
  const r3 = 'a9071d8e-0c5f-4a55-9f2e-3d1c2b7f0003';
  const back =
    (options.mode ?? 'development') === 'production' ? r1 : 'a9071d8e-0c5f-4a55-9f2e-3d1c2b7f0005';

  search.events.search.render({ data: { responseId: r1 } });
  // the client impresses a tile once it has been visible for a second
  await advance(1040);
  for (const uid of ['1', '2', '3', '4'])
    search.events.search.impression({
      data: { responseId: r1, results: [product(uid)], banners: [] },
    });
  search.events.search.impression({
    data: { responseId: r1, results: [], banners: [{ uid: '81001' }] },
  });
  await advance(1200);
  // scrolling: tiles come into view one after another
  search.events.search.impression({
    data: { responseId: r1, results: [product('5'), product('6')], banners: [] },
  });
  await advance(150);
  search.events.search.impression({
    data: { responseId: r1, results: [product('7')], banners: [] },
  });
  await advance(120);
  search.events.search.addToCart({
    data: {
      responseId: r1,
      results: [{ parentId: '6', uid: '6-red', sku: 'SKU-6-red', qty: 1, price: 24.5 }],
    },
  });
  await advance(90);
  // the click goes out at once, before the queued impression of uid 7 and the addtocart
  search.events.search.clickThrough({ data: { responseId: r1, results: [product('7')] } });
  await advance(1000);

  // a new search on the same page (SPA), then its next page (infinite scroll), then back to the first
  search.updateContext('pageUrl', 'http://localhost:3000/search?q=boots');
  search.events.search.render({ data: { responseId: r2 } });
  await advance(1030);
  for (const uid of ['11', '12', '13'])
    search.events.search.impression({
      data: { responseId: r2, results: [product(uid)], banners: [] },
    });
  await advance(2000);
  search.events.search.render({ data: { responseId: r3 } });
  await advance(1030);
  search.events.search.impression({
    data: { responseId: r3, results: [product('14'), product('15')], banners: [] },
  });
  await advance(500);
  search.events.search.clickThrough({ data: { responseId: r3, results: [product('15')] } });
  await advance(2000);
  search.updateContext('pageUrl', 'http://localhost:3000/search?q=shoes');
  search.events.search.render({ data: { responseId: back } });
  await advance(1030);
  search.events.search.impression({
    data: { responseId: back, results: [product('1'), product('2')], banners: [] },
  });
  await advance(1000);

  // a term submitted from the dropdown redirects, on a new page: its impression and quick add still queued when
  // the redirect goes out (a merchandising redirect of a search sends no render: the dropdown's does)
  const sale = new Beacon({ siteId }, config('http://localhost:3000/search?q=sale'));
  const r4 = 'a9071d8e-0c5f-4a55-9f2e-3d1c2b7f0004';
  sale.events.autocomplete.render({ data: { responseId: r4 } });
  await advance(1020);
  sale.events.autocomplete.impression({
    data: { responseId: r4, results: [product('21')], banners: [] },
  });
  await advance(20);
  sale.events.autocomplete.addToCart({
    data: {
      responseId: r4,
      results: [{ parentId: '21', uid: '21', sku: 'SKU-21', qty: 2, price: 5 }],
    },
  });
  await advance(50);
  sale.events.autocomplete.redirect({
    data: { responseId: r4, redirect: 'http://localhost:3000/sale' },
  });
  await advance(1000);
}

/** Captured requests as a DevTools "Save all as HAR" file, plus the page's other traffic. */
export function toHar(captured: Captured[]): object {
  const entries = captured.map((c) => ({
    startedDateTime: c.at.toISOString(),
    time: 12,
    request: {
      method: c.method,
      url: c.url,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(c.headers).map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: c.body.length,
      postData: { mimeType: c.headers['Content-Type'] ?? 'text/plain', text: c.body },
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      cookies: [],
      content: { size: 16, mimeType: 'application/json', text: '{"success":true}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 16,
    },
    cache: {},
    timings: { send: 1, wait: 10, receive: 1 },
  }));
  const page = {
    startedDateTime: captured[0]?.at.toISOString() ?? new Date(0).toISOString(),
    time: 5,
    request: {
      method: 'GET',
      url: 'http://localhost:3000/search?q=shoes',
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: 5, mimeType: 'text/html', text: '<html></html>' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 5,
    },
    cache: {},
    timings: { send: 1, wait: 3, receive: 1 },
  };
  return {
    log: {
      version: '1.2',
      creator: { name: 'search-sandbox test', version: '1' },
      pages: [],
      entries: [page, ...entries],
    },
  };
}
