// The recordings area: every tracking request the sandbox recorded, in the event store (journaled in the
// data directory, which it locks first), with the events API over it: query, wait, follow, reset, export
// and import. It opens first: the areas after it keep their files in the directory it locked, and the
// tracking area reads the journal back once the timelines can take each event.
import { lockEventStore, type LockedEventStore } from '../store/open-events';
import type { EventLog } from '../store/event-log';
import { looseDirWarning } from '../store/private-files';
import { adminEventsRouter } from '../http/routes/admin-events';
import type { Area } from './area';

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
    const loose = config.dataDir ? await looseDirWarning(config.dataDir) : null;
    return {
      service: { events, store },
      warnings: loose ? [loose] : [],
      routes: (sandbox) => ({ admin: [adminEventsRouter(sandbox)] }),
      // the reset's commit point: its record in the journal
      reset: (scope, importId) => events.reset(scope.siteId, importId),
      commitsReset: true,
    };
  },
};
