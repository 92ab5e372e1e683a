// The corpus' whole-visit journeys: a shopper's search, product page, cart and thank-you page, driven
// through the provider's own beacon library (@athoscommerce/beacon) in Node against the harness sandbox.
// The snap tracker's cart bookkeeping (compare the page's cart globals with the stored cart, send the
// difference in `results` and the whole cart in `cart`) is modelled here from the client's source (the rest
// of the visit), since it lives in the tracker, not in the beacon library; every request is sent by it.
import { Beacon } from '@athoscommerce/beacon';
import type { Sandbox } from '../../src/main/sandbox';

export interface VisitHarness {
  sandbox: Sandbox;
}

type Item = { uid: string; parentId: string; sku?: string; qty: number; price: number };
const tile = (uid: string, parentId = uid) => ({
  type: 'product' as const,
  uid,
  parentId,
  sku: `S-${uid}`,
});
const item = (uid: string, parentId: string, qty: number, price: number): Item => ({
  uid,
  parentId,
  sku: `S-${uid}`,
  qty,
  price,
});

/** Requests sent in the current journey by all its shoppers (the sandbox is reset before each). */
const journey = { sent: 0 };

/** One shopper's browser: the beacon library plus the tracker's stored cart. */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The client impresses a tile once it has been visible for a second (its IntersectionObserver and 1 s timer). */
const visible = () => pause(1_050);

class Shopper {
  readonly beacon: Beacon;
  private stored: Item[] = [];
  private get sent(): number {
    return journey.sent;
  }
  private set sent(n: number) {
    journey.sent = n;
  }

  /** development mode: searches carry test=true, as the client's search client adds it */
  private readonly dev: boolean;
  /** the inline banners of each response the companion answered, by their index among the tiles */
  private readonly inline = new Map<string, Array<{ uid: string; index: number }>>();
  /** the page's shopper.id once logged in: every later page load logs it in again */
  private shopperId = '';

  constructor(
    private readonly h: VisitHarness,
    opts: { mode?: 'development' | 'production'; href?: string } = {},
  ) {
    this.dev = (opts.mode ?? 'development') === 'development';
    this.beacon = new Beacon(
      { siteId: 'demo42' },
      {
        mode: opts.mode ?? 'development',
        href: opts.href ?? 'http://localhost:5173/',
        requesters: {
          beacon: { origin: `${h.sandbox.url}/beacon/v2` },
          personalization: { origin: h.sandbox.url },
        },
      },
    );
  }

  /** A new page load: a new pageLoadId and URL, as the storefront's next page gets. */
  open(url: string): this {
    this.beacon.updateContext('pageUrl', url);
    this.beacon.pageLoad();
    // Snap logs the context's shopper in on every page load (Snap.tsx); B queues it though the id is stored
    if (this.shopperId) {
      this.beacon.events.shopper.login({ data: { id: this.shopperId } });
      this.sent++;
    }
    return this;
  }

  /** Wait until everything sent so far (the 300 ms queue included) was recorded. */
  async settle(): Promise<void> {
    const r = await this.h.sandbox.core.events.waitFor({ siteId: 'demo42' }, this.sent, 10_000);
    if (!r.done) throw new Error(`waited for ${this.sent} events, saw ${r.events.length}`);
  }

  async search(responseId: string, uids: string[], click?: string): Promise<void> {
    this.beacon.events.search.render({ data: { responseId } });
    await visible();
    this.beacon.events.search.impression({
      data: { responseId, results: this.tiles(responseId, uids), banners: [] },
    });
    this.sent += 2;
    await this.settle();
    if (click) {
      this.beacon.events.search.clickThrough({ data: { responseId, results: [tile(click)] } });
      this.sent++;
      await this.settle();
    }
  }

