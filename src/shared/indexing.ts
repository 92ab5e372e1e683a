// Bulk-indexing shapes shared by the admin API, the SSE stream (`feed`, `outbox`) and the UI.
// Names follow the provider's words: indexStatus, lastIndexed, nextIndexTime, requestedBy.

/**
 * The sandbox UI's mark on its own bulk index requests: their 401 comes without `WWW-Authenticate`, because a
 * browser that sees the Basic challenge on its own origin takes the login over (a sign-in box, or in headless
 * Chromium a request that never ends) and the page never reads the answer. Integrations do not send it, so
 * they get the real service's challenge (docs/indexing.md). With the browser's `Sec-Fetch-Site: same-origin`
 * it also tells the workflow scorecard that the request is the UI's own (http/routes/indexing.ts).
 */
export const NO_CHALLENGE_HEADER = 'x-sandbox-no-challenge';

/** The states the real status endpoint reports. */
export const INDEX_STATUSES = [
  'waiting',
  'running',
  'done',
  'error',
  'regen_waiting',
  'regen_running',
  'regen_done',
  'regen_error',
] as const;
export type IndexStatus = (typeof INDEX_STATUSES)[number];

/** The sandbox's internal states: the reported ones plus `paused` (reported as `waiting`). */
export const FEED_STATES = [...INDEX_STATUSES, 'paused'] as const;
export type FeedState = (typeof FEED_STATES)[number];

/**
 * Who or what moved a feed or wrote its history entry: a bulk index API request, the scheduler/autopilot, a
 * person's hand move or setting, an injected fault, or the sandbox itself (a restart, the clock going back,
 * a reset to the fixtures, a catalog missing from or not written to the data directory). Data directories
 * of older versions hold only the first four.
 */
export const TRANSITION_CAUSES = ['api', 'scheduler', 'hand', 'fault', 'sandbox'] as const;
export type TransitionCause = (typeof TRANSITION_CAUSES)[number];

/** A finding about how a client used the bulk index API (the seed's recommended workflow). */
export type WorkflowFlag =
  | 'no-status-check'
  | 'status-not-done'
  | 'requested-while-waiting'
  | 'paused-running-index'
  | 'retry-inside-hour'
  | 'plain-http'
  | 'sandbox-ui';

export interface WorkflowFinding {
  flag: WorkflowFlag;
  message: string;
}

/** How one bulk index request measured up against "check status, request only when done". */
export interface Scorecard {
  /** true when the client read the status recently, saw the feed `done`, and nothing was flagged */
  followed: boolean;
  /** when the account last read GET /api/index/status before this request (ISO), or null */
  statusReadAt: string | null;
  /** what that status read reported for this feed, or null */
  statusSeen: IndexStatus | null;
  findings: WorkflowFinding[];
}

export interface RowError {
  /** 1-based line in the decoded feed file (CSV/ndJSON); for XML the line where the product element starts */
  line: number;
  message: string;
}

/** What one index run found in the feed file. */
export interface ParseSummary {
  format: 'csv' | 'tsv' | 'ndjson' | 'xml' | null;
  /** how the file arrived: raw, gzip or zip (with the entry name) */
  encoding: string;
  /** the character encoding it was read as, when not UTF-8 (e.g. windows-1252, utf-16le) */
  charset?: string;
  /** why it was read so: "decoded as windows-1252: not valid UTF-8 at byte 1,234" */
  charsetNote?: string | null;
  products: number;
  idField: string | null;
  /** the first row errors (at most 100); `rowErrorCount` has the total */
  rowErrors: RowError[];
  rowErrorCount: number;
  /**
   * Rows indexed with a guess, named so the feed can say what it meant: a price that reads two ways
   * ("1,500": one and a half or fifteen hundred). The first 100, and the total; absent when none.
   */
  rowWarnings?: RowError[];
  rowWarningCount?: number;
  /** set when the whole file could not be indexed */
  error: string | null;
  /** decoded bytes read */
  bytes: number;
  /**
   * As a feed's `lastRun`, the run that ended last (a run in progress is not in it yet): how it ended,
   * when, whether it read a file (a failed regeneration ends before one is read), and how many products
   * it put in the catalog — all it read when done, 0 when it failed (the catalog indexed before stays
   * served). Absent in records of older versions.
   */
  outcome?: 'done' | 'error' | 'regen_error';
  finishedAt?: string;
  fileRead?: boolean;
  indexed?: number;
  /** a cart feed's configured source the run read (its URL or file), so a later config change is told apart */
  source?: string;
}

interface HistoryBase {
  /** sandbox time, ISO 8601 UTC */
  at: string;
  cause: TransitionCause;
  detail: string;
}

export interface TransitionEntry extends HistoryBase {
  kind: 'transition';
  from: FeedState;
  to: FeedState;
}

/** A bulk index request (accepted or refused) with its workflow scorecard. */
export interface RequestEntry extends HistoryBase {
  kind: 'request';
  method: 'PUT' | 'POST';
  /** HTTP status the sandbox answered */
  status: number;
  accepted: boolean;
  requestedBy: string | null;
  scorecard: Scorecard;
}

/** Something that happened to the feed without a state change (e.g. a scheduled run skipped). */
export interface NoteEntry extends HistoryBase {
  kind: 'note';
}

