// The behaviour a visit event's item ids break when they are not mapped as the tracker maps them: the product
// view's (T track.product.view: parentId || uid, uid || parentId || sku), the cart's items (T maps them
// parentId || uid), the order's lines. A login carries no items.
import type { VisitEndpoint } from '../../events';

export const ITEM_IDS_BEHAVIOUR: Partial<Record<VisitEndpoint, string>> = {
  'product/pageview': 'product.pageview-ids',
  'cart/add': 'cart.items',
  'cart/remove': 'cart.items',
  'order/transaction': 'order.transaction',
};