  /** A list that pages or scrolls: page 1 and page 2, each rendered and impressed with its own responseId. */
  async twoPages(r1: string, page1: string[], r2: string, page2: string[]): Promise<void> {
    for (const [responseId, uids] of [
      [r1, page1],
      [r2, page2],
    ] as const) {
      this.beacon.events.search.render({ data: { responseId } });
      await visible();
      this.beacon.events.search.impression({
        data: { responseId, results: this.tiles(responseId, uids), banners: [] },
      });
      this.sent += 2;
      await this.settle();
    }
  }

  /**
   * The tiles an impression names: the products seen, and the inline banners placed between them (the
   * client places them among the tiles at their index and impresses them like tiles).
   */
  private tiles(responseId: string, uids: readonly string[]) {
    const items: Array<ReturnType<typeof tile> | { type: 'banner'; uid: string }> = uids.map((u) =>
      tile(u),
    );
    for (const b of this.inline.get(responseId) ?? [])
      if (b.index > 0 && b.index < uids.length) items.push({ type: 'banner', uid: b.uid });
    return items;
  }

  /** A clickthrough of `uid` carrying `responseId`, sent at once. */
  click(responseId: string, uid: string): void {
    this.beacon.events.search.clickThrough({ data: { responseId, results: [tile(uid)] } });
    this.sent++;
  }

  /** A quick add from a listing: addtocart only (the tracker adds it to its stored cart, no cart/add). */
  async quickAdd(responseId: string, uid: string, price: number): Promise<void> {
    this.beacon.events.search.addToCart({
      data: { responseId, results: [{ ...tile(uid), qty: 1, price }] },
    });
    this.stored.push(item(uid, uid, 1, price));
    this.sent++;
    await this.settle();
  }

  async recommendationClick(tag: string, responseId: string, uid: string): Promise<void> {
    this.beacon.events.recommendations.render({ data: { tag, responseId } });
    await visible();
    this.beacon.events.recommendations.impression({
      data: { tag, responseId, results: [tile(uid)], banners: [] },
    });
    this.sent += 2;
    await this.settle();
    this.beacon.events.recommendations.clickThrough({
      data: { tag, responseId, results: [tile(uid)] },
    });
    this.sent++;
    await this.settle();
  }

  async productPage(uid: string, parentId = uid): Promise<void> {
    this.beacon.events.product.pageView({ data: { result: { uid, parentId, sku: `S-${uid}` } } });
    this.sent++;
    await this.settle();
  }

  /** The tracker on a page load with these cart globals: cart/add of what grew, cart/remove of what shrank. */
  async cartGlobals(globals: Item[]): Promise<void> {
    const key = (i: Item) => i.uid;
    const before = new Map(this.stored.map((i) => [key(i), i]));
    const after = new Map(globals.map((i) => [key(i), i]));
    const added: Item[] = [];
    const removed: Item[] = [];
    for (const g of globals) {
      const was = before.get(key(g))?.qty ?? 0;
      if (g.qty > was) added.push({ ...g, qty: g.qty - was });
    }
    for (const s of this.stored) {
      const now = after.get(key(s))?.qty ?? 0;
      if (now < s.qty) removed.push({ ...s, qty: s.qty - now });
    }
    if (added.length) {
      this.beacon.events.cart.add({ data: { results: added, cart: globals } });
      this.sent++;
    }
    if (removed.length) {
      this.beacon.events.cart.remove({ data: { results: removed, cart: globals } });
      this.sent++;
    }
    this.stored = globals.map((g) => ({ ...g }));
    await this.settle();
  }

  async order(
    orderId: string,
    lines: Item[],
    totals: { transactionTotal?: number; total?: number; vat?: number } = {},
  ): Promise<void> {
    const sum = lines.reduce((s, l) => s + l.qty * l.price, 0);
    this.beacon.events.order.transaction({
      data: {
        orderId,
        transactionTotal: totals.transactionTotal ?? sum,
        total: totals.total ?? sum,
        ...(totals.vat !== undefined && { vat: totals.vat }),
        city: 'Springfield',
        country: 'US',
        results: lines,
      },
    });
    this.stored = [];
    this.sent++;
    await this.settle();
  }

