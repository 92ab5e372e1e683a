// The whole visit on the timeline engine: visit pages, orders and their credit, and the visit rules with
// the edges of each exemption (what the client sends in the rest of the visit is correct traffic).
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import type { PageTimelineDto } from '../../src/shared/timeline';
import type { ResponseKind } from '../../src/shared/kinds';
import type { ProvenanceSource } from '../../src/main/tracking/timeline/rules/utils/provenance';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { CHECK_LIMITS, OfflineJudge } from '../../src/main/tracking/timeline/offline-check';
import { bookWithHolders } from '../helpers/visit-book';
import { readEvent } from '../../src/main/tracking/timeline/model';
import { PageBuilder, T0, type EventOptions, type PageOptions } from './timeline-events';

type Line = { uid: string; parentId?: string; sku?: string; qty?: number; price?: number };
const line = (l: Line) => ({
  uid: l.uid,
  parentId: l.parentId ?? l.uid,
  sku: l.sku ?? `sku-${l.uid}`,
  qty: l.qty ?? 1,
  price: l.price ?? 20,
});

/** A page of the visit that sends product, cart, order or login events. */
class VisitPage extends PageBuilder {
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
  order(
    orderId: string,
    lines: Line[],
    o: EventOptions,
    totals: { tt?: number; total?: number } = {},
  ) {
    const sum = lines.map(line).reduce((s, l) => s + l.qty * l.price, 0);
    return this.send(
      'order/transaction',
      {
        orderId,
        transactionTotal: totals.tt ?? sum,
        total: totals.total ?? sum,
        city: 'Oslo',
        country: 'NO',
        results: lines.map(line),
      },
      o,
    );
  }
}

const page = (pageLoadId: string, o: PageOptions = {}) =>
  new VisitPage({ pageLoadId, pageUrl: `http://localhost:3000/${pageLoadId}`, ...o });
/** The search page a quick add or click is made on. */
const listingPage = () =>
  new VisitPage({ pageLoadId: 'listing', pageUrl: 'http://localhost:3000/search?q=x' });

function judge(
  events: RecordedEvent[],
  opts: { provenance?: ProvenanceSource; windowHours?: number; credit?: boolean } = {},
) {
  const clock = new SandboxClock({ start: T0 + 60_000, frozen: true });
  const e = new TimelineEngine({
    clock,
    settings: defaultTimelineSettings(),
    ...(opts.credit === false && { credit: false }),
    ...(opts.windowHours !== undefined && { attributionWindowMs: opts.windowHours * 3_600_000 }),
  });
  if (opts.provenance) e.setProvenance(opts.provenance);
  for (const ev of events) e.apply(ev);
  e.finish();
  const pages = e.pagesDto();
  const rules = (pageLoadId?: string) =>
    pages
      .filter((p) => pageLoadId === undefined || p.pageLoadId === pageLoadId)
      .flatMap((p) => p.findings)
      .filter((f) => f.rule !== 'dev-flag' && f.rule !== 'no-impression')
      .map((f) => `${f.rule}:${f.severity}`);
  return { engine: e, pages, rules, visits: e.visits(), orders: e.orders() };
}

/** search → impression → click → product page → cart → thank-you page, as the provider's client sends it. */
function cleanVisit(orderId = 'order-1001') {
  const search = new VisitPage({
    pageLoadId: 'search',
    pageUrl: 'http://localhost:3000/search?q=jacket',
  });
  const pdp = page('pdp');
  const cart = page('cart');
  const thanks = page('thanks');
  return [
    search.render('r1', { at: 0 }),
    search.impression('r1', ['P103', 'P104'], { at: 1200 }),
    search.click('r1', 'P103', { at: 3000 }),
    pdp.product('P103', { at: 4000 }),
    // a variant of the clicked product goes into the cart
    cart.cartAdd([{ uid: '1030', parentId: 'P103' }], [{ uid: '1030', parentId: 'P103' }], {
      at: 9000,
    }),
    // the thank-you page's cart globals are already empty: cart/remove of the stored items first
    thanks.cartRemove([{ uid: '1030', parentId: 'P103' }], [], { at: 20_000 }),
    thanks.order(
      orderId,
      [{ uid: '1030', parentId: 'P103', qty: 2, price: 25 }],
      { at: 20_050 },
      {
        tt: 50,
        total: 56.5,
      },
    ),
  ];
}

