// The order book: the order/transactions of the visits, the site's first order of each orderId
// (order-duplicate), and each order's lines with their credit, built when read and kept until what it was
// built from changes (README, "The whole visit and its credit").
import type { OrderDto, OrderFilter } from '../../../shared/visits';
import { creditLine, type CreditScope } from './credit';
import { productIds, type VisitEvent } from './events';
import { lineUnitMismatch } from './prices';
import { ChunkedMap } from '../../chunked';
import type { Visit } from './book';

/** An order entry without what is read from its pages (its findings) and the site's first orders. */
export type OrderBaseDto = Omit<OrderDto, 'findings' | 'duplicateOf'>;

/** An order as the book lists it: its JSON (lines with credit) and what its findings are read from. */
export interface OrderEntry {
  /** the entry's JSON without findings and duplicateOf */
  json: string;
  eventId: string;
  pageKey: string;
  /** the first order/transaction of the site with the same non-empty orderId, when this one repeats it */
  duplicateOf?: string;
  /** the pages of the orders that repeat this one (their order-duplicate findings concern it too) */
  repeatPages: readonly string[];
  /** the product ids (uid, parentId, sku) of its lines */
  lineIds: readonly string[];
  /**
   * the eventIds of the other orders its page holds (a thank-you page reloaded within the client's 10 s keeps
   * its pageLoadId): their own findings name them, and concern this order only by naming it too
   */
  pageOrders: readonly string[];
  /** the interactions its lines are credited to, each once (their findings concern the order too) */
  credits: readonly OrderCredit[];
  /**
   * the clicks and quick adds the service rejected that would have credited a line without credit, each
   * once: the findings naming them (schema) concern the order, whose credit they cost
   */
  lost: readonly OrderCredit[];
}

/** An interaction an order line is credited to, and the page it is on. */
export interface OrderCredit {
  event: 'clickthrough' | 'addtocart';
  eventId: string;
  pageLoadId: string;
  pageKey: string;
}

interface FirstOrder {
  eventId: string;
  pageKey: string;
  pageLoadId: string;
  pageUrl: string;
  time: number;
  /** when the sandbox received it (ms), when it knows */
  receivedMs: number | null;
  /** who sent it: a reload of the thank-you page is the same browser, with the same ids */
  userId: string;
  sessionId: string;
  /** page keys of the later orders with the same orderId, each once */
  repeats: string[];
  /** what it sent of the order (its totals, vat and lines): a reload sends the same (orderSent) */
  sent: OrderSent;
}

/**
 * What an order/transaction says of its order, as the order script gives it: a reload of the thank-you page
 * reads the same script, so it sends the same totals and lines (and never a vat, which the tracker does not
 * send).
 */
export interface OrderSent {
  transactionTotal: number | null;
  total: number | null;
  vat: number | null;
  /** the lines as sent, in order: uid, parentId, sku, qty and price of each */
  lines: string;
}

export function orderSent(v: VisitEvent): OrderSent {
  return {
    transactionTotal: v.transactionTotal,
    total: v.total,
    vat: v.vat,
    lines: JSON.stringify(v.items.map((i) => [i.uid, i.parentId, i.sku, i.qty, i.price])),
  };
}

/** An order/transaction as its visit holds it. */
export interface OrderRecord {
  ev: VisitEvent;
  siteId: string;
  pageKey: string;
  /** the sessionId of its visit: its page's, where the order's own drifted (book.ts visitSessionOf) */
  sessionId: string;
  /** the order's JSON as last built, and what it was built from (its credit changes only with those) */
  cache?: { stamp: string; json: string; credits: OrderCredit[]; lost: OrderCredit[] };
}

export interface OrderOptions {
  attributionWindowMs: number;
  /** the query of a response the companion search API issued, when it did */
  issuedQuery?: (siteId: string, responseId: string) => string | undefined;
  /** the key of a page, as the engine gives it with each event (a credit's page is read by it) */
  pageKey: (siteId: string, pageLoadId: string) => string;
  /** false: no line is credited (the visits keep clicks only for the page rules: `check`'s report) */
  credit?: boolean;
}

/** What the order book reads of the visits (the visit book keeps them). */
export interface OrderVisits {
  visitOf(siteId: string, sessionId: string): Visit | undefined;
  /** the visits of a userId (credit looks across them) */
  visitsOf(siteId: string, userId: string): ReadonlySet<Visit> | undefined;
  /** the visits a filter can find orders in */
  matching(filter: OrderFilter): Iterable<Visit>;
}

const key2 = (a: string, b: string) => `${a}\u0000${b}`;

