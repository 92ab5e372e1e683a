// What each indexing state means, in words a person watching the board (not only its engineer) reads at a
// glance: shown beside the provider's state ids, which stay the names the API and the docs use.
import type {
  FeedState,
  FeedView,
  TransitionCause,
  TransitionEntry,
} from '../../../../shared/indexing';

export const STATE_MEANING: Record<FeedState, string> = {
  waiting: 'queued to index',
  running: 'indexing the products',
  done: 'indexed: the catalog is live',
  error: 'the last index failed',
  regen_waiting: 'queued to regenerate the feed',
  regen_running: 'regenerating the feed',
  regen_done: 'feed regenerated, indexing next',
  regen_error: 'regenerating the feed failed',
  // who paused it is the feed's own story (pausedMeaning): a request, or a hand move
  paused: 'paused: resumes only by hand',
};

/** Why a feed is paused, by the cause of its move to paused as the history reports it. */
const PAUSED_BY: Record<TransitionCause, string> = {
  api: 'paused by a request while indexing',
  hand: 'paused by hand',
  scheduler: 'paused by the schedule',
  fault: 'paused by an injected fault',
  sandbox: 'paused by the sandbox',
};

/** What a move means: for a pause, who paused the feed. */
export function transitionMeaning(entry: TransitionEntry): string {
  return entry.to === 'paused' ? PAUSED_BY[entry.cause] : STATE_MEANING[entry.to];
}

/** Why a paused feed is paused: its latest move to paused, else the reason the admin API gives. */
function pausedMeaning(feed: FeedView): string {
  const move = feed.history.findLast(
    (e): e is TransitionEntry => e.kind === 'transition' && e.to === 'paused',
  );
  return move ? transitionMeaning(move) : (feed.pausedReason ?? STATE_MEANING.paused);
}

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

/**
 * A done feed's catalog is live only while the site's search answers from it: the search uses the site's
 * last catalog indexed (docs/search.md), so a feed of the same site indexed later takes over.
 */
function servedMeaning(feed: FeedView): string {
  const served = feed.searchServes;
  if (!served || served.feedId === feed.id) return STATE_MEANING.done;
  return `indexed; search serves feed ${served.feedId}'s catalog, indexed later${servedAtEarlierTime(feed) ? ` (${AT_EARLIER_TIME})` : ''}, not this one`;
}

/** said when the catalog served was indexed after this feed's, at an earlier sandbox time */
export const AT_EARLIER_TIME = 'at an earlier sandbox time: the clock went back in between';

/**
 * Whether the catalog the search serves, indexed after this feed's, reads an earlier sandbox time than
 * this feed's last index: "later" is the order the indexes happened in, and the clock went back between them.
 */
export function servedAtEarlierTime(feed: FeedView): boolean {
  const served = feed.searchServes;
  if (!served || served.feedId === feed.id || feed.lastIndexed === null) return false;
  return Date.parse(served.indexedAt) < Date.parse(feed.lastIndexed);
}

/** What the feed's state means for this feed: a fixture's `done` without a catalog says so, and how to index. */
export function feedStateMeaning(feed: FeedView): string {
  if (feed.state === 'paused') return pausedMeaning(feed);
  if (feed.state !== 'done') return STATE_MEANING[feed.state];
  if (indexedHere(feed)) return servedMeaning(feed);
  const how =
    feed.intervalMs === null
      ? 'its interval is Never, so index requests are refused: pick an interval to index one'
      : feed.source.kind === 'upload'
        ? 'upload a feed file to index one'
        : `PUT /api/index/feed?feedId=${feed.id} to index its source`;
  return `done as the config starts it (as a live account’s feed would be): no catalog indexed in this sandbox yet; ${how}`;
}
