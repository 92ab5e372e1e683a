// The text of an import body as a value: one JSON document (an export or an array of events), NDJSON
// with one event per line, or a data directory's events.ndjson (its journal: read as a restart reads it,
// its resets and imports replayed). Read on the loop for small bodies, in the import worker for large ones
// (import-body.ts).
import { isJournalHeader, readJournalText } from './journal-reader';

export type ImportRead = { value: unknown } | { problems: string[] };

const MAX_PROBLEMS = 20;

/** The problem of a body that is not UTF-8 (read anyway, its ids would hold U+FFFD, text nobody sent). */
export function utf8Problem(where: string): string {
  return `the body is ${where}: send it as GET /_sandbox/export saved it, UTF-8 text (or UTF-16 with its byte order mark)`;
}

export function readImportText(text: string): ImportRead {
  const trimmed = text.trim();
  if (trimmed === '')
    return { problems: ['the body is empty: send a file saved by GET /_sandbox/export'] };
  try {
    return { value: JSON.parse(trimmed) as unknown };
  } catch (err) {
    if (!trimmed.includes('\n'))
      return { problems: [`the body is not valid JSON (${(err as Error).message})`] };
  }
  const newline = trimmed.indexOf('\n');
  if (isJournalHeader(newline === -1 ? trimmed : trimmed.slice(0, newline))) {
    // an import is all or nothing: a journal a restart would read only in part is refused, its damage named
    const journal = readJournalText(trimmed, 'in the body');
    return journal.problems.length
      ? {
          problems: journal.problems
            .slice(0, MAX_PROBLEMS)
            .map(
              (p) =>
                `${p} (a data directory's journal with damage: start a sandbox on its directory, which skips what it cannot read and says so, and import its GET /_sandbox/export)`,
            ),
        }
      : { value: journal.events };
  }
  const events: unknown[] = [];
  const problems: string[] = [];
  trimmed.split('\n').forEach((line, i) => {
    if (line.trim() === '' || problems.length >= MAX_PROBLEMS) return;
    try {
      events.push(JSON.parse(line));
    } catch (err) {
      problems.push(
        `line ${i + 1}: not valid JSON (${(err as Error).message}); the body is neither one JSON document nor NDJSON`,
      );
    }
  });
  return problems.length ? { problems } : { value: events };
}