export class OrderBook {
  /** siteId + orderId → the first order/transaction that carried it (order-duplicate) */
  private readonly firstOrders = new Map<string, FirstOrder>();
  /** eventId of an order/transaction → its order (`GET /_sandbox/orders/{eventId}`) */
  private readonly orderEvents = new ChunkedMap<string, OrderRecord>();
  /** siteId + userId → how often its interactions changed (the key of its orders' cached credit) */
  private readonly userChanges = new Map<string, number>();

  constructor(
    private readonly options: OrderOptions,
    private readonly visits: OrderVisits,
  ) {}

  /** An order/transaction of the visit: the visit's orders, the site's first of its orderId. */
  note(visit: Visit, pageKey: string, v: VisitEvent): void {
    const e = v.base;
    const record: OrderRecord = {
      ev: v,
      siteId: visit.siteId,
      pageKey,
      sessionId: visit.sessionId,
    };
    visit.orders.push(record);
    this.orderEvents.set(e.id, record);
    // a blank orderId is order-id-missing, never a repeat (the rule trims it too)
    if (!v.orderId?.trim()) return;
    const k = key2(visit.siteId, v.orderId);
    const first = this.firstOrders.get(k);
    if (!first)
      this.firstOrders.set(k, {
        eventId: e.id,
        pageKey,
        pageLoadId: e.pageLoadId,
        pageUrl: e.pageUrl,
        time: e.time,
        receivedMs: e.receivedMs,
        userId: e.userId,
        sessionId: e.sessionId,
        repeats: [],
        sent: orderSent(v),
      });
    else if (!first.repeats.includes(pageKey)) first.repeats.push(pageKey);
  }

  /** The first order/transaction of the site that carried the orderId. */
  firstOf(siteId: string, orderId: string) {
    return this.firstOrders.get(key2(siteId, orderId));
  }

  /** A userId's interactions changed: the credit of its orders must be worked out again. */
  creditChanged(siteId: string, userId: string): void {
    const k = key2(siteId, userId);
    this.userChanges.set(k, (this.userChanges.get(k) ?? 0) + 1);
  }

  /**
   * The userId has no visit left, so no order of it is held (an order's userId is one of its visit's):
   * its count goes, and a sandbox kept running holds no count for every shopper it ever saw. An order
   * of it noted later is new, with no credit cached to stamp.
   */
  userGone(siteId: string, userId: string): void {
    this.userChanges.delete(key2(siteId, userId));
  }

  /** userIds whose changes are counted (for tests: those of the visits held) */
  countedUsers(): number {
    return this.userChanges.size;
  }

  /** The visit's orders on a forgotten page go. */
  forgetPage(visit: Visit, pageKey: string): void {
    // in place: at the retention limit a page goes with every beacon, and most lists hold none of it
    let kept = 0;
    for (const o of visit.orders)
      if (o.pageKey !== pageKey) visit.orders[kept++] = o;
      else this.orderEvents.delete(o.ev.base.id);
    visit.orders.length = kept;
  }

  /** A visit went: its orders go, and each that was the first of its orderId. */
  forgetVisit(visit: Visit): void {
    for (const o of visit.orders) {
      this.orderEvents.delete(o.ev.base.id);
      const k = key2(visit.siteId, o.ev.orderId ?? '');
      if (this.firstOrders.get(k)?.eventId === o.ev.base.id) this.firstOrders.delete(k);
    }
  }

  /** Every visit went at once: their orders, and the changes counted for their userIds. */
  clear(): void {
    this.firstOrders.clear();
    this.orderEvents.clear();
    this.userChanges.clear();
  }

  /** One entry per accepted order/transaction, newest last, each line with its credit (made when read). */
  *list(filter: OrderFilter): Generator<OrderEntry> {
    const out: OrderRecord[] = [];
    for (const v of this.visits.matching(filter))
      for (const o of v.orders) {
        if (filter.userId !== undefined && o.ev.base.userId !== filter.userId) continue;
        if (filter.orderId !== undefined && o.ev.orderId !== filter.orderId) continue;
        out.push(o);
      }
    out.sort((a, b) => a.ev.base.time - b.ev.base.time || a.ev.base.seq - b.ev.base.seq);
    for (const o of out) yield this.entry(o);
  }

  /** The order of an order/transaction event, by its eventId. */
  get(eventId: string): OrderEntry | undefined {
    const o = this.orderEvents.get(eventId);
    return o && this.entry(o);
  }

