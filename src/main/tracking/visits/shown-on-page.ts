// What a page load showed the shopper, as a visit rule of a later page of the visit reads it (`click-not-sent`,
// `cart-add-twice`).

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
  ) {}

  /** Did its impressions name `id` (a tile's uid or parentId)? */
  impressed(id: string): boolean {
    return !id.includes(FRAME) && this.impressedIds.includes(`${FRAME}${id}${FRAME}`);
  }

  /** Did its product/pageview events name `id`? */
  viewed(id: string): boolean {
    return !id.includes(FRAME) && this.viewedIds.includes(`${FRAME}${id}${FRAME}`);
  }

  get viewedAny(): boolean {
    return this.viewedIds !== '';
  }

  /** The ids, each once, framed: what `impressed` and `viewed` read. */
  static framed(ids: ReadonlySet<string>): string {
    return ids.size === 0 ? '' : `${FRAME}${[...ids].join(FRAME)}${FRAME}`;
  }
}

const FRAME = '\u0000';

/** Two identical cart/add events of a page, the later its last cart event (`cart-add-twice`). */
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

/** What a cart event's items add or remove, by uid and quantity, in a fixed order. */
export function addedKey(items: ReadonlyArray<{ uid: string; qty: number }>): string {
  return items
    .map((i) => `${i.uid}${FRAME}${i.qty}`)
    .sort()
    .join(FRAME + FRAME);
}
