// What a timeline rule reads: its context (the page, what its meta's needs let it see), and the helpers its
// messages are written with. A rule is written with `defineRule` (rule.ts): the engine decides when it runs.
import type { TimelineSettings } from '../../timeline-settings';
import type { RecordedEvent } from '../../../../shared/events';
import type { ResponseKind } from '../../../../shared/kinds';
import type { TimelineEvent } from '../model';
import type { Finding } from '../../finding';
import type { Page } from '../page';
import type { Response } from '../response';
import type { ProvenanceSource } from '../../../search/provenance';
// every rule builds its findings with it (the visit rules too)
export { duration, finding } from '../../finding';
export { defineRule } from '../../rule';

/** Where a responseId was first seen (for `responseid-reused` and `responseid-cross-kind`). */
export interface ResponseOrigin {
  pageKey: string;
  pageLoadId: string;
  pageUrl: string;
  sessionId: string;
  eventId: string;
  kind: ResponseKind;
  /** the event that carried it first (`redirect`, `render`, …) */
  event: string;
  /** that event's time (its timestamp, else its receive time) */
  time: number;
  /** it carried context.dev: true */
  dev: boolean;
}

export interface RuleContext {
  settings: TimelineSettings;
  page: Page;
  /** first page that carried this responseId on this site, among responses of the same kind (`needs.origins`) */
  origin(responseId: string): ResponseOrigin | undefined;
  /** first event of any kind that carried this responseId on this site (`needs.origins`) */
  kindOrigin(responseId: string): ResponseOrigin | undefined;
  /**
   * what the companion search API issued (search-provenance rules); absent offline, and for a rule whose
   * meta does not declare `needs.provenance`
   */
  provenance?: ProvenanceSource;
  /** the site's search settings and indexed catalog; absent unless the meta declares `needs.catalog` */
  catalog?: CatalogSource;
}

/** What a rule that declares `needs.catalog` may ask of a site. */
export type CatalogSource = Pick<ProvenanceSource, 'site' | 'catalog'>;

/** What a response rule is given: the page's context, and a memo its rules share while the response is judged. */
export interface ResponseRuleContext extends RuleContext {
  /**
   * `find(response, ctx)`, computed once per run of this response's rules and shared by them: the rules
   * that split one check by severity (missing-render and its backfill, click-not-impressed and its at-exit
   * twin, …) read the same result.
   */
  shared<T>(find: (r: Response, ctx: ResponseRuleContext) => T): T;
  /**
   * `find(page)`, computed once per run of the page's response rules and shared by the responses judged in
   * it: what a rule reads of all of the page's responses (a controller's renders), read once, not once per
   * response (a page of thousands of responses read them all for each).
   */
  pageShared<T>(find: (page: Page) => T): T;
}

declare module '../../rule' {
  interface Handlers {
    /** one response (kind + responseId + tag) of a page: runs when an event its meta `listens` to arrives */
    response(response: Response, ctx: ResponseRuleContext): Finding[];
    /** a page's tallies (every request of the page, and the real service's answers) */
    page(page: Page, ctx: RuleContext): Finding[];
  }
  interface PageTallies {
    /**
     * how many findings `page` would return, from the tallies (and what its meta `needs`, as `page` reads
     * it): runs on every event, so it reads no event list
     */
    count(page: Page, ctx: RuleContext): number;
    /**
     * Counts what a recorded request says about the page beyond its events (the real service's answer);
     * true when the page's findings changed. Runs on every request of the page and on late answers.
     */
    tally?(page: Page, rec: RecordedEvent): boolean;
  }
}

export type { RuleMeta, RuleNeeds } from '../../rule-meta';
export { EVERY_PAGE_KIND, judgedIn, kindOwnBehaviour } from '../../rule-meta';
export { RESPONSE_KINDS } from '../../../../shared/kinds';

/** `a, b and 3 more` — keeps messages readable when a list is long. */
export function list(values: Iterable<string>, max = 5): string {
  const all = [...values];
  if (all.length === 0) return '(none)';
  const shown = all.slice(0, max);
  const rest = all.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length === 1) return shown[0]!;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

export function quoted(values: Iterable<string>, max = 5): string {
  return list(
    [...values].map((v) => `"${v}"`),
    max,
  );
}

/** An event as a developer finds it in the list: `impression ev_000012 (2026-…Z)`. */
export function describe(ev: TimelineEvent): string {
  return `${ev.event} ${ev.id}${ev.timestamp ? ` (${ev.timestamp})` : ''}`;
}

export { plural } from '../../../../shared/text';

export const INTERACTIONS = new Set(['impression', 'clickthrough', 'addtocart']);
