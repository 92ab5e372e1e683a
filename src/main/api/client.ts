// The sandbox client of the package API: every method is one call of the public admin API (/_sandbox/*)
// through the one admin client (src/shared/admin-client.ts), so a sandbox started in-process and one
// reached over HTTP behave the same.
import { ADMIN_API, MAX_EVENT_LIMIT, type BodyOf } from '../../shared/admin-api.js';
import { SEVERITY_RANK } from '../../shared/verdict.js';
import { AdminApiClient, type AdminFailure } from '../../shared/admin-client.js';
import type { FeedState } from '../../shared/indexing.js';
import type {
  BaselineOptions,
  BaselineResult,
  CleanResult,
  ClockState,
  EventFilter,
  ExpectCleanOptions,
  ExpectReadyOptions,
  FeedView,
  FilterValue,
  HealthState,
  IssuedSearchResponse,
  OrderDto,
  OrderFilter,
  OrdersSummaryDto,
  OutboxMessage,
  PageTimelineDto,
  ReadinessDto,
  RecordedEvent,
  ResetOptions,
  ResetResult,
  ReportFilter,
  RuleDetailDto,
  RuleId,
  RuleInfoDto,
  SandboxClockApi,
  TimelineFilter,
  TimelineReportDto,
  VisitDto,
  VisitFilter,
  WaitOptions,
} from './types.js';
import { matchBaseline, type BaselineUpdate, type WrittenThisRun } from './baseline.js';
import { cleanFailureMessage, emptyCleanMessage, waitFailureMessage } from './messages.js';
import {
  ignoredRulesProblem,
  levelled,
  mapLevels,
  rulesProblem,
} from '../../shared/rule-levels.js';
import { expectProblem, readinessGaps } from '../../shared/readiness.js';
import { clipped, shown } from '../../shared/text.js';
import { didYouMean } from '../../shared/nearest.js';
import { fetchFailureReason } from '../../shared/fetch-failure.js';
import { METHOD_OPTIONS } from './method-options.js';
import {
  checkClockMove,
  checkEventNames,
  checkFeed,
  checkId,
  checkOptions,
  siteIdOf,
  valuesOf,
} from './options.js';

/** An admin API call the sandbox refused or could not answer: method, path, status and its message. */
export class SandboxApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    /** HTTP status; 0 when the sandbox could not be reached */
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'SandboxApiError';
  }
}

/**
 * Set by the Playwright fixture on each test's view of the sandbox (test-baselines.ts): the folder of its
 * baselines (beside the test file) and Playwright's updateSnapshots ('all' and 'changed' rewrite, 'missing'
 * writes absent baselines only, 'none' writes nothing). Kept under a registered symbol, not a property of
 * the client's type, and spelled on both sides: an import between the two would make the package's main
 * entry export what only the fixture's entry uses.
 */
export interface TestBaselines {
  dir: string;
  updateSnapshots: string;
  /** a passing comparison's note and warnings, shown in the test's report */
  told: (result: BaselineResult) => void;
  /** the baselines written missing in this test run: a retry fails on them too */
  writtenThisRun?: WrittenThisRun;
}
const TEST_BASELINES = Symbol.for('search-sandbox.test-baselines');

/** The baselines' settings of a test's view of a sandbox; undefined for a sandbox outside a test. */
export function testBaselinesOf(client: SandboxClient): TestBaselines | undefined {
  return (client as unknown as Record<symbol, TestBaselines | undefined>)[TEST_BASELINES];
}

const MAX_PAGES = 100_000;

export class SandboxClient {
  /** http://host:port of the sandbox */
  readonly url: string;
  readonly clock: SandboxClockApi;
  private readonly admin: AdminApiClient;

  constructor(url: string) {
    this.url = url.replace(/\/+$/, '');
    this.admin = new AdminApiClient(this.url, { fail: (f) => this.failure(f) });
    this.clock = {
      get: (): Promise<ClockState> => this.admin.call('clock'),
      advance: async (duration) => {
        checkClockMove('advance', duration);
        return this.admin.call('setClock', { body: { advance: duration } });
      },
      set: async (instant) => {
        checkClockMove('set', instant);
        return this.admin.call('setClock', { body: { set: instant } });
      },
      reset: () => this.admin.call('setClock', { body: { reset: true } }),
    };
  }