describe('the whole visit', () => {
  it('a clean visit is silent; its pages read as the shopper’s path and the line is credited to the search click', () => {
    const j = judge(cleanVisit());
    expect(j.rules()).toEqual([]);
    expect(j.visits).toHaveLength(1);
    const v = j.visits[0]!;
    expect(v.pages.map((p) => `${p.pageLoadId}:${p.kind}`)).toEqual([
      'search:search',
      'pdp:product',
      'cart:cart',
      'thanks:order',
    ]);
    expect(v.cart).toEqual([]);
    expect(v.orders).toEqual(['order-1001']);
    expect(v.userIds).toEqual(['user-1']);
    const [order] = j.orders;
    expect(order).toMatchObject({
      orderId: 'order-1001',
      transactionTotal: 50,
      total: 56.5,
      pageLoadId: 'thanks',
    });
    expect(order!.lines[0]!.credit).toMatchObject({
      kind: 'search',
      responseId: 'r1',
      q: 'jacket',
      event: 'clickthrough',
      pageLoadId: 'search',
    });
    const thanks = j.pages.find((p) => p.pageLoadId === 'thanks')!;
    expect(thanks.pageKind).toBe('order');
    expect(thanks.visitEvents!.map((e) => e.endpoint)).toEqual([
      'cart/remove',
      'order/transaction',
    ]);
  });

  it('credits the latest interaction before the order (by timestamp), of any kind, within the window', () => {
    const rec = page('home').as('recommendations', 'similar');
    const search = new VisitPage({
      pageLoadId: 'search',
      pageUrl: 'http://localhost:3000/search?q=boots',
    });
    const thanks = page('thanks');
    const events = [
      search.render('r1', { at: 0 }),
      search.impression('r1', ['B1'], { at: 1200 }),
      search.click('r1', 'B1', { at: 2000 }),
      rec.render('w1', { at: 5000 }),
      rec.impression('w1', ['B1'], { at: 6200 }),
      thanks.order('o-1', [{ uid: 'B1' }], { at: 30_000 }),
      // a queued addtocart that arrives after the order but was timestamped before it
      rec.cart('w1', 'B1', { at: 7000, recv: 31_000 }),
    ];
    const j = judge(events);
    expect(j.orders[0]!.lines[0]!.credit).toMatchObject({
      kind: 'recommendations',
      tag: 'similar',
      event: 'addtocart',
      responseId: 'w1',
    });
  });

  it('gives no credit outside the attribution window, or to another userId, and says why', () => {
    const search = new VisitPage({
      pageLoadId: 'search',
      pageUrl: 'http://localhost:3000/search?q=hat',
    });
    const thanks = page('thanks');
    const late = judge(
      [
        search.render('r1', { at: 0 }),
        search.impression('r1', ['H1'], { at: 1200 }),
        search.click('r1', 'H1', { at: 2000 }),
        thanks.order('o-2', [{ uid: 'H1' }], { at: 2000 + 2 * 3_600_000 }),
      ],
      { windowHours: 1 },
    );
    expect(late.orders[0]!.lines[0]!.credit).toBeNull();
    expect(late.orders[0]!.lines[0]!.noCreditReason).toMatch(
      /outside the 1\.0 h attribution window/,
    );

    const stranger = page('thanks2', { userId: 'user-2' });
    const other = judge([
      search.render('r1', { at: 0 }),
      search.impression('r1', ['H1'], { at: 1200 }),
      search.click('r1', 'H1', { at: 2000 }),
      stranger.order('o-3', [{ uid: 'H1' }], { at: 60_000 }),
    ]);
    expect(other.orders[0]!.lines[0]!.credit).toBeNull();
    expect(other.orders[0]!.lines[0]!.noCreditReason).toMatch(
      /userId "user-1" clicked it in this visit/,
    );
    expect(other.rules('thanks2')).toContain('visit-user-changed:warning');
  });
});

describe('why a line has no credit, where the visit says more than "not reached through search"', () => {
  it('the order’s userId clicked another product in the window: the ids may be mapped otherwise', () => {
    const search = new VisitPage({
      pageLoadId: 'search',
      pageUrl: 'http://localhost:3000/search?q=tent',
    });
    const j = judge([
      search.render('r1', { at: 0 }),
      search.impression('r1', ['P600'], { at: 1200 }),
      search.click('r1', 'P600', { at: 2000 }),
      page('thanks').order('o-5', [{ uid: 'shopify-88123', sku: 'TENT-2P' }], { at: 60_000 }),
    ]);
    const [line] = j.orders[0]!.lines;
    expect(line!.credit).toBeNull();
    expect(line!.noCreditReason).toMatch(
      /^no clickthrough or addtocart of "shopify-88123" by userId "user-1" before the order, though that userId clicked "P600", "sku-P600" \(ev_\d+\) in the attribution window: if that is this product, the order's \(or cart's\) ids are not the tile's .*this line has "shopify-88123", "TENT-2P"\)$/,
    );
  });

  it('nothing clicked by that userId: not reached through search', () => {
    const j = judge([page('thanks').order('o-6', [{ uid: 'D1' }], { at: 60_000 })]);
    expect(j.orders[0]!.lines[0]!.noCreditReason).toMatch(
      /the shopper did not reach it through search/,
    );
  });

  it('an order in a visit of its own on another origin: its credit went with the storefront’s ids', () => {
    const cart: Line[] = [{ uid: 'P700' }];
    const shop = new VisitPage({
      pageLoadId: 'cart',
      sessionId: 's-shop',
      userId: 'u-shop',
      pageUrl: 'https://shop.example/cart',
    });
    const pay = new VisitPage({
      pageLoadId: 'pay-thanks',
      sessionId: 's-pay',
      userId: 'u-pay',
      pageUrl: 'https://checkout.example/thank-you',
    });
    const j = judge([shop.cartAdd(cart, cart, { at: 0 }), pay.order('o-7', cart, { at: 120_000 })]);
    expect(j.orders[0]!.lines[0]!.noCreditReason).toMatch(
      /^the order came in a visit of its own on another origin, under a new userId "u-pay": what the shopper clicked and added is under userId "u-shop" of visit "s-shop" on https:\/\/shop\.example, whose cart \(ev_\d+\) the order bought \(order-other-domain\)/,
    );
  });
});

