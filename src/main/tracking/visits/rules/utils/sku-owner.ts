// Whose sku an item carries: the product a catalog (or the responses the companion search issued) gives it
// to, when that is another product than the item's uid names. Read by the rules of the tracker's items whose
// uid and sku describe one product or variant (a product page view, a cart line, an order line).
import type { ProvenanceCatalog } from '../../../../search/provenance';
import type { VisitContext } from '../types';

/** The product an item's sku belongs to instead of its uid's, and that product's parent, if it has one. */
export interface OtherOwner {
  owner: string;
  ownerParent: string | undefined;
}

/**
 * The other product whose sku `item` carries, or undefined. What it exempts: an empty uid or sku, a sku
 * `known` does not hold (a catalog may format skus otherwise), the uid's own sku, its parent's (a variant
 * given by its uid alone keeps the parent's sku), a variant's sku under its parent's uid (a variant given
 * by its sku alone), a sku under the parentId sent with it, and a uid the indexed catalog does not hold that
 * is itself the sku of the product the sku names (the sku sent as uid as well: `item-not-in-catalog` names
 * that uid and the product whose uid to send, one finding for one fault).
 */
export function otherOwner(
  item: { uid: string; parentId: string; sku: string },
  known: Pick<ProvenanceCatalog, 'uidOfSku' | 'parentOf'>,
  indexed: Pick<ProvenanceCatalog, 'has' | 'uidOfSku'> | undefined,
): OtherOwner | undefined {
  if (item.sku === '' || item.uid === '') return undefined;
  const owner = known.uidOfSku(item.sku);
  if (owner === undefined || owner === item.uid) return undefined;
  if (indexed && !indexed.has(item.uid) && indexed.uidOfSku(item.uid) === owner) return undefined;
  const parent = known.parentOf?.(item.uid);
  const ownerParent = known.parentOf?.(owner);
  if (owner === parent || ownerParent === item.uid || owner === item.parentId) return undefined;
  return { owner, ownerParent };
}

/** ` (a variant of "P103")`, or nothing for a product without a parent. */
export const variantOf = (o: OtherOwner) =>
  o.ownerParent ? ` (a variant of "${o.ownerParent}")` : '';

/** Whose skus a visit's items are read against, and how a message names it. */
export interface SkuReading {
  /** the other product whose sku an item carries, if it does */
  other(item: { uid: string; parentId: string; sku: string }): OtherOwner | undefined;
  /** `the indexed catalog`, or the issued responses where a site has none */
  where: string;
  /** the verb that agrees with `where` */
  give: 'gives' | 'give';
}

/** The site's indexed catalog, else the skus the companion issued; undefined with neither. */
export function skuReading(ctx: Pick<VisitContext, 'catalog' | 'served'>): SkuReading | undefined {
  const known = ctx.catalog ?? ctx.served;
  if (!known) return undefined;
  const indexed = ctx.catalog;
  return {
    other: (item) => otherOwner(item, known, indexed),
    where: indexed ? 'the indexed catalog' : 'the search responses the companion issued',
    give: indexed ? 'gives' : 'give',
  };
}
