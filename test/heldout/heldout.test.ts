// The held-out set is well-formed: every fault has a principle, a description, the client fact it
// contradicts and a clean twin; every journey's beacons are ones the service accepts. Recall is reported by
// `npm run heldout`, never asserted here (nobody tunes the rules against it).
import { describe, expect, it } from 'vitest';
import { heldoutSetTests } from '../helpers/heldout-set-tests';
import { CLEAN, FAULTS, PRINCIPLES } from './journeys';
import { HELDOUT } from './set';

describe('held-out set', () => {
  heldoutSetTests(HELDOUT, { faultsAccepted: true });

  it('has at least four faults for every principle but empty, and clean journeys for empty', () => {
    for (const p of PRINCIPLES) {
      if (p === 'empty') {
        expect(CLEAN.filter((c) => c.principle === p).length).toBeGreaterThanOrEqual(4);
        continue;
      }
      expect(FAULTS.filter((f) => f.principle === p).length, p).toBeGreaterThanOrEqual(4);
    }
  });
});
