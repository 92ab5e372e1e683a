// cart-inconsistent's reading of a cart event against the cart before it: the client's stored cart as a
// ledger (after an add, the cart is the one before plus what was added; after a remove, minus what was
// removed), with the client's own exceptions.
import type { CartItemDto } from '../../../shared/visits';
import { productIds, type VisitEvent } from './events';

/** What a cart event is judged against: the cart before it and the products added since or ever. */
export interface CartBefore {
  cart: CartItemDto[] | null;
  /** product ids quick-added (addtocart) since the last cart event: the client's stored cart moved on */
  quickAdded: ReadonlySet<string>;
  /** product ids any addtocart or cart/add of the visit added */
  addedEver: ReadonlySet<string>;
  /** how many of each line key quick adds put in the client's stored cart since the last cart event */
  quickQty?: ReadonlyMap<string, number>;
  /** the uids of those stored with an empty parentId (QuickLine.bare) */
  quickBare?: ReadonlySet<string>;
  /** product ids cart events the service rejected since the last accepted one removed and added */
  refused?: { removed: ReadonlySet<string>; added: ReadonlySet<string> };
}

/** What a cart event contradicts: now, and what only a cart event of the same page can explain. */
export interface CartReading {
  /** certain now: the ledger's (the cart before, plus or minus what the event names) */
  problems: string[];
  /**
   * certain now: what quick adds since the last cart event put in the client's stored cart, which this
   * cart/add adds again (cart.quick-add-then-cart-add)
   */
  quickAdd?: string[];
  /**
   * the same of an item a quick add stored without a parentId, added here as the cart globals map it: the
   * client adds such a line whole and removes the stored one in the same comparison, so each holds only
   * when the page sent no cart/remove of its key
   */
  rekeyed?: Array<{ key: string; text: string }>;
  /** keys the cart before held that this event's cart lacks and its results do not name */
  dropped: string[];
  /** keys this event's cart holds that the cart before did not and its results do not name */
  appeared: string[];
  /**
   * keys quick adds put in the client's stored cart since the last cart event that this event's cart
   * lacks and its results do not name: the comparison either keeps them or sends a cart/remove of them
   */
  unlisted?: string[];
}

/** The key a cart line is told apart by: its uid, else its sku, else its parentId. */
export function lineKey(item: CartItemDto): string {
  return item.uid || item.sku || item.parentId;
}

function qtyOf(list: readonly CartItemDto[], k: string): number | undefined {
  let found: number | undefined;
  for (const item of list) if (lineKey(item) === k) found = (found ?? 0) + item.qty;
  return found;
}

/**
 * What a cart event contradicts. The provider's tracker compares the page's cart globals with the cart it
 * stored and sends the difference: one cart/add (results = the increases) and one cart/remove (results =
 * what left), each with the whole cart after the change. What quick adds put in the stored cart since the
 * last cart event is known even where the cart before is not: the comparison keeps each such item in the
 * cart it sends, or sends a cart/remove of it (the same uid under other ids, a variant replacing its parent,
 * the globals emptied before an order). Exempt, as the client sends them: a product
 * quick-added since the last cart event (the sandbox's last cart is then stale for it); a removal of an
 * item the cart before never held that an add of the visit added (a quick add of the parent replaced by
 * its variant); with no cart event before it in the visit, only the event itself is judged (the client's
 * stored cart may come from an earlier visit); an item the cart before held that this event's cart lacks
 * (or a quick-added one it lacks), when a cart/remove the service rejected since the last accepted cart
 * event named one of its ids, and an item this cart gained that a rejected cart/add named: the client
 * stored the cart of the rejected event all the same, and the rejected event's own finding (schema,
 * request-refused) names the mistake. Items that one event's cart gained or lost beyond its
 * results are left to the rule, which pairs them with the other cart event of the same page.
 */