  /** The thank-you page: its cart globals are empty already (cart/remove of the stored items), then the order. */
  async thankYou(
    orderId: string,
    lines: Item[],
    totals: { transactionTotal?: number; total?: number; vat?: number } = {},
  ): Promise<void> {
    this.open('http://localhost:5173/checkout/thanks');
    await this.cartGlobals([]);
    await this.order(orderId, lines, totals);
  }

  /** Another shopper identity on the same session (an integration that passes the sessionId only). */
  async sameSessionAs(other: Shopper): Promise<void> {
    this.beacon.updateContext('sessionId', other.beacon.getSessionId());
  }

  /** Search the companion API as the Snap client does (beacon=true, test=true): its responseId, tiles and banner ids. */
  async companion(
    q: string,
    page = 1,
  ): Promise<{ responseId: string; uids: string[]; banners: string[] }> {
    const res = await fetch(
      `${this.h.sandbox.url}/api/search/search.json?siteId=demo42&q=${encodeURIComponent(q)}&page=${page}&beacon=true${this.dev ? '&test=true' : ''}`,
    );
    const body = (await res.json()) as {
      responseId: string;
      results: Array<{ uid: string }>;
      merchandising: {
        content: Record<string, string[]> & {
          inline?: Array<{ value: string; config: { position: { index: number } } }>;
        };
      };
    };
    const { inline = [], ...slots } = body.merchandising.content ?? {};
    this.inline.set(
      body.responseId,
      inline.map((b) => ({
        uid: /data-banner-id="(\d+)"/.exec(b.value)?.[1] ?? `ss-ib-${b.config.position.index}`,
        index: b.config.position.index,
      })),
    );
    const banners = Object.values(slots)
      .flat()
      .map((html) => /data-banner-id="(\d+)"/.exec(html)?.[1])
      .filter((id): id is string => id !== undefined);
    return { responseId: body.responseId, uids: body.results.map((r) => r.uid), banners };
  }

  /** What the storefront sends, queued or at once, counted so settle() waits for it. */
  sent1(): void {
    this.sent++;
  }

  login(shopperId: string): void {
    this.beacon.setShopperId(shopperId);
    this.shopperId = shopperId;
    this.sent++;
  }
}

const JACKET = item('1030', 'P103', 1, 80);

/** search jacket → click P103 → product page of its variant 1030 → cart → thank-you page */
async function toCheckout(s: Shopper): Promise<void> {
  s.open('http://localhost:5173/search?q=jacket');
  await s.search('visit-r1', ['P103', 'P104', 'P105'], 'P103');
  s.open('http://localhost:5173/product/1030');
  await s.productPage('1030', 'P103');
  s.open('http://localhost:5173/cart');
  await s.cartGlobals([JACKET]);
}

