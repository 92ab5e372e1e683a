// A small simulator of the provider's storefront client (Snap controllers + the beacon package), written
// from what that client is known to send, apart from the sandbox's timeline rules. It produces the
// RecordedEvents the sandbox would record and the IssuedResponses its companion search would remember, so
// the held-out set can judge them offline. Time is simulated: every action happens at `visit.t` (ms after
// T0); queued beacons go out 300 ms after the last one queued, as the beacon package debounces them.
import type { RecordedEvent } from '../../src/shared/events';
import type { IssuedKind, IssuedResponse } from '../../src/main/search/responses';
import { validateBeaconBody } from '../../src/main/tracking/schemas';

export const T0 = Date.parse('2026-11-27T10:00:00.000Z');
export const SITE = 'hold42';
export const ORIGIN = 'https://shop.example.com';
/** what the beacon package sends as context.initiator for a site id that does not start with `at` */
export const INITIATOR = 'searchspring/beaconjs/1.3.0';
/** ms between a beacon leaving the browser and the sandbox receiving it */
const LATENCY = 45;
/** the beacon package's debounce of queued events */
const DEBOUNCE = 300;
/** a tile is impressed after being 70% visible for this long (plus the observer's callback) */
export const IMPRESSION_DELAY = 1_000;
const PAGE_LOAD_REUSE = 10_000;
const SESSION_TTL = 30 * 60_000;

export interface Variant {
  uid: string;
  sku: string;
}
export interface Product {
  uid: string;
  sku: string;
  price: number;
  variants?: Variant[];
}

function p(uid: string, price: number, variants?: string[]): Product {
  return {
    uid,
    sku: `S-${uid.replace(/^P/, '')}`,
    price,
    ...(variants && { variants: variants.map((v) => ({ uid: v, sku: `S-${v}` })) }),
  };
}

/** The storefront's indexed catalog: simple products and two with variants (P103, P108). */
export const CATALOG: Record<string, Product> = Object.fromEntries(
  [
    p('P101', 89),
    p('P102', 24.5),
    p('P103', 40, ['1030', '1031', '1032']),
    p('P104', 12.99),
    p('P105', 55),
    p('P106', 19.99),
    p('P107', 7.5),
    p('P108', 130, ['1080', '1081']),
    p('P109', 64),
    p('P110', 32),
    p('P111', 15),
    p('P112', 22),
    p('P113', 9.99),
    p('P114', 45),
    p('P115', 18),
    p('P116', 27),
    p('P117', 11),
    p('P118', 38),
    p('P119', 74),
    p('P120', 5.25),
  ].map((x) => [x.uid, x]),
);

export function product(uid: string): Product {
  const found = CATALOG[uid];
  if (!found) throw new Error(`no product ${uid} in the held-out catalog`);
  return found;
}

/** A cart line as the tracker maps the page's cart globals: `parentId: parentId || uid`, `uid`. */
export interface CartLine {
  parentId: string;
  uid: string;
  sku?: string;
  qty: number;
  price: number;
}

/** The cart globals' item for a product (or one of its variants). */
export function line(uid: string, qty = 1, variantUid?: string): CartLine {
  const prod = product(uid);
  if (variantUid) {
    const v = prod.variants?.find((x) => x.uid === variantUid);
    if (!v) throw new Error(`no variant ${variantUid} of ${uid}`);
    return { parentId: prod.uid, uid: v.uid, sku: v.sku, qty, price: prod.price };
  }
  return { parentId: prod.uid, uid: prod.uid, sku: prod.sku, qty, price: prod.price };
}

export type Kind = IssuedKind;

export interface ServeSpec {
  kind?: Kind;
  query?: string;
  page?: number;
  perPage?: number;
  /** recommendations and bundles: the widget's profile tag */
  tag?: string;
  /** product uids of the response, in order */
  results: string[];
  /** merchandising banners in the header slot (their data-banner-id) */
  banners?: string[];
  /** inline banners, with their index among the results */
  inline?: Array<{ uid: string; index: number }>;
  redirect?: string;
  /** the request carried the shopper's filters (a facet or a filtered URL): the client never redirects then */
  filtered?: boolean;
}

