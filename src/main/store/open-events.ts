// Opens the event store for a config: memory only (`--ephemeral`), or reloaded from and journaled to the data dir.
import { EventLog } from './event-log';
import { Journal, type JournalOptions } from './journal';

export interface OpenEventsOptions extends JournalOptions {
  /** null: memory only */
  dataDir: string | null;
  retention: number;
}

export async function openEventStore(options: OpenEventsOptions): Promise<EventLog> {
  const log = new EventLog({ retention: options.retention });
  if (options.dataDir !== null) await Journal.open(options.dataDir, log, options);
  return log;
}