describe('a click the service rejected', () => {
  const search = () =>
    new VisitPage({ pageLoadId: 'search', pageUrl: 'http://localhost:3000/search?q=hat' });
  const rejected = (p: VisitPage, at: number) =>
    p.as('search').event(
      'clickthrough',
      { responseId: 'r1', results: [{ uid: 'H1', parentId: 'H1', sku: 'sku-H1' }] },
      {
        at,
        accepted: false,
        errors: ["results[0]: must have required property 'type'"],
      },
    );

  it('is named as why its line has no credit, and its schema finding is on the order', () => {
    const s = search();
    const click = rejected(s, 2000);
    const j = judge([
      s.render('r1', { at: 0 }),
      s.impression('r1', ['H1'], { at: 1200 }),
      click,
      page('thanks').order('o-9', [{ uid: 'H1' }], { at: 60_000 }),
    ]);
    const [order] = j.orders;
    expect(order!.lines[0]!.credit).toBeNull();
    expect(order!.lines[0]!.noCreditReason).toBe(
      `the clickthrough of "H1" by userId "user-1" (${click.id}) was rejected by the service (results[0]: must have required property 'type'), so it earns no credit: fix that clickthrough (the schema finding on its page) and the line is credited to it`,
    );
    // the order is not clean: the finding that cost its credit is on it, with the click it names
    expect(order!.findings.map((f) => [f.rule, f.interaction?.eventId])).toEqual([
      ['schema', click.id],
    ]);
  });

  it('is not named for another userId, after the order, or outside the window (the usual reasons then)', () => {
    const s = search();
    const base = [s.render('r1', { at: 0 }), s.impression('r1', ['H1'], { at: 1200 })];
    const thanks = page('thanks');
    const cases = {
      'another userId': judge([
        ...base,
        // the same visit, another shopper's identity
        rejected(
          new VisitPage({
            pageLoadId: 'search-2',
            pageUrl: 'http://localhost:3000/search?q=hat',
            userId: 'user-2',
          }),
          2000,
        ),
        thanks.order('o-9', [{ uid: 'H1' }], { at: 60_000 }),
      ]),
      'after the order': judge([
        ...base,
        thanks.order('o-9', [{ uid: 'H1' }], { at: 60_000 }),
        rejected(s, 90_000),
      ]),
      'outside the window': judge(
        [
          ...base,
          rejected(s, 2000),
          thanks.order('o-9', [{ uid: 'H1' }], { at: 2000 + 2 * 3_600_000 }),
        ],
        { windowHours: 1 },
      ),
    };
    for (const [name, j] of Object.entries(cases)) {
      const [order] = j.orders;
      expect(order!.lines[0]!.credit, name).toBeNull();
      expect(order!.lines[0]!.noCreditReason, name).not.toMatch(/rejected/);
      expect(
        order!.findings.filter((f) => f.rule === 'schema'),
        name,
      ).toEqual([]);
    }
    // an accepted click of the line earns the credit, a rejected one beside it changes nothing
    const both = judge([
      ...base,
      s.click('r1', 'H1', { at: 1800 }),
      rejected(s, 2000),
      thanks.order('o-9', [{ uid: 'H1' }], { at: 60_000 }),
    ]);
    expect(both.orders[0]!.lines[0]!.credit).toMatchObject({ event: 'clickthrough' });
  });
});