/** A response the (simulated) search or recommend API served, and what the companion remembers of it. */
export interface Served {
  id: string;
  kind: Kind;
  tag?: string;
  query: string;
  page: number;
  results: Product[];
  banners: string[];
  inline: Array<{ uid: string; index: number }>;
  redirect: string | null;
  issued: IssuedResponse;
}

export interface Context {
  timestamp: string;
  pageUrl: string;
  userId: string;
  sessionId: string;
  pageLoadId: string;
  shopperId: string;
  initiator: string;
  dev?: boolean;
  attribution?: Array<{ type: string; id: string }>;
}

/** One beacon on its way out: a fault may change or drop it (`Visit.transforms`). */
export interface Message {
  category: string;
  event: string;
  body: { context: Context; data?: Record<string, unknown> };
  /** ms after T0 the request leaves the browser */
  sentAt: number;
}

/** Everything one journey produced: events (in arrival order) and the responses the companion issued. */
export class World {
  readonly events: RecordedEvent[] = [];
  readonly responses: IssuedResponse[] = [];
  private n = 0;

  constructor(readonly name: string) {}

  id(prefix: string): string {
    this.n++;
    return `${prefix}-${this.name}-${this.n.toString(36).padStart(3, '0')}`;
  }

  record(m: Message): void {
    const endpoint = `${m.category}/${m.event}`;
    const errors = validateBeaconBody(endpoint, m.body);
    const accepted = errors.length === 0;
    this.events.push({
      id: '',
      seq: 0,
      receivedAt: new Date(T0 + m.sentAt + LATENCY).toISOString(),
      siteId: SITE,
      category: m.category,
      event: m.event,
      path: `/beacon/v2/${SITE}/${endpoint}`,
      accepted,
      status: accepted ? 200 : 400,
      errors,
      body: JSON.parse(JSON.stringify(m.body)) as unknown,
      contentType: 'text/plain',
    });
  }

  /** The recording, in arrival order, numbered as the sandbox numbers events. */
  recording(): { events: RecordedEvent[]; responses: IssuedResponse[]; end: number } {
    const events = this.events
      .map((e, i) => ({ e, i }))
      .sort((a, b) => a.e.receivedAt.localeCompare(b.e.receivedAt) || a.i - b.i)
      .map(({ e }, i) => ({ ...e, seq: i + 1, id: `ev_${String(i + 1).padStart(6, '0')}` }));
    const last = events.at(-1);
    const end = last ? Date.parse(last.receivedAt) : T0;
    return { events, responses: [...this.responses], end };
  }
}

interface Timer {
  at: number;
  seq: number;
  /** the page load it belongs to: a navigation drops it */
  pageLoadId: string;
  run: () => void;
}

interface Queued {
  category: string;
  event: string;
  data: Record<string, unknown>;
  context: Context;
}

export interface VisitOptions {
  /** ms after T0 the visit starts */
  start?: number;
  /** development mode: context.dev and test=true searches */
  dev?: boolean;
  userId?: string;
  sessionId?: string;
}

export interface LoadOptions {
  /** the page's cart globals (absent: the page has none) */
  cart?: CartLine[];
  /** the page's shopper.id (a logged-in shopper) */
  shopperId?: string;
}

