// The fresh held-out set's clean journeys: the client's own traffic, built with the shared simulator. Each
// journey reads the flag of the fault to play (null: the clean journey); the faults are in `faults.ts`.
import { World, Visit } from '../heldout/client';
import type { CleanJourney } from './principles';
import { SEARCH_JOURNEYS } from './search-journeys';
import { VISIT_JOURNEYS } from './visit-journeys';

export {
  PAGE_KINDS,
  PRINCIPLES,
  type CleanJourney,
  type PageKind,
  type Principle,
} from './principles';

export const CLEAN: readonly CleanJourney[] = [...SEARCH_JOURNEYS, ...VISIT_JOURNEYS];

export function cleanById(id: string): CleanJourney {
  const c = CLEAN.find((x) => x.id === id);
  if (!c) throw new Error(`no clean journey ${id}`);
  return c;
}

/** What ends every journey: the page stays open long enough for the last queued beacons to go out. */
const SETTLE = 5_000;

/** Plays a clean journey, or one of its faults (`flag`). */
export function play(c: CleanJourney, flag: string | null): World {
  const world = new World(c.id);
  const v = new Visit(world, { dev: c.dev ?? false });
  c.build(v, flag);
  v.wait(SETTLE);
  return world;
}
