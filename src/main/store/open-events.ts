// Opens the event store for a config: memory only (`--ephemeral`), or reloaded from and journaled to the data dir.
import path from 'node:path';
import { EventLog } from './event-log';
import { JOURNAL_FILE, Journal, type JournalOptions, type RestoreHooks } from './journal';
import { dataDirFailure } from './data-dir-error';

export interface OpenEventsOptions extends JournalOptions {
  /** null: memory only */
  dataDir: string | null;
  retention: number;
}

/** A store whose data dir is locked but not read yet: `load` reads it back (once); `close` either way. */
export interface LockedEventStore {
  readonly log: EventLog;
  load(restored?: RestoreHooks): Promise<void>;
  close(): Promise<void>;
}

export async function openEventStore(options: OpenEventsOptions): Promise<EventLog> {
  const store = await lockEventStore(options);
  await store.load();
  return store.log;
}

/**
 * The data dir locked first, read later: the sandbox opens what replaying the events needs (search
 * responses, catalogs, the timelines) in between, with no other process able to take the dir meanwhile.
 */
export async function lockEventStore(options: OpenEventsOptions): Promise<LockedEventStore> {
  const log = new EventLog({ retention: options.retention });
  const dir = options.dataDir;
  if (dir === null) return { log, load: () => Promise.resolve(), close: () => log.close() };
  const release = await usable(dir, () => Journal.lock(dir));
  let state: 'locked' | 'loading' | 'loaded' = 'locked';
  return {
    log,
    async load(restored = {}) {
      if (state !== 'locked') throw new Error('the event store is loaded once');
      state = 'loading';
      // what a hook throws (a bug in the timelines) is not the data dir's problem: it goes on as it is
      let thrown: { err: unknown } | undefined;
      try {
        await usable(dir, () =>
          Journal.load(
            dir,
            release,
            log,
            options,
            noting(restored, (err) => (thrown = { err })),
          ),
        );
      } catch (err) {
        throw thrown ? thrown.err : err;
      }
      state = 'loaded';
    },
    // a load that failed released the lock itself
    close: () => (state === 'locked' ? Promise.resolve(release()) : log.close()),
  };
}

/** A data dir the sandbox cannot use is a setup problem the user fixes, not a crash to debug. */
async function usable<T>(dir: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw dataDirFailure(
      (err as { path?: string }).path ?? path.join(path.resolve(dir), JOURNAL_FILE),
      err,
      'write',
    );
  }
}

/** `restored`, each hook telling `noted` what it throws before it is thrown on. */
function noting(restored: RestoreHooks, noted: (err: unknown) => void): RestoreHooks {
  const wrap =
    <A extends unknown[], R>(hook: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return hook(...args);
      } catch (err) {
        noted(err);
        throw err;
      }
    };
  const { upstream, event, reset } = restored;
  return {
    ...(upstream && { upstream: wrap(upstream) }),
    ...(event && { event: wrap(event) }),
    ...(reset && { reset: wrap(reset) }),
  };
}
