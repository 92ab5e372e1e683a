// How an index run ends, decided apart from the engine that moves the feed: done or error (and why), and
// the status e-mail its requester gets.
import type { FeedState, TransitionCause } from '../../shared/indexing';
import type { FeedConfig } from '../accounts/config';
import type { FeedRecord, RunInfo } from './feed-db';
import type { RunResult } from './feed-runs';
import type { Outbox } from './outbox';
import { isOutcome, TransitionRefused } from './state-machine';

export interface RunOutcome {
  to: 'done' | 'error';
  reason: string | null;
  /** the cause the history records: an injected fault is a fault, whatever moved the feed */
  why: TransitionCause;
}

/**
 * Done with the parsed catalog, or error: the parse failed, a fault was injected ("next index fails",
 * consumed here), or a hand moved it. A hand cannot make a failed parse done (TransitionRefused).
 */
export function runOutcome(
  rec: FeedRecord,
  result: RunResult,
  cause: TransitionCause,
  forced?: 'done' | 'error',
): RunOutcome {
  if (forced === 'error')
    return { to: 'error', reason: result.summary.error ?? 'moved to error by hand', why: cause };
  if (forced === 'done') {
    if (result.summary.error) throw new TransitionRefused(rec.state, 'done', ['error']);
    return { to: 'done', reason: null, why: cause };
  }
  if (rec.inject.nextIndexFails) {
    rec.inject.nextIndexFails = false;
    return { to: 'error', reason: 'injected fault: "next index fails"', why: 'fault' };
  }
  const reason = result.summary.error;
  return { to: reason ? 'error' : 'done', reason, why: cause };
}

/** The status e-mail of a finished run, to its requester (none without one, or for a state that is no outcome). */
export function sendStatusMail(
  outbox: Outbox,
  rec: FeedRecord,
  config: FeedConfig,
  end: { outcome: FeedState; reason: string | null; run: RunInfo | null; at: number },
): void {
  const { outcome, reason, run, at } = end;
  if (!run?.requestedBy || !isOutcome(outcome)) return;
  outbox
    .send({
      siteId: rec.siteId,
      feedId: rec.feedId,
      feedName: config.name,
      outcome,
      requestedBy: run.requestedBy,
      requestedAt: run.requestedAt,
      finishedAt: at,
      reason,
      summary: rec.lastRun,
      nextIndexTime: rec.nextIndexTime,
    })
    .catch((err: Error) =>
      console.error(
        `search-sandbox: could not write the status e-mail of feed ${rec.feedId}: ${err.message}`,
      ),
    );
}
