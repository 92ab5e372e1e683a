// cart-inconsistent's reading of a cart event against the cart before it (CONTRACT.md, "The whole visit").
import type { CartItemDto } from '../../../shared/visits';
import { productIds, type VisitEvent } from './events';

/** What a cart event is judged against: the cart before it and the products quick-added since. */
export interface CartBefore {
  cart: CartItemDto[] | null;
  quickAdded: ReadonlySet<string>;
}

/** The key a cart line is told apart by: its uid, else its sku, else its parentId. */
function lineKey(item: CartItemDto): string {
  return item.uid || item.sku || item.parentId;
}

function qtyOf(list: readonly CartItemDto[], k: string): number | undefined {
  let found: number | undefined;
  for (const item of list) if (lineKey(item) === k) found = (found ?? 0) + item.qty;
  return found;
}

/**
 * What a cart event contradicts, if anything (`cart-inconsistent`). Exempt, as the provider's client sends
 * them: a removal of an item the cart before never held (a quick add put it in the client's stored cart),
 * and any comparison with the cart before for a product quick-added since (the sandbox's last cart is then
 * stale); with no cart event before it, only the event itself is judged.
 */
export function cartIssue(v: VisitEvent, visit: CartBefore): string | undefined {
  const after = v.cart ?? [];
  const before = visit.cart;
  const problems: string[] = [];
  for (const r of v.items) {
    const k = lineKey(r);
    if (k === '') continue;
    const now = qtyOf(after, k) ?? 0;
    const quick = productIds(r).some((id) => visit.quickAdded.has(id));
    const was = before && !quick ? (qtyOf(before, k) ?? 0) : undefined;
    if (v.endpoint === 'cart/add') {
      if (now < r.qty)
        problems.push(`adds ${r.qty} of "${k}" but its cart holds ${now === 0 ? 'none' : now}`);
      else if (was !== undefined && now <= was)
        problems.push(
          `adds "${k}" but its cart holds ${now}, no more than the ${was} the cart before it held`,
        );
    } else if (was !== undefined && was > 0 && now >= was)
      problems.push(
        `removes "${k}" but its cart still holds ${now}, as many as the ${was} the cart before it held`,
      );
  }
  if (problems.length === 0) return undefined;
  const shown = problems.slice(0, 3).join('; ');
  return problems.length > 3 ? `${shown}; and ${problems.length - 3} more` : shown;
}
