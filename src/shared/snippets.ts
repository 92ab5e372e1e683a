// Copy-paste snippets that point a storefront, a shell or a CI job at this sandbox. The five tracking
// curls share one session, page and responseId, so running them in order yields one passing page.
import { SEARCH_EVENTS, type SearchEventName } from './events';

export const DEMO_SITE_ID = 'demo42';
export const DEMO_SECRET_KEY = 'demo-secret-key';

export interface SnippetIds {
  userId: string;
  sessionId: string;
  pageLoadId: string;
  responseId: string;
  /** the redirect happens on its own page: a search whose response was a redirect renders no results */
  redirectPageLoadId: string;
  redirectResponseId: string;
  timestamp: string;
}

export function newSnippetIds(nowMs: number): SnippetIds {
  const id = () => crypto.randomUUID();
  return {
    userId: id(),
    sessionId: id(),
    pageLoadId: id(),
    responseId: id(),
    redirectPageLoadId: id(),
    redirectResponseId: id(),
    timestamp: new Date(Number.isFinite(nowMs) ? nowMs : Date.now()).toISOString(),
  };
}

const PRODUCTS = [
  { type: 'product', uid: '8128331907370', parentId: '8128331900000' },
  { type: 'product', uid: '8128021070122', parentId: '8128021070000' },
];

/**
 * When the provider's client creates each event after the search (ms): the render at once, impressions once
 * tiles have been visible for a second, a click and a quick add later; the redirect on its own page at once.
 */
export const CREATED_AFTER_MS: Record<SearchEventName, number> = {
  render: 0,
  impression: 1_200,
  clickthrough: 3_000,
  addtocart: 4_500,
  redirect: 0,
};

/** A valid beacon v2 body for one search event, as the provider's client would send it. */
export function beaconBody(
  event: SearchEventName,
  ids: SnippetIds,
  pageUrl = 'https://shop.example.com/search?q=shirt',
): unknown {
  const redirect = event === 'redirect';
  const start = Date.parse(ids.timestamp);
  const context = {
    timestamp: Number.isFinite(start)
      ? new Date(start + CREATED_AFTER_MS[event]).toISOString()
      : ids.timestamp,
    pageUrl: redirect ? 'https://shop.example.com/search?q=gift+card' : pageUrl,
    userId: ids.userId,
    sessionId: ids.sessionId,
    pageLoadId: redirect ? ids.redirectPageLoadId : ids.pageLoadId,
    initiator: 'search-sandbox/connect-snippet',
  };
  const responseId = redirect ? ids.redirectResponseId : ids.responseId;
  switch (event) {
    case 'render':
      return { context, data: { responseId } };
    case 'impression':
      return { context, data: { responseId, results: PRODUCTS, banners: [] } };
    case 'clickthrough':
      return { context, data: { responseId, results: [PRODUCTS[0]] } };
    case 'addtocart':
      return {
        context,
        data: {
          responseId,
          results: [{ uid: PRODUCTS[0]!.uid, parentId: PRODUCTS[0]!.parentId, qty: 1, price: 22 }],
        },
      };
    case 'redirect':
      return { context, data: { responseId, redirect: 'https://shop.example.com/gift-cards' } };
  }
}

/** Single-quote a value for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** curl for a beacon POST, sent as text/plain like the browser client does. */
export function beaconCurl(origin: string, path: string, body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return [
    `curl -X POST ${shellQuote(`${origin}${path}`)}`,
    `  -H 'Content-Type: text/plain;charset=UTF-8'`,
    `  --data-raw ${shellQuote(text)}`,
  ].join(' \\\n');
}

export function trackingCurls(
  origin: string,
  siteId: string,
  ids: SnippetIds,
): Array<{ event: SearchEventName; code: string }> {
  const order: SearchEventName[] = [
    'render',
    'impression',
    'clickthrough',
    'addtocart',
    'redirect',
  ];
  return order
    .filter((e) => (SEARCH_EVENTS as readonly string[]).includes(e))
    .map((event) => ({
      event,
      code: beaconCurl(origin, `/beacon/v2/${siteId}/search/${event}`, beaconBody(event, ids)),
    }));
}

export function beaconJsSnippet(origin: string, siteId: string): string {
  return `import { Beacon } from '@athoscommerce/beacon';

// Send this storefront's tracking events (and the client's personalization preflight) to the
// sandbox instead of the real service: every host the client calls is routed here.
const beacon = new Beacon(
  { siteId: '${siteId}' },
  {
    mode: 'development',
    requesters: {
      beacon: { origin: '${origin}/beacon/v2' },
      personalization: { origin: '${origin}' },
    },
  },
);`;
}

export function statusCurl(origin: string, siteId: string, secretKey: string): string {
  return `curl -u ${shellQuote(`${siteId}:${secretKey}`)} ${shellQuote(`${origin}/api/index/status`)}`;
}

export function uploadCurl(
  origin: string,
  siteId: string,
  secretKey: string,
  feedId: number,
): string {
  return [
    `curl -u ${shellQuote(`${siteId}:${secretKey}`)}`,
    `  -F 'feedFile=@products.csv'`,
    `  ${shellQuote(`${origin}/api/index/feed?feedId=${feedId}&requestedBy=you@example.com`)}`,
  ].join(' \\\n');
}

export function reindexCurl(
  origin: string,
  siteId: string,
  secretKey: string,
  feedId: number,
): string {
  return `curl -X PUT -u ${shellQuote(`${siteId}:${secretKey}`)} ${shellQuote(`${origin}/api/index/feed?feedId=${feedId}`)}`;
}

export function waitCurl(origin: string, siteId: string): string {
  return `curl ${shellQuote(`${origin}/_sandbox/wait?siteId=${siteId}&count=4&timeout=5000`)}`;
}

export function reportCurl(origin: string): string {
  return `curl -o beacon-report.xml ${shellQuote(`${origin}/_sandbox/report?format=junit`)}`;
}

/**
 * The provider's CDN install (`<script siteId=… src=…/beacon.js>`) pointed at the sandbox. beacon.js reads
 * only `siteId` and an `initiator` from its script tag, never an origin, so a development page swaps the
 * tracker the script created for one of the same class, configured as the npm client is above. Nothing is
 * sent before the swap: the CDN script only constructs its tracker.
 */
export function beaconCdnSnippet(origin: string, siteId: string): string {
  return `<script siteId="${siteId}" src="https://cdn.athoscommerce.net/analytics/beacon.js"></script>
<script>
  // development only: send the tracker's beacons to the sandbox instead of the real service
  (function () {
    var cdn = window.athos && window.athos.tracker;
    if (!cdn) return; // beacon.js did not load or did not initialize: its console says why
    window.athos.tracker = new cdn.constructor(
      { siteId: '${siteId}' },
      {
        mode: 'development',
        initiator: cdn.initiator,
        requesters: {
          beacon: { origin: '${origin}/beacon/v2' },
          personalization: { origin: '${origin}' },
        },
      },
    );
  })();
</script>`;
}
