// What each indexing state means, in words a person watching the board (not only its engineer) reads at a
// glance: shown beside the provider's state ids, which stay the names the API and the docs use.
import type { FeedState, FeedView } from '../../../../shared/indexing';

export const STATE_MEANING: Record<FeedState, string> = {
  waiting: 'queued to index',
  running: 'indexing the products',
  done: 'indexed: the catalog is live',
  error: 'the last index failed',
  regen_waiting: 'queued to regenerate the feed',
  regen_running: 'regenerating the feed',
  regen_done: 'feed regenerated, indexing next',
  regen_error: 'regenerating the feed failed',
  paused: 'paused by a request while indexing',
};

/** `regen_running — regenerating the feed` */
export function stateWithMeaning(state: FeedState): string {
  return `${state} — ${STATE_MEANING[state]}`;
}

/**
 * Whether the feed's catalog was indexed in this sandbox. Feeds start `done` as the fixtures say, with a
 * lastIndexed at the top of the hour and no catalog (docs/indexing.md): until a run indexes one,
 * GET /_sandbox/feeds/{siteId}/{feedId}/catalog answers indexedAt null, and `done` is only the fixture's word.
 */
export function indexedHere(feed: FeedView): boolean {
  return feed.lastRun !== null && feed.lastRun.error === null;
}

/** What the feed's state means for this feed: a fixture's `done` without a catalog says so, and how to index. */
export function feedStateMeaning(feed: FeedView): string {
  if (feed.state !== 'done' || indexedHere(feed)) return STATE_MEANING[feed.state];
  const how =
    feed.intervalMs === null
      ? 'its interval is Never, so index requests are refused: pick an interval to index one'
      : feed.source.kind === 'upload'
        ? 'upload a feed file to index one'
        : `PUT /api/index/feed?feedId=${feed.id} to index its source`;
  return `done as the fixture starts it: no catalog indexed in this sandbox yet; ${how}`;
}