/** One browser (one userId) visiting the storefront. */
export class Visit {
  t: number;
  href = '';
  pageLoadId = '';
  userId: string;
  sessionId: string;
  shopperId = '';
  dev: boolean;
  /** the search client adds test=true to its requests (development mode) */
  test: boolean;
  attribution: Array<{ type: string; id: string }> | undefined;
  /** the beacon package's stored cart */
  storedCart: CartLine[] = [];
  /** faults: applied in order to every beacon before it is sent; return null to drop it */
  transforms: Array<(m: Message) => Message | Message[] | null> = [];
  /** fault: queued beacons go out at once, one request each (no 300 ms debounce, no merging) */
  noQueue = false;
  /** fault: a queued beacon's context is taken when it is sent, not when it was created */
  contextAtSend = false;
  private lastLoad = -Infinity;
  private lastLoadHref = '';
  private timers: Timer[] = [];
  private timerSeq = 0;
  private queue: Queued[] = [];
  private flushTimer: Timer | null = null;
  /** the controllers' impression flags on this page: `${responseId}|${uid}` */
  private impressed = new Set<string>();

  constructor(
    readonly world: World,
    o: VisitOptions = {},
  ) {
    this.t = o.start ?? 0;
    this.dev = o.dev ?? false;
    this.test = this.dev;
    this.userId = o.userId ?? world.id('user');
    this.sessionId = o.sessionId ?? world.id('session');
  }

  // ----- time -----

  wait(ms: number): this {
    this.advance(this.t + ms);
    return this;
  }

  private advance(to: number): void {
    for (;;) {
      const next = this.timers
        .filter((x) => x.at <= to)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      next.run();
    }
    this.t = Math.max(this.t, to);
  }

  private schedule(at: number, run: () => void): Timer {
    const timer = { at, seq: ++this.timerSeq, pageLoadId: this.pageLoadId, run };
    this.timers.push(timer);
    return timer;
  }

  // ----- pages -----

  /** A full page load of `url` (the previous page's queued beacons and timers are lost with it). */
  load(url: string, o: LoadOptions = {}): this {
    this.timers = [];
    this.queue = [];
    this.flushTimer = null;
    this.impressed.clear();
    const href = url.startsWith('http') ? url : `${ORIGIN}${url}`;
    if (this.t - this.lastLoad > SESSION_TTL && this.lastLoad > -Infinity) {
      this.sessionId = this.world.id('session');
      this.attribution = undefined;
    }
    if (!(href === this.lastLoadHref && this.t - this.lastLoad < PAGE_LOAD_REUSE))
      this.pageLoadId = this.world.id('pl');
    this.lastLoad = this.t;
    this.lastLoadHref = href;
    this.href = href;
    const attr = new URL(href).searchParams.get('athos_attribution');
    if (attr) {
      const [type, id] = attr.split(':');
      if (type && id) this.attribution = [{ type, id }];
    }
    if (o.cart) this.syncCart(o.cart);
    if (o.shopperId && o.shopperId !== this.shopperId) {
      this.shopperId = o.shopperId;
      this.enqueue('shopper', 'login', {});
    }
    // the page's track scripts are read after a setTimeout
    return this.wait(15);
  }

  /** An SPA route change: the URL changes, the page load stays. */
  spa(url: string): this {
    this.href = url.startsWith('http') ? url : `${ORIGIN}${url}`;
    return this;
  }

  // ----- responses -----

  serve(spec: ServeSpec): Served {
    const kind = spec.kind ?? 'search';
    const id = this.world.id('r');
    const results = spec.results.map(product);
    const inline = spec.inline ?? [];
    const banners = spec.banners ?? [];
    const issued: IssuedResponse = {
      responseId: id,
      siteId: SITE,
      kind,
      ...(spec.tag !== undefined && { tag: spec.tag }),
      query: spec.query ?? '',
      page: spec.page ?? 1,
      perPage: spec.perPage ?? 24,
      issuedAt: T0 + this.t,
      results: results.map((r) => ({
        uid: r.uid,
        sku: r.sku,
        parentId: null,
        children: (r.variants ?? []).map((v) => ({ uid: v.uid, sku: v.sku })),
      })),
      inline,
      slots: { header: banners, banner: [], footer: [], left: [] },
      redirect: spec.redirect ?? null,
      test: this.test,
      ...(spec.filtered && { filtered: true as const }),
      // the controllers put the tracker's context on every search, category and autocomplete request
      // (the recommend API's requests carry none): domain is window.location.href when it searched
      ...(kind !== 'recommendations' &&
        kind !== 'bundles' && {
          requester: {
            userId: this.userId,
            sessionId: this.sessionId,
            pageLoadId: this.pageLoadId,
            pageUrl: this.href,
            ...(this.shopperId && { shopperId: this.shopperId }),
          },
        }),
    };
    this.world.responses.push(issued);
    return {
      id,
      kind,
      ...(spec.tag !== undefined && { tag: spec.tag }),
      query: issued.query,
      page: issued.page,
      results,
      banners,
      inline,
      redirect: issued.redirect,
      issued,
    };
  }

