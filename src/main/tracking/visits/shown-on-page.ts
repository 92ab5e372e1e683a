// What a page load showed the shopper, as a visit rule of a later page of the visit reads it
// (`click-not-sent`, `cart-add-twice`, `cart-printed-empty`), and how it is read from the page's events.
import { productIds, type VisitEvent } from './events';

/**
 * What another page load of the visit showed the shopper, read from the timelines (its events read back
 * from the store when it let them go); undefined when the timelines no longer hold that page. Its ids are
 * kept in two strings, each framed by U+0000: `check` keeps one per page it let go, for the page after it.
 */
export class ShownOnPage {
  constructor(
    /** the product ids (uid, parentId) of the tiles its accepted impressions named, framed */
    private readonly impressedIds: string,
    /** the product ids (uid, parentId, sku) its accepted product/pageview events named, framed */
    private readonly viewedIds: string,
    /** how many tiles (distinct uids) its accepted impressions named */
    readonly tiles: number,
    /**
     * a redirect may have left it: it sent an accepted redirect, or its last accepted event is a render (a
     * search of one result goes to its product as soon as it is rendered)
     */
    readonly redirected: boolean,
    /** its URL (its first accepted event's) */
    readonly pageUrl: string,
    /** its latest two identical cart/adds close together, unless a later cart event of it named their items */
    readonly doubledAdd?: DoubledAdd,
    /** its first cart event, when that emptied the stored cart (`EmptiedCart`) */
    readonly emptiedCart?: EmptiedCart,
  ) {}

  /** Did its impressions name `id` (a tile's uid or parentId)? */
  impressed(id: string): boolean {
    return !id.includes(FRAME) && this.impressedIds.includes(`${FRAME}${id}${FRAME}`);
  }

  /** Did its product/pageview events name `id`? */
  viewed(id: string): boolean {
    return !id.includes(FRAME) && this.viewedIds.includes(`${FRAME}${id}${FRAME}`);
  }

  /** The ids, each once, framed: what `impressed` and `viewed` read. */
  static framed(ids: ReadonlySet<string>): string {
    return ids.size === 0 ? '' : `${FRAME}${[...ids].join(FRAME)}${FRAME}`;
  }
}

const FRAME = '\u0000';

/**
 * A page's latest two identical cart/add events at one URL less than ADDED_TWICE_MS apart, unless a later
 * cart event of the page named their items (`cart-add-twice`).
 */
export interface DoubledAdd {
  first: string;
  second: string;
  /** ms between them */
  after: number;
  /** the second's time */
  time: number;
  /** what each added: its items' uids and quantities (`addedKey`) */
  added: string;
  /** the uids of its items */
  uids: string[];
  /** the items as a message names them: `1 × "1010"` */
  items: string[];
}

/**
 * A page's first cart event when it was a cart/remove whose cart is empty: what the tracker sends as a
 * page whose cart globals list no item loads while the stored cart holds some (T constructor). Unless the
 * page sent an order after it (the thank-you page's own), or a later cart event of the page named one of
 * its items (`cart-printed-empty`).
 */
export interface EmptiedCart {
  remove: string;
  time: number;
  /** what it removed: its items' uids and quantities (`addedKey`) */
  removed: string;
  /** the uids and parentIds of its items */
  ids: string[];
  /** the items as a message names them: `1 × "1010"` */
  items: string[];
}

/** What a cart event's items add or remove, by uid and quantity, in a fixed order. */
export function addedKey(items: ReadonlyArray<{ uid: string; qty: number }>): string {
  return items
    .map((i) => `${i.uid}${FRAME}${i.qty}`)
    .sort()
    .join(FRAME + FRAME);
}

/** Two identical cart/adds at one URL closer than this are one click sent twice (`cart-add-twice`). */
export const ADDED_TWICE_MS = 50;

/** What the summary reads of a page's response events (the timelines' events are these). */
export interface ShownEvent {
  accepted: boolean;
  event: string;
  time: number;
  results: ReadonlyArray<{ uid: string; parentId?: string }>;
}

