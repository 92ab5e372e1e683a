// What rule tester cases are written with: the page builders of the timeline tests, a visit page that
// sends product, cart and order events, and issued search responses for the provenance rules.
import type { RecordedEvent } from '../../src/shared/events';
import type { ResponseKind } from '../../src/shared/kinds';
import type { Severity } from '../../src/shared/timeline';
import type { TimelineSettings } from '../../src/main/config';
import type { IssuedResponse } from '../../src/main/search/responses';
import { idsByPath, urlPath } from '../../src/main/search/product-paths';
import type { ProvenanceSource } from '../../src/main/tracking/timeline/rules/utils/provenance';
import { PageBuilder, T0, type EventOptions, type PageOptions } from '../unit/timeline-events';

export { PageBuilder, T0 };

/** What an invalid case expects of each finding of its rule (in order). */
export interface Expected {
  /** default: the rule's defaultSeverity */
  severity?: Severity;
  /** the message the rule reports (required when the rule declares several) */
  messageId?: string;
  /** values the finding's data holds (a subset) */
  data?: Record<string, string | number>;
  message?: string | RegExp;
  /** a substring of the finding's fix */
  fix?: string | RegExp;
  /** the events it names, as places in the case's traffic (0 = the first event) */
  events?: number[];
  responseId?: string;
  /** the page it sits on (default: any) */
  pageLoadId?: string;
  /** the behaviour of the client model it names (default: any) */
  behaviour?: string;
  /** the widget tag whose readiness row it counts on (null: none; default: any) */
  tag?: string | null;
  /**
   * the rule of the finding it follows from (its `causedBy`, causes.ts), or null when it leads (default:
   * either)
   */
  causedBy?: string | null;
}

export interface RuleCase {
  name: string;
  /** the traffic, in arrival order */
  events: () => RecordedEvent[];
  /** what the companion search API issued and the site's catalog */
  provenance?: SourceOptions;
  settings?: Partial<TimelineSettings>;
  /** judge live (the page not judged as finished): for rules that wait for the page's end */
  live?: boolean;
}

export interface InvalidCase extends RuleCase {
  findings: Expected[];
}

export interface RuleCases {
  valid: RuleCase[];
  invalid: InvalidCase[];
}

// ---- the visit ----

export type Line = { uid: string; parentId?: string; sku?: string; qty?: number; price?: number };
export const line = (l: Line) => ({
  uid: l.uid,
  parentId: l.parentId ?? l.uid,
  sku: l.sku ?? `sku-${l.uid}`,
  qty: l.qty ?? 1,
  price: l.price ?? 20,
});

/** A page of the visit that sends product, cart, order or login events. */
export class VisitPage extends PageBuilder {
  send(endpoint: string, data: Record<string, unknown>, o: EventOptions): RecordedEvent {
    const [category, event] = endpoint.split('/') as [string, string];
    return this.as(category as ResponseKind).event(event, data, o);
  }
  product(uid: string, o: EventOptions, parentId = uid) {
    return this.send('product/pageview', { result: { uid, parentId, sku: `sku-${uid}` } }, o);
  }
  cartAdd(results: Line[], cart: Line[], o: EventOptions) {
    return this.send('cart/add', { results: results.map(line), cart: cart.map(line) }, o);
  }
  cartRemove(results: Line[], cart: Line[], o: EventOptions) {
    return this.send('cart/remove', { results: results.map(line), cart: cart.map(line) }, o);
  }
  login(shopperId: string, o: EventOptions) {
    return this.send('shopper/login', {}, { ...o, context: { ...o.context, shopperId } });
  }
  order(
    orderId: string,
    lines: Line[],
    o: EventOptions,
    totals: { tt?: number; total?: number; vat?: number } = {},
  ) {
    const sum = lines.map(line).reduce((s, l) => s + l.qty * l.price, 0);
    return this.send(
      'order/transaction',
      {
        orderId,
        transactionTotal: totals.tt ?? sum,
        total: totals.total ?? sum,
        ...(totals.vat !== undefined && { vat: totals.vat }),
        city: 'Oslo',
        country: 'NO',
        results: lines.map(line),
      },
      o,
    );
  }
}

export const visitPage = (pageLoadId: string, o: PageOptions = {}) =>
  new VisitPage({ pageLoadId, pageUrl: `http://localhost:3000/${pageLoadId}`, ...o });

// ---- issued responses ----

const EMPTY_SLOTS = { header: [], banner: [], footer: [], left: [] };

export function issued(over: Partial<IssuedResponse> & { responseId: string }): IssuedResponse {
  return {
    siteId: 'demo42',
    query: 'shoes',
    page: 1,
    perPage: 24,
    issuedAt: T0 - 1000,
    results: [],
    inline: [],
    slots: EMPTY_SLOTS,
    redirect: null,
    test: true,
    ...over,
  };
}

