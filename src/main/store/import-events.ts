// An import, after its body was read: validated whole before anything changes (an invalid file imports
// nothing and changes nothing), then the areas' sections, then (with replace) the reset, then the events
// in chunks that give the event loop back. The HTTP router only reads the body and maps the outcome.
import type { RecordedEvent } from '../../shared/events';
import type { ResetScope } from '../../shared/stream';
import { Slicer } from '../slices';
import { parseImport, type ExportSection } from './export-format';
import type { EventStore } from './types';

// events appended together (one group commit): their timeline work runs in one turn of the loop, so
// the chunk is small enough for that turn to stay within a few milliseconds on a slow machine
const IMPORT_CHUNK = 100;

export interface ImportDeps {
  events: EventStore;
  sections: ReadonlyMap<string, ExportSection>;
  reset(scope: ResetScope): Promise<void>;
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

/** Import a body already read (`value`), or report the problems found while reading it. */
export async function importEvents(
  deps: ImportDeps,
  body: { value: unknown } | { problems: string[] },
  replace: boolean,
): Promise<ImportOutcome> {
  const slicer = new Slicer();
  const parsed = 'problems' in body ? body : await parseImport(body.value, slicer);
  if ('problems' in parsed)
    return {
      ok: false,
      message: `nothing was imported: ${parsed.problems[0]}`,
      problems: parsed.problems,
    };
  // Sections first: one that refuses its data (and says why) stops the import before any event is added.
  const restored: string[] = [];
  const ignored: string[] = [];
  for (const [name, data] of Object.entries(parsed.sections)) {
    const section = deps.sections.get(name);
    if (!section?.import) {
      ignored.push(name);
      continue;
    }
    try {
      await section.import(data);
    } catch (err) {
      return {
        ok: false,
        message: `section ${name} could not be imported: ${(err as Error).message}; no events were imported${restored.length ? ` (sections ${restored.join(', ')} were)` : ''}`,
        problems: [`${name}: ${(err as Error).message}`],
      };
    }
    restored.push(name);
  }
  if (replace) await deps.reset({ what: 'events' });
  const imported: RecordedEvent[] = [];
  for (let i = 0; i < parsed.events.length; i += IMPORT_CHUNK) {
    const chunk = await Promise.all(
      parsed.events.slice(i, i + IMPORT_CHUNK).map((d) => deps.events.append(d)),
    );
    for (const e of chunk) imported.push(e);
    await slicer.breathe();
  }
  return {
    ok: true,
    imported: imported.length,
    firstId: imported[0]?.id ?? null,
    lastId: imported.at(-1)?.id ?? null,
    sections: restored,
    ignoredSections: ignored,
  };
}
