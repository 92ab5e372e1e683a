// Every field of every feed, outbox mail and status read kept in indexing.json, checked as it is read: a hand-edited or damaged value
// is named (its path, its value, what it must be) before the engine runs on it, where it hung the
// start-up (a state no step ends) or crashed it (a time that is no date).
import { FEED_STATES, INDEX_STATUSES, TRANSITION_CAUSES } from '../../shared/indexing';
import { isFeedUpload } from './upload-names';

/** What is wrong with one value: where it is, what it is, and what it must be. */
export interface FieldProblem {
  /** e.g. `feeds[0].state` */
  path: string;
  value: unknown;
  /** what the value must be, e.g. `one of "waiting", "running", …` */
  rule: string;
  /** the feed it belongs to, e.g. `demo42/42`, when its ids could be read */
  feed: string | null;
}

/** The dates JavaScript can show: ±100,000,000 days around 1970. */
const MAX_TIME = 8.64e15;
const TIME = 'a time in ms since 1970 (e.g. 1796086800000)';
/** States whose step autopilot times from `stepStartedAt`. */
const TIMED_STATES: readonly string[] = [
  'waiting',
  'running',
  'regen_waiting',
  'regen_running',
  'regen_done',
];
/** What starts a run: a request, the schedule, a hand (a history entry may also name a fault or the sandbox). */
const CAUSES = ['api', 'scheduler', 'hand'] as const;
const HISTORY_KINDS = ['transition', 'request', 'note'] as const;
const OUTCOMES = ['done', 'error', 'regen_error'] as const;
const DELIVERIES = ['not-configured', 'pending', 'sent', 'failed'] as const;

const isTime = (v: unknown): boolean => typeof v === 'number' && Math.abs(v) <= MAX_TIME;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const oneOf = (values: readonly (string | null)[]): string =>
  values.length === 2
    ? `${JSON.stringify(values[0])} or ${JSON.stringify(values[1])}`
    : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/** Thrown inside the check, caught at its top: the first problem found ends it. */
class Found {
  constructor(
    readonly path: string,
    readonly value: unknown,
    readonly rule: string,
  ) {}
}

/** Checks of one object's fields, each naming its path. */
class Fields {
  constructor(
    readonly obj: Record<string, unknown>,
    readonly at: string,
  ) {}

  /** The value at `key` when `ok` says so; else the check ends with `rule` as what it must be. */
  need(key: string, ok: (v: unknown) => boolean, rule: string): unknown {
    const v = this.obj[key];
    if (!ok(v)) throw new Found(`${this.at}.${key}`, v, rule);
    return v;
  }

  string(key: string, also: 'null' | 'optional' | null = null): void {
    this.need(
      key,
      (v) =>
        typeof v === 'string' ||
        (also === 'null' && v === null) ||
        (also === 'optional' && v === undefined),
      also === 'null' ? 'a string or null' : also ? 'a string (or left out)' : 'a string',
    );
  }

  time(key: string, rule = `${TIME} or null`, orNull = true): void {
    this.need(key, (v) => isTime(v) || (orNull && v === null), rule);
  }

  /** A whole number, at least `min`. */
  count(key: string, min = 0): void {
    this.need(
      key,
      (v) => Number.isSafeInteger(v) && (v as number) >= min,
      `a whole number >= ${min}`,
    );
  }

  bool(key: string, optional = false): void {
    this.need(
      key,
      (v) => typeof v === 'boolean' || (optional && v === undefined),
      optional ? 'true or false (or left out)' : 'true or false',
    );
  }

  oneOf(key: string, values: readonly (string | null)[], optional = false): void {
    this.need(
      key,
      (v) => values.includes(v as string) || (optional && v === undefined),
      `${oneOf(values)}${optional ? ' (or left out)' : ''}`,
    );
  }

  object(key: string, orNull = false): Fields | null {
    const v = this.need(
      key,
      (x) => isObject(x) || (orNull && x === null),
      orNull ? 'an object or null' : 'an object',
    );
    return v === null ? null : new Fields(v as Record<string, unknown>, `${this.at}.${key}`);
  }

