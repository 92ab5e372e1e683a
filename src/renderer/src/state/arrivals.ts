// Traffic that arrived while a screen was open, for the live "watching for traffic" panels on Connect
// and the Feeds board: tracking requests (from the event list) and bulk index requests (from the
// stream's `indexRequest` notices, so refusals that never reach a feed show too).
import { useMemo, useState } from 'react';
import type { RecordedEvent } from '../api/types';
import type { FeedView } from '../../../shared/indexing';
import type { PageTimelineSummaryDto } from '../../../shared/timeline';
import { parseTime } from '../format';
import { routeHref } from '../router';
import { pageKey } from './pages';
import { refusalExplained } from '../../../shared/events';
import { useSandbox, type IndexRequestSeen } from './store';

/** One arrival as a row shows it. */
export interface Arrival {
  key: string;
  kind: 'beacon' | 'index';
  /** sandbox time, ms */
  at: number;
  siteId: string;
  /** `search/render`, or `PUT feed 43` */
  what: string;
  accepted: boolean;
  status: number;
  /** the first validation error, or what the indexing service made of the request */
  message: string | null;
  /** a refusal whose message does not say what happened (a CORS preflight): what it was and the fix */
  explained: { wrong: string; fix: string } | null;
  /** for an index request that did not follow the recommended workflow: the first finding */
  workflow: string | null;
  /** the page's timeline, once the sandbox has placed the event on one */
  timelineHref: string | null;
  /** where to look at it in full: the request inspector, or the feed board */
  detailHref: string;
  detailLabel: string;
  /** the feed an index request was for */
  feedId: number | null;
  /** an accepted beacon whose page fails or warns: accepted is not the same as right */
  pageProblem: PageProblem | null;
}

/** What is wrong with the page an accepted event landed on: its verdict and the rules behind it. */
export interface PageProblem {
  verdict: 'fail' | 'warn';
  rules: readonly string[];
}

/** The page's problem, when the event was accepted onto a page that fails or warns. */
export function pageProblem(
  e: Pick<RecordedEvent, 'accepted'>,
  page: Pick<PageTimelineSummaryDto, 'verdict' | 'rules'> | undefined,
): PageProblem | null {
  if (!e.accepted || !page || (page.verdict !== 'fail' && page.verdict !== 'warn')) return null;
  return { verdict: page.verdict, rules: page.rules };
}

/** The marker's words: "page fails: missing-render, order" (at most three rules named). */
export function pageProblemText(p: PageProblem): string {
  const named = p.rules.slice(0, 3).join(', ');
  const more = p.rules.length > 3 ? ` +${p.rules.length - 3}` : '';
  return `page ${p.verdict === 'fail' ? 'fails' : 'warns'}${named ? `: ${named}${more}` : ''}`;
}

function pageLoadIdOf(e: RecordedEvent): string | null {
  const context = (e.body as { context?: { pageLoadId?: unknown } } | null)?.context;
  return typeof context?.pageLoadId === 'string' && context.pageLoadId ? context.pageLoadId : null;
}

/** How many arrivals a panel lists (newest first); the Requests screen has the rest. */
const ARRIVALS_SHOWN = 8;

function beaconArrival(
  e: RecordedEvent,
  pageOf: (key: string) => PageTimelineSummaryDto | undefined,
): Arrival {
  const pageLoadId = pageLoadIdOf(e);
  const key = pageLoadId ? pageKey({ siteId: e.siteId, pageLoadId }) : null;
  const page = key ? pageOf(key) : undefined;
  return {
    key: e.id,
    kind: 'beacon',
    at: parseTime(e.receivedAt),
    siteId: e.siteId,
    what: `${e.category}/${e.event}`,
    accepted: e.accepted,
    status: e.status,
    message: e.errors[0]?.message ?? null,
    explained: refusalExplained(e),
    workflow: null,
    timelineHref:
      key && page ? routeHref({ view: 'timelines', pageKey: key, eventId: e.id }) : null,
    detailHref: routeHref({ view: 'requests', eventId: e.id }),
    detailLabel: 'request',
    feedId: null,
    pageProblem: pageProblem(e, page),
  };
}

