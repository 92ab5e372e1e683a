// What a timeline rule is: a pure check over one response of any kind (or one page's tallies) that returns
// findings. Rules never scan other pages or history; the engine decides when to run them.
import type { TimelineSettings } from '../../../config';
import type { RuleAppliesTo, RuleScope, Severity } from '../../../../shared/timeline';
import type { ResponseKind } from '../../../../shared/kinds';
import type { RecordedEvent } from '../../../../shared/events';
import {
  type FindingDraft,
  type PageState,
  type ResponseState,
  type TimelineEvent,
} from '../model';
import type { ProvenanceSource } from '../../../search/provenance';
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
}

export interface RuleContext {
  settings: TimelineSettings;
  page: PageState;
  /** first page that carried this responseId on this site, among responses of the same kind */
  origin(responseId: string): ResponseOrigin | undefined;
  /** first event of any kind that carried this responseId on this site */
  kindOrigin(responseId: string): ResponseOrigin | undefined;
  /** what the companion search API issued and the site's catalog (search-provenance rules); absent offline */
  provenance?: ProvenanceSource;
}

/**
 * What a rule needs beyond its response's events, declared so the engine schedules it from this and
 * names no rule (ESLint style): it never decides a severity (the user's `rules` do).
 */
export interface RuleNeeds {
  /** its findings depend on whether a later-timestamped event arrives anywhere on the page */
  laterEvents?: boolean;
  /** its finding explains every other finding about the response (a stale responseId): report it alone */
  supersedes?: boolean;
  /** it judges only once the page has ended (gone idle, or judged as finished by a report) */
  pageEnd?: boolean;
  /** it reads what the companion search API issued (`ctx.provenance`) */
  provenance?: boolean;
  /** it reads the site's indexed catalog */
  catalog?: boolean;
  /** it reads where else on the site a responseId was seen (`ctx.origin`, `ctx.kindOrigin`) */
  origins?: boolean;
  /** it reads the whole visit (the visit book) */
  visit?: boolean;
  /** it reads the other responses of the page (their impressions): an event on one runs it on the others */
  pageResponses?: boolean;
}

/**
 * What a rule declares about itself (ESLint's `meta`): everything the rule list, the docs, the config's
 * validation, `GET /_sandbox/rules` and the engine's dispatch need. Its id is written here and nowhere else.
 */
export interface RuleMeta {
  id: string;
  /** a few words for lists and drop-downs */
  title: string;
  /** what the rule catches */
  description: string;
  /** what the beacon v2 spec (or the provider's client) expects */
  expects: string;
  /** the page kinds it judges, or `visit` */
  appliesTo: readonly RuleAppliesTo[];
  /** the severity of its findings unless the user's `rules` set another; it never decides one itself */
  defaultSeverity: Severity;
  /** the one-line fix its findings carry */
  fix: string;
  /** `page` (default): one finding per page; `session`/`site`: listed once per session or site */
  scope?: RuleScope;
  /** the events (`render`, `impression`, …; `request` for any request of the page) whose arrival can change its findings */
  listens: readonly string[];
  needs?: RuleNeeds;
  /** response kinds it is silent for, and why */
  exempt?: Partial<Record<ResponseKind, string>>;
  /** response kinds for which it holds with semantics of their own */
  kindNotes?: Partial<Record<ResponseKind, string>>;
}

export interface ResponseRule {
  meta: RuleMeta;
  judges: 'response';
  check(response: ResponseState, ctx: RuleContext): FindingDraft[];
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