  /** Base URL for the provider's beacon client (`requesters.beacon.origin`). */
  get beaconOrigin(): string {
    return `${this.url}/beacon/v2`;
  }

  health(): Promise<HealthState> {
    return this.admin.call('health');
  }

  /** Recorded tracking requests matching the filter, oldest first. */
  async events(filter: EventFilter = {}): Promise<RecordedEvent[]> {
    const query = checkOptions(METHOD_OPTIONS.events, filter) as Filter;
    checkEventNames(METHOD_OPTIONS.events, query);
    return (await this.admin.call('events', { query })).events;
  }

  /**
   * Wait until `count` events match (already recorded ones count). Rejects after `timeout` ms with
   * what was seen: the matching events and, when too few matched, the newest events of any kind.
   */
  async waitForEvents(options: WaitOptions = {}): Promise<RecordedEvent[]> {
    const {
      count = 1,
      timeout = 10_000,
      ...filter
    } = checkOptions(METHOD_OPTIONS.waitForEvents, options);
    checkEventNames(METHOD_OPTIONS.waitForEvents, filter);
    const call = { query: { ...filter, count, timeout } as Filter };
    const res = await this.admin.send('wait', call);
    const body = (await res.json().catch(() => null)) as {
      events?: RecordedEvent[];
      message?: string;
      note?: string;
    } | null;
    if (res.status === 200 && body?.events) return body.events;
    if (res.status !== 408 || !body)
      throw this.failure({
        method: 'GET',
        path: this.admin.path('wait', call),
        status: res.status,
        body,
      });
    const matching = body.events ?? [];
    const latest =
      matching.length < count
        ? await this.admin
            .call('events', { query: { limit: 5 } })
            .then((r) => ({ events: r.events, total: r.retained }))
        : null;
    throw new Error(
      waitFailureMessage({
        filter,
        count,
        timeoutMs: timeout,
        message: body.message ?? `fewer than ${count} matching events within ${timeout} ms`,
        note: body.note,
        unknownSite: await this.unknownSite(filter.siteId),
        matching,
        latest,
      }),
    );
  }

  /** Pages (one per pageLoadId and site) with their events and findings, oldest first. */
  async timelines(filter: TimelineFilter = {}): Promise<PageTimelineDto[]> {
    return this.pages(checkOptions(METHOD_OPTIONS.timelines, filter));
  }

  /** The pages a checked filter keeps (every one, up to the most a list answers), with the query's own parameters. */
  private async pages(query: TimelineFilter & { finished?: boolean }): Promise<PageTimelineDto[]> {
    const all = { limit: MAX_PAGES, ...query };
    return (await this.admin.call('timelines', { query: all as Filter })).pages;
  }

  /** Visits (one sessionId of one site each) with their pages, cart and orders, newest last. */
  async visits(filter: VisitFilter = {}): Promise<VisitDto[]> {
    const query = checkOptions(METHOD_OPTIONS.visits, filter);
    return this.admin.call('visits', { query: query as Filter });
  }

  /** One entry per order/transaction, newest last, each line with its credit (README "Credit"). */
  async orders(filter: OrderFilter = {}): Promise<OrderDto[]> {
    const query = checkOptions(METHOD_OPTIONS.orders, filter);
    return this.admin.call('orders', { query: query as Filter });
  }

  /** One order by the eventId of its order/transaction (`ev_…`), with its findings; rejects (404) for an unknown one. */
  async order(eventId: string): Promise<OrderDto> {
    checkId('sandbox.order', 'eventId', eventId, "sandbox.order('ev_000000042')");
    return this.admin.call('order', { params: { eventId } });
  }

  /** What a revenue report would show of the orders: revenue by the source credited, uncredited, duplicates. */
  async ordersSummary(filter: VisitFilter = {}): Promise<OrdersSummaryDto> {
    const query = checkOptions(METHOD_OPTIONS.ordersSummary, filter);
    return this.admin.call('ordersSummary', { query: query as Filter });
  }

