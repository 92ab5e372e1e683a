// The sandbox export (`GET /_sandbox/export`, `POST /_sandbox/import`, `search-sandbox check`): recorded
// events plus sections other areas contribute, and the validation an import goes through.
import type { EventDraft } from './types';
import { recordedEventProblem } from './recorded-event';
import { Slicer } from '../slices';

export const EXPORT_FORMAT = 'search-sandbox-export';
export const EXPORT_VERSION = 1;

/** Top-level keys of an export that belong to the format itself, not to a section. */
export const RESERVED_KEYS = [
  'format',
  'version',
  'exportedAt',
  'sandboxVersion',
  'events',
] as const;

/** What an export was asked for: one site's events (`GET /_sandbox/export?siteId=`), or every site's. */
export interface ExportScope {
  siteId?: string;
}

/**
 * A part of the sandbox's state (feeds, outbox, …) that travels in exports; `import` is optional. `export`
 * is told the export's scope: what a section says per site may leave the other sites out.
 */
export interface ExportSection {
  export(scope: ExportScope): unknown;
  import?(data: unknown): void | Promise<void>;
}

export interface SandboxExportHead {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  sandboxVersion: string;
}

export interface ParsedImport {
  events: EventDraft[];
  /** sections found in the file besides the events, by name */
  sections: Record<string, unknown>;
}

const MAX_PROBLEMS = 20;
const DRAFT_KEYS = [
  'receivedAt',
  'clockOffsetMs',
  'siteId',
  'category',
  'event',
  'path',
  'method',
  'accepted',
  'status',
  'errors',
  'body',
  'userAgent',
  'origin',
  'contentType',
  'upstream',
  'bodyTruncated',
] as const;

export { isKeptBody } from './recorded-event';

/**
 * Validate an import: an export object, or a bare array of events (in slices that give the loop back). Ids and seqs are re-assigned on import
 * (they are unique per data directory), everything else is kept. Returns every problem found, each naming
 * the element and field, or the parsed content.
 */
export async function parseImport(
  body: unknown,
  slicer: Slicer = new Slicer(),
): Promise<ParsedImport | { problems: string[] }> {
  const check = checking(body);
  for (let step = check.next(); ; step = check.next()) {
    if (step.done) return step.value;
    await slicer.breathe();
  }
}

/** parseImport at once, where nothing else waits for the thread (the import worker, import-body.ts). */
export function parseImportHere(body: unknown): ParsedImport | { problems: string[] } {
  const check = checking(body);
  for (let step = check.next(); ; step = check.next()) if (step.done) return step.value;
}

/** A recorded event on its own (not an export): it names its category and event, and has no `events`. */
function isOneEvent(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const o = body as Record<string, unknown>;
  return (
    !('events' in o) &&
    o.format === undefined &&
    typeof o.category === 'string' &&
    typeof o.event === 'string'
  );
}

/** parseImport's work, stopping after each event checked. */
function* checking(body: unknown): Generator<void, ParsedImport | { problems: string[] }> {
  let list: unknown;
  const sections: Record<string, unknown> = {};
  if (Array.isArray(body)) {
    list = body;
  } else if (isOneEvent(body)) {
    // a one-line NDJSON file reads as one JSON object: the one event it records
    list = [body];
  } else if (body && typeof body === 'object') {
    const obj = body as Record<string, unknown>;
    if (obj.format !== undefined && obj.format !== EXPORT_FORMAT) {
      return {
        problems: [
          `format is ${JSON.stringify(obj.format)}: expected "${EXPORT_FORMAT}" (a file saved by GET /_sandbox/export)`,
        ],
      };
    }
    if (obj.version !== undefined && obj.version !== EXPORT_VERSION) {
      return {
        problems: [
          `version ${JSON.stringify(obj.version)} is not supported: this sandbox reads version ${EXPORT_VERSION}`,
        ],
      };
    }
    // a browser HAR is read by check, diff and Compare, and by the desktop app's File → Import, which
    // turns its beacons into recorded events: this endpoint takes what that (or an export) sends
    if (!('events' in obj) && 'log' in obj)
      return {
        problems: [
          "this is a browser HAR (log.entries), not an import: judge it with `search-sandbox check FILE` or the Compare screen, or load it with the desktop app's File → Import, which turns its beacons into recorded events; POST /_sandbox/import takes a file saved by GET /_sandbox/export, or recorded events (a JSON array or NDJSON)",
        ],
      };
    if (!('events' in obj))
      return {
        problems: [
          'events is missing: an import needs {"events": [...]} (a file saved by GET /_sandbox/export) or an array of events',
        ],
      };
    list = obj.events;
    for (const [key, value] of Object.entries(obj)) {
      if (!(RESERVED_KEYS as readonly string[]).includes(key)) sections[key] = value;
    }
  } else {
    return {
      problems: [
        'the body must be a sandbox export ({"format":"search-sandbox-export","events":[...]}) or an array of events',
      ],
    };
  }
  if (!Array.isArray(list)) return { problems: ['events must be an array of recorded events'] };

  const problems: string[] = [];
  const events: EventDraft[] = [];
  for (let i = 0; i < list.length && problems.length < MAX_PROBLEMS; i++) {
    const item: unknown = list[i];
    const problem = draftProblem(item);
    if (problem) problems.push(`events[${i}]: ${problem}`);
    else events.push(toDraft(item as Record<string, unknown>));
    yield;
  }
  if (problems.length >= MAX_PROBLEMS) problems.push(`(stopped after ${MAX_PROBLEMS} problems)`);
  return problems.length ? { problems } : { events, sections };
}

/** Deeper than this, an imported body could not be written or shown (the sandbox stores such bodies as text). */
const MAX_IMPORT_DEPTH = 256;

/** How deep a value nests, counted without recursion (a hostile body may nest thousands of levels); stops past `max`. */
function nesting(value: unknown, max: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > deepest) deepest = d;
    if (deepest > max) return deepest;
    if (v && typeof v === 'object')
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

function draftProblem(item: unknown): string | null {
  if (!item || typeof item !== 'object' || Array.isArray(item))
    return 'must be an object (a recorded event)';
  const v = item as Record<string, unknown>;
  // id and seq are optional on import (re-assigned); the rest is checked as the journal and check do
  const problem = recordedEventProblem(v, false);
  if (problem) return problem;
  // the sandbox keeps bodies deeper than this as their text: none of its own recorded events has one
  const depth = nesting(v.body, MAX_IMPORT_DEPTH);
  if (depth > MAX_IMPORT_DEPTH)
    return `field body nests more than ${MAX_IMPORT_DEPTH} levels deep: the sandbox keeps bodies that deep as their text (a string), as its own exports hold them`;
  return null;
}

function toDraft(v: Record<string, unknown>): EventDraft {
  const draft: Record<string, unknown> = {};
  for (const key of DRAFT_KEYS) if (v[key] !== undefined) draft[key] = v[key];
  // an offset of 0 is the clock at real time: such an event carries none
  if (draft.clockOffsetMs === 0) delete draft.clockOffsetMs;
  return draft as unknown as EventDraft;
}
