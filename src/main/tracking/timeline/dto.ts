// Engine state → the admin API's timeline DTOs (src/shared/timeline.ts).
import type {
  PageTimelineDto,
  PageTimelineHeaderDto,
  PageVerdictDto,
  PageTimelineSummaryDto,
  Severity,
  SeverityCounts,
  TimelineCounts,
  TimelineEventDto,
  TimelineFindingDto,
  TimelineResponseDto,
  TimelineResponseHeadDto,
  TimelineRuleId,
} from '../../../shared/timeline';
import { RULE_IDS, widerScope } from './rule-list';
import type { ResponseKind } from '../../../shared/kinds';
import { visitEventDto } from '../visits/events';
import { mayFollow, withCauses } from './causes';
import { findingDto, type Finding } from '../finding';
import { severityWeight, type TimelineEvent } from './model';
import type { Page } from './page';
import type { Response } from './response';

function counts(page: Page): TimelineCounts {
  return {
    events: page.accepted + page.rejected,
    accepted: page.accepted,
    rejected: page.rejected,
    responses: page.responses.size,
    errors: page.errors,
    warnings: page.warnings,
    infos: page.infos,
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Responses in the order they first appeared on the page (the map's insertion order). */
function responsesInOrder(page: Page): Iterable<Response> {
  return page.responses.values();
}

const RULE_ORDER = new Map<string, number>(RULE_IDS.map((id, i) => [id, i]));

/**
 * Errors first, then warnings, then info; within a severity in catalogue order; a finding that follows
 * from another right after it, with `causedBy`; each with its words written (`findingDto`).
 */
export function allFindings(page: Page): TimelineFindingDto[] {
  return sortedFindings(page).map(findingDto);
}

/** The page's findings as kept: its page rules', its visit's, then each response's in order. */
export function keptFindings(page: Page): Finding[] {
  const all = [...page.pageFindings, ...page.visitFindings];
  for (const r of responsesInOrder(page)) for (const f of r.findings) all.push(f);
  return all;
}

/** The page's findings as kept, in `allFindings`' order. */
function sortedFindings(page: Page): Finding[] {
  return withCauses(
    keptFindings(page).sort(
      (a, b) =>
        severityWeight(a.severity) - severityWeight(b.severity) ||
        RULE_ORDER.get(a.rule)! - RULE_ORDER.get(b.rule)!,
    ),
  );
}

/**
 * The page's findings as kept, each that follows from another with `causedBy` (as `allFindings` gives
 * them, unsorted and without their words): what readiness reads of a page (its warnings and errors count
 * against rows, its infos are said by the rows still unseen), without sorting the findings of every page.
 */
export function judgedOf(page: Page): Finding[] {
  const all = keptFindings(page);
  // a warning may follow from an info finding: causes are found among them all
  return all.length > 1 ? withCauses(all) : all;
}

// The DTOs below are built field by field in their keys' order (the order JSON reports write them in),
// each optional field set where it goes: an object literal with a spread in it is copied by a slower path,
// and `check` builds one per event of every page.

export function eventDto(e: TimelineEvent): TimelineEventDto {
  const dto: Partial<TimelineEventDto> = {
    id: e.id,
    seq: e.seq,
    arrival: e.arrival,
    event: e.event,
    kind: e.kind,
  };
  if (e.tag) dto.tag = e.tag;
  dto.accepted = e.accepted;
  dto.status = e.status;
  dto.receivedAt = e.receivedAt;
  if (e.clockOffsetMs !== undefined) dto.clockOffsetMs = e.clockOffsetMs;
  dto.timestamp = e.timestamp;
  dto.arrivedLate = e.arrivedLate;
  dto.responseId = e.responseId;
  dto.uids = e.results.map((i) => i.uid);
  dto.bannerUids = e.banners.map((b) => b.uid);
  if (e.redirect !== undefined) dto.redirect = e.redirect;
  dto.sessionId = e.sessionId;
  dto.userId = e.userId;
  dto.pageUrl = e.pageUrl;
  dto.errors = e.errors;
  return dto as TimelineEventDto;
}

/**
 * What a page's full view and its list summary both say about it. `following`: of its findings, those that
 * follow from another (`followingOf`).
 */
function pageHeader(page: Page, following: SeverityCounts | undefined): PageTimelineHeaderDto {
  const header: PageTimelineHeaderDto = {
    siteId: page.siteId,
    pageKind: page.pageKind,
    sessionId: page.sessionId,
    userId: page.userId,
    pageLoadId: page.pageLoadId,
    pageUrl: page.pageUrl,
    verdict: page.verdict,
    firstSeen: iso(page.firstSeenMs),
    lastSeen: iso(page.lastSeenMs),
    counts: counts(page),
  };
  if (following) header.following = following;
  return header;
}

/** Of findings, those that follow from another (they carry `causedBy`), by severity; undefined for none. */
export function followingOf(
  findings: readonly Pick<TimelineFindingDto, 'severity' | 'causedBy'>[],
): SeverityCounts | undefined {
  let out: SeverityCounts | undefined;
  for (const f of findings) {
    if (f.causedBy === undefined) continue;
    out ??= { errors: 0, warnings: 0, infos: 0 };
    if (f.severity === 'error') out.errors++;
    else if (f.severity === 'warning') out.warnings++;
    else out.infos++;
  }
  return out;
}

export function pageDto(page: Page): PageTimelineDto {
  return pageWith(page, true) as PageTimelineDto;
}

/** The page's verdict: its findings and responses, none of its events (the text and JUnit reports). */
export function pageVerdictDto(page: Page): PageVerdictDto {
  return pageWith(page, false);
}

/** The page, with its events or without them: the keys in the same order either way. */
function pageWith(page: Page, events: boolean): PageVerdictDto {
  const findings = allFindings(page);
  const dto: Partial<PageTimelineDto> = pageHeader(page, followingOf(findings));
  if (page.judgedAsFinished) dto.judgedAsFinished = true;
  const responses: TimelineResponseHeadDto[] = [];
  for (const r of responsesInOrder(page)) {
    const rd: Partial<TimelineResponseDto> = { responseId: r.responseId, kind: r.kind };
    if (r.tag) rd.tag = r.tag;
    if (events) rd.events = r.events.map(eventDto);
    responses.push(rd as TimelineResponseHeadDto);
  }
  dto.responses = responses as TimelineResponseDto[];
  if (events && page.visitEvents.length > 0) dto.visitEvents = page.visitEvents.map(visitEventDto);
  dto.findings = findings;
  return dto as PageVerdictDto;
}

/**
 * The rules the page has findings of, as it was last judged: its page rules' counts (kept on every
 * judging, where their findings are built only by an exact one), its visit's and its responses' findings.
 */
export function pageRules(page: Page): Set<TimelineRuleId> {
  const rules = new Set<TimelineRuleId>();
  for (const [rule, n] of Object.entries(page.pageRuleCounts ?? {}))
    if (n > 0) rules.add(rule as TimelineRuleId);
  for (const f of page.visitFindings) rules.add(f.rule);
  for (const r of responsesInOrder(page)) for (const f of r.findings) rules.add(f.rule);
  return rules;
}

type Levelled = Pick<TimelineFindingDto, 'rule' | 'severity' | 'defaultSeverity'>;

/** A finding the config set to another severity than its rule's own is written into `out` (made when needed). */
function noteLevel(out: Record<string, Severity> | undefined, f: Levelled) {
  if (f.defaultSeverity === undefined) return out;
  (out ??= {})[f.rule] = f.severity;
  return out;
}

/** Of a page's findings, those of wider-scope rules by severity; undefined when there are none. */
function scopedCounts(
  findings: readonly Pick<TimelineFindingDto, 'rule' | 'severity'>[],
): PageTimelineSummaryDto['scoped'] | undefined {
  let out: { errors: number; warnings: number; infos: number } | undefined;
  for (const f of findings) {
    if (widerScope(f.rule) === undefined) continue;
    out ??= { errors: 0, warnings: 0, infos: 0 };
    if (f.severity === 'error') out.errors++;
    else if (f.severity === 'warning') out.warnings++;
    else out.infos++;
  }
  return out;
}

export function pageSummary(page: Page): PageTimelineSummaryDto {
  const rules = pageRules(page);
  // findings are listed only for a page holding a wider-scope rule (most pages hold none)
  const scoped = [...rules].some((r) => widerScope(r) !== undefined)
    ? scopedCounts(keptFindings(page))
    : undefined;
  // and which of them follow from another only for a page whose rules may (most pages' may not)
  const following = mayFollow(rules) ? followingOf(sortedFindings(page)) : undefined;
  const responseIds: string[] = [];
  const kinds = new Set<ResponseKind>();
  // the severities the config set: page rules' as counted, response and visit rules' as their findings say
  let severities = page.pageRuleLevels ? { ...page.pageRuleLevels } : undefined;
  for (const f of page.visitFindings) severities = noteLevel(severities, f);
  for (const r of responsesInOrder(page)) {
    responseIds.push(r.responseId);
    kinds.add(r.kind);
    for (const f of r.findings) severities = noteLevel(severities, f);
  }
  if (severities && Object.keys(severities).length === 0) severities = undefined;
  return {
    ...pageHeader(page, following),
    responseIds,
    kinds: [...kinds],
    rules: RULE_IDS.filter((id) => rules.has(id)),
    ...(severities && { severities }),
    ...(scoped && { scoped }),
  };
}

/** A list summary of a page DTO (a page judged as finished is summarised from what it was judged). */
export function summaryOf(page: PageTimelineDto): PageTimelineSummaryDto {
  const {
    responses,
    findings,
    visitEvents: _visitEvents,
    judgedAsFinished: _judgedAsFinished,
    ...header
  } = page;
  const rules = new Set(findings.map((f) => f.rule));
  const scoped = scopedCounts(findings);
  let severities: Record<string, Severity> | undefined;
  for (const f of findings) severities = noteLevel(severities, f);
  return {
    ...header,
    responseIds: responses.map((r) => r.responseId),
    kinds: [...new Set(responses.map((r) => r.kind))],
    rules: RULE_IDS.filter((id) => rules.has(id)),
    ...(severities && { severities }),
    ...(scoped && { scoped }),
  };
}
