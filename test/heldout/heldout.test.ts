// The held-out set is well-formed: every fault has a principle, a description, the client fact it
// contradicts and a clean twin; every journey's beacons are ones the service accepts. Recall is reported by
// `npm run heldout`, never asserted here (nobody tunes the rules against it).
import { describe, expect, it } from 'vitest';
import { validateBeaconBody } from '../../src/main/tracking/schemas';
import { CLEAN, FAULTS, PRINCIPLES, buildClean, buildFault, cleanById } from './journeys';

describe('held-out set', () => {
  it('every fault names its principle, a description, the client fact it contradicts and a clean twin', () => {
    const ids = new Set<string>();
    for (const f of FAULTS) {
      expect(PRINCIPLES, f.id).toContain(f.principle);
      expect(f.description.length, f.id).toBeGreaterThan(20);
      expect(f.contradicts.length, f.id).toBeGreaterThan(20);
      expect(() => cleanById(f.twin), f.id).not.toThrow();
      expect(f.flag, f.id).not.toBe('');
      expect(ids.has(f.id), `duplicate fault id ${f.id}`).toBe(false);
      ids.add(f.id);
    }
  });

  it('has at least four faults for every principle but empty, and clean journeys for empty', () => {
    for (const p of PRINCIPLES) {
      if (p === 'empty') {
        expect(CLEAN.filter((c) => c.principle === p).length).toBeGreaterThanOrEqual(4);
        continue;
      }
      expect(FAULTS.filter((f) => f.principle === p).length, p).toBeGreaterThanOrEqual(4);
    }
    expect(new Set(CLEAN.map((c) => c.id)).size).toBe(CLEAN.length);
  });

  const journeys = [
    ...CLEAN.map((c) => ({ id: c.id, world: () => buildClean(c) })),
    ...FAULTS.map((f) => ({ id: f.id, world: () => buildFault(f) })),
  ];

  it.each(journeys)('$id sends only beacons the service accepts', ({ world }) => {
    const { events, responses } = world().recording();
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      const endpoint = `${e.category}/${e.event}`;
      expect(validateBeaconBody(endpoint, e.body), `${endpoint} ${e.id}`).toEqual([]);
      expect(e.accepted, `${endpoint} ${e.id}`).toBe(true);
      expect(e.path).toBe(`/beacon/v2/${e.siteId}/${endpoint}`);
      expect(Date.parse(e.receivedAt)).not.toBeNaN();
    }
    for (const r of responses) expect(r.siteId).toBe(events[0]!.siteId);
  });

  it('a fault changes its twin: the two recordings (beacons and issued responses) differ', () => {
    const shape = (w: ReturnType<typeof buildClean>) => {
      const { events, responses } = w.recording();
      return JSON.stringify([events.map((e) => [e.path, e.body]), responses]);
    };
    for (const f of FAULTS)
      expect(shape(buildFault(f)), f.id).not.toBe(shape(buildClean(cleanById(f.twin))));
  });
});
