// The blind held-out set runs and is well-formed: every fault names its principle, page kind, a description,
// the client fact it contradicts and a clean twin it changes; every clean journey sends only beacons the
// service accepts. Recall and false alarms are reported by `npm run heldout:blind`, never asserted here.
import { describe, expect, it } from 'vitest';
import { heldoutSetTests } from '../helpers/heldout-set-tests';
import { CLEAN, FAULTS, PAGE_KINDS } from './journeys';
import { BLIND } from './set';

describe('blind held-out set', () => {
  heldoutSetTests(BLIND);

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
});
