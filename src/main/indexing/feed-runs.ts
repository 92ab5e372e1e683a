// One index run's work: get the feed file (the kept upload or the cart source: a file or a loopback URL),
// parse it as a stream, and collect the products; plus the autopilot's step durations.
import type { FeedState, ParseProgress, ParseSummary } from '../../shared/indexing';
import type { FeedConfig } from '../accounts/config';
import type { Product } from './catalog';
import { DEFAULT_LIMITS, FeedFileError, type DecodeLimits, type FeedInput } from './feed-file';
import { parseFeed } from './feed-parse';
import { refusedStatus, unreachable } from './cart-fetch';

/** Uploads and fetched cart sources are capped like the real service's uploads. */
export const MAX_FEED_FILE_BYTES = 20 * 1024 * 1024;

export interface RunResult {
  summary: ParseSummary;
  products: Product[];
  /** the products by uid, built while parsing (the catalog keeps it as its index) */
  byUid: Map<string, Product>;
  /** false when the run had no file to read (no upload yet, a cart source it could not get) */
  fileRead: boolean;
}

/**
 * Autopilot's step durations (sandbox time). Indexing takes longer for bigger catalogs:
 * running = 30 s + 2 ms per product, regeneration = 60 s + 1 ms per product of the last catalog.
 */
export const TIMINGS = {
  waitingMs: 30_000,
  runningBaseMs: 30_000,
  runningPerProductMs: 2,
  regenWaitingMs: 30_000,
  regenRunningBaseMs: 60_000,
  regenRunningPerProductMs: 1,
  regenDoneMs: 10_000,
} as const;

/** How long autopilot keeps a feed in `state`; null for states it does not leave by itself. */
export function stepDuration(state: FeedState, products: number): number | null {
  switch (state) {
    case 'waiting':
      return TIMINGS.waitingMs;
    case 'running':
      return TIMINGS.runningBaseMs + TIMINGS.runningPerProductMs * products;
    case 'regen_waiting':
      return TIMINGS.regenWaitingMs;
    case 'regen_running':
      return TIMINGS.regenRunningBaseMs + TIMINGS.regenRunningPerProductMs * products;
    case 'regen_done':
      return TIMINGS.regenDoneMs;
    default:
      return null;
  }
}

function failed(error: string): RunResult {
  return {
    summary: {
      format: null,
      encoding: 'raw',
      products: 0,
      idField: null,
      rowErrors: [],
      rowErrorCount: 0,
      error,
      bytes: 0,
    },
    products: [],
    byUid: new Map(),
    fileRead: false,
  };
}

/** Read a cart source URL (loopback only, checked by the config) with the upload cap. */
async function fetchCartUrl(url: string): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30_000), redirect: 'error' });
  } catch (err) {
    throw new FeedFileError(unreachable(url, err));
  }
  if (!res.ok) throw new FeedFileError(refusedStatus(url, res.status));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > MAX_FEED_FILE_BYTES)
      throw new FeedFileError(
        `the cart source ${url} sent more than 20 MB: the real service refuses feed files over 20 MB`,
      );
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Where a run's feed file comes from. */
export type RunSource =
  | {
      kind: 'upload';
      data: Buffer | undefined;
      /** why the sandbox's kept copy of an accepted upload is not there (missing, unreadable) */
      lost?: string;
    }
  | { kind: 'cart'; feed: FeedConfig };

export async function executeRun(
  source: RunSource,
  idField: string | null,
  limits: DecodeLimits = DEFAULT_LIMITS,
  onProgress?: (progress: ParseProgress) => void,
): Promise<RunResult> {
  let input: FeedInput;
  try {
    if (source.kind === 'upload') {
      if (!source.data)
        return failed(
          source.lost
            ? `the uploaded feed file is not in the data directory: ${source.lost} (the sandbox's copy, not your file): upload it again (POST /api/index/feed with feedFile)`
            : 'no feed file: none was uploaded for this feed yet (POST /api/index/feed with feedFile)',
        );
      input = { kind: 'buffer', data: source.data };
    } else if (source.feed.source.kind === 'cart' && 'file' in source.feed.source) {
      input = { kind: 'file', path: source.feed.source.file };
    } else if (source.feed.source.kind === 'cart' && 'url' in source.feed.source) {
      const url = source.feed.source.url;
      input = { kind: 'buffer', data: await fetchCartUrl(url), url };
    } else {
      return failed('the feed has no cart source configured');
    }
  } catch (err) {
    return failed(
      err instanceof FeedFileError
        ? err.message
        : `the feed file could not be read: ${(err as Error).message}`,
    );
  }
  const products: Product[] = [];
  const byUid = new Map<string, Product>();
  const summary = await parseFeed(input, { idField, limits, index: byUid, onProgress }, (p) =>
    products.push(p),
  );
  return summary.error
    ? { summary, products: [], byUid: new Map(), fileRead: true }
    : { summary, products, byUid, fileRead: true };
}