describe('order rules', () => {
  it('order-id-missing: an order sent with orderId ""', () => {
    const j = judge([page('thanks').order('', [{ uid: 'A' }], { at: 0 })]);
    expect(j.rules('thanks')).toEqual(['order-id-missing:error']);
    expect(j.pages[0]!.findings.find((f) => f.rule === 'order-id-missing')!.fix).toMatch(
      /set order\.id/,
    );
  });

  it('order-reloaded (info) for a reload of the thank-you page, order-duplicate for another page; other ids are fine', () => {
    const thanks = page('thanks');
    const reload = judge([
      thanks.order('o-9', [{ uid: 'A' }], { at: 0 }),
      thanks.order('o-9', [{ uid: 'A' }], { at: 4000 }),
    ]);
    expect(reload.rules()).toEqual(['order-reloaded:info']);
    expect(reload.pages[0]!.findings.find((f) => f.rule === 'order-reloaded')!.message).toMatch(
      /on the same pageLoadId/,
    );
    expect(reload.orders.map((o) => o.orderId)).toEqual(['o-9', 'o-9']);

    const later = judge([
      thanks.order('o-9', [{ uid: 'A' }], { at: 0 }),
      page('thanks-again').order('o-9', [{ uid: 'A' }], { at: 600_000 }),
    ]);
    expect(later.rules('thanks')).toEqual([]);
    expect(later.rules('thanks-again')).toEqual(['order-duplicate:error']);

    const two = judge([
      thanks.order('o-1', [{ uid: 'A' }], { at: 0 }),
      page('thanks-2').order('o-2', [{ uid: 'A' }], { at: 600_000 }),
    ]);
    expect(two.rules()).toEqual([]);
  });

  it('order-totals: missing totals and cents are caught; discounts, taxes and the OAS example are not', () => {
    const t = (tt: number, total: number, lines: Line[] = [{ uid: 'A', qty: 2, price: 50 }]) =>
      judge([page('thanks').order('o', lines, { at: 0 }, { tt, total })]).rules();
    expect(t(0, 0)).toEqual(['order-totals:error']);
    expect(t(100, 0)).toEqual(['order-totals:error']);
    expect(t(10_000, 10_000)).toEqual(['order-totals:error']); // cents against prices in units
    expect(t(1, 1)).toEqual(['order-totals:error']); // a total 1/100 of the lines
    expect(t(100, 80)).toEqual([]); // a discount
    expect(t(100, 131)).toEqual([]); // taxes and shipping
    expect(t(75, 100, [{ uid: 'A', qty: 1, price: 100 }])).toEqual([]); // the provider's own example
    expect(t(100 * 49, 100)).toEqual([]); // 49×: below the cents threshold
    expect(t(100 * 50, 100)).toEqual(['order-totals:error']); // 50×: at it
  });
});

describe('cart-inconsistent', () => {
  const A = { uid: 'A' };
  it('flags a cart/add whose own cart lacks what it adds', () => {
    const j = judge([page('c').cartAdd([A], [], { at: 0 })]);
    expect(j.rules()).toEqual(['cart-inconsistent:warning']);
  });

  it('flags a cart/remove that leaves as many as the cart before held', () => {
    const c = page('c');
    const j = judge([c.cartAdd([A], [A], { at: 0 }), c.cartRemove([A], [A], { at: 1000 })]);
    expect(j.rules()).toEqual(['cart-inconsistent:warning']);
    const ok = judge([
      c.cartAdd([{ uid: 'A', qty: 2 }], [{ uid: 'A', qty: 2 }], { at: 0 }),
      c.cartRemove([{ uid: 'A', qty: 1 }], [{ uid: 'A', qty: 1 }], { at: 1000 }),
    ]);
    expect(ok.rules()).toEqual([]);
  });

  it('is silent on a quick add followed by cart/add of the variant and cart/remove of the parent', () => {
    const listing = listingPage();
    const next = page('next');
    const j = judge([
      listing.render('r1', { at: 0 }),
      listing.impression('r1', ['P103'], { at: 1200 }),
      listing.cart('r1', 'P103', { at: 2000 }),
      next.cartAdd([{ uid: '1030', parentId: 'P103' }], [{ uid: '1030', parentId: 'P103' }], {
        at: 5000,
      }),
      next.cartRemove([{ uid: 'P103' }], [{ uid: '1030', parentId: 'P103' }], { at: 5010 }),
    ]);
    expect(j.rules()).toEqual([]);
  });

  it('is silent when a quick add since the last cart event makes the cart before stale, and says so otherwise', () => {
    const listing = listingPage();
    const c = page('c');
    const base = [
      c.cartAdd([A], [A], { at: 0 }),
      listing.render('r1', { at: 1000 }),
      listing.impression('r1', ['A'], { at: 2200 }),
    ];
    // the quick add put a second A in the client's stored cart; the globals show one: remove 1, one left;
    // the same without clicks kept for credit (`check`): the quick add still moves the cart on
    for (const credit of [true, false]) {
      const quick = judge(
        [...base, listing.cart('r1', 'A', { at: 3000 }), c.cartRemove([A], [A], { at: 4000 })],
        { credit },
      );
      expect(quick.rules()).toEqual([]);
      const none = judge([...base, c.cartRemove([A], [A], { at: 4000 })], { credit });
      expect(none.rules()).toEqual(['cart-inconsistent:warning']);
    }
  });

  it('credits no order line when told not to (check), and judges the pages alike', () => {
    const listing = listingPage();
    const events = [
      listing.render('r1', { at: 0 }),
      listing.impression('r1', ['A'], { at: 1200 }),
      listing.click('r1', 'A', { at: 2000 }),
      page('thanks').order('o-1', [A], { at: 9000 }),
    ];
    const credited = judge(events);
    const bare = judge(events, { credit: false });
    expect(credited.orders[0]!.lines[0]!.credit).toMatchObject({
      kind: 'search',
      responseId: 'r1',
    });
    expect(bare.orders[0]!.lines[0]!.credit).toBeNull();
    expect(bare.rules()).toEqual(credited.rules());
  });
});