export type HistoryEntry = TransitionEntry | RequestEntry | NoteEntry;

/** A feed as the admin API and the UI see it. */
/** How far a parse under way has read its feed file. */
export interface ParseProgress {
  /** decoded bytes parsed so far */
  bytes: number;
  products: number;
}

export interface FeedView {
  siteId: string;
  id: number;
  name: string;
  /** internal state (`paused` included) */
  state: FeedState;
  /** what GET /api/index/status reports */
  indexStatus: IndexStatus;
  paused: boolean;
  /** why the feed is paused, when it is */
  pausedReason: string | null;
  lastIndexed: string | null;
  nextIndexTime: string | null;
  /** interval as written in the config: "24h", "30m", "Never" */
  interval: string;
  intervalMs: number | null;
  source: { kind: 'upload' } | { kind: 'cart'; file?: string; url?: string };
  regeneration: boolean;
  autopilot: boolean;
  /**
   * The config file's interval, autopilot and regeneration: where one differs from the feed's, it was set
   * by hand (PATCH), and stays so until the config's value is edited (which then wins at the next start)
   */
  configured: { interval: string; autopilot: boolean; regeneration: boolean };
  idField: string | null;
  /** injected faults, each consumed by the next run it applies to */
  inject: { nextIndexFails: boolean; regenerationFails: boolean };
  /** states reachable from here by hand */
  allowedTransitions: FeedState[];
  /** when the current timed step ends on autopilot (ISO), or null */
  stepEndsAt: string | null;
  /** products in the feed's current catalog */
  products: number;
  /** the last finished parse, or null before the first index in this sandbox */
  lastRun: ParseSummary | null;
  /**
   * Which feed's catalog the site's search answers from now (the last one indexed with products, of any
   * feed of the site), and when it was indexed; null while the site has none
   */
  searchServes: { feedId: number; indexedAt: string } | null;
  /** the running index's parse while it reads the file (decoded bytes and products so far), else null */
  parsing: ParseProgress | null;
  /** newest last; at most the last 200 entries */
  history: HistoryEntry[];
}

/** A feed as a PATCH of its settings leaves it, and what the PATCH changed. */
export interface PatchedFeed extends FeedView {
  /** each setting changed, in words ("interval 6h"); empty when the feed already had them (no history entry) */
  changed: string[];
}

export interface OutboxMessage {
  id: string;
  /** sandbox time the message was produced, ISO */
  at: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  siteId: string;
  feedId: number;
  outcome: 'done' | 'error' | 'regen_error';
  /** SMTP delivery: `not-configured` when no smtp is set up */
  delivery: {
    status: 'not-configured' | 'pending' | 'sent' | 'failed';
    error: string | null;
    at: string | null;
  };
}

// The one transition table of the indexing states (docs/indexing.md, "States"): the sandbox moves feeds
// by it (src/main/indexing/state-machine.ts) and the UI draws its diagram from it.

/**
 * What may cause a move:
 * - `start`: a bulk index request was accepted, or the scheduler reached nextIndexTime
 * - `step`: autopilot's timed progress (or the end of the parse) moves the feed on
 * - `pause`: a bulk index request arrived while the feed was running
 * - `resume`: only by hand
 */
export type Trigger = 'start' | 'step' | 'pause' | 'resume';

export interface Transition {
  from: FeedState;
  to: FeedState;
  triggers: readonly Trigger[];
  /** only for feeds with external regeneration */
  needsRegeneration?: boolean;
  /** only for feeds without it: a feed with external regeneration always regenerates first */
  withoutRegeneration?: boolean;
}

/** States a feed rests in; a start (request or schedule) is possible only from these. */
export const RESTING_STATES: readonly FeedState[] = ['done', 'error', 'regen_error'];

export const TRANSITIONS: readonly Transition[] = [
  // start: plain feeds go straight to waiting, feeds with external regeneration regenerate first (a hand
  // start too: what the presenter shows is what a request or the schedule does)
  { from: 'done', to: 'waiting', triggers: ['start'], withoutRegeneration: true },
  { from: 'error', to: 'waiting', triggers: ['start'], withoutRegeneration: true },
  // regen_error is a resting state too (the sandbox's choice): otherwise such a feed could never index again
  { from: 'regen_error', to: 'waiting', triggers: ['start'], withoutRegeneration: true },
  { from: 'done', to: 'regen_waiting', triggers: ['start'], needsRegeneration: true },
  { from: 'error', to: 'regen_waiting', triggers: ['start'], needsRegeneration: true },
  { from: 'regen_error', to: 'regen_waiting', triggers: ['start'], needsRegeneration: true },
  // the index itself
  { from: 'waiting', to: 'running', triggers: ['step'] },
  { from: 'running', to: 'done', triggers: ['step'] },
  { from: 'running', to: 'error', triggers: ['step'] },
  { from: 'running', to: 'paused', triggers: ['pause'] },
  { from: 'paused', to: 'running', triggers: ['resume'] },
  // external regeneration
  { from: 'regen_waiting', to: 'regen_running', triggers: ['step'] },
  { from: 'regen_running', to: 'regen_done', triggers: ['step'] },
  { from: 'regen_running', to: 'regen_error', triggers: ['step'] },
  { from: 'regen_done', to: 'waiting', triggers: ['step'] },
];
