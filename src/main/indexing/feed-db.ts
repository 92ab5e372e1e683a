// The small mutable state of indexing (feed states, history, outbox, last uploads) in lowdb:
// a JSON file in the data directory, or memory when the sandbox is ephemeral. Survives restarts.
import { Low, Memory } from 'lowdb';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DataDirError, dataDirFailure } from '../store/data-dir-error';
import { makePrivateDir, PrivateJsonFile } from '../store/private-files';
import {
  describeProblem,
  feedsProblem,
  outboxProblem,
  statusReadsProblem,
} from './feed-record-check';
import type { FeedConfig } from '../accounts/config';
import type {
  FeedState,
  HistoryEntry,
  IndexStatus,
  OutboxMessage,
  ParseSummary,
} from '../../shared/indexing';

/** Admin overrides of the configured feed settings (PATCH); absent = as configured. */
export interface FeedOverrides {
  interval?: number | 'Never';
  autopilot?: boolean;
  regeneration?: boolean;
  /**
   * The config's value of each setting when it was set by hand: a config edited since is the newer word,
   * and wins at the next start (absent in data kept by an older version: the hand's value stays).
   */
  configured?: HandSetBase;
}

/** The config's settings a hand-set value replaced, as the config said them then. */
export interface HandSetBase {
  interval?: number | 'Never';
  autopilot?: boolean;
  regeneration?: boolean;
}

/** The run in progress: who started it and what it indexes. */
export interface RunInfo {
  id: string;
  cause: 'api' | 'scheduler' | 'hand';
  requestedBy: string | null;
  /** sandbox time the request was accepted or the run was started */
  requestedAt: number;
  /** what the run indexes: an upload (kept per feed) or the configured cart source */
  input: 'upload' | 'cart';
  /** the upload's file name when the run started (absent in records of older versions) */
  file?: string | null;
  /** earlier requests whose runs gave way to this one: their requesters are told how it ends */
  superseded?: SupersededRequest[];
}

/**
 * A run a newer request superseded (paused and started again with its input): a link of the chain that
 * ends in the run carrying it. Its requester, when it named one, is told how that run ends.
 */
export interface SupersededRequest {
  /** null: a run no requester is told of (started by the scheduler or by hand, or no requestedBy) */
  requestedBy: string | null;
  /** what started it (absent in records of older versions, which kept only runs with a requester) */
  cause?: RunInfo['cause'];
  requestedAt: number;
  /** what its run was to index: "upload big.csv.gz", "the cart source" */
  indexed: string;
  supersededAt: number;
  /** the requester of the request that superseded it (null: none named) */
  supersededBy: string | null;
}

export interface FeedRecord {
  siteId: string;
  feedId: number;
  state: FeedState;
  pausedReason: string | null;
  lastIndexed: number | null;
  nextIndexTime: number | null;
  overrides: FeedOverrides;
  inject: { nextIndexFails: boolean; regenerationFails: boolean };
  /** start of the current timed step segment (sandbox ms) */
  stepStartedAt: number | null;
  /** running time already spent before a pause */
  stepElapsedMs: number;
  run: RunInfo | null;
  /** sandbox time of the last accepted bulk index request (the one-hour window) */
  lastAcceptedAt: number | null;
  lastRun: ParseSummary | null;
  products: number;
  history: HistoryEntry[];
  /**
   * The upload the feed indexes (its last accepted one; null: none). Naming it here, stored, is what
   * commits a request's upload (upload-stash.ts). Absent in records of older versions, which kept it at
   * a fixed name: named at their first start.
   */
  upload?: KeptUpload | null;
}

/** An accepted upload: its bytes' file in `<dataDir>/uploads/` (upload-names.ts) and the client's name. */
export interface KeptUpload {
  file: string;
  name: string;
}

export interface StatusRead {
  at: number;
  seen: Record<string, IndexStatus>;
}

export interface IndexingData {
  version: 1;
  feeds: FeedRecord[];
  outbox: OutboxMessage[];
  /** per siteId: the last GET /api/index/status (for the workflow scorecard) */
  statusReads: Record<string, StatusRead>;
  /** the runs' counter (`run_…`) */
  seq: number;
  /**
   * the outbox's own counter (`mail_…`): absent in a file an older version wrote, whose mails were
   * numbered by `seq`; the outbox then goes on after the highest id it holds (outbox.ts)
   */
  mailSeq?: number;
}

