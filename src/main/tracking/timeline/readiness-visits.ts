// Readiness of the behaviours that a shopper's pages show together, never one endpoint alone: a quick add
// followed by a later cart/add (`cart.quick-add-then-cart-add`), an order or login on another origin than
// the shopper's listings (`identity.cross-domain`). Their `seenBy` endpoint (cart/add, order/transaction)
// arrives on every store with a cart or a checkout, so its arrival says nothing of them: a plain cart/add
// is no quick add's follow-up, a same-origin thank-you page no checkout on another domain.
import { isResponseKind } from '../../../shared/kinds';
import { originOf } from '../page-url';

/** The newest page that showed a behaviour, and when (a larger `at` is newer, as the tally counts). */
export interface VisitSighting {
  pageLoadId: string;
  at: number;
}

/** An accepted event as the visit evidence reads it, live or from a page's DTO (its endpoint told apart). */
export interface VisitSightedEvent {
  userId: string;
  pageUrl: string;
  /** ms it is ordered by (its timestamp, else its receive time): read only of a quick add or a cart/add */
  time: () => number;
}

/** What each behaviour needs of a shopper's pages (the row's `shows`). */
export const VISIT_SHOWN: Readonly<Record<string, string>> = {
  // T constructor: the page's cart globals are compared with B's stored cart, to which every */addtocart
  // added its items without a cart/add; the comparison after a quick add is what the behaviour is
  'cart.quick-add-then-cart-add':
    'a quick add (an addtocart of a search, category, autocomplete or widget tile) and, later, a cart/add of the same userId (the cart globals compared with the stored cart)',
  // B keeps its ids in the storefront domain's storage: a checkout elsewhere carries them only when the
  // integration passes them on, which shows as an order or a login of the same userId at another origin
  'identity.cross-domain':
    'an order or a login at another origin than the pages of the same userId that sent search, category or autocomplete events',
};

/** One shopper's (userId's) traces of the behaviours. */
interface Trace {
  /** the time of its first quick add */
  quickAdd?: number;
  /** its latest cart/add */
  cartAdd?: VisitSighting & { time: number };
  /** the origins of its listing events (search, category, autocomplete) */
  listings?: Set<string>;
  /** its orders' and logins' origins, each with its newest page */
  checkouts?: Map<string, VisitSighting>;
}

/** The listing kinds: the search controller's and the dropdown's events show the shopper's storefront. */
const LISTING = new Set(['search', 'category', 'autocomplete']);

/** At most this many userIds are named in a hint. */
const NAMED = 2;

export class VisitEvidence {
  private readonly traces = new Map<string, Trace>();
  /** userIds that clicked or quick-added on a listing or widget */
  private readonly clickers = new Set<string>();
  /** userIds that sent an order */
  private readonly buyers = new Set<string>();

  /**
   * An accepted event of page `pageLoadId` at `endpoint` (`search/addtocart`, `cart/add`,
   * `order/transaction`), sighted `at` (the tally's count).
   */
  event(endpoint: string, e: VisitSightedEvent, pageLoadId: string, at: number): void {
    const slash = endpoint.indexOf('/');
    const kind = endpoint.slice(0, slash);
    const event = endpoint.slice(slash + 1);
    if (isResponseKind(kind)) {
      if (event === 'clickthrough' || event === 'addtocart') this.clickers.add(e.userId);
      if (event === 'addtocart') {
        const t = this.trace(e.userId);
        const time = e.time();
        if (t.quickAdd === undefined || time < t.quickAdd) t.quickAdd = time;
      }
      if (LISTING.has(kind)) {
        const origin = originOf(e.pageUrl);
        if (origin !== '') (this.trace(e.userId).listings ??= new Set()).add(origin);
      }
      return;
    }
    if (endpoint === 'cart/add') {
      const t = this.trace(e.userId);
      const time = e.time();
      if (t.cartAdd === undefined || time >= t.cartAdd.time) t.cartAdd = { pageLoadId, at, time };
    } else if (endpoint === 'order/transaction' || endpoint === 'shopper/login') {
      if (endpoint === 'order/transaction') this.buyers.add(e.userId);
      const origin = originOf(e.pageUrl);
      if (origin !== '')
        (this.trace(e.userId).checkouts ??= new Map()).set(origin, { pageLoadId, at });
    }
  }

  /** The newest page that shows behaviour `id` (VISIT_SHOWN), if any does. */
  sighting(id: string): VisitSighting | undefined {
    let newest: VisitSighting | undefined;
    const take = (s: VisitSighting) => {
      if (!newest || s.at > newest.at) newest = s;
    };
    for (const t of this.traces.values()) {
      if (id === 'cart.quick-add-then-cart-add') {
        if (t.quickAdd !== undefined && t.cartAdd && t.cartAdd.time > t.quickAdd) take(t.cartAdd);
      } else if (id === 'identity.cross-domain' && t.listings && t.checkouts)
        for (const [origin, s] of t.checkouts) if (!t.listings.has(origin)) take(s);
    }
    return newest;
  }

  /**
   * What the traffic lacked for an order to be credited (the row's next step, said after "send it with"),
   * when it sent orders: no click or add at all, or none by the orders' userIds; undefined when it sent no
   * order (the model's next step says it all).
   */
  creditLack(): string | undefined {
    if (this.buyers.size === 0) return undefined;
    if (this.clickers.size === 0)
      return 'clicks and adds tracked on listings before the order: its orders came after none';
    const named = (ids: Set<string>) =>
      [...ids]
        .slice(0, NAMED)
        .map((id) => JSON.stringify(id))
        .join(', ') + (ids.size > NAMED ? ` and ${ids.size - NAMED} more` : '');
    if (![...this.buyers].some((id) => this.clickers.has(id)))
      return `an order by the userId that clicked: the orders' userId (${named(this.buyers)}) matches no clicker's (${named(this.clickers)}), so the order page must carry the beacon client's userId of the listings`;
    return "an order line of a product its userId clicked or added on a listing: the orders' userId clicked, but none of their lines is a product it clicked or added within the credit window";
  }

  private trace(userId: string): Trace {
    let t = this.traces.get(userId);
    if (!t) this.traces.set(userId, (t = {}));
    return t;
  }
}