/**
 * What a page showed, read from its response events and its product, cart, order and login events;
 * undefined when it showed nothing a later page's rule reads (one tile or none, no product view, no
 * redirect, no doubled add).
 */
export function shownOnPage(
  responses: Iterable<{ readonly events: readonly ShownEvent[] }>,
  visitEvents: readonly VisitEvent[],
  pageUrl: string,
): ShownOnPage | undefined {
  const impressed = new Set<string>();
  const uids = new Set<string>();
  let redirected = false;
  let latest: ShownEvent | undefined;
  for (const r of responses)
    for (const ev of r.events) {
      if (!ev.accepted) continue;
      if (!latest || ev.time > latest.time) latest = ev;
      if (ev.event === 'redirect') redirected = true;
      else if (ev.event === 'impression')
        for (const item of ev.results) {
          uids.add(item.uid);
          impressed.add(item.uid);
          if (item.parentId) impressed.add(item.parentId);
        }
    }
  // a render as its last event: a search of one result goes to it as soon as it is rendered (SC
  // afterStore), as a merchandising redirect leaves the page
  if (latest?.event === 'render') redirected = true;
  const viewed = new Set<string>();
  let doubledAdd: DoubledAdd | undefined;
  let lastCart: VisitEvent | undefined;
  let emptiedCart: EmptiedCart | undefined;
  for (const v of visitEvents) {
    if (!v.base.accepted) continue;
    if (v.endpoint === 'product/pageview')
      for (const item of v.items) for (const id of productIds(item)) viewed.add(id);
    else if (v.endpoint === 'order/transaction') emptiedCart = undefined;
    else if (v.endpoint === 'cart/add' || v.endpoint === 'cart/remove') {
      if (!lastCart) emptiedCart = emptied(v);
      else if (emptiedCart && v.items.some((i) => emptiedCart!.ids.includes(i.uid)))
        emptiedCart = undefined;
      // the latest pair, until a later cart event of the page names one of its items again
      const pair = doubled(lastCart, v);
      if (pair) doubledAdd = pair;
      else if (doubledAdd && v.items.some((i) => doubledAdd!.uids.includes(i.uid)))
        doubledAdd = undefined;
      lastCart = v;
    }
  }
  if (uids.size < 2 && viewed.size === 0 && !redirected && !doubledAdd && !emptiedCart)
    return undefined;
  return new ShownOnPage(
    ShownOnPage.framed(impressed),
    ShownOnPage.framed(viewed),
    uids.size,
    redirected,
    pageUrl,
    doubledAdd,
    emptiedCart,
  );
}

/** `v` as the cart/remove that emptied the stored cart, if it is one. */
function emptied(v: VisitEvent): EmptiedCart | undefined {
  if (v.endpoint !== 'cart/remove' || !v.cart || v.cart.length > 0 || v.items.length === 0)
    return undefined;
  const ids = new Set<string>();
  for (const i of v.items) for (const id of productIds(i)) ids.add(id);
  return {
    remove: v.base.id,
    time: v.base.time,
    removed: addedKey(v.items),
    ids: [...ids],
    items: v.items.map((i) => `${i.qty} × "${i.uid}"`),
  };
}

/** `v` as the second of two identical cart/adds at one URL within ADDED_TWICE_MS of `prev`, if it is. */
function doubled(prev: VisitEvent | undefined, v: VisitEvent): DoubledAdd | undefined {
  if (!prev || prev.endpoint !== 'cart/add' || v.endpoint !== 'cart/add') return undefined;
  const after = v.base.time - prev.base.time;
  if (after >= ADDED_TWICE_MS || v.base.pageUrl !== prev.base.pageUrl || v.items.length === 0)
    return undefined;
  const added = addedKey(v.items);
  if (added !== addedKey(prev.items)) return undefined;
  return {
    first: prev.base.id,
    second: v.base.id,
    after,
    time: v.base.time,
    added,
    uids: v.items.map((i) => i.uid),
    items: v.items.map((i) => `${i.qty} × "${i.uid}"`),
  };
}