describe('a page check has judged and let go', () => {
  it('keeps its place in the visit when it began within 2 s of the visit, or while a page left to judge can read it', () => {
    // each page keeps its visits (the engine's pages do)
    const { book, holder } = bookWithHolders();
    const note = (pageLoadId: string, at: number) => {
      const ev = readEvent(page(pageLoadId).product('A', { at }));
      return book.noteEvent('demo42', `demo42\u0000${pageLoadId}`, holder(pageLoadId), ev);
    };
    const reach = { keepWithinMs: 2_000, readsBackMs: 10_000, lagMs: 60_000, clicks: true };
    const release = (id: string) => book.pageReleased(`demo42\u0000${id}`, holder(id), reach);
    const v = note('p0', 0);
    note('p1', 2_000);
    note('p2', 2_001);
    for (const id of ['p0', 'p1', 'p2']) release(id);
    // a page of the visit still to come may begin within 10 s after p2 (pageview-not-clicked reads it)
    expect([...v.pages.keys()]).toEqual(['demo42\u0000p0', 'demo42\u0000p1', 'demo42\u0000p2']);
    // the visit went on: p3 is open from 80 s (its product view may come later), and no event of the
    // visit comes more than a minute behind its last: p2 goes, p4 stays (p3 may read it)
    note('p3', 80_000);
    note('p4', 200_000);
    release('p4');
    const kept = ['demo42\u0000p0', 'demo42\u0000p1', 'demo42\u0000p3', 'demo42\u0000p4'];
    expect([...v.pages.keys()]).toEqual(kept);
    // an event for a released page finds its visit without the shortcut, and takes its place again
    expect(note('p2', 2_500)).toBe(v);
    expect([...v.pages.keys()]).toEqual([...kept, 'demo42\u0000p2']);
  });

  it('gives a page that sends again after it was let go its place back, held while it is open', () => {
    const { book, holder } = bookWithHolders();
    const key = (id: string) => `demo42\u0000${id}`;
    const note = (pageLoadId: string, at: number, on = holder(pageLoadId)) =>
      book.noteEvent(
        'demo42',
        key(pageLoadId),
        on,
        readEvent(page(pageLoadId).product('A', { at })),
      );
    const reach = { keepWithinMs: 2_000, readsBackMs: 10_000, lagMs: 60_000, clicks: true };
    const v = note('first', 0);
    note('spa', 5_000);
    book.pageReleased(key('spa'), holder('spa'), reach);
    expect(book.releasedSessionOf('demo42', key('spa'), 'user-1')).toBe('session-1');
    // its later part is a page of its own (as the engine makes one): it holds the visit, and the place is its
    const later = { bookVisits: undefined };
    expect(note('spa', 150_000, later)).toBe(v);
    expect(later.bookVisits).toBe(v);
    expect(book.releasedSessionOf('demo42', key('spa'), 'user-1')).toBeUndefined();
    // another page let go of makes the visit forget what no open page reads: the reopened page's place stays
    note('pdp', 200_000);
    book.pageReleased(key('pdp'), holder('pdp'), reach);
    expect([...v.pages.keys()]).toContain(key('spa'));
    // let go of again, it is found by its visit again
    book.pageReleased(key('spa'), later, reach);
    expect(later.bookVisits).toBeUndefined();
    expect(book.releasedSessionOf('demo42', key('spa'), 'user-1')).toBe('session-1');
  });

  it('lets a click go once no page left to judge can read it, and keeps every click for credit', () => {
    const { book, holder } = bookWithHolders();
    const note = (pageLoadId: string, at: number) => {
      const ev = readEvent(page(pageLoadId).product('A', { at }));
      return book.noteEvent('demo42', `demo42\u0000${pageLoadId}`, holder(pageLoadId), ev);
    };
    const click = (pageLoadId: string, at: number) => ({
      source: {
        kind: 'search' as const,
        tag: '',
        responseId: 'r1',
        pageKey: `demo42\u0000${pageLoadId}`,
        pageLoadId,
        pageUrl: `http://localhost:3000/${pageLoadId}`,
      },
      event: 'clickthrough' as const,
      eventId: `click-${at}`,
      userId: 'user-1',
      time: T0 + at,
      ids: ['A', 'sku-A'],
    });
    for (const clicks of [true, false]) {
      const reach = { keepWithinMs: 2_000, readsBackMs: 10_000, lagMs: 60_000, clicks };
      const v = note('search', 0);
      book.noteInteraction(v, click('search', 1_000));
      book.pageReleased('demo42\u0000search', holder('search'), reach);
      // a product page may still come within 10 s of the click
      expect(v.interactions.map((i) => i.eventId)).toEqual(['click-1000']);
      note('later', 120_000);
      book.noteInteraction(v, click('later', 121_000));
      book.pageReleased('demo42\u0000later', holder('later'), reach);
      // two minutes on, no page left to judge begins within 10 s of the first click
      expect(v.interactions.map((i) => i.eventId)).toEqual(
        clicks ? ['click-121000'] : ['click-1000', 'click-121000'],
      );
      book.reset();
    }
  });

  it('judges a product page against a click and the pages it let go before, as live (pageview-not-clicked)', () => {
    // 1,100 events of other visits pass between the pages, so check judges and lets go of each page
    // (at most one open) before the next of the visit arrives
    const filler = (from: number) =>
      Array.from({ length: 1_100 }, (_, i) =>
        page(`other-${from + i}`, { sessionId: `s-${from + i}` }).product('B', { at: 100 }),
      );
    const search = new VisitPage({
      pageLoadId: 'search',
      pageUrl: 'http://localhost:3000/search?q=x',
    });
    const clicked = [
      search.render('r1', { at: 0 }),
      search.impression('r1', ['P101', 'P102'], { at: 1_200 }),
      search.click('r1', 'P102', { at: 3_000 }),
    ];
    const found = (events: RecordedEvent[], pageLoadId: string) => {
      const live = judge(events).rules(pageLoadId);
      const offline = new OfflineJudge(T0 + 60_000, undefined, {
        ...CHECK_LIMITS,
        maxOpen: 1,
        recent: 1,
      });
      const pages: PageTimelineDto[] = [];
      for (const ev of events) pages.push(...offline.apply(ev));
      pages.push(...offline.end());
      offline.dispose();
      // the search page was judged and let go before the page judged against its click came
      const at = (id: string) => pages.findIndex((p) => p.pageLoadId === id);
      expect(at('search')).toBeLessThan(at(pageLoadId));
      const checked = pages
        .find((p) => p.pageLoadId === pageLoadId)!
        .findings.filter((f) => f.rule !== 'dev-flag' && f.rule !== 'no-impression')
        .map((f) => `${f.rule}:${f.severity}`);
      expect(checked).toEqual(live);
      return checked;
    };
    // the page of another product than the one clicked, 600 ms after the click
    expect(
      found([...clicked, ...filler(0), page('pdp').product('P101', { at: 3_600 })], 'pdp'),
    ).toEqual(['pageview-not-clicked:warning']);
    // the clicked product's page, then (2 s on) another product's page: only the first is the click's
    expect(
      found(
        [
          ...clicked,
          ...filler(0),
          page('pdp').product('P102', { at: 3_600 }),
          ...filler(1_100),
          page('next').product('P101', { at: 5_600 }),
        ],
        'next',
      ),
    ).toEqual([]);
  });

  it('says when an event came later than what it lets go of can be read (input not in time order)', () => {
    // 1,100 events of one page of another visit: check lets go of the visit's pages meanwhile
    const other = page('other', { sessionId: 's-other' });
    const filler = (from: number) =>
      Array.from({ length: 1_100 }, (_, i) => other.product('B', { at: from + i }));
    const notes = (late: number) => {
      const offline = new OfflineJudge(T0 + 600_000, undefined, {
        ...CHECK_LIMITS,
        maxOpen: 1,
        recent: 1,
      });
      const events = [
        page('first').product('A', { at: 0 }),
        ...filler(0),
        page('second').product('B', { at: 300_000 }),
        ...filler(300_000),
        page('late').product('C', { at: late }),
      ];
      // the pages it hands over are not read here: only what it says of the input
      for (const ev of events) for (const _ of offline.apply(ev));
      for (const _ of offline.end());
      const said = offline.notes().filter((n) => n.includes('pageview-not-clicked'));
      offline.dispose();
      return said;
    };
    expect(notes(299_000)).toEqual([]);
    expect(notes(5_000)).toEqual([
      "1 event came more than a minute (in its visit's time) behind the events of its visit before it, after check had let go of the clicks and pages that only such an event reads: it was judged without them (pageview-not-clicked). Sort the input by time, or check such sessions on their own",
    ]);
  });

  it('still counts a released tab opened together with the first against a third page (visit-user-changed)', () => {
    // p1 and p2 begin together; p3 begins 600 ms in with another userId: p2 began before it, so it is
    // no tab opened with the first. 1,100 events of other visits pass between, so check has judged and
    // released p1 and p2 (at most one page open) before p3 arrives.
    const filler = Array.from({ length: 1_100 }, (_, i) =>
      page(`other-${i}`, { sessionId: `s-${i}` }).product('B', { at: 100 }),
    );
    const events = (p2At: number) => [
      page('p1').product('A', { at: 0 }),
      page('p2').product('B', { at: p2At }),
      ...filler,
      page('p3', { userId: 'user-2' }).product('C', { at: 600 }),
    ];
    const rulesOfP3 = (p2At: number) => {
      const judge = new OfflineJudge(T0 + 60_000, undefined, {
        ...CHECK_LIMITS,
        maxOpen: 1,
        recent: 1,
      });
      const pages = [];
      for (const ev of events(p2At)) pages.push(...judge.apply(ev));
      pages.push(...judge.end());
      judge.dispose();
      expect(pages.findIndex((p) => p.pageLoadId === 'p2')).toBeLessThan(2);
      return pages
        .find((p) => p.pageLoadId === 'p3')!
        .findings.map((f) => f.rule)
        .filter((r) => r === 'visit-user-changed');
    };
    expect(rulesOfP3(300)).toEqual(['visit-user-changed']);
    // p2 begun after p3: p3 is the tab opened with the first, released p2 or not
    expect(rulesOfP3(900)).toEqual([]);
  });
});

