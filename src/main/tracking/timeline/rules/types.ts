// What a timeline rule is: a pure check over one response of any kind (or one page's tallies) that returns
// findings. Rules never scan other pages or history; the engine decides when to run them.
import type { TimelineSettings } from '../../timeline-settings';
import type { RecordedEvent } from '../../../../shared/events';
import type { ResponseKind } from '../../../../shared/kinds';
import {
  type FindingDraft,
  type PageState,
  type ResponseState,
  type TimelineEvent,
} from '../model';
import type { ProvenanceSource } from '../../../search/provenance';
import type { RuleMeta } from '../../rule-meta';
// every rule builds its findings with it (the visit rules too)
export { finding } from '../../finding';

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
  page: PageState;
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

/** What a response rule is given: the page's context, and a memo for this run of the response's rules. */
export interface ResponseRuleContext extends RuleContext {
  /**
   * `find(response, ctx)`, computed once per run of this response's rules: the rules that split one check
   * by severity (missing-render and its backfill, click-not-impressed and its at-exit twin, …) share it.
   */
  once<T>(find: (r: ResponseState, ctx: ResponseRuleContext) => T): T;
}

export type { RuleMeta, RuleNeeds } from '../../rule-meta';
export { EVERY_PAGE_KIND } from '../../rule-meta';

export interface ResponseRule {
  meta: RuleMeta;
  judges: 'response';
  check(response: ResponseState, ctx: ResponseRuleContext): FindingDraft[];
}

export interface PageRule {
  meta: RuleMeta;
  judges: 'page';
  /**
   * Counts what a recorded request says about the page beyond its events (the real service's answer);
   * true when the page's findings changed. Runs on every request of the page and on late answers.
   */
  tally?(page: PageState, rec: RecordedEvent): boolean;
  /** how many findings `check` would return, from the tallies alone (runs on every event) */
  count(page: PageState): number;
  check(page: PageState, ctx: RuleContext): FindingDraft[];
}

export type Rule = ResponseRule | PageRule;

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

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function seconds(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

export const INTERACTIONS = new Set(['impression', 'clickthrough', 'addtocart']);