const SCRIPTS: Record<string, (h: VisitHarness) => Promise<void>> = {
  'visit-search-order': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    await s.thankYou('A-1001', [JACKET], { transactionTotal: 80, total: 91.6 });
  },
  'visit-quick-add-variant': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    await s.search('visit-r2', ['P103', 'P104']);
    await s.quickAdd('visit-r2', 'P103', 80);
    // the cart page lists the variant the quick add resolved to: cart/add of 1030, cart/remove of P103
    s.open('http://localhost:5173/cart');
    await s.cartGlobals([JACKET]);
    await s.thankYou('A-1002', [JACKET]);
  },
  'visit-login-discount': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    s.open('http://localhost:5173/account/login');
    s.login('shopper-77');
    await s.settle();
    // a 10% discount: total below transactionTotal
    await s.thankYou('A-1003', [JACKET], { transactionTotal: 80, total: 72 });
  },
  'visit-recommendation-order': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/product/P200');
    await s.productPage('P200');
    // the page's widget, served by the sandbox's recommend API (a development build: test=true)
    const res = await fetch(`${h.sandbox.url}/v1/recommend`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({
        siteId: 'demo42',
        profiles: [{ tag: 'similar' }],
        products: ['P200'],
        test: true,
      }),
    });
    const [widget] = (await res.json()) as Array<{ responseId: string; results: { id: string }[] }>;
    if (!widget?.results.some((r) => r.id === '3003'))
      throw new Error(`the similar widget did not serve 3003: ${JSON.stringify(widget)}`);
    await s.recommendationClick('similar', widget.responseId, '3003');
    s.open('http://localhost:5173/product/3003');
    await s.productPage('3003');
    const mug = item('3003', '3003', 1, 14);
    await s.cartGlobals([mug]);
    await s.thankYou('A-1004', [mug]);
  },
  'visit-cart-change': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    const two = { ...JACKET, qty: 2 };
    await s.cartGlobals([two]);
    await s.cartGlobals([JACKET]);
    await s.thankYou('A-1005', [JACKET]);
  },
  // faults
  'order-no-id': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the thank-you page never set order.id: the client sends String(order.id || '')
    await s.thankYou('', [JACKET]);
  },
  'order-reload': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    await s.thankYou('A-2001', [JACKET]);
    // a reload within 10 s (the page takes a moment to load again): the client reuses the pageLoadId for
    // the same URL and sends the order again
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await s.order('A-2001', [JACKET]);
  },
  'order-revisit': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    await s.thankYou('A-2002', [JACKET]);
    // the shopper opens the thank-you page again later (from the order e-mail): a new page, the same order
    s.open('http://localhost:5173/checkout/thanks?from=email');
    await s.order('A-2002', [JACKET]);
  },
  'order-total-cents': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    await s.thankYou('A-2003', [JACKET], { transactionTotal: 8000, total: 9160 });
  },
  'order-total-missing': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // order.transactionTotal and order.total never set: the client sends Number(… || 0)
    await s.thankYou('A-2004', [JACKET], { transactionTotal: 0, total: 0 });
  },
  'checkout-new-user': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the checkout runs with a fresh tracker that was handed the sessionId but not the userId
    const checkout = new Shopper(h);
    await checkout.sameSessionAs(s);
    await checkout.thankYou('A-2005', [JACKET]);
  },
  'thankyou-production': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the thank-you page's tracker is created in production mode while the rest of the shop is not
    const thanks = new Shopper(h, { mode: 'production' });
    await thanks.sameSessionAs(s);
    thanks.beacon.updateContext('userId', s.beacon.getUserId());
    await thanks.thankYou('A-2006', [JACKET]);
  },
  // the classes the checks missed (issue #41): the same request shapes, with values, rhythm or responseIds
  // the provider's client never produces
  'checkout-passed-ids': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // a checkout on another domain, given both the userId and the sessionId (the integration done right)
    const checkout = new Shopper(h);
    await checkout.sameSessionAs(s);
    checkout.beacon.updateContext('userId', s.beacon.getUserId());
    await checkout.thankYou('A-3010', [JACKET]);
  },
  'checkout-empty-user': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // a checkout that sends its order with its own code and identity, and has no userId for this shopper
    // (the provider's library never sends an empty one: it makes a new id instead)
    const res = await fetch(`${h.sandbox.url}/beacon/v2/demo42/order/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({
        context: {
          timestamp: new Date().toISOString(),
          pageUrl: 'https://checkout.example.com/thanks',
          userId: '',
          sessionId: s.beacon.getSessionId(),
          pageLoadId: 'checkout-thanks-1',
          initiator: 'checkout/1.0',
          dev: true,
        },
        data: {
          orderId: 'A-3011',
          transactionTotal: 80,
          total: 80,
          results: [JACKET],
        },
      }),
    });
    if (res.status !== 200) throw new Error(`order answered ${res.status}: ${await res.text()}`);
    journey.sent++;
    await s.settle();
  },
  'order-sale-and-gift': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the jacket 20% off at checkout, and a free gift (price 0) added by the order script
    const gift = item('GIFT', 'GIFT', 1, 0);
    await s.thankYou('A-3000', [{ ...JACKET, price: 64 }, gift], {
      transactionTotal: 64,
      total: 64,
      vat: 0.2,
    });
  },
  'order-vat-percent': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // a direct beacon call that sends vat as a percentage
    await s.thankYou('A-3001', [JACKET], { vat: 20 });
  },
  'order-qty-zero': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the order script counts a line as 0 units (a quantity field read before it was filled in)
    await s.thankYou('A-3002', [{ ...JACKET, qty: 0 }], { transactionTotal: 80, total: 80 });
  },
  'order-line-cents': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the order script sends line prices in cents, the cart globals in units; the totals in units
    await s.thankYou('A-3003', [{ ...JACKET, price: 8000 }], { transactionTotal: 80, total: 80 });
  },
  'click-sent-twice': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    await s.search('rhythm-r1', ['P103', 'P104']);
    // a click handler on the tile and another on its link: each click sent twice
    s.click('rhythm-r1', 'P103');
    s.click('rhythm-r1', 'P103');
    await s.settle();
  },
  'click-again-later': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    await s.search('rhythm-r2', ['P103', 'P104']);
    s.click('rhythm-r2', 'P103');
    await s.settle();
    // the shopper opened the product in a new tab and clicked the same tile again later
    await pause(1200);
    s.click('rhythm-r2', 'P103');
    await s.settle();
  },
  'paged-click-own-id': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=sock');
    await s.twoPages('paging-r1', ['S1', 'S2'], 'paging-r2', ['S3', 'S4']);
    s.click('paging-r2', 'S3');
    await s.settle();
  },
  'paged-click-first-id': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=sock');
    await s.twoPages('paging-r3', ['S1', 'S2'], 'paging-r4', ['S3', 'S4']);
    // page 2's tile clicked with page 1's responseId (tracking data taken from the list's first search)
    s.click('paging-r3', 'S3');
    await s.settle();
  },
  'cart-stale': async (h) => {
    const s = new Shopper(h);
    await toCheckout(s);
    // the storefront sends cart/add before its cart state updated: the cart it sends lacks the new item
    const socks = item('SOCK', 'SOCK', 2, 5);
    s.beacon.events.cart.add({ data: { results: [socks], cart: [JACKET] } });
    journey.sent++;
    await s.settle();
    await s.thankYou('A-2007', [JACKET, socks]);
  },
};

/** Wait `ms` of real time (the client's timers and queue run on it). */

/** Journeys of whole-page faults (issue #22): the provider's beacon library in Node, companion search. */
const PAGE_SCRIPTS: Record<string, (h: VisitHarness) => Promise<void>> = {
  'spa-research-done-right': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    await s.search(a.responseId, a.uids.slice(0, 4));
    // a new search in the SPA: the URL changes, a new response, its own render
    s.beacon.updateContext('pageUrl', 'http://localhost:5173/search?q=boot');
    const b = await s.companion('boot');
    await s.search(b.responseId, b.uids.slice(0, 4), b.uids[0]);
  },
  'spa-back-to-cached': async (h) => {
    // production: the client's cache is off in development, where coming back is a new search
    const s = new Shopper(h, { mode: 'production' });
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    await s.search(a.responseId, a.uids.slice(0, 4));
    s.beacon.updateContext('pageUrl', 'http://localhost:5173/search?q=boot');
    const b = await s.companion('boot');
    await s.search(b.responseId, b.uids.slice(0, 4));
    // back to "jacket": the client renders its cached response again, same responseId, tiles impressed again
    s.beacon.updateContext('pageUrl', 'http://localhost:5173/search?q=jacket');
    await s.search(a.responseId, a.uids.slice(0, 4), a.uids[1]);
  },
  'spa-research-stale-id': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    await s.search(a.responseId, a.uids.slice(0, 4));
    // the storefront searches "boot" but keeps the first response's id for everything after
    s.beacon.updateContext('pageUrl', 'http://localhost:5173/search?q=boot');
    const b = await s.companion('boot');
    await s.search(a.responseId, b.uids.slice(0, 4), b.uids[0]);
  },
  'spa-research-stale-render': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    await s.search(a.responseId, a.uids.slice(0, 4));
    s.beacon.updateContext('pageUrl', 'http://localhost:5173/search?q=boot');
    const b = await s.companion('boot');
    // the render still carries the previous responseId; impressions and the click the new one
    s.beacon.events.search.render({ data: { responseId: a.responseId } });
    s.sent1();
    await s.settle();
    s.beacon.events.search.impression({
      data: {
        responseId: b.responseId,
        results: b.uids.slice(0, 4).map((u) => tile(u)),
        banners: [],
      },
    });
    s.sent1();
    await s.settle();
    s.beacon.events.search.clickThrough({
      data: { responseId: b.responseId, results: [tile(b.uids[0]!)] },
    });
    s.sent1();
    await s.settle();
  },
  'impression-after-click': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    const last = a.uids.at(-1)!;
    await s.search(a.responseId, a.uids.slice(0, -1));
    // the last tile clicked, and only then reported as impressed (impression-on-click), 2.5 s later
    s.beacon.events.search.clickThrough({
      data: { responseId: a.responseId, results: [tile(last)] },
    });
    s.sent1();
    await s.settle();
    await pause(2500);
    s.beacon.events.search.impression({
      data: { responseId: a.responseId, results: [tile(last)], banners: [] },
    });
    s.sent1();
    await s.settle();
  },
  'click-within-timer': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    const last = a.uids.at(-1)!;
    await s.search(a.responseId, a.uids.slice(0, -1));
    // clicked within 1 s of appearing on an SPA page that stays: the visibility timer fires just after
    s.beacon.events.search.clickThrough({
      data: { responseId: a.responseId, results: [tile(last)] },
    });
    s.sent1();
    await s.settle();
    await pause(400);
    s.beacon.events.search.impression({
      data: { responseId: a.responseId, results: [tile(last)], banners: [] },
    });
    s.sent1();
    await s.settle();
  },
  'banner-impressed-then-clicked': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    await s.search(a.responseId, a.uids.slice(0, 4));
    s.beacon.events.search.impression({
      data: { responseId: a.responseId, results: [], banners: [{ uid: a.banners[0]! }] },
    });
    s.sent1();
    await s.settle();
    await pause(2000);
    s.beacon.events.search.clickThrough({
      data: { responseId: a.responseId, results: [], banners: [{ uid: a.banners[0]! }] },
    });
    s.sent1();
    await s.settle();
  },
  'banner-click-unimpressed': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    await s.search(a.responseId, a.uids.slice(0, 4));
    // the header banner was on screen from the start but never impressed; clicked after 2 s
    await pause(2000);
    s.beacon.events.search.clickThrough({
      data: { responseId: a.responseId, results: [], banners: [{ uid: a.banners[0]! }] },
    });
    s.sent1();
    await s.settle();
  },
  'impression-before-render': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    // the storefront impresses the tiles it shows before it calls render (400 ms later)
    s.beacon.events.search.impression({
      data: {
        responseId: a.responseId,
        results: a.uids.slice(0, 3).map((u) => tile(u)),
        banners: [],
      },
    });
    s.sent1();
    await s.settle();
    await pause(100);
    s.beacon.events.search.render({ data: { responseId: a.responseId } });
    s.sent1();
    await s.settle();
  },
  'rendered-never-impressed': async (h) => {
    const s = new Shopper(h);
    s.open('http://localhost:5173/search?q=jacket');
    const a = await s.companion('jacket');
    // results rendered, tiles on screen, no impression observer at all
    s.beacon.events.search.render({ data: { responseId: a.responseId } });
    s.sent1();
    await s.settle();
  },
};

/** The journeys, each starting its own count of sent requests. */
export const VISIT_SCRIPTS: Record<string, (h: VisitHarness) => Promise<void>> = Object.fromEntries(
  Object.entries({ ...SCRIPTS, ...PAGE_SCRIPTS }).map(([id, run]) => [
    id,
    async (h: VisitHarness) => {
      journey.sent = 0;
      await run(h);
    },
  ]),
);
