// The checks every held-out set passes, registered in the calling test file: the set is well-formed (each
// fault names its principle, page kind when the set counts them, a description, the client fact it
// contradicts and a clean twin it changes), its journeys send beacons the service accepts, and the
// evaluation runs over every journey. Recall and false alarms are reported, never asserted here.
import { expect, it } from 'vitest';
import { validateBeaconBody } from '../../src/main/tracking/schemas';
import type { World } from '../heldout/client';
import { evaluateSet, type HeldoutSet, type SetClean, type SetFault } from './heldout-set';

export interface SetTestOptions {
  /** the faults' beacons must be accepted too (not only the clean journeys') */
  faultsAccepted?: boolean;
  /**
   * How big the set is at least: faults and clean journeys, spread over every page kind of the set (each
   * has a fault and a clean journey), and a fault for every principle the set does not leave out here.
   */
  spread?: { faults: number; clean: number; principlesWithoutFaults?: readonly string[] };
}

function expectAccepted(world: World): void {
  const { events, responses } = world.recording();
  expect(events.length).toBeGreaterThan(0);
  for (const e of events) {
    const endpoint = `${e.category}/${e.event}`;
    expect(validateBeaconBody(endpoint, e.body), `${endpoint} ${e.id}`).toEqual([]);
    expect(e.accepted, `${endpoint} ${e.id}`).toBe(true);
    expect(e.path).toBe(`/beacon/v2/${e.siteId}/${endpoint}`);
    expect(Date.parse(e.receivedAt)).not.toBeNaN();
  }
  for (const r of responses) expect(r.siteId).toBe(events[0]!.siteId);
}

function shape(world: World): string {
  const { events, responses } = world.recording();
  return JSON.stringify([events.map((e) => [e.path, e.body]), responses]);
}

export function heldoutSetTests<
  P extends string,
  K extends string,
  C extends SetClean<P, K>,
  F extends SetFault<P, K>,
>(set: HeldoutSet<P, K, C, F>, o: SetTestOptions = {}): void {
  const twin = (id: string): C => {
    const c = set.clean.find((x) => x.id === id);
    if (!c) throw new Error(`no clean journey ${id}`);
    return c;
  };

  it('every fault names its principle, a description, the client fact it contradicts and a clean twin', () => {
    const ids = new Set<string>();
    for (const f of set.faults) {
      expect(set.principles, f.id).toContain(f.principle);
      if (set.pageKinds) expect(set.pageKinds, f.id).toContain(f.page);
      expect(f.description.length, f.id).toBeGreaterThan(20);
      expect(f.contradicts.length, f.id).toBeGreaterThan(20);
      expect(() => twin(f.twin), f.id).not.toThrow();
      expect(f.flag, f.id).not.toBe('');
      expect(ids.has(f.id), `duplicate fault id ${f.id}`).toBe(false);
      ids.add(f.id);
    }
    expect(new Set(set.clean.map((c) => c.id)).size).toBe(set.clean.length);
    if (set.pageKinds)
      for (const c of set.clean)
        for (const k of c.pages ?? []) expect(set.pageKinds, c.id).toContain(k);
  });

  const journeys = [
    ...set.clean.map((c) => ({ id: c.id, world: () => set.buildClean(c) })),
    ...(o.faultsAccepted
      ? set.faults.map((f) => ({ id: f.id, world: () => set.buildFault(f) }))
      : []),
  ];
  it.each(journeys)('$id sends only beacons the service accepts', ({ world }) =>
    expectAccepted(world()),
  );

  it('a fault changes its twin: the two recordings (beacons and issued responses) differ', () => {
    for (const f of set.faults)
      expect(shape(set.buildFault(f)), f.id).not.toBe(shape(set.buildClean(twin(f.twin))));
  });

  const spread = o.spread;
  if (spread)
    it(`holds at least ${spread.faults} faults and ${spread.clean} clean journeys, over every page kind and principle`, () => {
      expect(set.faults.length).toBeGreaterThanOrEqual(spread.faults);
      expect(set.clean.length).toBeGreaterThanOrEqual(spread.clean);
      for (const k of set.pageKinds ?? []) {
        expect(
          set.faults.some((f) => f.page === k),
          k,
        ).toBe(true);
        expect(
          set.clean.some((c) => c.pages?.includes(k)),
          k,
        ).toBe(true);
      }
      for (const p of set.principles)
        if (!spread.principlesWithoutFaults?.includes(p))
          expect(
            set.faults.some((f) => f.principle === p),
            p,
          ).toBe(true);
    });

  it('the evaluation runs over every journey', () => {
    const report = evaluateSet(set);
    expect(report.faults).toHaveLength(set.faults.length);
    expect(report.clean).toHaveLength(set.clean.length);
    expect(report.total.faults).toBe(set.faults.length);
  });
}
