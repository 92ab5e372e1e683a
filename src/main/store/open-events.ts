// Opens the event store for a config: memory only (`--ephemeral`), or reloaded from and journaled to the data dir.
import { ConfigError } from '../config-error';
import { EventLog } from './event-log';
import { JOURNAL_FILE, Journal, type JournalOptions } from './journal';
import { DataDirInUseError } from './dir-lock';

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
    if (err instanceof DataDirInUseError) throw new ConfigError('dataDir', err.message);
    // A data dir the sandbox cannot write is a setup problem the user fixes, not a crash to debug.
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(
      'dataDir',
      `cannot open the events journal ${JOURNAL_FILE} in ${options.dataDir} (${code}): pass --data with a writable directory, or --ephemeral to keep events in memory`,
    );
  }
  return log;
}