describe('identity and mode across the visit', () => {
  it('visit-user-changed: a later page with another userId; tabs opened together are exempt; a login is not a change', () => {
    const first = page('p1');
    const at = (ms: number) =>
      judge([
        first.product('A', { at: 0 }),
        page('p2', { userId: 'user-2' }).product('B', { at: ms }),
      ]).rules('p2');
    expect(at(1900)).toEqual([]);
    expect(at(2100)).toEqual(['visit-user-changed:warning']);
    // within 2 s but after another page of the visit began: not a tab opened with the first
    const third = judge([
      first.product('A', { at: 0 }),
      page('p2').product('B', { at: 300 }),
      page('p3', { userId: 'user-2' }).product('C', { at: 600 }),
    ]);
    expect(third.rules('p3')).toEqual(['visit-user-changed:warning']);
    const login = judge([
      first.product('A', { at: 0 }),
      page('p2').send('shopper/login', {}, { at: 60_000, context: { shopperId: 'shopper-7' } }),
      page('p3').product('B', { at: 90_000, context: { shopperId: 'shopper-7' } }),
    ]);
    expect(login.rules()).toEqual([]);
    expect(login.visits[0]!.shopperId).toBe('shopper-7');
  });

  it('visit-dev-mixed: a production order in a development visit, but not two visits of each mode', () => {
    const j = judge([
      page('pdp').product('A', { at: 0 }),
      page('thanks', { dev: false }).order('o', [{ uid: 'A' }], { at: 5000 }),
    ]);
    expect(j.rules('thanks')).toEqual(['visit-dev-mixed:error']);
    const apart = judge([
      page('pdp').product('A', { at: 0 }),
      // a later visit (an hour on: a new session), in production
      page('thanks', { dev: false, sessionId: 'session-2' }).order('o', [{ uid: 'A' }], {
        at: 3_600_000,
      }),
    ]);
    expect(apart.rules()).toEqual([]);
  });
});

