// A clock move whose feed steps could not be stored: the clock did move and the feeds did step (timers
// fired, e-mails were written), so the refusal says exactly what moved and that a restart would not find it.
import type { FeedState } from '../../shared/indexing';

export interface FeedMove {
  feed: string;
  from: FeedState;
  to: FeedState;
}

export class FeedMovesNotStored extends Error {
  override readonly name = 'FeedMovesNotStored';

  constructor(
    readonly now: string,
    readonly moves: readonly FeedMove[],
    cause: Error,
  ) {
    const moved =
      moves.length === 0
        ? 'no feed changed state, but what the move changed in them (history, schedule)'
        : `feeds moved with it (${moves.map((m) => `${m.feed} ${m.from} → ${m.to}`).join(', ')}), but that`;
    super(
      `the clock moved to ${now} and ${moved} could not be stored: ${cause.message}. A restart now finds the feeds as they were last stored; fix the data directory and move the clock again (or move the feeds by hand)`,
      { cause },
    );
  }
}
