// Timeline DTOs (admin API, SSE `timeline` messages, reports, `search-sandbox check --format json`) and the
// shape of the rule list (`GET /_sandbox/rules`). Stable: the UI and users' scripts read these shapes.
import type { BehaviourInfoDto } from './client-model';
import type { ResponseKind } from './kinds';
import type { VisitEventDto, VisitPageKind } from './visits';
import type { Severity, Verdict } from './verdict';
import { encodeRoutePart } from './text';

export type { Severity, Verdict } from './verdict';

/**
 * A rule id (`missing-render`, `no-impression`, …). Each rule declares its own id in its module; the
 * sandbox lists them all at `GET /_sandbox/rules` (README, "The rules").
 */
export type TimelineRuleId = string;

/** What a rule judges: page kinds, or the whole visit (last), in the order lists show them. */
export const RULE_APPLIES_TO = [
  'search',
  'category',
  'autocomplete',
  'recommendations',
  'bundles',
  'product',
  'cart',
  'order',
  'login',
  'visit',
] as const;
export type RuleAppliesTo = (typeof RULE_APPLIES_TO)[number];
/** `page`: its findings are about one page; `session`/`site`: listed once per session or site. */
export type RuleScope = 'page' | 'session' | 'site';

/** One rule as `GET /_sandbox/rules` and `sandbox.rules()` list it. */
export interface RuleInfoDto {
  id: TimelineRuleId;
  /** a few words for lists and drop-downs */
  title: string;
  /** what the rule catches */
  description: string;
  /** what the beacon v2 spec (or the provider's client) expects */
  expects: string;
  appliesTo: RuleAppliesTo[];
  defaultSeverity: 'off' | Severity;
  /** the one-line fix its findings carry */
  fix: string;
  scope: RuleScope;
}

/**
 * One rule as `GET /_sandbox/rules/{id}` and `sandbox.rule(id)` explain it: its declaration, each message its
 * findings may carry with the fix that goes with it, and the behaviours of the provider's client it checks.
 */
export interface RuleDetailDto extends RuleInfoDto {
  /** each message id its findings carry, its text (`{{placeholders}}` filled by a finding's data) and its fix */
  messages: Array<{ id: string; text: string; fix: string }>;
  /** the events whose arrival can change its findings (`request`: any request of the page) */
  listens: string[];
  /** rules whose finding, when it names the same events, is the cause of this one's */
  explainedBy: string[];
  /** the messages of its own `explainedBy` is about, when not all of them (the others name bugs of their own) */
  explainedMessages?: string[];
  /** why it does not judge the page kinds its appliesTo leaves out, per kind */
  notJudged: Record<string, string>;
  /** the behaviours of the provider's client whose broken invariant its findings name */
  behaviours: BehaviourInfoDto[];
}

/** What every event on a page timeline carries, a search event or a visit event. */
export interface PageEventDto {
  /** the recorded event's id (`ev_…`), or `line:N` / `entry:N` for offline input */
  id: string;
  /** arrival order across the sandbox (or the input) */
  seq: number;
  /** arrival order on this page, 1-based */
  arrival: number;
  accepted: boolean;
  status: number;
  /** sandbox receive time (ISO 8601); null when the input had none (NDJSON of bare bodies) */
  receivedAt: string | null;
  /** the sandbox clock minus real time when it was received (ms), when the clock was moved (RecordedEvent.clockOffsetMs) */
  clockOffsetMs?: number;
  /** `context.timestamp` exactly as sent; null when absent */
  timestamp: string | null;
  sessionId: string;
  userId: string;
  pageUrl: string;
  /** validation messages of a rejected event */
  errors: string[];
}

/** One recorded search event as it sits on a page timeline. */
export interface TimelineEventDto extends PageEventDto {
  /** `render` | `redirect` | `impression` | `clickthrough` | `addtocart` */
  event: string;
  /** the beacon v2 category it was sent to (`search`, `category`, `autocomplete`, `recommendations`, `bundles`) */
  kind: ResponseKind;
  /** `data.tag` (the recommendation profile) of recommendations and bundles events */
  tag?: string;
  /** true when an event that arrived earlier on this page carries a later timestamp (the client sent it late) */
  arrivedLate: boolean;
  responseId: string;
  /** `data.results[].uid` (impression, clickthrough, addtocart) */
  uids: string[];
  /** `data.banners[].uid` */
  bannerUids: string[];
  /** `data.redirect` of a redirect event */
  redirect?: string;
}

/** Which response, without its events: what a page's verdict says of it. */
export interface TimelineResponseHeadDto {
  /** '' groups events that carried no readable responseId */
  responseId: string;
  /** what the response is: a page's responses are keyed by kind + responseId (+ tag) */
  kind: ResponseKind;
  /** the widget's profile tag (recommendations and bundles) */
  tag?: string;
}