describe('a page whose sessionId drifts midway', () => {
  it('stays in the visit of the page’s first sessionId: no visit of the drifted id, the order and its credit there', () => {
    // the thank-you page of the clean visit sends its order with another sessionId: one shopper, one page
    // load (B reads its ids once per page load), so one visit
    const events = cleanVisit().slice(0, -1);
    const thanks = page('thanks', { sessionId: 'session-other' });
    const lines = [{ uid: '1030', parentId: 'P103', qty: 2, price: 25 }];
    events.push(thanks.order('order-1001', lines, { at: 20_050 }, { tt: 50, total: 56.5 }));
    const j = judge(events);
    expect(j.rules('thanks')).toEqual(['context-drift:error']);
    expect(j.visits.map((v) => v.sessionId)).toEqual(['session-1']);
    expect(j.visits[0]!.pages.map((p) => p.pageLoadId)).toEqual([
      'search',
      'pdp',
      'cart',
      'thanks',
    ]);
    expect(j.visits[0]!.orders).toEqual(['order-1001']);
    expect(j.engine.visits({ sessionId: 'session-other' })).toEqual([]);
    // listed with its visit, under its visit's sessionId, naming the one it was sent with, credited to the
    // visit's search click
    const [o] = j.engine.orders({ sessionId: 'session-1' });
    expect(o).toMatchObject({
      sessionId: 'session-1',
      driftedSessionId: 'session-other',
      pageLoadId: 'thanks',
    });
    expect(o!.lines[0]!.credit).toMatchObject({ event: 'clickthrough', pageLoadId: 'search' });
  });

  it('another userId too is another shopper sharing the pageLoadId: a visit of its own', () => {
    const shared = page('thanks', { sessionId: 'session-other', userId: 'user-2' });
    const j = judge([...cleanVisit(), shared.product('P200', { at: 25_000 })]);
    expect(j.visits.map((v) => `${v.sessionId}:${v.userIds.join()}`)).toEqual([
      'session-1:user-1',
      'session-other:user-2',
    ]);
  });
});