  private entry(o: OrderRecord): OrderEntry {
    const e = o.ev.base;
    const visit = this.visits.visitOf(o.siteId, o.sessionId);
    // the replaced userId's clicks explain the lines it clicked (credit.ts `replacedClick`)
    const replaced = o.ev.userReset?.userId;
    const stamp = `${this.userChanges.get(key2(o.siteId, e.userId)) ?? 0}:${visit?.changes ?? -1}${
      replaced === undefined ? '' : `:${this.userChanges.get(key2(o.siteId, replaced)) ?? 0}`
    }`;
    if (o.cache?.stamp !== stamp) {
      const { dto, lost } = this.orderDto(o, this.creditScope(o, visit), visit);
      o.cache = { stamp, json: JSON.stringify(dto), credits: this.creditsOf(o.siteId, dto), lost };
    }
    const first = o.ev.orderId?.trim()
      ? this.firstOrders.get(key2(o.siteId, o.ev.orderId))
      : undefined;
    const lineIds: string[] = [];
    for (const line of o.ev.items) lineIds.push(...productIds(line));
    const pageOrders: string[] = [];
    for (const other of visit?.orders ?? [])
      if (other !== o && other.pageKey === o.pageKey) pageOrders.push(other.ev.base.id);
    return {
      json: o.cache.json,
      eventId: e.id,
      pageKey: o.pageKey,
      ...(first && first.eventId !== e.id && { duplicateOf: first.eventId }),
      repeatPages: first?.eventId === e.id ? first.repeats : [],
      lineIds,
      pageOrders,
      credits: o.cache.credits,
      lost: o.cache.lost,
    };
  }

  /** The interactions the order's lines are credited to, each once, with the key of their page. */
  private creditsOf(siteId: string, dto: OrderBaseDto): OrderCredit[] {
    const out: OrderCredit[] = [];
    for (const { credit } of dto.lines)
      if (credit && !out.some((c) => c.eventId === credit.eventId))
        out.push({
          event: credit.event,
          eventId: credit.eventId,
          pageLoadId: credit.pageLoadId,
          pageKey: this.options.pageKey(siteId, credit.pageLoadId),
        });
    return out;
  }

  /** What a line of the order is credited from: its userId's visits, its own visit, the window. */
  private creditScope(o: OrderRecord, visit: Visit | undefined): CreditScope {
    const e = o.ev.base;
    const credit = this.options.credit !== false;
    const replaced = o.ev.userReset?.userId;
    const elsewhere = o.ev.cartElsewhere;
    return {
      siteId: o.siteId,
      userId: e.userId,
      time: e.time,
      windowMs: this.options.attributionWindowMs,
      mine: (credit && this.visits.visitsOf(o.siteId, e.userId)) || new Set<Visit>(),
      ...(credit && { visit }),
      ...(credit &&
        replaced !== undefined && {
          replaced: {
            userId: replaced,
            visits: this.visits.visitsOf(o.siteId, replaced) ?? new Set<Visit>(),
          },
        }),
      ...(credit &&
        elsewhere && {
          elsewhere: {
            origin: elsewhere.origin,
            sessionId: elsewhere.sessionId,
            userId: elsewhere.userId,
            eventId: elsewhere.eventId,
          },
        }),
      issuedQuery: this.options.issuedQuery,
    };
  }

  /**
   * The order with its lines' credit, and the rejected clicks and quick adds that would have credited its
   * uncredited lines, each once.
   */
  private orderDto(
    o: OrderRecord,
    scope: CreditScope,
    visit: Visit | undefined,
  ): { dto: OrderBaseDto; lost: OrderCredit[] } {
    const e = o.ev.base;
    const lost: OrderCredit[] = [];
    const dto: OrderBaseDto = {
      orderId: o.ev.orderId ?? '',
      siteId: o.siteId,
      // listed, filtered and linked by its visit's sessionId; what it was sent with, when that drifted
      sessionId: o.sessionId,
      ...(e.sessionId !== o.sessionId && { driftedSessionId: e.sessionId }),
      userId: e.userId,
      pageLoadId: e.pageLoadId,
      eventId: e.id,
      receivedAt: e.receivedAt ?? '',
      transactionTotal: o.ev.transactionTotal ?? 0,
      total: o.ev.total ?? 0,
      lines: o.ev.items.map((item) => {
        const { line, lost: by } = creditLine(item, scope);
        if (by && !lost.some((c) => c.eventId === by.eventId))
          lost.push({
            event: by.event,
            eventId: by.eventId,
            pageLoadId: by.source.pageLoadId,
            pageKey: by.source.pageKey,
          });
        const unitMismatch = lineUnitMismatch(item, visit);
        return unitMismatch ? { ...line, unitMismatch } : line;
      }),
    };
    return { dto, lost };
  }
}
