// The sandbox client of the package API: every method is one call of the public admin API
// (/_sandbox/*), so a sandbox started in-process and one reached over HTTP behave the same.
import { adminPath } from '../../shared/admin-api';
import type {
  CleanResult,
  ClockState,
  EventFilter,
  ExpectCleanOptions,
  FeedView,
  FilterValue,
  HealthState,
  IssuedSearchResponse,
  OrderDto,
  OrderFilter,
  OutboxMessage,
  PageTimelineDto,
  RecordedEvent,
  ResetOptions,
  ReportFilter,
  RuleInfoDto,
  SandboxClockApi,
  TimelineFilter,
  TimelineReportDto,
  VisitDto,
  VisitFilter,
  WaitOptions,
} from './types.js';
import { cleanFailureMessage, emptyCleanMessage, waitFailureMessage } from './messages.js';
import { levelled, mapLevels, rulesProblem } from '../../shared/rule-levels.js';

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

const SEVERITY_RANK = { info: 0, warning: 1, error: 2 } as const;
const MAX_PAGES = 100_000;

function query(filter: Record<string, FilterValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class SandboxClient {
  /** http://host:port of the sandbox */
  readonly url: string;
  readonly clock: SandboxClockApi;

  constructor(url: string) {
    this.url = url.replace(/\/+$/, '');
    this.clock = {
      get: () => this.call<ClockState>('GET', adminPath('clock')),
      advance: (duration) =>
        this.call<ClockState>('POST', adminPath('clock'), { advance: duration }),
      set: (instant) => this.call<ClockState>('POST', adminPath('clock'), { set: instant }),
      reset: () => this.call<ClockState>('POST', adminPath('clock'), { reset: true }),
    };
  }

  /** Base URL for the provider's beacon client (`requesters.beacon.origin`). */
  get beaconOrigin(): string {
    return `${this.url}/beacon/v2`;
  }

  health(): Promise<HealthState> {
    return this.call('GET', adminPath('health'));
  }

  /** Recorded tracking requests matching the filter, oldest first. */
  async events(filter: EventFilter = {}): Promise<RecordedEvent[]> {
    return (
      await this.call<{ events: RecordedEvent[] }>('GET', `${adminPath('events')}${query(filter)}`)
    ).events;
  }

  /**
   * Wait until `count` events match (already recorded ones count). Rejects after `timeout` ms with
   * what was seen: the matching events and, when too few matched, the newest events of any kind.
   */
  async waitForEvents(options: WaitOptions = {}): Promise<RecordedEvent[]> {
    const { count = 1, timeout = 10_000, ...filter } = options;
    const path = `${adminPath('wait')}${query({ ...filter, count, timeout })}`;
    const res = await this.request('GET', path);
    const body = (await res.json().catch(() => null)) as {
      events?: RecordedEvent[];
      message?: string;
      note?: string;
    } | null;
    if (res.status === 200 && body?.events) return body.events;
    if (res.status !== 408 || !body) throw this.failure('GET', path, res.status, body);
    const matching = body.events ?? [];
    const latest =
      matching.length < count
        ? await this.call<{ events: RecordedEvent[]; retained: number }>(
            'GET',
            adminPath('events', {}, { limit: 5 }),
          ).then((r) => ({ events: r.events, total: r.retained }))
        : null;
    throw new Error(
      waitFailureMessage({
        filter,
        count,
        timeoutMs: timeout,
        message: body.message ?? `fewer than ${count} matching events within ${timeout} ms`,
        note: body.note,
        matching,
        latest,
      }),
    );
  }

  /** Pages (one per pageLoadId and site) with their events and findings, oldest first. */
  async timelines(filter: TimelineFilter = {}): Promise<PageTimelineDto[]> {
    const path = `${adminPath('timelines')}${query({ limit: MAX_PAGES, ...filter })}`;
    return (await this.call<{ pages: PageTimelineDto[] }>('GET', path)).pages;
  }

  /** Visits (one sessionId of one site each) with their pages, cart and orders, newest last. */
  visits(filter: VisitFilter = {}): Promise<VisitDto[]> {
    return this.call('GET', `${adminPath('visits')}${query({ ...filter })}`);
  }

  /** One entry per order/transaction, newest last, each line with its credit (README "Credit"). */
  orders(filter: OrderFilter = {}): Promise<OrderDto[]> {
    return this.call('GET', `${adminPath('orders')}${query({ ...filter })}`);
  }

  /**
   * Every rule the sandbox has, as its module declares it: id, title, description, what it expects,
   * the page kinds it applies to (or `visit`), its default severity, its fix and its scope.
   */
  rules(): Promise<RuleInfoDto[]> {
    return this.call('GET', adminPath('rules'));
  }

  /** One page's timeline; `siteId` when the pageLoadId exists on several sites. */
  timeline(pageLoadId: string, siteId?: string): Promise<PageTimelineDto> {
    return this.call('GET', `${adminPath('timeline', { pageLoadId })}${query({ siteId })}`);
  }

  /**
   * The one-line assertion: every page matching the filter is free of findings at or above `failOn`.
   * Rejects with an Error listing each such finding (rule, severity, page URL, pageLoadId, message).
   */
  async expectClean(options: ExpectCleanOptions = {}): Promise<CleanResult> {
    const { failOn = 'error', ignoreRules = [], allowEmpty = false, rules, ...rest } = options;
    const filter = rest as TimelineFilter;
    if (failOn !== 'error' && failOn !== 'warning' && failOn !== 'info')
      throw new TypeError(
        `expectClean: failOn ${JSON.stringify(failOn)} is not a severity: use 'error' (default), 'warning' or 'info'`,
      );
    if (rules !== undefined) {
      // the ids the sandbox's rules declare (it may be another version than this package)
      const ids = (await this.rules()).map((r) => r.id);
      const problem = rulesProblem(rules, 'rules', ids);
      if (problem) throw new TypeError(`expectClean: ${problem}`);
    }
    const levels = rules ? mapLevels(rules, 'expectClean({rules})') : undefined;
    if (!Array.isArray(ignoreRules) || ignoreRules.some((r) => typeof r !== 'string'))
      throw new TypeError(
        `expectClean: ignoreRules ${JSON.stringify(ignoreRules)} must be a list of rule ids (sandbox.rules() lists them)`,
      );
    // every page judged as if it has ended (CONTRACT.md "Strictness"), as reports and check do
    const pages = await this.timelines({ ...filter, finished: true });
    if (pages.length === 0 && !allowEmpty) throw new Error(emptyCleanMessage(filter, this.url));
    const threshold = SEVERITY_RANK[failOn];
    const failing = [];
    const ignored = [];
    for (const page of pages) {
      const counted = [];
      for (const finding of levelled(page.findings, page.siteId, levels)) {
        if (SEVERITY_RANK[finding.severity] >= threshold && !ignoreRules.includes(finding.rule))
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
   * The timeline verdicts as a report: an object for 'json', the document's text for 'junit' and 'html'.
   * `failOn: 'warning'` makes pages with warnings JUnit failures too (`'info'`: with infos too).
   */
  report(format?: 'json', filter?: ReportFilter): Promise<TimelineReportDto>;
  report(format: 'junit' | 'html', filter?: ReportFilter): Promise<string>;
  async report(
    format: 'json' | 'junit' | 'html' = 'json',
    filter: ReportFilter = {},
  ): Promise<TimelineReportDto | string> {
    const path = `${adminPath('report')}${query({ ...filter, format })}`;
    if (format === 'json') return this.call('GET', path);
    const res = await this.request('GET', path);
    if (!res.ok) throw this.failure('GET', path, res.status, await res.json().catch(() => null));
    return res.text();
  }

  /** Forget events and timelines (of one site, or all); `what: 'all'` also resets feeds and outbox. */
  async reset(options: ResetOptions = {}): Promise<void> {
    const { siteId, what = 'events' } = options;
    await this.call('POST', `${adminPath('reset')}${query({ siteId })}`, { what });
  }

  async feeds(siteId?: string): Promise<FeedView[]> {
    return (
      await this.call<{ feeds: FeedView[] }>('GET', `${adminPath('feeds')}${query({ siteId })}`)
    ).feeds;
  }

  feed(siteId: string, feedId: number): Promise<FeedView> {
    return this.call('GET', adminPath('feed', { siteId, feedId }));
  }

  /** Change a feed's sandbox settings: interval, autopilot, regeneration, injected failure. */
  patchFeed(siteId: string, feedId: number, patch: Record<string, unknown>): Promise<FeedView> {
    return this.call('PATCH', adminPath('feed', { siteId, feedId }), patch);
  }

  /** Move a feed by hand along the transition table; rejects with the allowed targets otherwise. */
  transition(siteId: string, feedId: number, to: string): Promise<FeedView> {
    return this.call('POST', adminPath('transition', { siteId, feedId }), {
      to,
    });
  }

  /** What the companion search API issued for a responseId (results, banners, redirect, test flag). */
  searchResponse(responseId: string): Promise<IssuedSearchResponse> {
    return this.call('GET', adminPath('searchResponse', { responseId }));
  }

  /** Status e-mails produced for `requestedBy`, newest last. */
  async outbox(
    filter: { siteId?: string; feedId?: number; to?: string } = {},
  ): Promise<OutboxMessage[]> {
    return (
      await this.call<{ messages: OutboxMessage[] }>(
        'GET',
        `${adminPath('outbox')}${query(filter)}`,
      )
    ).messages;
  }

  /** A client of a sandbox started elsewhere has nothing to close: the server keeps running. */
  async close(): Promise<void> {}

  private async request(method: string, path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new SandboxApiError(
        method,
        path,
        0,
        `${method} ${this.url}${path}: cannot reach the sandbox (${cause?.code ?? cause?.message ?? (err as Error).message}): is it running at ${this.url}? Start one with startSandbox() or npx search-sandbox serve`,
      );
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body);
    const parsed = (await res.json().catch(() => undefined)) as unknown;
    if (!res.ok || parsed === undefined) throw this.failure(method, path, res.status, parsed);
    return parsed as T;
  }

  private failure(method: string, path: string, status: number, body: unknown): SandboxApiError {
    const b = (body ?? {}) as { message?: unknown };
    const reason =
      typeof b.message === 'string'
        ? b.message
        : body === undefined || body === null
          ? 'the answer was not JSON: is this URL a search-sandbox?'
          : JSON.stringify(body);
    return new SandboxApiError(
      method,
      path,
      status,
      `${method} ${path} answered ${status}: ${reason}`,
      body,
    );
  }
}
