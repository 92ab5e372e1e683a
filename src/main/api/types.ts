// Public types of the package's programmatic API (`search-sandbox`): filters, options and answers.
// Imports only src/shared (plain DTOs), so the published declarations stay small and self-contained.
import type { ForwardStats, RecordedEvent, UpstreamAnswer } from '../../shared/events.js';
import type { FeedView, OutboxMessage } from '../../shared/indexing.js';
import type {
  PageTimelineDto,
  RuleLevel,
  RuleDetailDto as SandboxRuleDetailDto,
  RuleInfoDto as SandboxRuleInfoDto,
  RulesConfig,
  Severity,
  TimelineFindingDto,
  TimelineReportDto,
  TimelineRuleId,
} from '../../shared/timeline.js';
import type { ResponseKind } from '../../shared/kinds.js';
import type { RuleId } from '../../shared/rule-ids.generated.js';

export type { RecordedEvent, FeedView, OutboxMessage, PageTimelineDto, Severity, ResponseKind };
export type { ForwardStats, UpstreamAnswer };
export type { TimelineFindingDto, TimelineReportDto, TimelineRuleId, RuleLevel, RulesConfig };
export type { RuleId };

/**
 * One rule as `rules()` lists it. Its id is a `RuleId`, one of the ids this version's rules declare, so an
 * id read back from `rules()` goes back into `rule(id)`, `expectClean`'s `rule`, `rules` and `ignoreRules`
 * and the timelines' `rule` filter.
 */
export interface RuleInfoDto extends SandboxRuleInfoDto {
  id: RuleId;
}

/** One rule as `rule(id)` explains it (its id a `RuleId`, as `rules()` lists it). */
export interface RuleDetailDto extends SandboxRuleDetailDto {
  id: RuleId;
}

/**
 * Per-rule severity as the package takes it (`expectClean({ rules })`): rule id → level, ESLint style.
 * Its keys are the sandbox's rule ids: a misspelt one is a type error (from JavaScript, a TypeError).
 */
export type RuleLevels = { [id in RuleId]?: RuleLevel };
export type {
  VisitDto,
  VisitPageDto,
  VisitEventDto,
  CartItemDto,
  OrderDto,
  OrderLineDto,
  CreditDto,
  VisitFilter,
  OrderFilter,
  OrderFindingDto,
  OrdersSummaryDto,
  RevenueDto,
} from '../../shared/visits.js';

export type {
  ReadinessDto,
  ReadinessLack,
  ReadinessRowDto,
  ReadinessStatus,
  UnverifiedDto,
} from '../../shared/readiness.js';
export type { BehaviourInfoDto } from '../../shared/client-model.js';

/** What `expectReady` holds a site to. */
export interface ExpectReadyOptions {
  siteId: string;
  /**
   * behaviour ids (`cart.ledger`) or areas (`cart`) the site must show; default: the site's
   * `accounts[].readiness.expect` in the sandbox's config
   */
  expect?: string[];
  /**
   * the lowest severity of a finding that fails an expected behaviour: 'error' (default), 'warning' or
   * 'info' (any finding), as `check --readiness --fail-on` takes it
   */
  failOn?: 'error' | 'warning' | 'info';
}

/** A query value as the admin API takes it; undefined leaves the filter out. */
export type FilterValue = string | number | boolean | undefined;

/**
 * Filters of `GET /_sandbox/events` and `/_sandbox/wait`: the parameters the admin API declares for them,
 * and only those (a misspelt key is a type error). From JavaScript, another name is refused before any
 * request (a TypeError naming the method, the option and those it takes).
 */
export interface EventFilter {
  siteId?: string;
  category?: string;
  /** the category under its timelines name: search, category, autocomplete, recommendations or bundles */
  kind?: ResponseKind;
  event?: string;
  accepted?: boolean;
  responseId?: string;
  pageLoadId?: string;
  sessionId?: string;
  /** events after this seq or id */
  since?: number | string;
  before?: number | string;
  limit?: number;
}

export interface WaitOptions extends EventFilter {
  /** how many matching events to wait for (events already recorded count); default 1 */
  count?: number;
  /** milliseconds; default 10000 (the sandbox caps it at 120000) */
  timeout?: number;
}

/** Which pages: the filters the timelines and the report share, and only those, as EventFilter's. */
export interface PageFilter {
  siteId?: string;
  verdict?: 'pass' | 'warn' | 'fail';
  sessionId?: string;
  pageLoadId?: string;
  /** free text over pageUrl, ids and rule ids */
  q?: string;
  /** pages holding a response of this kind (search, category, autocomplete, recommendations, bundles) */
  kind?: ResponseKind;
  /** pages holding an event of this type (render, impression, pageview, …) */
  event?: string;
  /** pages with a finding of this rule, one of the ids `rules()` lists (none when the rule is off) */
  rule?: RuleId;
}

/** Filters of `GET /_sandbox/timelines`. */
export interface TimelineFilter extends PageFilter {
  /** at most this many pages, the newest (default 500) */
  limit?: number;
}

/**
 * Filters of `GET /_sandbox/report`: every page the filters keep (no limit), and the severity from which
 * a page fails the JUnit report.
 */