  /** Each item of the list at `key` (absent allowed when `optional`), as an object. */
  items(key: string, optional = false): Fields[] {
    const v = this.need(
      key,
      (x) => Array.isArray(x) || (optional && x === undefined),
      optional ? 'a list (or left out)' : 'a list',
    );
    if (v === undefined) return [];
    return (v as unknown[]).map((item, i) => {
      const at = `${this.at}.${key}[${i}]`;
      if (!isObject(item)) throw new Found(at, item, 'an object');
      return new Fields(item, at);
    });
  }
}

/** The settings a PATCH sets by hand (interval, autopilot, regeneration), each of which may be left out. */
function handSettings(fields: Fields, absent: string): void {
  fields.need(
    'interval',
    (v) => v === undefined || v === 'Never' || typeof v === 'number',
    `a number of ms or "Never" (or ${absent})`,
  );
  fields.bool('autopilot', true);
  fields.bool('regeneration', true);
}

function checkRecord(rec: Fields): void {
  rec.string('siteId');
  rec.count('feedId', 1);
  rec.oneOf('state', FEED_STATES);
  rec.string('pausedReason', 'null');
  rec.time('lastIndexed');
  // a next index time that is no date (an older version's) is counted again from the interval (feeds.ts)
  rec.need('nextIndexTime', (v) => v === null || typeof v === 'number', `${TIME} or null`);
  const overrides = rec.object('overrides')!;
  // an interval out of range (an older version's) is dropped for the configured one (feeds.ts)
  handSettings(overrides, 'left out for the configured interval');
  // what the config said when each was set by hand (left out by older versions)
  if (overrides.obj.configured !== undefined)
    handSettings(overrides.object('configured')!, 'left out');
  const inject = rec.object('inject')!;
  inject.bool('nextIndexFails');
  inject.bool('regenerationFails');
  const state = rec.obj.state as string;
  // a timed step without its start would never end
  if (TIMED_STATES.includes(state))
    rec.time('stepStartedAt', `${TIME} while the feed is "${state}": when its step started`, false);
  else rec.time('stepStartedAt');
  rec.need(
    'stepElapsedMs',
    (v) => typeof v === 'number' && v >= 0 && v <= MAX_TIME,
    'a number of ms >= 0',
  );
  const run = rec.object('run', true);
  if (run) {
    run.string('id');
    run.oneOf('cause', CAUSES);
    run.string('requestedBy', 'null');
    run.time('requestedAt', TIME, false);
    run.oneOf('input', ['upload', 'cart']);
    run.need(
      'file',
      (v) => v === undefined || v === null || typeof v === 'string',
      'a string or null (or left out)',
    );
    for (const s of run.items('superseded', true)) {
      s.string('requestedBy', 'null');
      s.oneOf('cause', CAUSES, true);
      s.time('requestedAt', TIME, false);
      s.string('indexed');
      s.time('supersededAt', TIME, false);
      s.string('supersededBy', 'null');
    }
  }
  rec.time('lastAcceptedAt');
  const last = rec.object('lastRun', true);
  if (last) {
    last.count('products');
    last.items('rowErrors');
    last.count('rowErrorCount');
    last.items('rowWarnings', true);
    last.string('error', 'null');
    last.oneOf('outcome', OUTCOMES, true);
    last.string('finishedAt', 'optional');
  }
  rec.count('products');
  keptUpload(rec);
  for (const entry of rec.items('history')) {
    entry.oneOf('kind', HISTORY_KINDS);
    entry.string('at');
    entry.oneOf('cause', TRANSITION_CAUSES);
    entry.string('detail');
    if (entry.obj.kind === 'transition') {
      entry.oneOf('from', FEED_STATES);
      entry.oneOf('to', FEED_STATES);
    }
  }
}

/**
 * The upload a record names (absent in an older version's): a file of this feed's in `uploads/`, never a
 * path (a replacement removes the file it replaced, which must be one of the feed's own).
 */
function keptUpload(rec: Fields): void {
  const upload = rec.obj.upload === undefined ? null : rec.object('upload', true);
  if (!upload) return;
  const { siteId, feedId } = rec.obj as { siteId: string; feedId: number };
  upload.need(
    'file',
    (v) => typeof v === 'string' && isFeedUpload(siteId, feedId, v),
    `a file name of this feed's upload in uploads/: "${siteId}-${feedId}.<16 hex digits>.feed"`,
  );
  upload.string('name');
}

