// A feed as the admin API, the SSE stream and the UI see it: configured settings with the admin's
// overrides, the state (and what the status endpoint reports), timing, products and history.
import type { FeedView, ParseProgress } from '../../shared/indexing';
import type { FeedConfig } from '../accounts/config';
import { formatInterval } from '../durations';
import type { FeedRecord } from './feed-db';
import { allowedTargets, feedTraits, RESTING_STATES, reportedStatus } from './state-machine';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What a feed's view reads from the engine (feeds.ts) besides the record itself. */
export interface FeedViewSource {
  settings(rec: FeedRecord): {
    interval: number | 'Never';
    autopilot: boolean;
    regeneration: boolean;
    config: FeedConfig;
  };
  stepEndsAt(rec: FeedRecord): number | null;
  parseProgress(rec: FeedRecord): ParseProgress | null;
  /** the catalog the site's search answers from now (catalog.ts) */
  servedCatalog(siteId: string): { feedId: number; indexedAt: string } | undefined;
}

export function feedView(engine: FeedViewSource, rec: FeedRecord): FeedView {
  const s = engine.settings(rec);
  const source = s.config.source;
  const served = engine.servedCatalog(rec.siteId);
  const end = s.autopilot && !RESTING_STATES.includes(rec.state) ? engine.stepEndsAt(rec) : null;
  return {
    siteId: rec.siteId,
    id: rec.feedId,
    name: s.config.name,
    state: rec.state,
    indexStatus: reportedStatus(rec.state),
    paused: rec.state === 'paused',
    pausedReason: rec.pausedReason,
    lastIndexed: iso(rec.lastIndexed),
    nextIndexTime: iso(rec.nextIndexTime),
    interval: formatInterval(s.interval),
    intervalMs: s.interval === 'Never' ? null : s.interval,
    source:
      source.kind === 'upload'
        ? { kind: 'upload' }
        : 'file' in source
          ? { kind: 'cart', file: source.file }
          : { kind: 'cart', url: source.url },
    regeneration: s.regeneration,
    autopilot: s.autopilot,
    configured: {
      interval: formatInterval(s.config.interval),
      autopilot: s.config.autopilot,
      regeneration: s.config.regeneration,
    },
    idField: s.config.idField,
    inject: { ...rec.inject },
    allowedTransitions: allowedTargets(rec.state, feedTraits(s)),
    stepEndsAt: iso(end),
    products: rec.products,
    lastRun: rec.lastRun,
    searchServes: served ? { feedId: served.feedId, indexedAt: served.indexedAt } : null,
    parsing: engine.parseProgress(rec),
    history: rec.history,
  };
}
