// Every event of the fault corpus (fixtures/corpus, recorded journeys of every verdict), in file order, as
// `check` reads them: pages of every kind for tests that compare an index with a scan.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseInput } from '../../src/main/recordings/inputs';
import type { RecordedEvent } from '../../src/shared/events';

const DIR = path.resolve(import.meta.dirname, '../../fixtures/corpus');

export function corpusEvents(): RecordedEvent[] {
  const counter = { seq: 0 };
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap(
      (f) => parseInput(readFileSync(path.join(DIR, f), 'utf8'), f, `${f}:`, counter).events,
    );
}