export function cartIssue(v: VisitEvent, visit: CartBefore): CartReading | undefined {
  const after = v.cart ?? [];
  const before = visit.cart;
  const quick = (item: CartItemDto) => productIds(item).some((id) => visit.quickAdded.has(id));
  const problems: string[] = [];
  const quickAdd: string[] = [];
  const reading: Pick<CartReading, 'rekeyed'> = {};
  const named = new Set<string>();
  for (const r of v.items) {
    const k = lineKey(r);
    if (k === '') continue;
    named.add(k);
    const now = qtyOf(after, k) ?? 0;
    const was = before && !quick(r) ? (qtyOf(before, k) ?? 0) : undefined;
    // a quick add put it in the client's stored cart (on top of the cart before, or of whatever the
    // stored cart held): the comparison sends a cart/add of it only for more than that. When the quick
    // add stored it with an empty parentId and this item has one (the cart globals' mapping), the client's
    // comparison keys a line by parentId, uid and sku: it adds this one whole and removes the stored one
    // (a cart/remove of the same key, which only the page's other cart events show)
    const rekeyed = r.parentId !== '' && visit.quickBare?.has(r.uid) === true;
    const quickly = visit.quickQty?.get(k);
    const least =
      quickly === undefined ? undefined : (before ? (qtyOf(before, k) ?? 0) : 0) + quickly;
    if (v.endpoint === 'cart/add') {
      if (now < r.qty)
        problems.push(`adds ${r.qty} of "${k}" but its cart holds ${now === 0 ? 'none' : now}`);
      else if (least !== undefined && now < least + r.qty) {
        const text = `adds ${r.qty} of "${k}" but its cart holds ${now}, while quick adds since the last cart event had already put ${least} in the client's stored cart (an addtocart adds to it without a cart/add)`;
        if (rekeyed) (reading.rekeyed ??= []).push({ key: k, text });
        else quickAdd.push(text);
      } else if (was !== undefined && now <= was)
        problems.push(
          `adds "${k}" but its cart holds ${now}, no more than the ${was} the cart before it held`,
        );
      else if (was !== undefined && now !== was + r.qty)
        problems.push(
          `adds ${r.qty} of "${k}" but its cart went from ${was} to ${now}, an increase of ${now - was}${now === r.qty ? ' (results carry the new quantity, not the increase)' : ''}`,
        );
    } else if (was !== undefined && was > 0 && now >= was)
      problems.push(
        `removes "${k}" but its cart still holds ${now}, as many as the ${was} the cart before it held`,
      );
    else if (was !== undefined && was > 0 && now !== Math.max(0, was - r.qty))
      problems.push(
        `removes ${r.qty} of "${k}" but its cart went from ${was} to ${now}, a decrease of ${was - now}`,
      );
    else if (was === 0 && before !== null && !productIds(r).some((id) => visit.addedEver.has(id)))
      problems.push(`removes "${k}", which no cart of the visit held and no add of it added`);
  }
  const { dropped, appeared, unlisted } = unnamedChanges(after, visit, named, quick);
  if (
    problems.length === 0 &&
    quickAdd.length === 0 &&
    reading.rekeyed === undefined &&
    dropped.length === 0 &&
    appeared.length === 0 &&
    unlisted.length === 0
  )
    return undefined;
  return {
    problems,
    ...(quickAdd.length > 0 && { quickAdd }),
    ...reading,
    dropped: [...new Set(dropped)],
    appeared: [...new Set(appeared)],
    ...(unlisted.length > 0 && { unlisted }),
  };
}

/**
 * What this event's cart lost or gained beyond what its results name (`named`), and the quick-added keys it
 * lacks; none of a quick-added product (`quick`), nor (rejected cart events: `CartBefore.refused`) of an
 * item a rejected cart/remove named that it lost, or a rejected cart/add named that it gained.
 */
function unnamedChanges(
  after: readonly CartItemDto[],
  visit: CartBefore,
  named: ReadonlySet<string>,
  quick: (item: CartItemDto) => boolean,
): { dropped: string[]; appeared: string[]; unlisted: string[] } {
  const before = visit.cart;
  const refused = visit.refused;
  const dropped: string[] = [];
  const appeared: string[] = [];
  if (before) {
    for (const item of before) {
      const k = lineKey(item);
      if (k === '' || named.has(k) || quick(item)) continue;
      if (refused && productIds(item).some((id) => refused.removed.has(id))) continue;
      if ((qtyOf(after, k) ?? 0) < (qtyOf(before, k) ?? 0)) dropped.push(k);
    }
    for (const item of after) {
      const k = lineKey(item);
      if (k === '' || named.has(k) || quick(item)) continue;
      if (refused && productIds(item).some((id) => refused.added.has(id))) continue;
      if ((qtyOf(after, k) ?? 0) > (qtyOf(before, k) ?? 0)) appeared.push(k);
    }
  }
  const unlisted: string[] = [];
  for (const k of visit.quickQty?.keys() ?? [])
    if (
      !named.has(k) &&
      !dropped.includes(k) &&
      qtyOf(after, k) === undefined &&
      !refused?.removed.has(k)
    )
      unlisted.push(k);
  return { dropped, appeared, unlisted };
}

