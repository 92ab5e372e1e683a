// What each indexing state means, in words a person watching the board (not only its engineer) reads at a
// glance: shown beside the provider's state ids, which stay the names the API and the docs use.
import type { FeedState } from '../../../../shared/indexing';

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
