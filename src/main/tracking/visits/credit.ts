// The sandbox's attribution model (README "Credit"; the provider does not publish its own): an order line
// is credited to the latest clickthrough or addtocart, of any kind, by the same userId before the order
// (by context.timestamp) within the attribution window, on the same product (uid, parentId or sku of the
// line equal to uid, parentId or sku of the clicked item; empty ids never match).
import type { CartItemDto, CreditDto, OrderLineDto } from '../../../shared/visits';
import type { ResponseKind } from '../../../shared/kinds';
import { productIds } from './events';
import { urlQuery } from '../page-url';

/**
 * Where the clicks of one response were made: one object per response (and page URL), shared by all of
 * its clicks rather than copied into each (a visit holds every click of its shopper; `check` of a long
 * recording holds hundreds of thousands).
 */
export interface InteractionSource {
  kind: ResponseKind;
  tag: string;
  responseId: string;
  pageKey: string;
  pageLoadId: string;
  pageUrl: string;
  /** the query, worked out when one of its clicks first earns credit (null: none known) */
  q?: string | null;
}

/** A click or quick add that can earn credit. */
export interface Interaction {
  source: InteractionSource;
  event: 'clickthrough' | 'addtocart';
  eventId: string;
  userId: string;
  /** ms, by context.timestamp (else receive time) */
  time: number;
  /** product ids (uid, parentId, sku) of its items, each once: a lone id as itself, not in a list */
  ids: string | readonly string[];
  /** a lone id whose item the client typed a product (`type: 'product'`), not a banner's */
  product?: true;
}

/**
 * A click or quick add the service rejected (its body failed the beacon schema): it earns no credit, so a
 * line it would have credited names it, and the order carries the finding that names its fault.
 */
export interface LostInteraction extends Interaction {
  /** what the service said of it (its first validation error) */
  why: string;
}

export interface CreditScope {
  siteId: string;
  userId: string;
  /** the order's time (ms) */
  time: number;
  windowMs: number;
  /** the visits of the order's userId (their clicks and quick adds, and those the service rejected) */
  mine: Iterable<{ interactions: Interaction[]; lostInteractions?: LostInteraction[] }>;
  /** the order's own visit (to explain a line that another userId of the visit clicked) */
  visit?: { interactions: Interaction[] };
  /**
   * the storefront visit whose cart the order bought, when the order came in a visit of its own on another
   * origin (order-other-domain): its lines' credit went with the ids the payment domain did not get
   */
  elsewhere?: { origin: string; sessionId: string; userId: string; eventId: string };
  /**
   * the userId of the same browser the order's userId replaced (order-user-reset), and its visits: a line
   * it clicked lost its credit to the change
   */
  replaced?: { userId: string; visits: Iterable<{ interactions: Interaction[] }> };
  issuedQuery?: (siteId: string, responseId: string) => string | undefined;
}

function touches(i: Interaction, ids: readonly string[]): boolean {
  return typeof i.ids === 'string' ? ids.includes(i.ids) : i.ids.some((id) => ids.includes(id));
}

function hours(ms: number): string {
  const h = ms / 3_600_000;
  return h >= 10 ? `${Math.round(h)} h` : `${h.toFixed(1)} h`;
}

/**
 * The line with its credit, or why it has none; `lost`: the click or quick add the service rejected that
 * would have credited it (the order carries its finding).
 */