  /**
   * Every rule the sandbox has, as its module declares it: id, title, description, what it expects,
   * the page kinds it applies to (or `visit`), its default severity, its fix and its scope.
   */
  rules(): Promise<RuleInfoDto[]> {
    // each id is one a rule of the sandbox declares (GET /_sandbox/rules lists them from the rules' modules)
    return this.admin.call('rules') as Promise<RuleInfoDto[]>;
  }

  /**
   * One rule explained: its declaration, each message its findings carry with its fix, and the behaviours
   * of the provider's client it checks (where each was read in the client, the invariant it implies).
   * Rejects with the sandbox's 404 (naming the nearest rule ids) for an id no rule declares.
   */
  async rule(id: RuleId): Promise<RuleDetailDto> {
    // the example names no rule: a rule's id is written in its own module only
    checkId('sandbox.rule', 'id', id, 'sandbox.rule(id) with an id from sandbox.rules()');
    return (await this.admin.call('rule', { params: { id } })) as RuleDetailDto;
  }

  /** One page's timeline; `siteId` when the pageLoadId exists on several sites. */
  async timeline(pageLoadId: string, siteId?: string): Promise<PageTimelineDto> {
    const example = "sandbox.timeline('page-1', 'demo42')";
    checkId('sandbox.timeline', 'pageLoadId', pageLoadId, example);
    if (siteId !== undefined) checkId('sandbox.timeline', 'siteId', siteId, example);
    return this.admin.call('timeline', { params: { pageLoadId }, query: { siteId } });
  }

  /**
   * The one-line assertion: every page matching the filter is free of findings at or above `failOn`.
   * Rejects with an Error that counts them by rule (errors first) and lists the pages' findings (rule,
   * severity, page URL, pageLoadId, message, fix): a few pages in full, the rest folded into one line.
   */
  async expectClean(options: ExpectCleanOptions = {}): Promise<CleanResult> {
    const checked = checkOptions(METHOD_OPTIONS.expectClean, options);
    const { failOn = 'error', ignoreRules = [], allowEmpty = false, rules, ...rest } = checked;
    const filter = rest as TimelineFilter;
    if (failOn !== 'error' && failOn !== 'warning' && failOn !== 'info')
      throw new TypeError(
        `expectClean: failOn ${JSON.stringify(failOn)} is not a severity: use 'error' (default), 'warning' or 'info'`,
      );
    if (!Array.isArray(ignoreRules) || ignoreRules.some((r) => typeof r !== 'string'))
      throw new TypeError(
        `expectClean: ignoreRules ${JSON.stringify(ignoreRules)} must be a list of rule ids (sandbox.rules() lists them)`,
      );
    if (rules !== undefined || ignoreRules.length > 0) {
      // the ids the sandbox's rules declare (it may be another version than this package): a misspelt id
      // would match no finding, and the finding it meant would fail the test with nothing saying why
      const ids = (await this.rules()).map((r) => r.id);
      const problem =
        (rules !== undefined ? rulesProblem(rules, 'rules', ids) : null) ??
        ignoredRulesProblem(ignoreRules, ids);
      if (problem) throw new TypeError(`expectClean: ${problem}`);
    }
    const levels = rules ? mapLevels(rules, 'expectClean({rules})') : undefined;
    // every page judged as if it has ended, as reports and check do
    const pages = await this.pages({ ...filter, finished: true });
    if (pages.length === 0 && !allowEmpty)
      throw new Error(emptyCleanMessage(filter, this.url, await this.unknownSite(filter.siteId)));
    const threshold = SEVERITY_RANK[failOn];
    const failing = [];
    const ignored = [];
    for (const page of pages) {
      const counted = [];
      for (const finding of levelled(page.findings, page.siteId, levels)) {
        if (
          SEVERITY_RANK[finding.severity] >= threshold &&
          !(ignoreRules as readonly string[]).includes(finding.rule)
        )
          counted.push(finding);
        else ignored.push(finding);
      }
      if (counted.length) failing.push({ page, findings: counted });
    }
    if (failing.length)
      throw new Error(
        cleanFailureMessage({ filter, failOn, pages, failing, sandboxUrl: this.url }),
      );
    return { pages: pages.length, ignored };
  }