/**
 * The first problem in the kept feeds (`feeds` of indexing.json), or null when every field of every
 * feed is one the sandbox can run on. Two records of one feed are a problem too.
 */
export function feedsProblem(feeds: readonly unknown[]): FieldProblem | null {
  const seen = new Map<string, number>();
  for (const [i, raw] of feeds.entries()) {
    const at = `feeds[${i}]`;
    if (!isObject(raw)) return { path: at, value: raw, rule: 'an object', feed: null };
    const feed = feedOf(raw);
    try {
      checkRecord(new Fields(raw, at));
    } catch (err) {
      if (!(err instanceof Found)) throw err;
      return { path: err.path, value: err.value, rule: err.rule, feed };
    }
    const twice = seen.get(feed!);
    if (twice !== undefined)
      return {
        path: `${at}.feedId`,
        value: raw.feedId,
        rule: `another feed's id: feeds[${twice}] is feed ${feed} too (keep one of them)`,
        feed,
      };
    seen.set(feed!, i);
  }
  return null;
}

/** The feed a record names (`demo42/42`), when its ids can be read. */
function feedOf(raw: Record<string, unknown>): string | null {
  return typeof raw.siteId === 'string' && Number.isSafeInteger(raw.feedId)
    ? `${raw.siteId}/${String(raw.feedId)}`
    : null;
}

/** `at.key`, or `at["key"]` for a key that would not read as one. */
const keyPath = (at: string, key: string): string =>
  /^[A-Za-z0-9_-]+$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;

function checkMail(mail: Fields): void {
  for (const key of ['id', 'at', 'to', 'from', 'subject', 'text', 'siteId']) mail.string(key);
  mail.count('feedId', 1);
  mail.oneOf('outcome', OUTCOMES);
  const delivery = mail.object('delivery')!;
  delivery.oneOf('status', DELIVERIES);
  delivery.string('error', 'null');
  delivery.string('at', 'null');
}

/** The first problem in the kept outbox (`outbox` of indexing.json): every field of every mail. */
export function outboxProblem(outbox: readonly unknown[]): FieldProblem | null {
  for (const [i, raw] of outbox.entries()) {
    const at = `outbox[${i}]`;
    if (!isObject(raw)) return { path: at, value: raw, rule: 'an object', feed: null };
    try {
      checkMail(new Fields(raw, at));
    } catch (err) {
      if (!(err instanceof Found)) throw err;
      return { path: err.path, value: err.value, rule: err.rule, feed: feedOf(raw) };
    }
  }
  return null;
}

/**
 * The first problem in the kept status reads (`statusReads` of indexing.json, per siteId: when the
 * status was last read and each feed's status then), which score the next index request.
 */
export function statusReadsProblem(reads: Record<string, unknown>): FieldProblem | null {
  for (const [siteId, raw] of Object.entries(reads)) {
    const at = keyPath('statusReads', siteId);
    if (!isObject(raw)) return { path: at, value: raw, rule: 'an object', feed: null };
    try {
      const read = new Fields(raw, at);
      read.time('at', TIME, false);
      const seen = read.object('seen')!;
      for (const [feedId, status] of Object.entries(seen.obj))
        if (!(INDEX_STATUSES as readonly unknown[]).includes(status))
          throw new Found(keyPath(seen.at, feedId), status, oneOf(INDEX_STATUSES));
    } catch (err) {
      if (!(err instanceof Found)) throw err;
      return { path: err.path, value: err.value, rule: err.rule, feed: null };
    }
  }
  return null;
}

/** `feeds[0].state "exploded" (feed demo42/42), which must be one of …`, for the one-line error. */
export function describeProblem(p: FieldProblem): string {
  const json = JSON.stringify(p.value);
  const shown = json === undefined ? 'missing' : json.length > 80 ? `${json.slice(0, 80)}…` : json;
  return `${p.path} ${shown}${p.feed ? ` (feed ${p.feed})` : ''}, which must be ${p.rule}`;
}