/** r1: three results (P200 with variants 2001, 2002), an inline banner, a header banner. */
export const R1 = issued({
  responseId: 'r1',
  results: [
    {
      uid: 'P200',
      sku: 'P200',
      parentId: 'P200',
      children: [
        { uid: '2001', sku: 'P200-RED-M' },
        { uid: '2002', sku: 'P200-RED-L' },
      ],
    },
    { uid: 'P201', sku: 'P201', parentId: 'P201', children: [] },
    { uid: 'P202', sku: 'P202', parentId: 'P202', children: [] },
  ],
  inline: [{ uid: 'rain-inline', index: 1 }],
  slots: { header: ['rain-header'], banner: [], footer: [], left: [] },
});
/** r2: page 2 of the same search. */
export const R2 = issued({
  responseId: 'r2',
  page: 2,
  issuedAt: T0 + 3000,
  results: [{ uid: 'P210', sku: 'P210', parentId: 'P210', children: [] }],
});
/** r3: a redirect. */
export const R3 = issued({ responseId: 'r3', query: 'gift card', redirect: '/pages/gift-cards' });
/** r4: requested without test=true. */
export const R4 = issued({
  responseId: 'r4',
  test: false,
  results: [{ uid: 'P202', sku: 'P202', parentId: 'P202', children: [] }],
});
/** r0: no results. */
export const R0 = issued({ responseId: 'r0', query: 'nothing' });

export interface SourceOptions {
  companion?: boolean;
  catalogCheck?: boolean;
  responses?: IssuedResponse[];
  catalog?: {
    ids: string[];
    skus?: Record<string, string>;
    parents?: Record<string, string>;
    /** product URLs by uid, as the feed's url column gives them */
    urls?: Record<string, string>;
    /** product prices by uid */
    prices?: Record<string, number>;
  };
  /** the widget tags the companion recommend API serves */
  recommendationTags?: string[];
}

/** the kit catalog's ids by URL path, as the search service indexes a feed */
function pathsOf(c: NonNullable<SourceOptions['catalog']>) {
  return idsByPath(
    Object.entries(c.urls ?? {}).map(([uid, url]) => ({
      uid,
      parentId: c.parents?.[uid] ?? null,
      url,
    })),
  );
}

export function source(o: SourceOptions = {}): ProvenanceSource {
  const all = o.responses ?? [R1, R2, R3, R4, R0];
  return {
    site: (siteId) =>
      siteId === 'demo42'
        ? {
            companion: o.companion ?? true,
            catalogCheck: o.catalogCheck ?? true,
            ...(o.recommendationTags && { recommendationTags: o.recommendationTags }),
          }
        : undefined,
    issued: (siteId, id) => all.find((r) => r.responseId === id && r.siteId === siteId),
    siteOf: (id) => all.find((r) => r.responseId === id)?.siteId,
    issuedTo: (siteId, pageLoadId) =>
      all.filter((r) => r.siteId === siteId && r.requester?.pageLoadId === pageLoadId),
    redirectsTo: (siteId, sessionId) =>
      all.filter(
        (r) => r.siteId === siteId && r.redirect !== null && r.requester?.sessionId === sessionId,
      ),
    rememberedSince: () => T0 - 60_000,
    recent: () => [...all].reverse(),
    catalog: () =>
      o.catalog
        ? {
            has: (id) => o.catalog!.ids.includes(id),
            uidOfSku: (sku) => o.catalog!.skus?.[sku],
            parentOf: (uid) => o.catalog!.parents?.[uid],
            priceOf: (uid) => o.catalog!.prices?.[uid],
            idsAt: (pageUrl) => {
              const path = urlPath(pageUrl);
              return path === undefined ? undefined : pathsOf(o.catalog!).get(path);
            },
          }
        : undefined,
  };
}

/**
 * A page that renders `responseId` (r1) and quick-adds `uid` at `price` 3 s later, as the controller of
 * `kind` (search; a recommendations widget with the tag "similar") sends it.
 */
export const quickAddAt = (
  uid: string,
  price: number,
  o: { kind?: ResponseKind; responseId?: string; parentId?: string } = {},
) => {
  const kind = o.kind ?? 'search';
  const responseId = o.responseId ?? 'r1';
  const p = new PageBuilder().as(kind, kind === 'recommendations' ? 'similar' : '');
  return [
    p.render(responseId, { at: 0 }),
    p.event(
      'addtocart',
      { responseId, results: [{ parentId: o.parentId ?? uid, uid, sku: uid, qty: 1, price }] },
      { at: 3000 },
    ),
  ];
};

/** A product result as the provider's client reports it. */
export const product = (uid: string, parentId: string = uid) => ({
  type: 'product',
  uid,
  parentId,
});

/**
 * Page 1 and page 2 of one search as page-1 asked for them: together on load (an infinite-scroll backfill)
 * or 5 s apart (a page fetched by scrolling), and the page's traffic: page 1 rendered and impressed, page 2
 * impressed only.
 */