/** What a cart event contradicts, by the behaviour it breaks. */
export interface CartProblems {
  /** the ledger's: the cart before plus or minus what the event names (cart.ledger) */
  ledger: string[];
  /** what quick adds put in the client's stored cart since the last cart event (cart.quick-add-then-cart-add) */
  quickAdd: string[];
}

/**
 * What is left of the readings of one page's cart events once paired: an item one event's cart lost is
 * explained by a cart/remove of it on the same page, one it gained by a cart/add of it (the tracker sends
 * both from one comparison, each with the whole cart after both changes).
 */
export function cartProblems(v: VisitEvent, page: readonly VisitEvent[]): CartProblems {
  const reading = v.cartReading;
  if (!reading) return { ledger: [], quickAdd: [] };
  const removed = new Set<string>();
  const added = new Set<string>();
  for (const o of page) {
    if (o === v || !o.cart) continue;
    for (const item of o.items) (o.endpoint === 'cart/remove' ? removed : added).add(lineKey(item));
  }
  const ledger = [...reading.problems];
  const quickAdd = [...(reading.quickAdd ?? [])];
  for (const { key, text } of reading.rekeyed ?? []) if (!removed.has(key)) quickAdd.push(text);
  const lost = reading.dropped.filter((k) => !removed.has(k));
  const gained = reading.appeared.filter((k) => !added.has(k));
  const unlisted = reading.unlisted?.filter((k) => !removed.has(k)) ?? [];
  const adds = v.endpoint === 'cart/add' ? v.items.filter((r) => r.qty > 0).map(lineKey) : [];
  // A cart/add whose cart is empty is one mistake however many items that cart should have held (the cart
  // after an add holds at least what it adds): one problem of the ledger names them all, where the items
  // it adds, those the cart before held and those quick adds put in the stored cart would each be one.
  if (v.cart?.length === 0 && adds.some((k) => k !== ''))
    return { ledger: [emptyCartAdd(adds, lost, unlisted)], quickAdd: [] };
  if (lost.length > 0)
    ledger.push(`sends a cart that lost ${quotedKeys(lost)} with no cart/remove of it`);
  if (gained.length > 0)
    ledger.push(`sends a cart that gained ${quotedKeys(gained)} with no cart/add of it`);
  if (unlisted.length > 0)
    quickAdd.push(
      `sends a cart without ${quotedKeys(unlisted)}, which a quick add put in the client's stored cart since the last cart event, with no cart/remove of ${unlisted.length === 1 ? 'it' : 'them'} (cart is the whole cart, not only what changed)`,
    );
  return { ledger, quickAdd };
}

/** `"a", "b"` */
function quotedKeys(keys: readonly string[]): string {
  return [...new Set(keys)].map((k) => `"${k}"`).join(', ');
}

/** The one problem of a cart/add sent with `cart: []`: what its cart should have held, and why. */
function emptyCartAdd(
  adds: readonly string[],
  lost: readonly string[],
  unlisted: readonly string[],
): string {
  const held = lost.filter((k) => !adds.includes(k));
  const quick = unlisted.filter((k) => !adds.includes(k) && !held.includes(k));
  const also = [
    ...(held.length > 0 ? [`${quotedKeys(held)}, which the cart before held`] : []),
    ...(quick.length > 0
      ? [
          `${quotedKeys(quick)}, which a quick add put in the client's stored cart since the last cart event`,
        ]
      : []),
  ];
  return `sends an empty cart (cart: []) though it adds ${quotedKeys(adds.filter((k) => k !== ''))}: the cart after an add holds at least what it adds${also.length > 0 ? `, and here ${also.join(', and ')}` : ''}`;
}
