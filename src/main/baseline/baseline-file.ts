// The baseline file: a recording as compared (volatile values left out, keys sorted), one event a line, so a
// pull request shows a changed event as one changed line. Sessions are sorted by their content, so two runs
// whose sessions arrived in another order write the same file. `diff` reads it back as a recording.
import { isObject } from '../../shared/values';
import {
  canonical,
  fieldsText,
  pageMatching,
  parseIgnorePath,
  strip,
  type IgnorePath,
} from './normalize';
import { pageLocation } from '../../shared/page-location';
import type { RecEvent, RecPage, Recording, RecSession } from './recording';
import { mergedImpressions, sortImpressed } from './impressions';
import { isImpression } from '../../shared/baseline';
import type { IgnoreUse } from './ignore-use';

const BASELINE_FORMAT = 'search-sandbox-baseline';

/** Does this start of a file say it is a baseline? */
export function looksLikeBaseline(head: string): boolean {
  return /^\s*\{\s*"format"\s*:\s*"search-sandbox-baseline"/.test(head.replace(/^\uFEFF/, ''));
}

function sessionText(session: RecSession): string {
  return session.pages
    .map(
      (p) => `${p.kind} ${p.location}\n${p.events.map((e) => `${e.event} ${e.text}`).join('\n')}`,
    )
    .join('\n');
}

/**
 * The baseline file's text for a recording; `ignore`, the paths left out of it, is written in it, so that a
 * comparison with it (`diff BASELINE RUN`) leaves them out of the run too.
 */
export function baselineText(recording: Recording, ignore: readonly string[] = []): string {
  const sessions = recording.sessions
    .map((s) => ({ s, key: sessionText(s) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ s }) => s);
  const lines = ['{', `  "format": "${BASELINE_FORMAT}",`, '  "version": 1,'];
  if (ignore.length > 0) lines.push(`  "ignore": ${JSON.stringify(ignore)},`);
  lines.push('  "sessions": [');
  sessions.forEach((session, si) => {
    lines.push('    {', '      "pages": [');
    session.pages.forEach((page, pi) => {
      lines.push(
        '        {',
        `          "kind": ${JSON.stringify(page.kind)},`,
        `          "page": ${JSON.stringify(page.location)},`,
        '          "events": [',
      );
      page.events.forEach((e, ei) => {
        const fields = JSON.parse(e.text) as Record<string, unknown>;
        const line = canonical({ event: e.event, ...fields });
        lines.push(`            ${line}${ei < page.events.length - 1 ? ',' : ''}`);
      });
      lines.push('          ]', `        }${pi < session.pages.length - 1 ? ',' : ''}`);
    });
    lines.push('      ]', `    }${si < sessions.length - 1 ? ',' : ''}`);
  });
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/**
 * The line a JSON.parse error is on: its position when the message says one, else the first line of the
 * file's one-event-a-line layout (an event, or a `"key": value` line) that is not JSON by itself.
 */
function lineAt(text: string, message: string): number {
  const m = /position (\d+)/.exec(message);
  if (m) {
    let line = 1;
    const end = Math.min(Number(m[1]), text.length);
    for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
    return line;
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.trim().replace(/,$/, '');
    const piece = t.startsWith('{"') ? t : /^"[^"]*"\s*:.*[^[{]$/.test(t) ? `{${t}}` : null;
    if (piece === null) continue;
    try {
      JSON.parse(piece);
    } catch {
      return i + 1;
    }
  }
  return 1;
}

/** A baseline file read back as a recording; a string says what is wrong (file:line or the field). */
export function parseBaseline(
  text: string,
  file: string,
  ignore: readonly IgnorePath[] = [],
  use?: IgnoreUse,
): Recording | string {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return `${file}:${lineAt(text, (err as Error).message)}: not valid JSON (${(err as Error).message}); a baseline file is one JSON document (write it again with update: true)`;
  }
  if (!isObject(doc) || doc.format !== BASELINE_FORMAT || !Array.isArray(doc.sessions))
    return `${file}: not a baseline file: expected {"format": "${BASELINE_FORMAT}", "sessions": [...]}`;
  if (doc.version !== 1)
    return `${file}: baseline version ${JSON.stringify(doc.version)}: this search-sandbox reads version 1 (a newer one wrote it: update search-sandbox)`;
  const carried = carriedIgnore(doc.ignore, file);
  if (typeof carried === 'string') return carried;
  const matching = pageMatching(ignore);
  const none = new Map<string, string>();
  const sessions: RecSession[] = [];
  for (const [si, s] of doc.sessions.entries()) {
    const where = `${file}: sessions[${si}]`;
    if (!isObject(s) || !Array.isArray(s.pages)) return `${where}: expected {"pages": [...]}`;
    const pages: RecPage[] = [];
    for (const [pi, p] of s.pages.entries()) {
      const at = `${where}.pages[${pi}]`;
      if (
        !isObject(p) ||
        typeof p.kind !== 'string' ||
        typeof p.page !== 'string' ||
        !Array.isArray(p.events)
      )
        return `${at}: expected {"kind": "…", "page": "/path?query", "events": [...]}`;
      const events: RecEvent[] = [];
      for (const [ei, e] of p.events.entries()) {
        if (!isObject(e) || typeof e.event !== 'string' || !e.event.includes('/'))
          return `${at}.events[${ei}]: expected an object with "event": "category/event"`;
        const { event, ...fields } = e;
        const compared = strip(fields) as Record<string, unknown>;
        const context = compared.context;
        if (isObject(context) && typeof context.pageUrl === 'string')
          context.pageUrl = pageLocation(context.pageUrl, none, matching.params, use);
        // a file written before impressions were compared by response has them as the requests sent them
        if (isImpression(event)) sortImpressed(compared);
        events.push({ event, text: fieldsText(compared, ignore, use) });
      }
      // the file's page is written as compared already (volatile ids as {orderId}); ignored parameters go
      const shown = pageLocation(p.page, none, matching.params, use);
      const location = matching.urls ? shown : '';
      pages.push({
        kind: p.kind,
        pageUrl: p.page,
        location,
        shown,
        siteId: '',
        pageLoadId: '',
        events: mergedImpressions(events),
      });
    }
    sessions.push({ pages });
  }
  const recording: Recording = carried.length > 0 ? { sessions, ignore: carried } : { sessions };
  if (writtenWithoutOrderIds(text)) recording.withoutOrderIds = true;
  return recording;
}

/**
 * Was the file written before orderIds were compared by their form? Such a file has none (they were left
 * out); one written since has the form of each orderId its run sent (`"orderId":"{digits}"`). A file of a
 * run that sent none reads so too: the other side's orderIds are then left out, which hides only an
 * orderId sent now where that run's order event had none.
 */
function writtenWithoutOrderIds(text: string): boolean {
  return !/"orderId"\s*:/.test(text);
}

/** The ignore paths a baseline file says it was written with, checked; a string says what is wrong. */
function carriedIgnore(value: unknown, file: string): string[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return `${file}: "ignore" must be a list of the paths left out of the baseline (e.g. ["query.ts"]), got ${JSON.stringify(value)}`;
  for (const [i, path] of value.entries()) {
    const parsed =
      typeof path === 'string'
        ? parseIgnorePath(path, `ignore[${i}]`)
        : `ignore[${i}] ${JSON.stringify(path)} is not a path: a field path or query.NAME`;
    if (typeof parsed === 'string') return `${file}: ${parsed}`;
  }
  return value as string[];
}
