// The unseen held-out set runs and is well-formed: every fault names its principle, page kind, a
// description, the client fact it contradicts and a clean twin it changes; every clean journey sends only
// beacons the service accepts. Recall and false alarms are reported by `npm run heldout:unseen`, never
// asserted here.
import { describe, expect, it } from 'vitest';
import { heldoutSetTests } from '../helpers/heldout-set-tests';
import { FAULTS } from './faults';
import { CLEAN, PAGE_KINDS, PRINCIPLES } from './journeys';
import { UNSEEN } from './set';

describe('unseen held-out set', () => {
  heldoutSetTests(UNSEEN);

  it('holds at least 40 faults and 15 clean journeys, over every page kind and client-facts section', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(40);
    expect(CLEAN.length).toBeGreaterThanOrEqual(15);
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
    for (const p of PRINCIPLES)
      if (p !== 'empty')
        expect(
          FAULTS.some((f) => f.principle === p),
          p,
        ).toBe(true);
  });
});
