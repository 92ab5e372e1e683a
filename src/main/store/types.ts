// The event store's interface: what ingest, timelines and the admin API may ask of recorded tracking requests.
import type { RecordedEvent, UpstreamAnswer } from '../../shared/events';

/** What ingest hands the store; the store assigns `id` and `seq`. */
export type EventDraft = Omit<RecordedEvent, 'id' | 'seq'>;

export interface EventQuery {
  siteId?: string;
  category?: string;
  event?: string;
  accepted?: boolean;
  /** matches `body.data.responseId` */
  responseId?: string;
  /** matches `body.context.pageLoadId` */
  pageLoadId?: string;
  /** matches `body.context.sessionId` */
  sessionId?: string;
  /** only events with seq greater than this */
  since?: number;
  /** only events with seq less than this (paging back through history) */
  before?: number;
  /** at most this many, the newest ones (result is still oldest first) */
  limit?: number;
}

/** A line of the upstream answers' file: the real service's answer to a forwarded event. */
export interface UpstreamRecord {
  eventId: string;
  upstream: UpstreamAnswer;
}

/** The request fields that say whether the timelines fold a request into its page. */
export type RequestFields = Pick<RecordedEvent, 'category' | 'event' | 'accepted' | 'status'>;

/** What retention's listeners learn of an event it dropped (none is read back for them). */
export interface DroppedEvent {
  seq: number;
  siteId: string;
  /** `body.context.pageLoadId`, when a string */
  pageLoadId: string | undefined;
}

/** Events chosen now and read one at a time, when reached (older events are kept compact). */
export interface EventList extends Iterable<RecordedEvent> {
  readonly length: number;
  /** seq of the newest, null when empty */
  lastSeq(): number | null;
  /** the newest `n` of them */
  newest(n: number): EventList;
  /** each event's `JSON.stringify`, in order (a compact one's kept line: not parsed again) */
  json(): Iterable<string>;
}

export interface WaitResult {
  /** true when `count` matching events were recorded before the timeout */
  done: boolean;
  events: RecordedEvent[];
  /** the store stopped taking events (the sandbox is closing) before the wait ended */
  closing?: true;
}

export interface EventStore {
  /**
   * Store durably (group commit: resolves once the record reached the OS), then notify listeners. With
   * `importId` (from `beginImport`), the record is the import's: kept after a restart only once the import ended with commit.
   */
  append(draft: EventDraft, importId?: string): Promise<RecordedEvent>;
  /**
   * Open an import that is all or nothing across a crash; its id goes with its appends and its reset.
   * Resolves once the imports and `exclusive` work that came before it are done, and holds off those that
   * come after it until `endImport`: two imports, or an import and a reset, never interleave.
   */
  beginImport(): Promise<string>;
  /** the sandbox is closing (endWaits was called): an import under way stops at its next batch */
  readonly closing: boolean;
  /** resolves once the imports and resets under way or waiting have ended */
  writesDone(): Promise<void>;
  /** `writesDone` waits for `answered` too (an import's answer, sent after its turn ended) */
  answering(answered: Promise<void>): void;
  /** Close an import: `commit` keeps what it stored across restarts; `abort` (or no end at all) undoes it at the next start. */
  endImport(id: string, outcome: 'commit' | 'abort'): Promise<void>;
  /**
   * Run `work` (a reset) once the imports and work that came before it are done, and hold off those that
   * come after it until it is done. Appends of beacons never wait.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  query(q: EventQuery): RecordedEvent[];
  get(id: string): RecordedEvent | undefined;
  /** every retained event, oldest first */
  all(): readonly RecordedEvent[];
  /** every retained event as of now, oldest first, each read when reached (a million at once cost too much) */
  snapshot(): EventList;
  /** `query(q)`'s events, each read when reached: an answer of 100,000 is written without holding the loop */
  select(q: EventQuery): EventList;
  size(): number;
  /** forget every event, or those of one siteId (as part of an import: `importId`); run it in `exclusive` or an import */
  reset(siteId?: string, importId?: string): Promise<void>;
  onAppend(listener: (event: RecordedEvent) => void): () => void;
  onReset(listener: (siteId?: string) => void): () => void;
  /** Put the real service's answer on a retained event (every read shows it); false when not retained. */
  setUpstream(id: string, upstream: UpstreamAnswer): boolean;
  /** the answers of retained events, oldest first */
  upstreamAnswers(): UpstreamRecord[];
  /** an event was forgotten to keep within retention (the oldest goes first): its seq, site and page */
  onDrop(listener: (dropped: DroppedEvent) => void): () => void;
  /** resolves once `count` events match `q` (counting those already stored), or at `timeoutMs`, or when `signal` aborts */
  waitFor(
    q: EventQuery,
    count: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WaitResult>;
  /**
   * The sandbox is closing: every wait under way ends now (`closing`), and a wait asked for later ends at
   * once, so that each is answered before the connections close.
   */
  endWaits(): void;
  /** lines of the journal that could not be read at load (torn last line etc.), for the health/UI */
  loadWarnings(): string[];
  close(): Promise<void>;
}

/** Where appends and resets go before they take effect (the NDJSON journal); absent = memory only. */
export interface EventPersistence {
  /** resolves once the record reached the OS; records resolve in the order they were written */
  writeEvent(event: RecordedEvent, importId?: string): Promise<void>;
  writeReset(
    siteId: string | undefined,
    nextSeq: number,
    importId?: string,
    resetId?: string,
  ): Promise<void>;
  /** no compaction until released (a reset under way); with the file's length then */
  holdCompaction(): Promise<{ bytes: number; release(): void }>;
  /** an import's begin, commit or abort marker */
  writeImport(id: string, marker: 'begin' | 'commit' | 'abort'): Promise<void>;
  warnings(): string[];
  close(): Promise<void>;
}

export interface EventLogOptions {
  /** keep at most this many events; the oldest are dropped */
  retention: number;
  /** seq of the first new event (continues after a reloaded journal) */
  nextSeq?: number;
  /** events held as they came, the newest (default 8,192); older ones are kept compact */
  hot?: number;
}