  /**
   * A search (or category / autocomplete) controller's search: the request goes out, the response comes
   * back and, unless it is a merchandising redirect, a render `{responseId}` is queued. Pass a `Served`
   * to have the client's cache answer with a response it served before.
   */
  search(
    spec: ServeSpec | Served,
    o: { infinite?: boolean; latency?: number; renderAfter?: number } = {},
  ): Served {
    const cached = 'issued' in spec;
    this.wait(o.latency ?? (cached ? 5 : 220));
    const r = cached ? spec : this.serve(spec);
    if (r.redirect && !r.issued.filtered && (r.kind === 'search' || r.kind === 'category')) {
      this.sendNow('search', 'redirect', { responseId: r.id, redirect: r.redirect });
      return r;
    }
    if (!o.infinite)
      for (const k of [...this.impressed]) if (k.startsWith(`${r.id}|`)) this.impressed.delete(k);
    const render = () => this.enqueue(r.kind, 'render', this.withTag(r, { responseId: r.id }));
    if (o.renderAfter) this.schedule(this.t + o.renderAfter, render);
    else render();
    return r;
  }

  /** A recommendations (or bundles) widget: its profile's response, then one render `{responseId, tag}`. */
  recommend(tag: string, results: string[], o: { bundle?: boolean } = {}): Served {
    return this.search({ kind: o.bundle ? 'bundles' : 'recommendations', tag, results });
  }

  /** Autocomplete: each response of the dropdown is rendered. */
  autocomplete(query: string, results: string[]): Served {
    return this.search({ kind: 'autocomplete', query, results }, { latency: 120 });
  }

  private withTag(r: Served, data: Record<string, unknown>): Record<string, unknown> {
    return r.tag !== undefined ? { tag: r.tag, ...data } : data;
  }

  /** The tile of a product (or an inline banner) as the controllers send it. */
  item(r: Served, uid: string): Record<string, unknown> {
    if (r.inline.some((b) => b.uid === uid)) return { type: 'banner', uid };
    const prod = product(uid);
    return { type: 'product', uid: prod.uid, parentId: '', sku: prod.sku };
  }

  /**
   * Tiles (product uids or inline banner uids) of `r` come into view now; each is impressed once it has
   * been visible for a second, once per uid per responseId.
   */
  see(r: Served, uids: string[], o: { after?: number } = {}): this {
    const at = this.t + (o.after ?? IMPRESSION_DELAY + 20);
    for (const uid of uids)
      this.schedule(at, () => {
        const key = `${r.id}|${uid}`;
        if (this.impressed.has(key)) return;
        this.impressed.add(key);
        this.enqueue(
          r.kind,
          'impression',
          this.withTag(r, { responseId: r.id, results: [this.item(r, uid)], banners: [] }),
        );
      });
    return this;
  }

  /** A merchandising (slot) banner with data-banner-id comes into view. */
  seeBanner(r: Served, uid: string): this {
    this.schedule(this.t + IMPRESSION_DELAY + 20, () => {
      const key = `${r.id}|banner:${uid}`;
      if (this.impressed.has(key)) return;
      this.impressed.add(key);
      this.enqueue(r.kind, 'impression', { responseId: r.id, banners: [{ uid }], results: [] });
    });
    return this;
  }

