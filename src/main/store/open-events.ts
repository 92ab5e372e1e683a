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
    async load(restored) {
      if (state !== 'locked') throw new Error('the event store is loaded once');
      state = 'loading';
      await usable(dir, () => Journal.load(dir, release, log, options, restored));
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
