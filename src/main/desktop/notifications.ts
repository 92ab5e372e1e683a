// Which bus messages deserve a desktop notification — a page whose verdict turns `fail`, a feed that
// ends in `error` or `regen_error` — and a throttle so a burst (an imported HAR) is one summary, not fifty.
import type { StreamMessage, StreamType } from '../../shared/stream';
import { findingCount, type PageTimelineSummaryDto } from '../../shared/timeline';
import { ruleMeta } from '../tracking/timeline/rule-list';
import { isObject } from '../../shared/values';

export interface DesktopNotice {
  title: string;
  body: string;
}

// Pages remembered to tell "turns fail" from "still fail"; older ones are forgotten first.
const MAX_TRACKED = 20_000;

/** Turns bus messages into notices, only on a change of state (a page already failing stays quiet). */
export class NotificationWatcher {
  /** the bus messages `handle` reads; the others need not be built for it */
  static takes(type: StreamType): boolean {
    return type === 'reset' || type === 'timeline' || type === 'feed';
  }

  private readonly verdicts = new Map<string, string>();
  private readonly feedStates = new Map<string, string>();

  handle(message: StreamMessage): DesktopNotice | null {
    if (message.type === 'reset') {
      this.verdicts.clear();
      this.feedStates.clear();
      return null;
    }
    if (message.type === 'timeline') return this.onTimeline(message.data);
    if (message.type === 'feed') return this.onFeed(message.data);
    return null;
  }

  // data: PageTimelineSummaryDto (src/shared/timeline.ts); checked, since the bus carries unknown
  private onTimeline(data: unknown): DesktopNotice | null {
    if (!isObject(data) || typeof data.pageLoadId !== 'string' || typeof data.verdict !== 'string')
      return null;
    const page = data as Partial<PageTimelineSummaryDto> & { pageLoadId: string; verdict: string };
    const key = `${str(page.siteId)}/${str(page.sessionId)}/${page.pageLoadId}`;
    const before = this.verdicts.get(key);
    remember(this.verdicts, key, page.verdict);
    if (page.verdict !== 'fail' || before === 'fail') return null;
    const rules = (Array.isArray(page.rules) ? page.rules : []).flatMap((r) => {
      const meta = typeof r === 'string' ? ruleMeta(r) : undefined;
      return meta ? [meta] : [];
    });
    // the failing rules first: they are why the verdict is fail; of those, a rule whose findings may follow
    // from another's on the page comes after it, so the cause is named first (as the page lists them)
    const failing = rules.filter((m) => m.defaultSeverity === 'error');
    const named = failing.length > 0 ? failing : rules;
    const present = new Set(named.map((m) => m.id));
    const follows = (m: (typeof named)[number]) =>
      (m.explainedBy ?? []).some((r) => present.has(r));
    const shown = [...named.filter((m) => !follows(m)), ...named.filter(follows)].map(
      (m) => m.title,
    );
    const where = page.pageUrl ? page.pageUrl : `page ${page.pageLoadId}`;
    const site = page.siteId ? `${page.siteId}: ` : '';
    const errors = typeof page.counts?.errors === 'number' ? page.counts.errors : null;
    const why = shown.length > 0 ? shown.join(', ') : 'a timeline rule failed';
    const following = typeof page.following?.errors === 'number' ? page.following.errors : 0;
    const count = errors !== null ? `: ${findingCount(errors, 'error', following)}` : '';
    return {
      title: `Timeline failed — ${site}${truncate(where, 80)}`,
      body: truncate(`${why}${count}`, 240),
    };
  }

  // data: FeedView (src/shared/indexing.ts)
  private onFeed(data: unknown): DesktopNotice | null {
    if (
      !isObject(data) ||
      typeof data.siteId !== 'string' ||
      (typeof data.id !== 'number' && typeof data.id !== 'string')
    )
      return null;
    const state =
      typeof data.state === 'string'
        ? data.state
        : typeof data.indexStatus === 'string'
          ? data.indexStatus
          : null;
    if (state === null) return null;
    const key = `${data.siteId}/${data.id}`;
    const before = this.feedStates.get(key);
    remember(this.feedStates, key, state);
    if ((state !== 'error' && state !== 'regen_error') || before === state) return null;
    const name = typeof data.name === 'string' && data.name ? ` (${data.name})` : '';
    const lastRun =
      isObject(data.lastRun) && typeof data.lastRun.error === 'string' ? data.lastRun.error : null;
    const body =
      state === 'regen_error'
        ? 'The external feed regeneration failed; the feed will not be indexed until it is requested again.'
        : (lastRun ??
          'The index run ended in error; see the feed board for the row errors and history.');
    return {
      title: `Feed ${data.id}${name} of ${data.siteId} is ${state}`,
      body: truncate(body, 240),
    };
  }
}

/**
 * At most `limit` notices per `windowMs`; what is held back is counted and folded into the next
 * notice that gets through ("… and 12 more").
 */
export class NotificationThrottle {
  private sent: number[] = [];
  private held = 0;

  constructor(
    private readonly now: () => number,
    private readonly limit = 3,
    private readonly windowMs = 10_000,
  ) {}

  admit(notice: DesktopNotice): DesktopNotice | null {
    const t = this.now();
    this.sent = this.sent.filter((at) => t - at < this.windowMs);
    if (this.sent.length >= this.limit) {
      this.held++;
      return null;
    }
    this.sent.push(t);
    if (this.held === 0) return notice;
    const more = this.held;
    this.held = 0;
    return {
      title: notice.title,
      body: `${notice.body}\n… and ${more} more since the last notification.`,
    };
  }
}

function remember(map: Map<string, string>, key: string, value: string): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_TRACKED) map.delete(map.keys().next().value as string);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
