// The whole visit (README, "The whole visit and its credit"): one sessionId of one siteId, its pages in time order,
// the cart as its last cart event left it, its orders, and the credit each order line gets. Stable shapes:
// `GET /_sandbox/visits`, `GET /_sandbox/orders`, `sandbox.visits()`, `sandbox.orders()`, the UI.
import type { ResponseKind } from './kinds';
import type { Severity, Verdict } from './verdict';
import type { PageEventDto, TimelineRuleId } from './timeline';

/** What a page of a visit can be, weightiest first: a page is the kind of its weightiest event. */
export const VISIT_PAGE_KINDS = [
  'order',
  'product',
  'search',
  'category',
  'cart',
  'other',
] as const;
export type VisitPageKind = (typeof VISIT_PAGE_KINDS)[number];

export interface VisitPageDto {
  pageLoadId: string;
  pageUrl: string;
  kind: VisitPageKind;
  verdict: Verdict;
  /**
   * every event of the page was refused (the real service drops them): it is in the visit by the
   * sessionId its bodies carried, which no accepted event confirmed (its `kind` is `other`)
   */
  refused?: true;
}

/** An item of a cart or an order line as the tracker sends it. */
export interface CartItemDto {
  uid: string;
  parentId: string;
  sku: string;
  qty: number;
  price: number;
}

export interface VisitDto {
  siteId: string;
  sessionId: string;
  /** every userId seen in the visit, first first (more than one is a finding) */
  userIds: string[];
  /** the latest `context.shopperId` (set by a login) */
  shopperId?: string;
  /** earliest and latest event time (ISO 8601) */
  start: string;
  end: string;
  /** the worst verdict of its pages */
  verdict: Verdict;
  /** in time order */
  pages: VisitPageDto[];
  /** the cart as the last cart event left it, emptied by an order (as the tracker does) */
  cart: CartItemDto[];
  /** orderIds in time order (an orderId sent twice is listed twice) */
  orders: string[];
}

/** The interaction an order line is credited to (the sandbox's attribution model, README "Credit"). */
export interface CreditDto {
  kind: ResponseKind;
  responseId: string;
  /** the search query when known (a companion-issued response, or the page URL's `q`) */
  q?: string;
  /** the recommendations or bundles profile tag */
  tag?: string;
  /** `clickthrough` or `addtocart` */
  event: 'clickthrough' | 'addtocart';
  eventId: string;
  pageLoadId: string;
}

export interface OrderLineDto extends CartItemDto {
  credit: CreditDto | null;
  /** why a line has no credit (no interaction with that product by this userId, outside the window, …) */
  noCreditReason?: string;
  /**
   * the line's price is about 100× (or 1/100 of) what the visit's cart carried for the product (cents
   * against units): that cart price and the cart event that carried it
   */
  unitMismatch?: { cartPrice: number; eventId: string };
}

export interface OrderDto {
  orderId: string;
  siteId: string;
  /** the sessionId of its visit: its page's first, where the order's own drifted (`driftedSessionId`) */
  sessionId: string;
  /**
   * the sessionId the order/transaction carried, when it differs from its page's first (`context-drift`):
   * a page load has one shopper, so the order stays in the page's visit
   */
  driftedSessionId?: string;
  userId: string;
  pageLoadId: string;
  eventId: string;
  receivedAt: string;
  transactionTotal: number;
  total: number;
  lines: OrderLineDto[];
  /** every finding of any rule that concerns this order, its lines or the interactions they are credited to */
  findings: OrderFindingDto[];
  /** on a repeat: the eventId of the first order/transaction of the site with the same non-empty orderId */
  duplicateOf?: string;
}

/** A finding as an order carries it: what is wrong and the one-line fix. */
export interface OrderFindingDto {
  /** its id among the order's findings: the page finding's, made unique where two pages share one */
  id: string;
  /**
   * the id of the order's finding it follows from (one mistake, several findings: the page's `causedBy`),
   * when that one is the order's too; it is listed right after it, and views fold it under it
   */
  causedBy?: string;
  rule: TimelineRuleId;
  severity: Severity;
  message: string;
  fix: string;
  /**
   * on a finding of the interaction a line is credited to (not of the order itself): that click or quick
   * add, so the credit it earned is in doubt
   */
  interaction?: { event: 'clickthrough' | 'addtocart'; eventId: string; pageLoadId: string };
}

/** Orders, lines and revenue (Σ qty × price) of one group of order lines. */
export interface RevenueDto {
  orders: number;
  lines: number;
  revenue: number;
}

/**
 * What the merchant's report would show (`GET /_sandbox/orders/summary`): every entry counted, a
 * duplicate's lines again; credited lines grouped by the kind of the interaction credited.
 */
export interface OrdersSummaryDto extends RevenueDto {
  bySource: Partial<Record<ResponseKind, RevenueDto>>;
  uncredited: { lines: number; revenue: number };
  duplicates: { orders: number; revenue: number };
  /** entries that have a finding of severity error (their own or their crediting interactions'), and their lines' revenue */
  withErrors: { orders: number; revenue: number };
  /**
   * entries with a line priced about 100× (or 1/100 of) what the visit's cart carried for it (a line with
   * `unitMismatch`: cents against units), and their lines' revenue
   */
  pricesInDoubt: { orders: number; revenue: number };
}

/**
 * The visits' and the orders' filters, as the admin API declares them (src/shared/admin-params.ts; written
 * out here so that the package's published types hold no TypeBox, and held to the declaration by
 * test/unit/admin-schemas.test.ts).
 */
export interface VisitFilter {
  siteId?: string;
  sessionId?: string;
  userId?: string;
}

export interface OrderFilter extends VisitFilter {
  orderId?: string;
}

/** A product page, cart, order or login event as it sits on its page's timeline. */
export interface VisitEventDto extends PageEventDto {
  /** `product/pageview`, `cart/add`, `cart/remove`, `order/transaction`, `shopper/login` or `log/snap` */
  endpoint: string;
  shopperId?: string;
  dev: boolean;
  /** the product viewed (`data.result`), or `data.results` of cart and order events */
  items: CartItemDto[];
  /** `data.cart` of cart events: the whole cart after the change */
  cart?: CartItemDto[];
  orderId?: string;
  transactionTotal?: number;
  total?: number;
  /** what the provider's client reported in a `log/snap` (its `data.message`) */
  message?: string;
}
