// The visit rules' run over one page: what makes the merchant's order and conversion reporting wrong
// (error) or loses the credit search earned (warning). Each finding sits on the page of the event that
// shows the problem, so timelines, reports, expectClean and check see it like any other. Nothing of what
// the provider's client sends is flagged: variants, quick adds, cart deltas, logins, discounts, no vat.
import type { Finding } from '../../finding';
import type { Judging } from '../../rule';
import type { VisitBook } from '../book';
import type { VisitEvent } from '../events';
import type { ShownOnPage, SkuOwners, VisitCatalog, VisitPage } from './types';
import { VisitView, type WholeVisit } from './utils/view';

export type { ShownOnPage, SkuOwners, VisitCatalog, VisitPage } from './types';
export { CONCURRENT_START_MS } from './utils/concurrent';
export { CLICK_FOLLOW_MS } from './utils/click-follow';

/**
 * The findings of the rules that judge the visit (the judge's table, from the one list) over one page; the
 * judge runs them when the page or its visit changed. Each rule sees the visit (and the book) only when
 * its meta declares `needs.visit`, the catalog only with `needs.catalog`.
 */
export function visitFindings(
  rules: ReadonlyArray<Judging<'visit'>>,
  page: VisitPage,
  book: VisitBook,
  catalog?: VisitCatalog,
  served?: SkuOwners,
  shown: (pageKey: string) => ShownOnPage | undefined = () => undefined,
): Finding[] {
  // run for every page judged (a search page has no visit events): a loop, no list or closure made for it
  const accepted =
    page.visitEvents.length === 0 ? NO_EVENTS : page.visitEvents.filter((v) => v.base.accepted);
  let visit: WholeVisit | undefined;
  const views: Array<VisitView | undefined> = [];
  let found: Finding[] | undefined;
  for (const rule of rules) {
    const needs = rule.meta.needs;
    const mask = (needs?.visit ? 1 : 0) | (needs?.catalog ? 2 : 0) | (needs?.provenance ? 4 : 0);
    let view = views[mask];
    if (!view) {
      if (needs?.visit)
        visit ??= {
          book,
          visit: page.accepted > 0 ? book.visitOf(page.siteId, page.sessionId) : undefined,
          shown,
        };
      views[mask] = view = new VisitView(
        accepted,
        needs?.visit ? visit : undefined,
        needs?.catalog ? catalog : false,
        needs?.provenance ? served : false,
      );
    }
    view.rule = rule.meta.id;
    for (const f of rule.visit(page, view)) (found ??= []).push(f);
  }
  return found ?? [];
}

const NO_EVENTS: readonly VisitEvent[] = Object.freeze([]);
