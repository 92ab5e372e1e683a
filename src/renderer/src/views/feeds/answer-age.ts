// Whether the bulk indexing API's answer shown on a feed card still holds, read from the feed's history:
// "accepted — the feed waits its turn" is no longer so once the feed has left the queue, and a refusal
// about the feed's state (409 already queued, 429 inside the hour) is no longer so once its state moved.
import type { FeedView, HistoryEntry } from '../../../../shared/indexing';

/** Where the feed's history stood when a request was sent: its newest entry then (null: it had none). */
export type HistoryMark = string | null;

function entryKey(e: HistoryEntry): string {
  const what =
    e.kind === 'transition'
      ? `${e.from}>${e.to}`
      : e.kind === 'request'
        ? `${e.method} ${e.status}`
        : '';
  return `${e.at}|${e.kind}|${what}`;
}

export function historyMark(feed: FeedView): HistoryMark {
  const last = feed.history.at(-1);
  return last ? entryKey(last) : null;
}

/** The entries recorded after the mark; null when the mark has left the kept history (many moves since). */
function entriesSince(feed: FeedView, mark: HistoryMark): HistoryEntry[] | null {
  if (mark === null) return feed.history;
  const at = feed.history.findLastIndex((e) => entryKey(e) === mark);
  return at < 0 ? null : feed.history.slice(at + 1);
}

/** States a request leaves the feed in while it waits for its run: leaving one means the run went on. */
const QUEUED = new Set<string>(['waiting', 'regen_waiting', 'paused']);

/**
 * Whether the feed moved on since the request that got `status` (sent when the history stood at `mark`),
 * so that the answer describes a state the feed is no longer in.
 */
export function answerOutdated(
  feed: FeedView,
  mark: HistoryMark,
  status: number,
  accepted: boolean,
): boolean {
  if (!accepted && status !== 409 && status !== 429) return false;
  const since = entriesSince(feed, mark);
  if (since === null) return true;
  return since.some(
    (e) =>
      e.kind === 'transition' &&
      // the accepted request's own move into the queue (or a pause) is what its answer describes
      (!accepted || QUEUED.has(e.from)),
  );
}