export interface TimelineResponseDto extends TimelineResponseHeadDto {
  /** ordered by `context.timestamp`, ties by arrival */
  events: TimelineEventDto[];
}

/** A finding's data: the values of its message's placeholders. */
export type FindingData = Readonly<Record<string, string | number>>;

export interface TimelineFindingDto {
  /** stable within a page, e.g. `missing-render:a907…` */
  id: string;
  rule: TimelineRuleId;
  severity: Severity;
  /** what happened (ids, uids) and what the spec expects: its rule's message `messageId` filled with `data` */
  message: string;
  /** which of its rule's messages (the rule's meta declares them by id) */
  messageId: string;
  /** what fills the message's and the fix's placeholders: ids, names, counts */
  data: FindingData;
  /** how to fix it, one line (filled with the same data) */
  fix: string;
  /** the events involved (at most 50; see eventCount) */
  eventIds: string[];
  /** how many events are involved in all */
  eventCount: number;
  /** the search response the finding is about, when it is about one */
  responseId?: string;
  /** the kind (and tag) of that response */
  kind?: ResponseKind;
  tag?: string;
  /**
   * the widget whose response it is about, when that is not the tag its events carried (a widget's events
   * sent with another widget's tag: the tag that rendered their responseId); headings name it
   */
  widget?: string;
  /** the rule's own severity, when the user's `rules` set another (README, "… tune strictness") */
  defaultSeverity?: Severity;
  /** where the effective severity was set: `rules in ./search-sandbox.config.json`, `expectClean({rules})`, `--rule` */
  severityFrom?: string;
  /**
   * the `id` of the finding on the same page that names the cause of this one (a stale responseId, say,
   * of which a missing render follows): lists show this one folded under it
   */
  causedBy?: string;
  /** the behaviour of the provider's client the traffic broke (an id of docs/client-model.md) */
  behaviour?: string;
}

/** A page's findings of each severity. */
export interface SeverityCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export interface TimelineCounts {
  events: number;
  accepted: number;
  rejected: number;
  responses: number;
  errors: number;
  warnings: number;
  infos: number;
}

/** What both views of a page say about it: the full page and its list summary. */
export interface PageTimelineHeaderDto {
  siteId: string;
  /** what the page is in its visit: the kind of its weightiest event (README, "The whole visit…") */
  pageKind: VisitPageKind;
  /** the page's first sessionId (a change is a `context-drift` finding) */
  sessionId: string;
  userId: string;
  /** '' collects rejected events that carried no readable pageLoadId */
  pageLoadId: string;
  /** pageUrl of the page's first event */
  pageUrl: string;
  verdict: Verdict;
  /** earliest and latest receive time (ISO 8601), null for offline input without receive times */
  firstSeen: string | null;
  lastSeen: string | null;
  counts: TimelineCounts;
  /**
   * Of `counts`' errors, warnings and infos, those that follow from another finding of the page (they carry
   * `causedBy`): one bug that draws several findings counts all of them, and says how many follow from
   * another (`findingCount`). Absent when none does.
   */
  following?: SeverityCounts;
}

/**
 * A page's verdict: its findings, and its responses without their events. What the text and JUnit
 * reports write of a page (`check` builds no events for them).
 */
export interface PageVerdictDto extends PageTimelineHeaderDto {
  /**
   * The page was still pending (waiting for impressions) and was judged as if it has ended: reports,
   * expectClean and check do so; the live timeline may show it pending.
   */
  judgedAsFinished?: true;
  responses: TimelineResponseHeadDto[];
  findings: TimelineFindingDto[];
}

/** A page (one `context.pageLoadId` of one site) with its events and findings. */
export interface PageTimelineDto extends PageVerdictDto {
  responses: TimelineResponseDto[];
  /** the page's product, cart, order and login events in timestamp order (absent when it has none) */
  visitEvents?: VisitEventDto[];
}

/** What lists and the SSE `timeline` message carry: a page without its events. */
export interface PageTimelineSummaryDto extends PageTimelineHeaderDto {
  /** responseIds on the page, in order of first appearance */
  responseIds: string[];
  /** the kinds of response on the page, in order of first appearance */
  kinds: ResponseKind[];
  /** rule ids with at least one finding on the page */
  rules: TimelineRuleId[];
  /**
   * Of `rules`, those whose findings on the page carry a severity other than the rule's own (the config's
   * `rules` or the site's `accounts[].rules` set their level): rule id → the severity in force. A rule not
   * named keeps its `defaultSeverity` (`GET /_sandbox/rules`). Absent when every rule keeps its own.
   */
  severities?: Record<TimelineRuleId, Severity>;
  /**
   * Of `counts`, the findings of rules whose scope is wider than the page (`session` or `site`, such as
   * production mode's `dev-flag`): a list says them once per session or site, not on every row. Absent
   * when there are none.
   */
  scoped?: SeverityCounts;
}

