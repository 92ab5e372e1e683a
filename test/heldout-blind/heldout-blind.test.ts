// The blind held-out set runs and is well-formed: every fault names its principle, page kind, a description,
// the client fact it contradicts and a clean twin it changes; every clean journey sends only beacons the
// service accepts. Recall and false alarms are reported by `npm run heldout:blind`, never asserted here.
import { describe, expect, it } from 'vitest';
import { validateBeaconBody } from '../../src/main/tracking/schemas';
import { evaluate } from './evaluate';
import {
  CLEAN,
  FAULTS,
  PAGE_KINDS,
  PRINCIPLES,
  buildClean,
  buildFault,
  cleanById,
} from './journeys';

describe('blind held-out set', () => {
  it('every fault names its principle, page kind, description, contradicted fact and clean twin', () => {
    const ids = new Set<string>();
    for (const f of FAULTS) {
      expect(PRINCIPLES, f.id).toContain(f.principle);
      expect(PAGE_KINDS, f.id).toContain(f.page);
      expect(f.description.length, f.id).toBeGreaterThan(20);
      expect(f.contradicts.length, f.id).toBeGreaterThan(20);
      expect(() => cleanById(f.twin), f.id).not.toThrow();
      expect(ids.has(f.id), `duplicate fault id ${f.id}`).toBe(false);
      ids.add(f.id);
    }
    expect(new Set(CLEAN.map((c) => c.id)).size).toBe(CLEAN.length);
  });

  it('holds at least 30 faults and 12 clean journeys, spread over every page kind', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(30);
    expect(CLEAN.length).toBeGreaterThanOrEqual(12);
    for (const k of PAGE_KINDS) {
      expect(
        FAULTS.some((f) => f.page === k),
        k,
      ).toBe(true);
      expect(
        CLEAN.some((c) => c.pages.includes(k)),
        k,
      ).toBe(true);
    }
  });

  it.each(CLEAN.map((c) => ({ id: c.id, c })))(
    '$id is valid traffic: every beacon is one the service accepts',
    ({ c }) => {
      const { events, responses } = buildClean(c).recording();
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) {
        const endpoint = `${e.category}/${e.event}`;
        expect(validateBeaconBody(endpoint, e.body), `${endpoint} ${e.id}`).toEqual([]);
        expect(e.accepted, `${endpoint} ${e.id}`).toBe(true);
        expect(e.path).toBe(`/beacon/v2/${e.siteId}/${endpoint}`);
      }
      for (const r of responses) expect(r.siteId).toBe(events[0]!.siteId);
    },
  );

  it('a fault changes its twin: the two recordings differ', () => {
    const shape = (w: ReturnType<typeof buildClean>) => {
      const { events, responses } = w.recording();
      return JSON.stringify([events.map((e) => [e.path, e.body]), responses]);
    };
    for (const f of FAULTS)
      expect(shape(buildFault(f)), f.id).not.toBe(shape(buildClean(cleanById(f.twin))));
  });

  it('the evaluation runs over every journey', () => {
    const report = evaluate();
    expect(report.faults).toHaveLength(FAULTS.length);
    expect(report.clean).toHaveLength(CLEAN.length);
    expect(report.total.faults).toBe(FAULTS.length);
  });
});
