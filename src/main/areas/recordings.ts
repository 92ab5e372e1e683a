// The recordings area: every tracking request the sandbox recorded, in the event store (journaled in the
// data directory, which it locks first), with the events API over it: query, wait, follow, reset, export
// and import. It opens first: the areas after it keep their files in the directory it locked, and the
// tracking area reads the journal back once the timelines can take each event.
import path from 'node:path';
import { lockEventStore, type LockedEventStore } from '../store/open-events';
import type { EventLog } from '../store/event-log';
import { looseDirWarning } from '../store/private-files';
import { adminEventsRouter } from '../http/routes/admin-events';
import { JOURNAL_FILE } from '../store/journal';
import { endReset, recordReset, recoverReset, type ResetFiles } from '../store/reset-commit';
import type { Area, CommittedReset } from './area';

export interface RecordingsService {
  /** every recorded tracking request, appended by ingest */
  readonly events: EventLog;
  /** the journal, locked and not read yet: the tracking area reads it back */
  readonly store: Pick<LockedEventStore, 'load'>;
}

export const recordingsArea: Area<'recordings'> = {
  name: 'recordings',
  needs: [],
  async open({ config, bus, onClose }) {
    const store = await lockEventStore({
      dataDir: config.dataDir,
      retention: config.retention.events,
    });
    onClose(() => store.close());
    const events = store.log;
    events.onAppend((event) => bus.emit({ type: 'event', data: event }));
    const dir = config.dataDir;
    const warnings: string[] = [];
    // compaction holds of committed resets that did not end (a part not put in place, which the next
    // start finishes from reset.json): the next reset that ends releases them
    const unended = new Set<() => void>();
    if (dir) {
      // a reset the process stopped in: finished or undone before any area reads its files
      const recovered = await recoverReset(dir, path.join(dir, JOURNAL_FILE));
      const loose = await looseDirWarning(dir);
      warnings.push(...[recovered, loose].filter((w): w is string => w !== null));
    }
    return {
      service: { events, store },
      warnings,
      routes: (sandbox) => ({ admin: [adminEventsRouter(sandbox)] }),
      commitReset: (scope, importId, { id, files }) =>
        dir && files
          ? commitWithFiles({ dir, events, unended }, scope.siteId, importId, id, files)
          : journalOnly(events, scope.siteId, importId),
    };
  },
};

/** A reset that changes no file besides the journal: its record there is all of it. */
async function journalOnly(
  events: EventLog,
  siteId: string | undefined,
  importId: string | undefined,
): Promise<CommittedReset> {
  await events.reset(siteId, importId);
  return { end: () => Promise.resolve() };
}

/**
 * The record of the files the reset changes (reset.json), then the journal's reset record, its commit
 * point; with no compaction from before the one to the end of the reset (reset-commit.ts), a start
 * looking for the record where the journal ended before it. The journal
 * refusing the record (a full disk) leaves the reset uncommitted: reset.json goes again, and a start that
 * still found it would find no record and remove what was written aside.
 */
async function commitWithFiles(
  { dir, events, unended }: { dir: string; events: EventLog; unended: Set<() => void> },
  siteId: string | undefined,
  importId: string | undefined,
  id: string,
  files: ResetFiles,
): Promise<CommittedReset> {
  const hold = (await events.holdJournal())!;
  try {
    await recordReset(dir, id, hold.bytes, files);
    try {
      await events.reset(siteId, importId, id);
    } catch (err) {
      await endReset(dir).catch(() => undefined);
      throw err;
    }
  } catch (err) {
    hold.release();
    throw err;
  }
  unended.add(hold.release);
  return {
    async end() {
      await endReset(dir);
      for (const release of unended) release();
      unended.clear();
    },
  };
}
