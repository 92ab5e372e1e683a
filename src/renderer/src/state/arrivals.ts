// Traffic that arrived while a screen was open, for the live "watching for traffic" panels on Connect
// and the Feeds board: tracking requests (from the event list) and bulk index requests (from feed history).
import { useMemo, useState } from 'react';
import type { RecordedEvent } from '../api/types';
import type { FeedView, RequestEntry } from '../../../shared/indexing';
import { parseTime } from '../format';
import { routeHref } from '../router';
import { pageKey } from './pages';
import { useSandbox } from './store';

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
  /** for an index request that did not follow the recommended workflow: the first finding */
  workflow: string | null;
  /** the page's timeline, once the sandbox has placed the event on one */
  timelineHref: string | null;
  /** where to look at it in full: the request inspector, or the feed board */
  detailHref: string;
  detailLabel: string;
  /** the feed an index request was for */
  feedId: number | null;
}

/** How many arrivals a panel lists (newest first); the Requests screen has the rest. */
export const ARRIVALS_SHOWN = 8;

function pageLoadIdOf(e: RecordedEvent): string | null {
  const context = (e.body as { context?: { pageLoadId?: unknown } } | null)?.context;
  return typeof context?.pageLoadId === 'string' && context.pageLoadId ? context.pageLoadId : null;
}

export function beaconArrival(e: RecordedEvent, hasPage: (key: string) => boolean): Arrival {
  const pageLoadId = pageLoadIdOf(e);
  const key = pageLoadId ? pageKey({ siteId: e.siteId, pageLoadId }) : null;
  return {
    key: e.id,
    kind: 'beacon',
    at: parseTime(e.receivedAt),
    siteId: e.siteId,
    what: `${e.category}/${e.event}`,
    accepted: e.accepted,
    status: e.status,
    message: e.errors[0]?.message ?? null,
    workflow: null,
    timelineHref:
      key && hasPage(key) ? routeHref({ view: 'timelines', pageKey: key, eventId: e.id }) : null,
    detailHref: routeHref({ view: 'requests', eventId: e.id }),
    detailLabel: 'request',
    feedId: null,
  };
}

/** Every bulk index request the feeds' histories hold, keyed so the same one is recognised later. */
export function indexRequestArrivals(feeds: readonly FeedView[]): Arrival[] {
  const out: Arrival[] = [];
  for (const feed of feeds) {
    feed.history.forEach((entry, i) => {
      if (entry.kind !== 'request') return;
      const r = entry as RequestEntry;
      out.push({
        // history is append-only (trimmed at the front), so time + method + status + count of
        // same-time entries identifies an entry across updates of the feed
        key: `${feed.siteId}/${feed.id}/${r.at}/${r.method}/${r.status}/${sameTimeIndex(feed, i)}`,
        kind: 'index',
        at: parseTime(r.at),
        siteId: feed.siteId,
        what: `${r.method} feed ${feed.id}`,
        accepted: r.accepted,
        status: r.status,
        message: r.detail || null,
        workflow: r.scorecard.followed ? null : (r.scorecard.findings[0]?.message ?? null),
        timelineHref: null,
        detailHref: routeHref({ view: 'feeds' }),
        detailLabel: 'feed board',
        feedId: feed.id,
      });
    });
  }
  return out;
}

function sameTimeIndex(feed: FeedView, i: number): number {
  let n = 0;
  for (let j = i - 1; j >= 0 && feed.history[j]!.at === feed.history[i]!.at; j--) n++;
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
        .map((e) => beaconArrival(e, (key) => summaries.has(key))),
      total: fresh.length,
      before: baseline.count,
    };
  }, [events, baseline, summaries]);
}

/** Bulk index requests recorded in feed histories since the calling screen mounted. */
export function useIndexRequestWatch(): Watch {
  const feeds = useSandbox((s) => s.feeds);
  const ready = useSandbox((s) => s.load.feeds.phase === 'ready');
  const all = useMemo(() => indexRequestArrivals(feeds), [feeds]);
  const [baseline, setBaseline] = useState<ReadonlySet<string> | null>(null);
  if (ready && baseline === null) setBaseline(new Set(all.map((a) => a.key)));
  return useMemo(() => {
    if (baseline === null) return { ready: false, arrivals: [], total: 0, before: 0 };
    const fresh = all.filter((a) => !baseline.has(a.key)).sort((a, b) => b.at - a.at);
    return {
      ready: true,
      arrivals: fresh.slice(0, ARRIVALS_SHOWN),
      total: fresh.length,
      before: baseline.size,
    };
  }, [all, baseline]);
}