  click(r: Served, uid: string): this {
    this.sendNow(
      r.kind,
      'clickthrough',
      this.withTag(r, { responseId: r.id, results: [this.item(r, uid)] }),
    );
    return this;
  }

  clickBanner(r: Served, uid: string): this {
    this.sendNow(r.kind, 'clickthrough', { responseId: r.id, banners: [{ uid }] });
    return this;
  }

  /** A quick add from a tile: queued addtocart, and the item joins the beacon's stored cart. */
  addToCart(r: Served, uid: string, qty = 1): this {
    const prod = product(uid);
    const item = { parentId: '', uid: prod.uid, sku: prod.sku, qty, price: prod.price };
    this.enqueue(r.kind, 'addtocart', this.withTag(r, { responseId: r.id, results: [item] }));
    const have = this.storedCart.find((c) => c.uid === item.uid);
    if (have) have.qty += qty;
    else this.storedCart.push({ ...item });
    return this;
  }

  /** An autocomplete redirect (a submitted term whose response has a redirect), then the navigation. */
  acRedirect(r: Served, url: string): this {
    this.sendNow('autocomplete', 'redirect', { responseId: r.id, redirect: url });
    return this;
  }

  // ----- the rest of the visit -----

  /** A product page's `athos/track/product/view` script, mapped as the tracker maps it. */
  productView(uid: string, o: { childUid?: string; parentId?: string } = {}): this {
    const prod = product(uid);
    const variant = o.childUid ? prod.variants?.find((v) => v.uid === o.childUid) : undefined;
    let result: Record<string, string>;
    if (variant) {
      const base = o.parentId || prod.uid;
      result = { parentId: base, uid: variant.uid, sku: variant.sku };
    } else {
      result = { parentId: o.parentId || prod.uid, uid: prod.uid, sku: prod.sku };
    }
    this.sendNow('product', 'pageview', { result });
    return this;
  }

  /** The tracker's comparison of the page's cart globals with the stored cart. */
  private syncCart(globals: CartLine[]): void {
    const now = globals.map((c) => ({ ...c }));
    if (now.length === 0) {
      if (this.storedCart.length > 0)
        this.sendNow('cart', 'remove', { results: this.storedCart.map(cartItem), cart: [] });
      this.storedCart = [];
      return;
    }
    const added: CartLine[] = [];
    const removed: CartLine[] = [];
    for (const c of now) {
      const before = this.storedCart.find((s) => s.uid === c.uid);
      if (!before) added.push(c);
      else if (c.qty > before.qty) added.push({ ...c, qty: c.qty - before.qty });
      else if (c.qty < before.qty) removed.push({ ...c, qty: before.qty - c.qty });
    }
    for (const s of this.storedCart) if (!now.some((c) => c.uid === s.uid)) removed.push(s);
    if (added.length > 0)
      this.sendNow('cart', 'add', { results: added.map(cartItem), cart: now.map(cartItem) });
    if (removed.length > 0)
      this.sendNow('cart', 'remove', { results: removed.map(cartItem), cart: now.map(cartItem) });
    this.storedCart = now;
  }

  /** A thank-you page's `athos/track/order/transaction` script. */
  order(o: {
    id: string;
    transactionTotal: number;
    total: number;
    lines: CartLine[];
    city?: string;
    state?: string;
    country?: string;
  }): this {
    this.sendNow('order', 'transaction', {
      orderId: String(o.id),
      transactionTotal: o.transactionTotal,
      total: o.total,
      city: o.city ?? 'Portland',
      state: o.state ?? 'OR',
      country: o.country ?? 'US',
      results: o.lines.map((l) => ({
        parentId: l.parentId || l.uid,
        uid: l.uid || l.parentId || l.sku || '',
        ...(l.sku !== undefined && { sku: l.sku }),
        qty: l.qty,
        price: l.price,
      })),
    });
    this.storedCart = [];
    return this;
  }

