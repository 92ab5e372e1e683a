// The admin API's reads of the recorded events, over the store's public methods: the list with its paging
// facts, a wait for matching events, and the export with the areas' sections. Each answer is JSON in
// pieces, each event read when its turn comes; the HTTP layer only writes them.
import type { RecordedEvent } from '../../shared/events';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportSection,
  type SandboxExportHead,
} from './export-format';
import { documentPieces, objectWithList } from './json-pieces';
import type { EventQuery, EventStore } from './types';

/**
 * `{events, count, truncated, retained, lastSeq}` in pieces: the newest `limit` matching events, oldest
 * first, and whether there were more. `lastSeq` is the newest matching event's seq whatever the limit, so a
 * script can ask `limit=0` for the cursor alone.
 */
export function listEvents(
  store: Pick<EventStore, 'select' | 'size'>,
  query: EventQuery,
  limit: number,
): Iterable<string> {
  const found = store.select({ ...query, limit: limit + 1 });
  const truncated = found.length > limit;
  const events = truncated ? found.newest(limit) : found;
  return objectWithList('events', events.json(), {
    count: events.length,
    truncated,
    retained: store.size(),
    lastSeq: found.lastSeq(),
  });
}

export interface WaitOutcome {
  done: boolean;
  /** the matching events, up to the query's limit */
  events: RecordedEvent[];
  /** every matching event recorded (told when the wait timed out: `events` may be cut by limit) */
  matched: number;
  /** the sandbox began closing before the wait ended */
  closing?: true;
}

/**
 * Resolves once `count` events match (those stored already count), or at the timeout or abort; `limit`
 * cuts the events answered, not what is counted.
 */
export async function waitForEvents(
  store: Pick<EventStore, 'waitFor' | 'query'>,
  query: EventQuery,
  count: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<WaitOutcome> {
  const result = await store.waitFor(query, count, timeoutMs, signal);
  const { limit: _limit, ...filters } = query;
  const matched = result.done ? result.events.length : store.query(filters).length;
  return { ...result, matched };
}

export interface ExportRequest {
  /** the events to export; none given: every retained event */
  query: EventQuery;
  sections: ReadonlyMap<string, ExportSection>;
  sandboxVersion: string;
  now: number;
}

/** The export: its head, each area's section, then the events one a line; with the file name to offer. */
export function exportBody(
  store: Pick<EventStore, 'select' | 'snapshot'>,
  request: ExportRequest,
): { fileName: string; pieces: Iterable<string> } {
  const exportedAt = new Date(request.now).toISOString();
  const head: SandboxExportHead = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt,
    sandboxVersion: request.sandboxVersion,
  };
  const sections: Record<string, unknown> = {};
  const scope = request.query.siteId === undefined ? {} : { siteId: request.query.siteId };
  for (const [name, section] of request.sections) sections[name] = section.export(scope);
  const events = Object.keys(request.query).length ? store.select(request.query) : store.snapshot();
  const stamp = exportedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return {
    fileName: `search-sandbox-export-${stamp}.json`,
    pieces: (function* () {
      // the head and the sections, their large parts (a catalog) written as they are reached; the object
      // left open for the events
      let last = '';
      for (const piece of documentPieces({ ...head, ...sections })) {
        if (last) yield last;
        last = piece;
      }
      yield `${last.slice(0, -1)},"events":[`;
      let i = 0;
      for (const line of events.json()) yield `${i++ ? ',\n' : '\n'}${line}`;
      yield '\n]}\n';
    })(),
  };
}