export const INFINITE = (() => {
  const asked = { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' };
  const P1 = issued({
    responseId: 'p1',
    query: 'shirt',
    issuedAt: T0 - 6000,
    results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
    requester: asked,
  });
  const pageTwo = (issuedAt: number) =>
    issued({
      responseId: 'p2',
      query: 'shirt',
      page: 2,
      issuedAt,
      results: [{ uid: 'P210', sku: 'P210', parentId: 'P210', children: [] }],
      requester: asked,
    });
  return {
    together: [P1, pageTwo(T0 - 5700)],
    scrolled: [P1, pageTwo(T0 - 1000)],
    traffic: () => {
      const p = new PageBuilder();
      return [
        p.render('p1', { at: -5500 }),
        p.impression('p1', ['P200'], { at: -4300 }),
        p.impression('p2', ['P210'], { at: 200 }),
      ];
    },
  };
})();

/**
 * One search's page 1 (r1: P100–P103) and page 2 (r2: P104, P105) on one page load, the URL gaining
 * `&page=2` with page 2: infinite scroll appends page 2's tiles to page 1's, an SPA's pagination replaces
 * them. `traffic(after)`: r1 rendered and impressed, r2 rendered 4 s in, then `after` (from the page-2 URL).
 */
export const PAGED = (() => {
  const results = (uids: string[]) =>
    uids.map((uid) => ({ uid, sku: uid, parentId: uid, children: [] }));
  const r1 = issued({ responseId: 'r1', results: results(['P100', 'P101', 'P102', 'P103']) });
  const r2 = issued({
    responseId: 'r2',
    page: 2,
    issuedAt: T0 + 3500,
    results: results(['P104', 'P105']),
  });
  return {
    responses: [r1, r2],
    traffic: (after: (p: PageBuilder) => RecordedEvent[]) => () => {
      const p = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shoes' });
      const q = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=shoes&page=2' });
      return [
        p.render('r1', { at: 0 }),
        p.impression('r1', ['P100', 'P101', 'P102', 'P103'], { at: 1200 }),
        q.render('r2', { at: 4000 }),
        ...after(q),
      ];
    },
  };
})();

/** Page `p` renders r1 and impresses tile `a` at 1.2 s, an impression the service rejected with `error`. */
export function rejectedImpression(error: string, p = new PageBuilder()): RecordedEvent[] {
  return [
    p.render('r1', { at: 0 }),
    p.impression('r1', ['a'], { at: 1200, accepted: false, errors: [error] }),
  ];
}

/**
 * A quick add of a tile without a parent (stored by the client as sent, `parentId: ''`), then a cart page
 * whose globals list it: the client's comparison (keyed by parentId, uid and sku) sends cart/add of it as the
 * globals map it and cart/remove of it as stored, in that order unless `removeFirst`.
 */
export function quickAddThenGlobals(removeFirst = false): RecordedEvent[] {
  const cart = visitPage('cart');
  const [add, remove] = [
    cart.cartAdd([{ uid: 'M1' }], [{ uid: 'M1' }], { at: removeFirst ? 20_001 : 20_000 }),
    cart.cartRemove([{ uid: 'M1', parentId: '' }], [{ uid: 'M1' }], {
      at: removeFirst ? 20_000 : 20_001,
    }),
  ];
  return [
    visitPage('category').cart('r1', 'M1', { at: 0 }, ''),
    ...(removeFirst ? [remove, add] : [add, remove]),
  ];
}

/**
 * A category page whose SPA filters the same listing in the hash (`#/filter:color:Blue`) and sends the
 * filtered response's events without its render: a new search, not infinite scroll's backfill.
 */
export function spaFilterWithoutRender(): RecordedEvent[] {
  const p = new PageBuilder({ pageUrl: 'http://localhost:3000/collections/mugs' }).as('category');
  const blue = {
    context: { pageUrl: 'http://localhost:3000/collections/mugs#/filter:color:Blue' },
  };
  return [
    p.render('r1', { at: 0 }),
    p.impression('r1', ['a'], { at: 1200 }),
    p.impression('r1-blue', ['b'], { at: 9000, ...blue }),
    p.click('r1-blue', 'b', { at: 11_000, ...blue }),
  ];
}

/**
 * "shirt" searched on an earlier page load (its response rA rendered and impressed at 0), then again on
 * page load `page-2` of the same session (rB rendered `gap` ms later and impressed), where `after` sends
 * events of rA, an earlier search's responseId, from `gap` + 1 s on: the sandbox issued neither. Both pages
 * run in production (the client's cache on) unless `dev`. `after` of a page load whose events are all on
 * page-2: rA first seen there.
 */
export const CARRIED = (o: {
  dev?: boolean;
  gap?: number;
  /** rA never seen on the earlier page load */
  fresh?: boolean;
  after: (p: PageBuilder, at: number) => RecordedEvent[];
}) => {
  const url = 'http://localhost:3000/search?q=shirt';
  const dev = o.dev ?? false;
  const earlier = new PageBuilder({ pageLoadId: 'earlier', pageUrl: url, dev });
  const page = new PageBuilder({ pageLoadId: 'page-2', pageUrl: url, dev });
  const gap = o.gap ?? 20_000;
  return () => [
    ...(o.fresh
      ? []
      : [earlier.render('rA', { at: 0 }), earlier.impression('rA', ['P100'], { at: 1200 })]),
    page.render('rB', { at: gap - 2000 }),
    page.impression('rB', ['P200'], { at: gap - 800 }),
    ...o.after(page, gap + 1000),
  ];
};