  /**
   * Why `siteId` names no site of the sandbox (none of the config's accounts, no beacon of it recorded),
   * with the nearest configured site, as readiness says it of the same typo; undefined for a known site.
   * expectClean over no page and a wait that timed out say it.
   */
  private async unknownSite(siteId: string | undefined): Promise<string | undefined> {
    if (siteId === undefined) return undefined;
    const { sites } = await this.health();
    if (sites.includes(siteId)) return undefined;
    const sent = await this.admin.call('events', { query: { siteId, limit: 1 } });
    if (sent.events.length > 0) return undefined;
    const fix =
      sites.length === 0
        ? 'the config has no accounts'
        : `${didYouMean(siteId, sites)}the configured sites are ${sites.join(', ')} (GET /_sandbox/health lists them)`;
    return `siteId ${shown(siteId)} names no site of this sandbox: none of the config's accounts has it and no beacon of it was recorded; ${fix}`;
  }

  /**
   * The site's integration readiness: each behaviour of the client model ok, with findings, unseen (with
   * the client call that sends it) or not applicable (with why).
   */
  async readiness(options: { siteId: string; finished?: boolean }): Promise<ReadinessDto> {
    const checked = checkOptions(METHOD_OPTIONS.readiness, options) as typeof options;
    const siteId = siteIdOf('readiness', checked);
    const query = checked.finished === true ? { siteId, finished: true } : { siteId };
    return this.admin.call('readiness', { query });
  }

  /**
   * The readiness gate: every expected behaviour (or area) is seen, without findings at or above `failOn`.
   * Rejects with an Error naming each one that is unseen (and what sends it) or broken (the rule and page).
   * Every page is judged as if it has ended, as expectClean and `check --readiness` judge them.
   */
  async expectReady(options: ExpectReadyOptions): Promise<ReadinessDto> {
    const checked = checkOptions(METHOD_OPTIONS.expectReady, options) as ExpectReadyOptions;
    const { expect, failOn = 'error' } = checked;
    const siteId = siteIdOf('expectReady', checked);
    if (failOn !== 'error' && failOn !== 'warning' && failOn !== 'info')
      throw new TypeError(
        `expectReady: failOn ${JSON.stringify(failOn)} is not a severity: use 'error' (default), 'warning' or 'info' (any finding), as check --readiness --fail-on takes it`,
      );
    if (expect !== undefined && !Array.isArray(expect))
      throw new TypeError(
        `expectReady: expect ${JSON.stringify(expect)} must be a list of behaviour ids or areas, e.g. ['search', 'cart.ledger']`,
      );
    // every page judged as if it has ended, as expectClean and `check --readiness` judge them: a page
    // still open (a zero-result search, a single-result redirect) shows now what it shows once it ends
    const readiness = await this.readiness({ siteId, finished: true });
    // the ids the sandbox's model has (it may be another version than this package)
    const ids = [...new Set(readiness.behaviours.map((b) => b.id))];
    for (const entry of expect ?? []) {
      const problem = expectProblem(entry, ids);
      if (problem) throw new TypeError(`expectReady: expect: ${problem}`);
    }
    const wanted = expect ?? readiness.expect;
    if (wanted.length === 0)
      throw new TypeError(
        `expectReady: nothing is expected of site ${siteId}: pass expect (behaviour ids or areas, e.g. ['search', 'cart']) or set accounts[].readiness.expect in the sandbox's config`,
      );
    const gaps = readinessGaps(readiness, wanted, failOn);
    if (gaps.length > 0)
      throw new Error(
        `expectReady: site ${siteId} is not ready (${gaps.length} ${gaps.length === 1 ? 'gap' : 'gaps'} in what it expects):\n` +
          gaps.map((g) => `  - ${g}`).join('\n') +
          `\nThe Readiness view shows each behaviour and its page: ${this.url}/#/readiness/${encodeURIComponent(siteId)}`,
      );
    // what it checked: the call's expect, else the site's
    return { ...readiness, expect: [...wanted] };
  }