export interface ReportFilter extends PageFilter {
  /** 'error' (default), 'warning' or 'info' */
  failOn?: 'error' | 'warning' | 'info';
}

/**
 * The timeline filters (without verdict and limit) plus what makes a page fail, and only those (a misspelt
 * key is a type error; from JavaScript, a TypeError).
 */
export interface ExpectCleanOptions {
  siteId?: string;
  sessionId?: string;
  pageLoadId?: string;
  q?: string;
  /** only pages holding a response of this kind, e.g. 'category' */
  kind?: ResponseKind;
  /** only pages holding an event of this type, e.g. 'addtocart' */
  event?: string;
  /** only pages with a finding of this rule, one of the ids `rules()` lists */
  rule?: RuleId;
  /** the lowest severity that fails: 'error' (default), 'warning' or 'info' */
  failOn?: 'error' | 'warning' | 'info';
  /**
   * Per-rule severity for this assertion, ESLint style: rule id → level (off, info, warning, error), the
   * ids those `rules()` lists; it wins over the sandbox's config.
   */
  rules?: RuleLevels;
  /** rule ids whose findings are not counted (ids `rules()` lists) */
  ignoreRules?: RuleId[];
  /** pass when no page matches the filter (default false: "nothing was tracked" fails) */
  allowEmpty?: boolean;
}

/** What a passing expectClean checked. */
export interface CleanResult {
  pages: number;
  /** findings below failOn (or of ignored rules) that did not fail the check */
  ignored: TimelineFindingDto[];
}

/** What the companion search API issued for a responseId, as the search-provenance rules see it. */
export interface IssuedSearchResponse {
  responseId: string;
  siteId: string;
  [detail: string]: unknown;
}

export interface ResetOptions {
  siteId?: string;
  /** 'events' (default): events and timelines; 'all': also feeds, catalogs, issued responses and outbox */
  what?: 'events' | 'all';
}

/** What `reset` did. */
export interface ResetResult {
  reset: { what: 'events' | 'all'; siteId?: string };
  /** the events it forgot: 0 for a site that sent nothing since the last reset (or a misspelt siteId) */
  removed: number;
  /** the events kept (other sites') */
  retained: number;
  /**
   * for a siteId of no configured site that had no events, most likely a typo: says so and names the
   * nearest configured site (a site that has not sent yet is reset so too)
   */
  note?: string;
}

export interface ClockState {
  now: string;
  offsetMs: number;
  frozen: boolean;
}

export interface HealthState {
  /** unwritable: the data directory cannot take a write now (a full disk, no permission) */
  status: 'ok' | 'unwritable';
  /** with unwritable: which file, why, and what to do */
  problem?: string;
  version: string;
  configSource: string;
  dataDir: string | null;
  /** the siteIds of the config's accounts, in config order */
  sites: string[];
  warnings: string[];
  /** beacon forwarding to the real service (`accounts[].tracking.forward`): destinations and counts */
  forwarding: ForwardStats;
}

/** The sandbox clock (test-clock style): time moves only when told, timers it passes fire in order. */
export interface SandboxClockApi {
  get(): Promise<ClockState>;
  /** ISO 8601 duration, e.g. 'PT61M', 'P1D' */
  advance(duration: string): Promise<ClockState>;
  /** ISO 8601 instant, e.g. '2026-11-22T04:00:00Z' */
  set(instant: string): Promise<ClockState>;
  /** back to real time */
  reset(): Promise<ClockState>;
}

/** Options of `startSandbox` (an in-process sandbox). */
export interface StartOptions {
  /** 0 picks a free port; default SEARCH_SANDBOX_PORT when set, else 0 */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /**
   * A config file path, or the config itself as an object (the shape of search-sandbox.config.json).
   * Default: ./search-sandbox.config.json when present, else the demo fixtures.
   */
  config?: string | Record<string, unknown>;
  /**
   * keep data in this directory (journal, feeds); null: in memory; default SEARCH_SANDBOX_DATA when
   * set, else everything in memory
   */
  dataDir?: string | null;
}

export type { DiffChange, DiffPage, DiffResult } from '../../shared/baseline.js';

/** Which traffic `expectMatchesBaseline` compares, and where its baseline file is. */
export interface BaselineOptions {
  siteId?: string;
  sessionId?: string;
  /** the baseline folder (default `beacon-baselines`, relative to the current directory) */
  dir?: string;
  /** rewrite the baseline with this run's traffic (also SEARCH_SANDBOX_UPDATE_BASELINES=1) */
  update?: boolean;
  /**
   * what to leave out of the comparison (and of a file written), as `search-sandbox diff --ignore` takes it:
   * a field path (`data.results[].price`, `context.pageUrl`) or a URL parameter (`query.ts`)
   */
  ignore?: string[];
}

/** What a passing `expectMatchesBaseline` did. */
export interface BaselineResult {
  /** same: matched the file; written: there was none, this run's is written; updated: rewritten */
  status: 'same' | 'written' | 'updated';
  /** the baseline file's path */
  file: string;
  /** pages compared (or written) */
  pages: number;
  /** for written and updated: what happened, to print or ignore */
  note?: string;
  /** an `ignore` path that left nothing out (most often a typo), with the nearest path that occurs */
  warnings?: string[];
}
