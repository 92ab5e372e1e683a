// A kept feed as this start reads it: what the data directory and the config say now that the record did
// not know (a catalog or an upload gone from the data directory, a config value edited since a setting
// was set by hand, a schedule an older version stored), put right and said in the feed's history and the
// start-up warnings. Run for every kept record when the indexing starts (service.ts, initialise); what a
// clock that went back changes is clock-back.ts.
import { formatInterval } from '../durations';
import { plural } from '../../shared/text';
import { MAX_INTERVAL_MS, MIN_INTERVAL_MS } from '../accounts/config';
import type { FeedRecord, HandSetBase } from './feed-db';
import { damageNote } from './catalog';
import type { FeedEngine } from './feeds';

/**
 * A kept feed whose catalog is not in the data directory (moved away, lost with a disk), or cannot be
 * read whole there (a damaged line: it is not served, catalog.ts), claims none: its product count goes to
 * 0 and its lastIndexed to null, so neither the status API nor the search claims a catalog that is not
 * there. A `done` feed ends in `error`, the loss its last run's error (where the board shows a feed's
 * error), as a catalog that could not be saved does. The sandbox found it, at start-up: nothing was
 * injected. Returns the reason, or null.
 */
export function catalogMissing(engine: FeedEngine, rec: FeedRecord): string | null {
  const { catalogs } = engine.deps;
  if (rec.products === 0 || catalogs.feed(rec.siteId, rec.feedId)) return null;
  const damaged = catalogs.damaged(rec.siteId, rec.feedId);
  const reason = damaged
    ? `its catalog of ${plural(rec.products, 'product')} cannot be read: ${damageNote(damaged)}`
    : `its catalog of ${plural(rec.products, 'product')} is not in the data directory: index the feed again`;
  rec.products = 0;
  rec.lastIndexed = null;
  const at = new Date(engine.now).toISOString();
  if (rec.state === 'done') {
    rec.state = 'error';
    if (rec.lastRun) rec.lastRun = { ...rec.lastRun, error: reason, outcome: 'error', indexed: 0 };
    engine.addHistory(rec, {
      kind: 'transition',
      at,
      cause: 'sandbox',
      detail: reason,
      from: 'done',
      to: 'error',
    });
  } else startNote(engine, rec, reason);
  return reason;
}

/**
 * At start: a run that indexes an upload whose kept copy is not in the data directory (removed, or
 * unreadable) says so in the feed's history and the start-up warnings, naming the file; the run, when it
 * reads it, fails saying the same, not that no file was ever uploaded.
 */
export function uploadLost(engine: FeedEngine, rec: FeedRecord): string | null {
  const { stash } = engine.deps;
  if (rec.run?.input !== 'upload' || stash.get(rec)) return null;
  const where = stash.pathOf(rec);
  if (!where) return null;
  const why = stash.lostOf(rec) ?? `${where} is missing`;
  stash.markLost(rec, why);
  const file = rec.run.file ? ` (${rec.run.file})` : '';
  const reason = `the upload its ${rec.state === 'running' ? 'run indexes' : 'queued run will index'}${file} is not in the data directory: ${why}; upload the file again`;
  // a reset of another site starts the kept feeds again: said once in the history, not at each of them
  if (!rec.history.some((h) => h.kind === 'note' && h.detail === reason))
    startNote(engine, rec, reason);
  return reason;
}

/**
 * At start: a setting set by hand whose value in the config was edited since it was set gives way to
 * the config's, the newer word (a user who edits the config and restarts means it), said in the feed's
 * history. One whose config value is as it was stays set by hand, and the feed's view shows both.
 */
export function configEdited(engine: FeedEngine, rec: FeedRecord): void {
  const { overrides } = rec;
  const base = overrides.configured;
  if (!base) return;
  const before = engine.settings(rec);
  const { config } = before;
  const said: string[] = [];
  const shown = (key: keyof HandSetBase, v: number | 'Never' | boolean) =>
    key === 'interval' ? formatInterval(v as number | 'Never') : v ? 'on' : 'off';
  for (const key of ['interval', 'autopilot', 'regeneration'] as const) {
    const then = base[key];
    if (then === undefined || overrides[key] === undefined || then === config[key]) continue;
    said.push(
      `${key} ${shown(key, before[key])} was set by hand when the config said ${shown(key, then)}; the config now says ${shown(key, config[key])}, which applies (PATCH sets it by hand again)`,
    );
    delete overrides[key];
    delete base[key];
  }
  if (Object.keys(base).length === 0) delete overrides.configured;
  if (said.length === 0) return;
  if (engine.settings(rec).interval !== before.interval) engine.recountNext(rec);
  for (const detail of said) startNote(engine, rec, detail);
}

/** A note found at start, before anyone listens: kept in the history, told with the feed's first change. */
function startNote(engine: FeedEngine, rec: FeedRecord, detail: string): void {
  const at = new Date(engine.now).toISOString();
  engine.addHistory(rec, { kind: 'note', at, cause: 'sandbox', detail });
}

/**
 * A kept record's schedule as this version can run it: an interval override out of range (an older
 * version stored "99999999d", after which every read of the feeds failed) is dropped, and a next index
 * time that is no date is counted again from the interval. Said in the feed's history.
 */
export function repairSchedule(engine: FeedEngine, rec: FeedRecord): void {
  const said: string[] = [];
  const kept = rec.overrides.interval;
  if (typeof kept === 'number' && !(kept >= MIN_INTERVAL_MS && kept <= MAX_INTERVAL_MS)) {
    delete rec.overrides.interval;
    said.push(
      `the interval set by hand (${kept} ms) is outside 1 minute to 366 days and was dropped: the configured interval applies`,
    );
  }
  const next = rec.nextIndexTime;
  if (next !== null && !Number.isFinite(new Date(next).getTime()))
    said.push('the stored next index time was no date: counted again from the interval');
  if (said.length === 0) return;
  if (next !== null) engine.recountNext(rec);
  // noted once repaired: a note renders the feed's view, which reads the schedule
  for (const detail of said) engine.note(rec, 'sandbox', detail);
}
