// Opens the event store for a config: memory only (`--ephemeral`), or reloaded from and journaled to the data dir.
import path from 'node:path';
import { EventLog } from './event-log';
import { JOURNAL_FILE, Journal, type JournalOptions } from './journal';
import { dataDirFailure } from './data-dir-error';

export interface OpenEventsOptions extends JournalOptions {
  /** null: memory only */
  dataDir: string | null;
  retention: number;
}

export async function openEventStore(options: OpenEventsOptions): Promise<EventLog> {
  const log = new EventLog({ retention: options.retention });
  if (options.dataDir === null) return log;
  try {
    await Journal.open(options.dataDir, log, options);
  } catch (err) {
    // A data dir the sandbox cannot use is a setup problem the user fixes, not a crash to debug.
    throw dataDirFailure(
      (err as { path?: string }).path ?? path.join(path.resolve(options.dataDir), JOURNAL_FILE),
      err,
      'write',
    );
  }
  return log;
}