export const INDEXING_FILE = 'indexing.json';
export const HISTORY_LIMIT = 200;
export const OUTBOX_LIMIT = 500;

function empty(): IndexingData {
  return { version: 1, feeds: [], outbox: [], statusReads: {}, seq: 0, mailSeq: 0 };
}

export type IndexingDb = Low<IndexingData>;

/** The fixtures' starting point: done, indexed at the top of the current hour, next run one interval later. */
export function fixtureRecord(siteId: string, feed: FeedConfig, now: number): FeedRecord {
  const lastIndexed = Math.floor(now / 3_600_000) * 3_600_000;
  return {
    siteId,
    feedId: feed.id,
    state: 'done',
    pausedReason: null,
    lastIndexed,
    nextIndexTime: feed.interval === 'Never' ? null : lastIndexed + feed.interval,
    overrides: {},
    inject: { nextIndexFails: false, regenerationFails: false },
    stepStartedAt: null,
    stepElapsedMs: 0,
    run: null,
    lastAcceptedAt: null,
    lastRun: null,
    products: 0,
    // a feed made anew never takes an upload an older state left (a reset removes them)
    upload: null,
    history: [
      {
        kind: 'note',
        at: new Date(now).toISOString(),
        cause: 'sandbox',
        detail:
          'feed created from the config: done, as a live account’s feed starts, with no catalog indexed here yet',
      },
    ],
  };
}

/** The feeds' db, and whether indexing.json was there (false: in memory, or the feeds start anew). */
export async function openIndexingDb(
  dataDir: string | null,
): Promise<{ db: IndexingDb; found: boolean }> {
  if (!dataDir)
    return { db: new Low<IndexingData>(new Memory<IndexingData>(), empty()), found: false };
  const file = path.resolve(dataDir, INDEXING_FILE);
  try {
    await makePrivateDir(dataDir);
  } catch (err) {
    throw dataDirFailure(path.resolve(dataDir), err, 'create');
  }
  const db = new Low<IndexingData>(new PrivateJsonFile<IndexingData>(file), empty());
  const data = await readIndexingFile(file);
  db.data = data ?? empty();
  return { db, found: data !== null };
}

/**
 * Read indexing.json without ever replacing it: a file that cannot be read or is not this sandbox's
 * data stops the start-up (the user's feed states and outbox are in it), only a missing one (null) starts
 * fresh.
 */
async function readIndexingFile(file: string): Promise<IndexingData | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw dataDirFailure(file, err, 'read');
  }
  const fix =
    'fix it, or move it away to start the feeds and the outbox again from the fixtures (the sandbox changed nothing)';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const why = text.trim() === '' ? 'is empty' : `is not valid JSON (${(err as Error).message})`;
    throw new DataDirError(file, why, fix);
  }
  const problem = shapeProblem(data);
  if (problem)
    throw new DataDirError(file, `is not a search-sandbox indexing file (${problem})`, fix);
  // every field of every feed, mail and status read: the engine runs on them as they are
  const kept = data as IndexingData;
  const field =
    feedsProblem(kept.feeds) ?? outboxProblem(kept.outbox) ?? statusReadsProblem(kept.statusReads);
  if (field)
    throw new DataDirError(
      file,
      `has ${describeProblem(field)}`,
      'correct that value, or move the file away to start the feeds and the outbox again from the fixtures (the sandbox changed nothing)',
    );
  return data as IndexingData;
}

function shapeProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'not a JSON object';
  const d = data as Record<string, unknown>;
  if (d.version !== 1) return `"version" is ${JSON.stringify(d.version) ?? 'missing'}, expected 1`;
  for (const key of ['feeds', 'outbox'] as const)
    if (!Array.isArray(d[key])) return `"${key}" is not a list`;
  if (typeof d.statusReads !== 'object' || d.statusReads === null || Array.isArray(d.statusReads))
    return '"statusReads" is not an object';
  if (typeof d.seq !== 'number') return '"seq" is not a number';
  if (d.mailSeq !== undefined && typeof d.mailSeq !== 'number') return '"mailSeq" is not a number';
  return null;
}