export function creditLine(
  line: CartItemDto,
  scope: CreditScope,
): { line: OrderLineDto; lost?: LostInteraction } {
  const ids = productIds(line);
  if (ids.length === 0)
    return {
      line: {
        ...line,
        credit: null,
        noCreditReason: 'the line has no uid, parentId or sku, so no interaction can match it',
      },
    };
  let best: Interaction | undefined;
  let tooOld: Interaction | undefined;
  let after: Interaction | undefined;
  for (const v of scope.mine)
    for (const i of v.interactions) {
      if (i.userId !== scope.userId || !touches(i, ids)) continue;
      if (i.time > scope.time) {
        after ??= i;
        continue;
      }
      if (scope.time - i.time > scope.windowMs) {
        if (!tooOld || i.time > tooOld.time) tooOld = i;
        continue;
      }
      if (!best || i.time > best.time || (i.time === best.time && i.eventId > best.eventId))
        best = i;
    }
  if (best) return { line: { ...line, credit: creditOf(best, scope) } };
  const product = `"${ids[0]}"`;
  const lost = lostCredit(ids, scope);
  let reason: string;
  let replaced: Interaction | undefined;
  // a click the shopper made but the service rejected is why, before any older or later one
  if (lost)
    reason = `the ${lost.event} of ${product} by userId "${scope.userId}" (${lost.eventId}) was rejected by the service (${lost.why}), so it earns no credit: fix that ${lost.event} (the schema finding on its page) and the line is credited to it`;
  else if (tooOld)
    reason = `the latest ${tooOld.event} of ${product} by userId "${scope.userId}" (${tooOld.eventId}) was ${hours(scope.time - tooOld.time)} before the order, outside the ${hours(scope.windowMs)} attribution window (attribution.windowHours)`;
  else if (after)
    reason = `the only ${after.event} of ${product} by userId "${scope.userId}" (${after.eventId}) is timestamped after the order`;
  else if ((replaced = replacedClick(ids, scope))) {
    reason = `the credit was lost to a userId change: userId "${replaced.userId}" of the same browser made the ${replaced.event} of ${product} (${replaced.eventId}) and held the cart the order bought, then the order came under the new userId "${scope.userId}" (order-user-reset: a new Beacon or cleared storage, most often at login); keep the userId across login and the line is credited to it`;
  } else {
    const other = scope.visit?.interactions.find(
      (i) => i.userId !== scope.userId && touches(i, ids),
    );
    const elsewhere = scope.elsewhere;
    const clicked = other || elsewhere ? undefined : otherInteraction(ids, scope);
    reason = other
      ? `no clickthrough or addtocart of ${product} by the order's userId "${scope.userId}"; userId "${other.userId}" clicked it in this visit (${other.eventId}): the shopper's identity changed (visit-user-changed)`
      : elsewhere
        ? `the order came in a visit of its own on another origin, under a new userId "${scope.userId}": what the shopper clicked and added is under userId "${elsewhere.userId}" of visit "${elsewhere.sessionId}" on ${elsewhere.origin}, whose cart (${elsewhere.eventId}) the order bought (order-other-domain); pass the storefront's userId and sessionId to the payment domain and the line is credited`
        : clicked
          ? `no clickthrough or addtocart of ${product} by userId "${scope.userId}" before the order, though that userId ${clicked.event === 'clickthrough' ? 'clicked' : 'added'} ${idList(clicked.ids)} (${clicked.eventId}) in the attribution window: if that is this product, the order's (or cart's) ids are not the tile's (a line is credited through a uid, parentId or sku the tile sent; this line has ${idList(ids)})`
          : `no clickthrough or addtocart of ${product} by userId "${scope.userId}" before the order (the shopper did not reach it through search, category, autocomplete or recommendations)`;
  }
  return { line: { ...line, credit: null, noCreditReason: reason }, ...(lost && { lost }) };
}

/** `"P600"`, `"P600", "sku-600"` (at most three) */
function idList(ids: string | readonly string[]): string {
  const list = typeof ids === 'string' ? [ids] : ids;
  return `${list
    .slice(0, 3)
    .map((id) => `"${id}"`)
    .join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''}`;
}

/**
 * The latest click or quick add by the order's userId, within the window before the order, of another
 * product than the line's: said with a line no interaction credited, as the ids an integration may have
 * mapped otherwise on its tiles than in its order (or cart) script.
 */
function otherInteraction(ids: readonly string[], scope: CreditScope): Interaction | undefined {
  let found: Interaction | undefined;
  for (const v of scope.mine)
    for (const i of v.interactions) {
      if (i.userId !== scope.userId || touches(i, ids)) continue;
      if (i.time > scope.time || scope.time - i.time > scope.windowMs) continue;
      if (!found || i.time > found.time) found = i;
    }
  return found;
}

/**
 * The latest rejected click or quick add of the line's product by the order's userId before the order and
 * within the attribution window: the one that would have credited the line, had the service taken it.
 */
function lostCredit(ids: readonly string[], scope: CreditScope): LostInteraction | undefined {
  let lost: LostInteraction | undefined;
  for (const v of scope.mine)
    for (const i of v.lostInteractions ?? []) {
      if (i.userId !== scope.userId || !touches(i, ids)) continue;
      if (i.time > scope.time || scope.time - i.time > scope.windowMs) continue;
      if (!lost || i.time > lost.time) lost = i;
    }
  return lost;
}

/**
 * The latest click or quick add of the line's product, within the window before the order, by the userId
 * the order's replaced (`CreditScope.replaced`): the one that would have credited it under one userId.
 */
function replacedClick(ids: readonly string[], scope: CreditScope): Interaction | undefined {
  const replaced = scope.replaced;
  if (!replaced) return undefined;
  let found: Interaction | undefined;
  for (const v of replaced.visits)
    for (const i of v.interactions) {
      if (i.userId !== replaced.userId || !touches(i, ids)) continue;
      if (i.time > scope.time || scope.time - i.time > scope.windowMs) continue;
      if (!found || i.time > found.time) found = i;
    }
  return found;
}

function creditOf(i: Interaction, scope: CreditScope): CreditDto {
  const s = i.source;
  // the issued response (or the page URL) does not change: parsed once per response
  if (s.q === undefined)
    s.q =
      s.kind === 'search' || s.kind === 'autocomplete' || s.kind === 'category'
        ? (scope.issuedQuery?.(scope.siteId, s.responseId) ?? urlQuery(s.pageUrl) ?? null)
        : null;
  const q = s.q ?? undefined;
  return {
    kind: s.kind,
    responseId: s.responseId,
    ...(q !== undefined && q !== '' && { q }),
    ...(s.tag && { tag: s.tag }),
    event: i.event,
    eventId: i.eventId,
    pageLoadId: s.pageLoadId,
  };
}
