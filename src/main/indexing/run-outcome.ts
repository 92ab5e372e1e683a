// How an index run ends, decided apart from the engine that moves the feed: done or error (and why), and
// the status e-mail its requester gets.
import type { FeedState, ParseSummary, TransitionCause } from '../../shared/indexing';
import type { FeedConfig } from '../accounts/config';
import { statusTime } from '../durations';
import type { FeedRecord, RunInfo, SupersededRequest } from './feed-db';
import type { RunResult } from './feed-runs';
import type { IndexOutcome, Outbox } from './outbox';
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

/**
 * The record an index run leaves as the feed's lastRun: what it read (whether it had a file to read at
 * all), how it ended, and what it indexed — all it read when done, 0 when it failed (the catalog indexed
 * before stays in place).
 */
export function runRecord(
  { summary, fileRead }: Pick<RunResult, 'summary' | 'fileRead'>,
  outcome: 'done' | 'error',
  error: string | null,
  at: number,
): ParseSummary {
  return {
    ...summary,
    error,
    outcome,
    finishedAt: new Date(at).toISOString(),
    fileRead,
    indexed: outcome === 'done' ? summary.products : 0,
  };
}

/** A failed regeneration ends the run before any file is read: its record says so, not the run before's. */
export function regenerationFailedRecord(reason: string, at: number): ParseSummary {
  return {
    format: null,
    encoding: 'none',
    products: 0,
    idField: null,
    rowErrors: [],
    rowErrorCount: 0,
    error: reason,
    bytes: 0,
    outcome: 'regen_error',
    finishedAt: new Date(at).toISOString(),
    fileRead: false,
    indexed: 0,
  };
}

/** A cart feed's configured source as its runs record it: the URL or the file; null for an upload feed. */
export function cartSource(config: FeedConfig): string | null {
  const source = config.source;
  if (source.kind !== 'cart') return null;
  return 'url' in source ? source.url : source.file;
}

/**
 * After a restart with another cart source in the config, the last run's error is of the old source: it
 * says so (the record is kept, its words no longer pass for the configured source's). Null: nothing to say.
 */
export function sourceChanged(rec: FeedRecord, config: FeedConfig): string | null {
  const run = rec.lastRun;
  const now = cartSource(config);
  if (!run?.error || run.source === undefined || now === null || run.source === now) return null;
  rec.lastRun = { ...run, error: `previous run, from the old source ${run.source}: ${run.error}` };
  return `the config's cart source changed from ${run.source} to ${now} since the last run: its error is of the old source; PUT /api/index/feed?feedId=${rec.feedId} indexes the new one`;
}

/** What a run indexes, in the words of the history and the e-mails. */
export function runIndexes(run: RunInfo): string {
  if (run.input === 'cart') return 'the cart source';
  return run.file ? `upload ${run.file}` : 'the last upload';
}

/**
 * The chain a new run ends: the links the earlier run carried, then the earlier run itself (with or
 * without a requester, so the chain has no gap).
 */
export function supersededBy(
  earlier: RunInfo | null,
  next: RunInfo,
  at: number,
): SupersededRequest[] {
  const carried = earlier?.superseded ?? [];
  if (!earlier) return carried;
  const own: SupersededRequest = {
    requestedBy: earlier.requestedBy,
    cause: earlier.cause,
    requestedAt: earlier.requestedAt,
    indexed: runIndexes(earlier),
    supersededAt: at,
    supersededBy: next.requestedBy,
  };
  return [...carried, own];
}

/** Whose run a link of the chain was, in the history's words. */
function whose(run: Pick<SupersededRequest, 'requestedBy' | 'cause'>): string {
  if (run.requestedBy) return run.requestedBy;
  if (run.cause === 'scheduler') return 'the scheduled index';
  return run.cause === 'hand' ? 'an index started by hand' : 'a request without requestedBy';
}

/**
 * The history's word on a superseded run: whose it was, what replaces it, who is told; and when it had
 * superseded others, the whole chain, so nobody reads the first link as the index that ran.
 */
export function supersededNote(earlier: RunInfo | null, next: RunInfo, at: number): string {
  const started = earlier?.requestedBy
    ? `requested by ${earlier.requestedBy} at ${statusTime(earlier.requestedAt)}`
    : `started by ${earlier?.cause === 'scheduler' ? 'the scheduler' : earlier?.cause === 'hand' ? 'hand' : 'a request without requestedBy'}`;
  const by = next.requestedBy ? ` from ${next.requestedBy}` : '';
  const chain = next.superseded ?? [];
  const told = chain.flatMap((r) => (r.requestedBy ? [r.requestedBy] : []));
  const are = told.length === 1 ? 'is' : 'are';
  const said = `the index ${started} (${earlier ? runIndexes(earlier) : 'no input'}) is superseded by the request${by} at ${statusTime(at)}: resuming indexes ${runIndexes(next)}`;
  if (chain.length < 2)
    return `${said}${told.length ? `; ${told.join(', ')} ${are} e-mailed the outcome of the index that replaces it` : ''}`;
  const links = [
    ...chain.map((r) => `${whose(r)} (${r.indexed}, ${statusTime(r.requestedAt)})`),
    `${whose(next)} (${runIndexes(next)}, ${statusTime(next.requestedAt)})`,
  ];
  return `${said}. The chain: ${links.join(' → ')}, the index that runs${told.length ? `; ${told.join(', ')} ${are} e-mailed its outcome` : ''}`;
}

/**
 * The status e-mails of a finished run: to its requester, and to each requester whose run it superseded
 * (none without one, or for a state that is no outcome).
 */
export function sendStatusMail(
  outbox: Outbox,
  rec: FeedRecord,
  config: FeedConfig,
  end: { outcome: FeedState; reason: string | null; run: RunInfo | null; at: number },
): void {
  const { outcome, reason, run, at } = end;
  if (!run || !isOutcome(outcome)) return;
  const base = {
    siteId: rec.siteId,
    feedId: rec.feedId,
    feedName: config.name,
    outcome,
    finishedAt: at,
    reason,
    summary: rec.lastRun,
    nextIndexTime: rec.nextIndexTime,
    // the feed's catalog once the run ended: the new one when done, else the one indexed before
    catalog: { products: rec.products, indexedAt: rec.lastIndexed },
  };
  // each superseded requester hears of every later link, down to the run that ended
  const chain = run.superseded ?? [];
  const mails: IndexOutcome[] = chain.flatMap((s, i) =>
    s.requestedBy
      ? [
          {
            ...base,
            requestedBy: s.requestedBy,
            requestedAt: s.requestedAt,
            superseded: {
              own: s.indexed,
              chain: chain.slice(i).map((l) => ({ at: l.supersededAt, by: l.supersededBy })),
              ran: runIndexes(run),
            },
          },
        ]
      : [],
  );
  if (run.requestedBy)
    mails.push({ ...base, requestedBy: run.requestedBy, requestedAt: run.requestedAt });
  for (const mail of mails) write(outbox, mail);
}

function write(outbox: Outbox, mail: IndexOutcome): void {
  outbox
    .send(mail)
    .catch((err: Error) =>
      console.error(
        `search-sandbox: could not write the status e-mail of feed ${mail.feedId}: ${err.message}`,
      ),
    );
}