describe('catalog', () => {
  const provenance = (ids: string[]): ProvenanceSource => ({
    site: () => ({ companion: false, catalogCheck: true }),
    issued: () => undefined,
    siteOf: () => undefined,
    issuedTo: () => [],
    redirectsTo: () => [],
    rememberedSince: () => 0,
    recent: () => [],
    catalog: () => ({
      has: (id) => ids.includes(id),
      uidOfSku: (sku) => (sku === 'sku-X' ? 'X' : undefined),
    }),
  });

  it('item-not-in-catalog on product, cart and order ids the indexed catalog does not know', () => {
    const j = judge(
      [page('pdp').product('GHOST', { at: 0 }), page('pdp2').product('P1', { at: 100 })],
      {
        provenance: provenance(['P1']),
      },
    );
    expect(j.rules('pdp')).toEqual(['item-not-in-catalog:warning']);
    expect(j.rules('pdp2')).toEqual([]);
    expect(j.pages[0]!.findings[0]!.message).toMatch(/"GHOST"/);
  });
});

describe('visits and orders bookkeeping', () => {
  it('filters by site, session, user and order id, and reset forgets them', () => {
    const j = judge([
      ...cleanVisit('o-a'),
      page('x', { sessionId: 'session-2', userId: 'user-9' }).order('o-b', [{ uid: 'Z' }], {
        at: 100_000,
      }),
    ]);
    expect(j.engine.visits({ sessionId: 'session-2' }).map((v) => v.userIds)).toEqual([['user-9']]);
    expect(j.engine.orders({ siteId: 'demo42', userId: 'user-9' }).map((o) => o.orderId)).toEqual([
      'o-b',
    ]);
    expect(j.engine.orders({ orderId: 'o-a' })).toHaveLength(1);
    expect(j.engine.orders({ siteId: 'other' })).toEqual([]);
    j.engine.reset('demo42');
    expect(j.engine.visits()).toEqual([]);
    expect(j.engine.orders()).toEqual([]);
  });

  it.each([
    ['of every site', undefined],
    ['of the only site', 'demo42'],
  ])(
    'reset %s empties the book at once: the same visit sent again is judged as on a new engine',
    (_, site) => {
      const events = [
        ...cleanVisit('o-a'),
        page('x', { sessionId: 'session-2', userId: 'user-9' }).order('o-b', [{ uid: 'Z' }], {
          at: 100_000,
        }),
      ];
      // sent again after the reset, as a storefront would: new event ids (the sandbox's seq goes on)
      const again = events.map((ev) => ({ ...ev, id: `${ev.id}-again`, seq: ev.seq + 1_000 }));
      const fresh = judge(again);
      const j = judge(events);
      expect(new Set(j.pages.map((p) => p.siteId))).toEqual(new Set(['demo42']));
      j.engine.reset(site);
      expect([j.engine.size(), j.engine.visits(), j.engine.orders()]).toEqual([0, [], []]);
      expect(j.engine.list({ verdict: 'pass' })).toEqual([]);
      // the orders again: not duplicates of the ones forgotten (order-duplicate), the same visits and credit
      for (const ev of again) j.engine.apply(ev);
      j.engine.finish();
      expect(j.engine.pagesDto()).toEqual(fresh.pages);
      expect(j.engine.visits()).toEqual(fresh.visits);
      expect(j.engine.orders()).toEqual(fresh.orders);
      expect(j.engine.visits({ sessionId: 'session-2' }).map((v) => v.userIds)).toEqual([
        ['user-9'],
      ]);
    },
  );

  it('retention forgets a visit page by page: its pages, then the visit with its orders', () => {
    const clock = new SandboxClock({ start: T0 + 60_000, frozen: true });
    const events = [
      ...cleanVisit('o-kept'),
      page('other', { sessionId: 'session-2', userId: 'user-2' }).product('P9', { at: 30_000 }),
    ];
    // keep as many events as the clean visit sends but its first page's: the search page goes first
    const e = new TimelineEngine({
      clock,
      settings: defaultTimelineSettings(),
      maxEvents: events.length - 3,
    });
    for (const ev of events) e.apply(ev);
    const visit = e.visits({ sessionId: 'session-1' })[0]!;
    expect(visit.pages.map((p) => p.pageLoadId)).toEqual(['pdp', 'cart', 'thanks']);
    expect(e.orders({ orderId: 'o-kept' })).toHaveLength(1);
    // the other visit was untouched
    expect(e.visits({ sessionId: 'session-2' })[0]!.pages.map((p) => p.pageLoadId)).toEqual([
      'other',
    ]);
    // a stream of new pages pushes the rest of session-1 out: the visit and its order go
    for (let i = 0; i < 10; i++)
      e.apply(page(`later-${i}`, { sessionId: 'session-3' }).product('P1', { at: 40_000 + i }));
    expect(e.visits({ sessionId: 'session-1' })).toEqual([]);
    expect(e.orders({ orderId: 'o-kept' })).toEqual([]);
    e.dispose();
    clock.dispose();
  });

  it('a rejected order is a schema finding on its page, not an order', () => {
    const j = judge([
      page('thanks').order('o', [{ uid: 'A' }], {
        at: 0,
        accepted: false,
        errors: ['data.total: required'],
      }),
    ]);
    expect(j.rules()).toEqual(['schema:error']);
    expect(j.orders).toEqual([]);
  });
});
