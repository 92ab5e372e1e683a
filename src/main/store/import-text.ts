// The text of an import body as a value: one JSON document (an export or an array of events), or NDJSON
// with one event per line, such as a data directory's events.ndjson (its header and reset lines are
// skipped). Read on the loop for small bodies, in the import worker for large ones (import-body.ts).

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
  const events: unknown[] = [];
  const problems: string[] = [];
  trimmed.split('\n').forEach((line, i) => {
    if (line.trim() === '' || problems.length >= MAX_PROBLEMS) return;
    try {
      const v: unknown = JSON.parse(line);
      const journalLine = v && typeof v === 'object' && ('journal' in v || 'reset' in v);
      if (!journalLine) events.push(v);
    } catch (err) {
      problems.push(
        `line ${i + 1}: not valid JSON (${(err as Error).message}); the body is neither one JSON document nor NDJSON`,
      );
    }
  });
  return problems.length ? { problems } : { value: events };
}
