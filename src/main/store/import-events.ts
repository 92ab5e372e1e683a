// An import, after its body was read: validated whole before anything changes (an invalid file imports
// nothing and changes nothing), then, once the imports and resets sent before it are done, the areas'
// sections, then (with replace) the reset, then the events in chunks that give the event loop back; the
// imports and resets sent meanwhile wait for it to end. The HTTP router only reads the body and maps the outcome.
// The reset and the events are journaled as one import, between a begin and a commit marker: a process
// stopped midway (SIGTERM, kill -9, a full disk) restarts with the events as they were before the import,
// plus every beacon acknowledged meanwhile (journal-reader.ts undoes an import without its commit). Markers
// in the one journal, rather than a second file swapped in, because beacons keep arriving during an
// import and must stay durable in the order they were acknowledged.
// A large body comes checked from its reader (import-body.ts) with its events still there, taken a
// batch at a time as they are stored: none is held here once stored.
import type { ResetScope } from '../../shared/stream';
import { Slicer } from '../slices';
import { storageCause } from './data-dir-error';
import { parseImport, type ExportSection } from './export-format';
import type { CheckedImport, ImportRead } from './import-body';
import type { EventDraft, EventStore } from './types';

// events appended together (one group commit): their timeline work runs in one turn of the loop, so
// the chunk is small enough for that turn to stay within a few milliseconds on a slow machine
const IMPORT_CHUNK = 100;

export interface ImportDeps {
  events: Pick<EventStore, 'append' | 'beginImport' | 'endImport' | 'closing'>;
  sections: ReadonlyMap<string, ExportSection>;
  /** told once the import has its turn (the imports and resets before it are done) */
  begun?(): void;
  /** the reset of a replacing import, as part of import `importId` (in its turn: it does not wait) */
  reset(scope: ResetScope, importId: string): Promise<void>;
}

export type ImportOutcome =
  | {
      ok: true;
      imported: number;
      firstId: string | null;
      lastId: string | null;
      sections: string[];
      ignoredSections: string[];
    }
  | { ok: false; message: string; problems: string[] };

/**
 * Import a body already read (`value`) or read and checked (`checked`), or report the problems found
 * while reading it.
 */
export async function importEvents(
  deps: ImportDeps,
  body: ImportRead | { checked: CheckedImport },
  replace: boolean,
): Promise<ImportOutcome> {
  if ('checked' in body) {
    try {
      return await apply(deps, body.checked.sections, body.checked.drafts, replace);
    } finally {
      body.checked.close();
    }
  }
  const slicer = new Slicer();
  const parsed = 'problems' in body ? body : await parseImport(body.value, slicer);
  if ('problems' in parsed)
    return {
      ok: false,
      message: `nothing was imported: ${parsed.problems[0]}`,
      problems: parsed.problems,
    };
  return apply(deps, parsed.sections, [parsed.events], replace, slicer);
}

/**
 * The import's turn (imports and resets one at a time), the sections, the reset, then the events (in
 * batches: all at once, or as a reader hands them over).
 */
async function apply(
  deps: ImportDeps,
  sections: Record<string, unknown>,
  batches: Iterable<EventDraft[]> | AsyncIterable<EventDraft[]>,
  replace: boolean,
  slicer = new Slicer(),
): Promise<ImportOutcome> {
  // The import's turn first: an import or a reset sent while another import runs waits for it (the
  // store's beginImport), so that each answer is true of what is stored, sections included.
  let importId: string;
  try {
    importId = await deps.events.beginImport();
  } catch (err) {
    throw new ImportInterrupted(0, null, null, err);
  }
  const id = importId;
  deps.begun?.();
  // Sections next: one that refuses its data (and says why) stops the import before any event is added.
  const restored: string[] = [];
  const ignored: string[] = [];
  for (const [name, data] of Object.entries(sections)) {
    const section = deps.sections.get(name);
    if (!section?.import) {
      ignored.push(name);
      continue;
    }
    try {
      await section.import(data);
    } catch (err) {
      await deps.events.endImport(id, 'abort').catch(() => undefined);
      // the disk's refusal is no fault of the file: answered as the data directory's problem
      if (storageCause(err)) throw new ImportInterrupted(0, null, null, err);
      return {
        ok: false,
        message: `section ${name} could not be imported: ${(err as Error).message}; no events were imported${restored.length ? ` (sections ${restored.join(', ')} were)` : ''}`,
        problems: [`${name}: ${(err as Error).message}`],
      };
    }
    restored.push(name);
  }
  // only the count and the first and last ids are kept: the events stored are the store's
  let imported = 0;
  let firstId: string | null = null;
  let lastId: string | null = null;
  let reset = false;
  try {
    if (replace) {
      await deps.reset({ what: 'events' }, id);
      reset = true;
    }
    for await (const events of batches) {
      for (let i = 0; i < events.length; i += IMPORT_CHUNK) {
        const chunk = await Promise.all(
          events.slice(i, i + IMPORT_CHUNK).map((d) => deps.events.append(d, id)),
        );
        imported += chunk.length;
        firstId ??= chunk[0]?.id ?? null;
        lastId = chunk.at(-1)?.id ?? lastId;
        await slicer.breathe();
        if (deps.events.closing) throw new SandboxClosing();
      }
    }
    await deps.events.endImport(id, 'commit');
  } catch (err) {
    // every event was checked before the first was stored, so this is the reader or the store failing
    // midway (a reader thread that died, a full disk): the import is undone on disk (best effort here,
    // certain at the next start, which finds no commit); say what the sandbox shows until then
    await deps.events.endImport(id, 'abort').catch(() => undefined);
    throw new ImportInterrupted(imported, firstId, lastId, err, reset);
  }
  return {
    ok: true,
    imported,
    firstId,
    lastId,
    sections: restored,
    ignoredSections: ignored,
  };
}

/** An import that failed after some of its events were stored: the message says which. */
export class ImportInterrupted extends Error {
  constructor(
    readonly imported: number,
    readonly firstId: string | null,
    readonly lastId: string | null,
    cause: unknown,
    /** its reset (replace=true) was stored: the events it forgot stay forgotten until the restart */
    reset = false,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const shown =
      imported === 0
        ? 'the events its reset forgot as gone'
        : reset
          ? 'those events, and not those its reset forgot,'
          : 'those events';
    super(
      imported === 0 && !reset
        ? `the import stopped before any event was stored: ${why}. Nothing of it is kept; send it again`
        : `the import stopped ${imported === 0 ? 'before any event was stored' : `after ${imported} event${imported === 1 ? ' was' : 's were'} stored (${firstId} to ${lastId})`}: ${why}. The import is undone: the sandbox shows ${shown} until it restarts, and restarts with the events as they were before the import (and the beacons received meanwhile); send the whole file again`,
      { cause },
    );
    this.name = 'ImportInterrupted';
  }
}

/** The sandbox began closing (Ctrl-C, SIGTERM) while an import ran: it stops and is undone, and says so. */
export class SandboxClosing extends Error {
  constructor() {
    super('the sandbox is closing (Ctrl-C or SIGTERM)');
    this.name = 'SandboxClosing';
  }
}