/** A page as `GET /_sandbox/timelines?view=keys` lists it: which page, nothing of what it holds. */
export interface PageKeyDto {
  siteId: string;
  pageLoadId: string;
}

/**
 * `GET /_sandbox/timelines`: its pages are full pages, or with `view=summary` summaries, or with
 * `view=keys` only which pages they are.
 */
export interface TimelineListDto<P = PageTimelineDto> {
  /** oldest first (by first receive time); `limit` keeps the newest */
  pages: P[];
  /** pages matching the filters before `limit` */
  total: number;
  verdicts: Record<Verdict, number>;
}

/** `GET /_sandbox/report?format=json` and `search-sandbox check --format json` */
export interface TimelineReportDto {
  generatedAt: string;
  /** where the events came from: `sandbox` or the input file names */
  source: string;
  verdicts: Record<Verdict, number>;
  pages: PageTimelineDto[];
}

/** A rule's level in the user's `rules` config (ESLint style); `off` removes it. */
export const RULE_LEVELS = ['off', 'info', 'warning', 'error'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];
/** `{"no-impression": "off", "timestamp-skew": "info"}`: rule id → level. */
export type RulesConfig = Partial<Record<string, RuleLevel>>;

/**
 * ` (category response "r1")`, ` (recommendations "similar" response "r2")` — what a finding is about, for
 * kinds other than search (search findings read as they always did, so scripts matching them keep working):
 * a widget's response is named by the widget that rendered it (`widget`), not a wrong tag its events carried.
 */
export function findingSubject(f: TimelineFindingDto): string {
  if (f.responseId === undefined || f.kind === undefined || f.kind === 'search') return '';
  // a widget's events sent with another widget's tag are about the widget that rendered the response
  const tag = f.widget ?? f.tag;
  return ` (${f.kind}${tag ? ` "${tag}"` : ''} response "${f.responseId}")`;
}

/**
 * How many of a page's findings follow from another finding (`causedBy`): `2 follow from another finding`.
 * The one wording of every place that counts a page's findings (the timelines list, the page view, check's
 * JUnit, expectClean, the desktop notice), so that one bug reads as one.
 */
export function followNote(following: number): string {
  return `${following} ${followVerb(following)} from another finding`;
}

/** `follows` for one finding, `follow` for several: the note's verb, where a list has room for no more. */
export function followVerb(following: number): string {
  return following === 1 ? 'follows' : 'follow';
}

/**
 * A list of findings folded as every view shows them: each that follows from another of the list (its
 * `causedBy`) under that one, the rest leading, in the list's order. The page view, an order's and a
 * visit's findings fold through this one function, so one bug reads as one wherever it is listed.
 */
export function foldFindings<F extends { id: string; causedBy?: string }>(
  findings: readonly F[],
): { leading: F[]; following: ReadonlyMap<string, F[]> } {
  const ids = new Set(findings.map((f) => f.id));
  const following = new Map<string, F[]>();
  for (const f of findings)
    if (f.causedBy !== undefined && f.causedBy !== f.id && ids.has(f.causedBy))
      following.set(f.causedBy, [...(following.get(f.causedBy) ?? []), f]);
  const leading = findings.filter((f) => f.causedBy === undefined || !following.has(f.causedBy));
  return { leading, following };
}

/** How many findings of a page follow from another, of every severity (its `following`). */
export function followingCount(following: SeverityCounts | undefined): number {
  return following ? following.errors + following.warnings + following.infos : 0;
}

/** A count of findings, and how many of them follow from another: `3 errors (2 follow from another finding)`. */
export function findingCount(
  n: number,
  noun: 'error' | 'warning' | 'info' | 'finding',
  following = 0,
): string {
  const count = `${n} ${n === 1 || noun === 'info' ? noun : `${noun}s`}`;
  return following > 0 ? `${count} (${followNote(following)})` : count;
}

/** A page's key among all sites' pages, `siteId/pageLoadId`: what the UI's links to a page carry. */
export function pageKey(p: { siteId: string; pageLoadId: string }): string {
  return `${p.siteId}/${p.pageLoadId}`;
}

/** The UI's link to a page (after the sandbox's URL): `#/timelines/demo42%2Fpl-1`. */
export function pageViewHash(p: { siteId: string; pageLoadId: string }): string {
  return `#/timelines/${encodeRoutePart(pageKey(p))}`;
}