  /**
   * The sandbox's recorded traffic (of `siteId`/`sessionId`) against the baseline file `<dir>/<name>.json`
   * (dir `beacon-baselines` by default): written when missing, and then rejects unless `update: true` or
   * SEARCH_SANDBOX_UPDATE_BASELINES=1 (which also rewrite a differing one), else a difference rejects with
   * the text diff (BaselineMismatchError).
   */
  async expectMatchesBaseline(name: string, given: BaselineOptions = {}): Promise<BaselineResult> {
    const example = METHOD_OPTIONS.expectMatchesBaseline.example;
    checkId('sandbox.expectMatchesBaseline', 'name', name, example);
    const options = checkOptions(METHOD_OPTIONS.expectMatchesBaseline, given);
    const forTest = testBaselinesOf(this);
    const update = options.update ?? process.env.SEARCH_SANDBOX_UPDATE_BASELINES === '1';
    const mode = update ? 'changed' : ((forTest?.updateSnapshots ?? 'default') as BaselineUpdate);
    const dir = options.dir ?? forTest?.dir;
    const result = await matchBaseline(
      this.recorded(options),
      name,
      { ...options, ...(dir && { dir }) },
      mode,
      forTest?.writtenThisRun,
    );
    forTest?.told(result);
    return result;
  }

  /** The events a baseline compares: the filtered traffic, every event of it (or a clear refusal). */
  private recorded(options: BaselineOptions): () => Promise<RecordedEvent[]> {
    const { siteId, sessionId } = options;
    return async () => {
      const answer = await this.admin.call('events', {
        query: { siteId, sessionId, limit: MAX_EVENT_LIMIT },
      });
      if (answer.truncated)
        throw new Error(
          `expectMatchesBaseline: more than ${MAX_EVENT_LIMIT} events match ${JSON.stringify({ siteId, sessionId })}: a baseline is one journey, filter it by siteId or sessionId (or reset the sandbox before the test)`,
        );
      return answer.events;
    };
  }

  /**
   * The timeline verdicts as a report: an object for 'json', the document's text for 'junit' and 'html'.
   * `failOn: 'warning'` makes pages with warnings JUnit failures too (`'info'`: with infos too).
   */
  report(format?: 'json', filter?: ReportFilter): Promise<TimelineReportDto>;
  report(format: 'junit' | 'html', filter?: ReportFilter): Promise<string>;
  async report(
    format: 'json' | 'junit' | 'html' = 'json',
    filter: ReportFilter = {},
  ): Promise<TimelineReportDto | string> {
    const formats = valuesOf(ADMIN_API.report.query.format);
    if (!formats.includes(format))
      throw new TypeError(
        `sandbox.report(${shown(format)}): the format must be one of ${formats.join(', ')}; e.g. ${METHOD_OPTIONS.report.example}`,
      );
    const query = { ...checkOptions(METHOD_OPTIONS.report, filter), format };
    // the answer is the format's: the report's JSON, or the document's text
    return this.admin.call('report', { query: query as Filter });
  }

  /**
   * Forget events and timelines (of one site, or all); `what: 'all'` also resets feeds and outbox. Resolves
   * to how many events it forgot (`removed`) and kept (`retained`), with a `note` for a siteId of no
   * configured site that had no events (most likely a typo: it names the nearest configured site). A
   * siteId that is not one (six lowercase letters or digits) and had no events rejects (404).
   */
  async reset(options: ResetOptions = {}): Promise<ResetResult> {
    const { siteId, what = 'events' } = checkOptions(METHOD_OPTIONS.reset, options);
    return this.admin.call('reset', { query: { siteId }, body: { what } });
  }

  async feeds(siteId?: string): Promise<FeedView[]> {
    if (siteId !== undefined) checkId('sandbox.feeds', 'siteId', siteId, "sandbox.feeds('demo42')");
    return (await this.admin.call('feeds', { query: { siteId } })).feeds;
  }

