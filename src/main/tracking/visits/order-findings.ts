// What is wrong with an order, on the order itself: the findings that concern it are read from its order
// page (and, for the first of a repeated orderId, from the pages of its repeats, and from the pages of the
// interactions its lines are credited to), so the rules stay where they are and an order never says less
// than its pages.
import type { TimelineFindingDto } from '../../../shared/timeline';
import type { OrderFindingDto } from '../../../shared/visits';
import type { OrderCredit, OrderEntry } from './order-book';

/**
 * A finding as an order reads it, with `wholeVisit` when its rule judges the whole visit (appliesTo
 * `visit`: an identity that changed, a mode that differs). Such a finding names no event of the order, yet
 * it concerns every order on its page: a changed userId costs the lines their credit, a different mode
 * moves the order in or out of production reports.
 */
export type OrderPageFinding = TimelineFindingDto & { wholeVisit?: boolean };

/** The findings of a page as judged now; undefined when the page is gone (retention, reset). */
export type PageFindings = (pageKey: string) => readonly OrderPageFinding[] | undefined;

/** Does the finding name one of the order's line product ids, as the rules quote them ("id")? */
function namesLine(f: TimelineFindingDto, lineIds: readonly string[]): boolean {
  return lineIds.some((id) => id !== '' && f.message.includes(JSON.stringify(id)));
}

/**
 * Does a finding on the order's own page concern the order or its lines? Not one that names another order
 * of the page and not this one (a reloaded thank-you page's second order: its prices, its totals).
 */
export function concernsOrder(
  f: OrderPageFinding,
  order: Pick<OrderEntry, 'eventId' | 'lineIds' | 'pageOrders'>,
) {
  if (f.eventIds.includes(order.eventId) || f.wholeVisit === true) return true;
  if (order.pageOrders.length > 0 && f.eventIds.some((id) => order.pageOrders.includes(id)))
    return false;
  return namesLine(f, order.lineIds);
}

/**
 * Every finding that concerns the order, each once (by its page and id), in the pages' order. One that
 * follows from another finding of its page (`causedBy`) keeps that link when the cause is the order's too,
 * naming it by its id among the order's findings.
 */
export function orderFindings(order: OrderEntry, pageFindings: PageFindings): OrderFindingDto[] {
  const out: OrderFindingDto[] = [];
  /** page key + the page finding's id → its id among the order's */
  const seen = new Map<string, string>();
  const ids = new Set<string>();
  const add = (pageKey: string, f: OrderPageFinding, interaction?: OrderCredit) => {
    const k = `${pageKey}\u0000${f.id}`;
    if (seen.has(k)) return;
    // two pages may hold findings of one id (a rule's finding about the same key): the later is numbered
    let id = f.id;
    for (let n = 2; ids.has(id); n++) id = `${f.id}#${n}`;
    seen.set(k, id);
    ids.add(id);
    // a page lists a cause before what follows from it (causes.ts), so the cause is already here
    const causedBy =
      f.causedBy === undefined ? undefined : seen.get(`${pageKey}\u0000${f.causedBy}`);
    out.push({
      id,
      ...(causedBy !== undefined && { causedBy }),
      rule: f.rule,
      severity: f.severity,
      message: f.message,
      fix: f.fix,
      ...(interaction && {
        interaction: {
          event: interaction.event,
          eventId: interaction.eventId,
          pageLoadId: interaction.pageLoadId,
        },
      }),
    });
  };
  for (const f of pageFindings(order.pageKey) ?? [])
    if (concernsOrder(f, order)) add(order.pageKey, f);
  // a repeat's order-duplicate (or order-reloaded) names the first order among its events: the first is
  // counted twice too
  for (const key of order.repeatPages) {
    if (key === order.pageKey) continue;
    for (const f of pageFindings(key) ?? []) if (f.eventIds.includes(order.eventId)) add(key, f);
  }
  // a line's credit rests on its click: what is wrong with the click is wrong with the credit, and a click
  // the service rejected (its schema finding) is why a line has none
  for (const credit of [...order.credits, ...order.lost])
    for (const f of pageFindings(credit.pageKey) ?? [])
      if (f.eventIds.includes(credit.eventId)) add(credit.pageKey, f, credit);
  return out;
}

/** The order's JSON with its findings and duplicateOf, spliced into the cached JSON of its lines. */
export function orderJson(order: OrderEntry, pageFindings: PageFindings): string {
  const findings = JSON.stringify(orderFindings(order, pageFindings));
  const dup =
    order.duplicateOf === undefined ? '' : `,"duplicateOf":${JSON.stringify(order.duplicateOf)}`;
  return `${order.json.slice(0, -1)},"findings":${findings}${dup}}`;
}

/** The orders' JSON, each with its findings, read as the list is written. */
export function* ordersJson(
  orders: Iterable<OrderEntry>,
  pageFindings: PageFindings,
): Generator<string> {
  for (const o of orders) yield orderJson(o, pageFindings);
}