  // ----- beacons -----

  context(): Context {
    return {
      timestamp: new Date(T0 + this.t).toISOString(),
      pageUrl: this.href,
      userId: this.userId,
      sessionId: this.sessionId,
      pageLoadId: this.pageLoadId,
      shopperId: this.shopperId,
      initiator: INITIATOR,
      ...(this.dev && { dev: true }),
      ...(this.attribution && { attribution: this.attribution }),
    };
  }

  /** A beacon sent at once (clickthrough, redirect, product, cart, order). */
  sendNow(category: string, event: string, data: Record<string, unknown>): this {
    this.out({ category, event, body: { context: this.context(), data }, sentAt: this.t });
    return this;
  }

  /** A raw beacon of any shape, sent at once (faults that write their own tracking). */
  emit(
    category: string,
    event: string,
    data: Record<string, unknown> | undefined,
    ctx: Partial<Context> = {},
  ): this {
    const body = { context: { ...this.context(), ...ctx }, ...(data && { data }) };
    this.out({ category, event, body, sentAt: this.t });
    return this;
  }

  /** render, impression, addtocart and login: queued behind the 300 ms debounce. */
  enqueue(category: string, event: string, data: Record<string, unknown>): void {
    const q = { category, event, data, context: this.context() };
    if (this.noQueue) {
      this.flush([q]);
      return;
    }
    this.queue.push(q);
    if (this.flushTimer) this.timers = this.timers.filter((x) => x !== this.flushTimer);
    this.flushTimer = this.schedule(this.t + DEBOUNCE, () => {
      const batch = this.queue;
      this.queue = [];
      this.flushTimer = null;
      this.flush(batch);
    });
  }

  private flush(batch: Queued[]): void {
    const single: Message[] = [];
    const merged = new Map<string, Message>();
    for (const q of batch) {
      const context = this.contextAtSend ? this.context() : q.context;
      const mergeable = q.event === 'impression' || q.event === 'addtocart';
      if (q.event === 'login') {
        // login carries only its context
        const key = `shopper/login|${context.pageLoadId}|${context.sessionId}|${context.shopperId}`;
        if (!merged.has(key))
          merged.set(key, {
            category: 'shopper',
            event: 'login',
            body: { context },
            sentAt: this.t,
          });
        continue;
      }
      if (!mergeable) {
        single.push({
          category: q.category,
          event: q.event,
          body: { context, data: q.data },
          sentAt: this.t,
        });
        continue;
      }
      const tag = typeof q.data.tag === 'string' ? `|${q.data.tag}` : '';
      const key = `${q.category}/${q.event}|${context.pageLoadId}|${context.sessionId}|${String(q.data.responseId)}${tag}`;
      const have = merged.get(key);
      if (!have) {
        merged.set(key, {
          category: q.category,
          event: q.event,
          body: { context, data: JSON.parse(JSON.stringify(q.data)) as Record<string, unknown> },
          sentAt: this.t,
        });
        continue;
      }
      const data = have.body.data!;
      for (const field of ['results', 'banners'] as const) {
        const add = q.data[field];
        if (Array.isArray(add)) data[field] = [...((data[field] as unknown[]) ?? []), ...add];
      }
    }
    for (const m of [...single, ...merged.values()]) this.out(m);
  }

  private out(m: Message): void {
    let list: Message[] = [m];
    for (const f of this.transforms) {
      const next: Message[] = [];
      for (const x of list) {
        const r = f(x);
        if (r === null) continue;
        next.push(...(Array.isArray(r) ? r : [r]));
      }
      list = next;
    }
    for (const x of list) this.world.record(x);
  }
}

function cartItem(c: CartLine): Record<string, unknown> {
  return {
    parentId: c.parentId || c.uid,
    uid: c.uid,
    ...(c.sku !== undefined && { sku: c.sku }),
    qty: c.qty,
    price: c.price,
  };
}