  async feed(siteId: string, feedId: number): Promise<FeedView> {
    checkFeed('sandbox.feed', siteId, feedId, "sandbox.feed('demo42', 42)");
    return this.admin.call('feed', { params: { siteId, feedId } });
  }

  /** Change a feed's sandbox settings: interval, autopilot, regeneration, injected failure. */
  async patchFeed(
    siteId: string,
    feedId: number,
    patch: Record<string, unknown>,
  ): Promise<FeedView> {
    checkFeed('sandbox.patchFeed', siteId, feedId, METHOD_OPTIONS.patchFeed.example);
    // the sandbox judges the values (its refusal names the field)
    const body = checkOptions(METHOD_OPTIONS.patchFeed, patch ?? null);
    return this.admin.call('patchFeed', {
      params: { siteId, feedId },
      body: body as BodyOf<'patchFeed'>,
    });
  }

  /** Move a feed by hand along the transition table; rejects with the allowed targets otherwise. */
  async transition(siteId: string, feedId: number, to: string): Promise<FeedView> {
    checkFeed('sandbox.transition', siteId, feedId, "sandbox.transition('demo42', 42, 'running')");
    return this.admin.call('transition', {
      params: { siteId, feedId },
      body: { to: to as FeedState },
    });
  }

  /** What the companion search API issued for a responseId (results, banners, redirect, test flag). */
  async searchResponse(responseId: string): Promise<IssuedSearchResponse> {
    checkId('sandbox.searchResponse', 'responseId', responseId, "sandbox.searchResponse('resp-1')");
    return this.admin.call('searchResponse', { params: { responseId } });
  }

  /**
   * What the companion search API issued, newest first: of a site, or the searches one page load asked for
   * (`pageLoadId`: the id its search requests carried), each with who asked (`requester`).
   */
  async searchResponses(
    filter: { siteId?: string; pageLoadId?: string; limit?: number } = {},
  ): Promise<IssuedSearchResponse[]> {
    const query = checkOptions(METHOD_OPTIONS.searchResponses, filter);
    return (await this.admin.call('searchResponses', { query })).responses;
  }

  /** Status e-mails produced for `requestedBy`, newest last. */
  async outbox(
    filter: { siteId?: string; feedId?: number; to?: string } = {},
  ): Promise<OutboxMessage[]> {
    const query = checkOptions(METHOD_OPTIONS.outbox, filter);
    return (await this.admin.call('outbox', { query })).messages;
  }

  /** A client of a sandbox started elsewhere has nothing to close: the server keeps running. */
  async close(): Promise<void> {}

  /** A failed call as the package words it: the method, the path, the status and the sandbox's reason. */
  private failure({ method, path, status, body, cause }: AdminFailure): SandboxApiError {
    if (status === 0) {
      return new SandboxApiError(
        method,
        path,
        0,
        `${method} ${this.url}${path}: cannot reach the sandbox (${fetchFailureReason(cause)}): is it running at ${this.url}? Start one with startSandbox() or npx search-sandbox serve`,
      );
    }
    return new SandboxApiError(
      method,
      path,
      status,
      `${method} ${path} answered ${status}: ${this.reasonOf(body)}`,
      body,
    );
  }

  /** Why the sandbox refused a call, from its answer: its message, or what else answered. */
  private reasonOf(body: unknown): string {
    const message = (body as { message?: unknown } | null | undefined)?.message;
    if (typeof message === 'string') return message;
    if (body === undefined || body === null)
      return 'the answer was not JSON: is this URL a search-sandbox?';
    // another server's page (an HTML 404, a proxy's error): its start, not the whole page
    if (typeof body === 'string')
      return `the answer was not the sandbox's JSON (${clipped(body.replace(/\s+/g, ' ').trim())}): is ${this.url} a search-sandbox?`;
    return JSON.stringify(body);
  }
}

/** A filter as the package's types take it, its keys checked by checkOptions. */
type Filter = Record<string, FilterValue>;
