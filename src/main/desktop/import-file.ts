// File → Import: turns what a user has on disk — a DevTools HAR (or Playwright's, zipped or with its
// bodies beside it), NDJSON of beacon bodies or recorded events, or a sandbox export — into the body `POST /_sandbox/import` takes, with the same reader
// `search-sandbox check` uses. What cannot be placed on a site or in time is left out and said so.
import { parseInput } from '../recordings/inputs';
import { InputError } from '../recordings/recorded';
import type { RecordedEvent } from '../../shared/events';

export interface PreparedImport {
  kind: 'ndjson' | 'export' | 'har';
  /** the JSON body for POST /_sandbox/import */
  body: string;
  /** events in the body */
  count: number;
  /** what was left out, and the reader's own notes (e.g. non-search beacons in a HAR) */
  notes: string[];
}

export { InputError };

/**
 * Throws InputError (naming the file, line and what was expected) when the file cannot be read. `bodies`:
 * those a HAR keeps apart (Playwright's recordHar zip, or `content: 'attach'` side files).
 */
export function prepareImport(
  text: string,
  fileName: string,
  bodies?: ReadonlyMap<string, string>,
): PreparedImport {
  const read = parseInput(text, fileName, '', undefined, bodies);
  const notes = [...read.notes];
  // A sandbox export travels as it is: its feed and outbox sections come along.
  if (read.kind === 'export' && /^\s*\{/.test(text.replace(/^\uFEFF/, ''))) {
    return { kind: read.kind, body: text.replace(/^\uFEFF/, ''), count: read.events.length, notes };
  }
  let noSite = 0;
  let noTime = 0;
  const events: Array<Omit<RecordedEvent, 'id' | 'seq'>> = [];
  for (const event of read.events) {
    if (!event.siteId) {
      noSite++;
      continue;
    }
    const receivedAt = event.receivedAt || sentAt(event.body);
    if (!receivedAt) {
      noTime++;
      continue;
    }
    // ids and seqs are the importing sandbox's to assign
    const { id: _id, seq: _seq, ...rest } = event;
    events.push({ ...rest, receivedAt });
  }
  if (noSite > 0) {
    notes.push(
      `${noSite} event${noSite === 1 ? '' : 's'} left out: no siteId (bare beacon bodies). Write each line as ` +
        `{"siteId": "abc123", "event": "render", "body": {…}} or use \`search-sandbox check\` to check them offline.`,
    );
  }
  if (noTime > 0) {
    notes.push(
      `${noTime} event${noTime === 1 ? '' : 's'} left out: no receive time and no valid context.timestamp to use instead.`,
    );
  }
  return { kind: read.kind, body: JSON.stringify(events), count: events.length, notes };
}

/** When the client sent it: the body's context.timestamp, if it is a time. */
function sentAt(body: unknown): string | null {
  const context =
    typeof body === 'object' && body !== null ? (body as { context?: unknown }).context : undefined;
  const timestamp =
    typeof context === 'object' && context !== null
      ? (context as { timestamp?: unknown }).timestamp
      : undefined;
  if (typeof timestamp !== 'string') return null;
  const ms = Date.parse(timestamp);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