/** A bulk index request notice as a row: wrong credentials and status reads included. */
function indexRequestArrival(n: IndexRequestSeen): Arrival {
  return {
    key: `index-${n.seq}`,
    kind: 'index',
    at: parseTime(n.at),
    siteId: n.siteId,
    what:
      n.endpoint === 'status'
        ? `${n.method} /api/index/status`
        : `${n.method} feed ${n.feedId ?? '(no feedId)'}`,
    accepted: n.accepted,
    status: n.status,
    message: n.message,
    explained: null,
    workflow: n.workflow,
    timelineHref: null,
    detailHref: routeHref({ view: 'feeds' }),
    detailLabel: 'feed board',
    // only these answers come from a feed the board shows (the others never reached one)
    feedId: n.endpoint === 'feed' && [200, 409, 429].includes(n.status) ? n.feedId : null,
    pageProblem: null,
  };
}

/** How many bulk index requests the feeds' histories hold (what came before a screen opened). */
function requestsInHistory(feeds: readonly FeedView[]): number {
  let n = 0;
  for (const feed of feeds) for (const e of feed.history) if (e.kind === 'request') n++;
  return n;
}

export interface Watch {
  /** false until the snapshot the baseline is taken from has loaded */
  ready: boolean;
  /** arrivals since the screen opened, newest first, at most ARRIVALS_SHOWN */
  arrivals: Arrival[];
  /** how many arrived since the screen opened (the list may show fewer) */
  total: number;
  /** how many of this kind the sandbox held when the screen opened */
  before: number;
}

/** Tracking requests recorded since the calling screen mounted. */
export function useBeaconWatch(): Watch {
  const events = useSandbox((s) => s.events);
  const ready = useSandbox((s) => s.load.events.phase === 'ready');
  const summaries = useSandbox((s) => s.pages.summaries);
  // the baseline is the newest seq held once the first snapshot is in
  const [baseline, setBaseline] = useState<{ seq: number; count: number } | null>(null);
  // set during render (React's pattern for state derived once from props), not in an effect
  if (ready && baseline === null)
    setBaseline({ seq: events.at(-1)?.seq ?? 0, count: events.length });
  return useMemo(() => {
    if (baseline === null) return { ready: false, arrivals: [], total: 0, before: 0 };
    const fresh: RecordedEvent[] = [];
    for (let i = events.length - 1; i >= 0 && events[i]!.seq > baseline.seq; i--)
      fresh.push(events[i]!);
    return {
      ready: true,
      arrivals: fresh
        .slice(0, ARRIVALS_SHOWN)
        .map((e) => beaconArrival(e, (key) => summaries.get(key))),
      total: fresh.length,
      before: baseline.count,
    };
  }, [events, baseline, summaries]);
}

/** Bulk index requests answered since the calling screen mounted (from the live stream). */
export function useIndexRequestWatch(): Watch {
  const notices = useSandbox((s) => s.indexRequests);
  const feeds = useSandbox((s) => s.feeds);
  const ready = useSandbox((s) => s.load.feeds.phase === 'ready');
  // notices exist only from the stream, so what was there at mount is simply the newest seq
  const [baseline] = useState(() => notices.at(-1)?.seq ?? 0);
  const [before, setBefore] = useState<number | null>(null);
  // set during render (React's pattern for state derived once from props), not in an effect
  if (ready && before === null) setBefore(requestsInHistory(feeds));
  return useMemo(() => {
    const fresh: IndexRequestSeen[] = [];
    for (let i = notices.length - 1; i >= 0 && notices[i]!.seq > baseline; i--)
      fresh.push(notices[i]!);
    return {
      ready: true,
      arrivals: fresh.slice(0, ARRIVALS_SHOWN).map(indexRequestArrival),
      total: fresh.length,
      before: before ?? 0,
    };
  }, [notices, baseline, before]);
}
