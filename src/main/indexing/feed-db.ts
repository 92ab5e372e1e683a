// The small mutable state of indexing (feed states, history, outbox, last uploads) in lowdb:
// a JSON file in the data directory, or memory when the sandbox is ephemeral. Survives restarts.
import { Low, Memory } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FeedConfig } from './accounts-config';
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
  seq: number;
}

export const HISTORY_LIMIT = 200;
export const OUTBOX_LIMIT = 500;

function empty(): IndexingData {
  return { version: 1, feeds: [], outbox: [], statusReads: {}, seq: 0 };
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
    history: [
      {
        kind: 'note',
        at: new Date(now).toISOString(),
        cause: 'hand',
        detail: 'feed created from the config: done, as the fixtures say',
      },
    ],
  };
}

export async function openIndexingDb(dataDir: string | null): Promise<IndexingDb> {
  if (!dataDir) return new Low<IndexingData>(new Memory<IndexingData>(), empty());
  await mkdir(dataDir, { recursive: true });
  const db = new Low<IndexingData>(
    new JSONFile<IndexingData>(path.join(dataDir, 'indexing.json')),
    empty(),
  );
  try {
    await db.read();
  } catch (err) {
    throw new Error(
      `${path.join(dataDir, 'indexing.json')} cannot be read (${(err as Error).message}): fix or delete it (feeds then start from the fixtures)`,
    );
  }
  if (!db.data || db.data.version !== 1) db.data = empty();
  return db;
}

/** The last uploaded feed file per feed: in memory, mirrored to `<dataDir>/uploads/` when persistent. */
export class UploadStash {
  private readonly files = new Map<string, { data: Buffer; name: string }>();

  constructor(private readonly dir: string | null) {}

  get(siteId: string, feedId: number): { data: Buffer; name: string } | undefined {
    return this.files.get(`${siteId}/${feedId}`);
  }

  async put(siteId: string, feedId: number, data: Buffer, name: string): Promise<void> {
    this.files.set(`${siteId}/${feedId}`, { data, name });
    if (!this.dir) return;
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.file(siteId, feedId), data);
    await writeFile(`${this.file(siteId, feedId)}.name`, name);
  }

  async load(siteId: string, feedId: number): Promise<void> {
    if (!this.dir || this.files.has(`${siteId}/${feedId}`)) return;
    try {
      const data = await readFile(this.file(siteId, feedId));
      const name = await readFile(`${this.file(siteId, feedId)}.name`, 'utf8').catch(
        () => 'upload',
      );
      this.files.set(`${siteId}/${feedId}`, { data, name });
    } catch {
      /* no upload kept for this feed */
    }
  }

  async clear(siteId?: string): Promise<void> {
    for (const key of [...this.files.keys()]) {
      const [site, feed] = key.split('/') as [string, string];
      if (siteId !== undefined && site !== siteId) continue;
      this.files.delete(key);
      if (this.dir) {
        await rm(this.file(site, Number(feed)), { force: true });
        await rm(`${this.file(site, Number(feed))}.name`, { force: true });
      }
    }
  }

  private file(siteId: string, feedId: number): string {
    return path.join(this.dir!, `${siteId}-${feedId}.feed`);
  }
}
