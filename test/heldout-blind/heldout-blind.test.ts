// The blind held-out set runs and is well-formed: every fault names its principle, page kind, a description,
// the client fact it contradicts and a clean twin it changes; every clean journey sends only beacons the
// service accepts. Recall and false alarms are reported by `npm run heldout:blind`, never asserted here.
import { describe } from 'vitest';
import { heldoutSetTests } from '../helpers/heldout-set-tests';
import { BLIND } from './set';

describe('blind held-out set', () => {
  heldoutSetTests(BLIND, { spread: { faults: 30, clean: 12, principlesWithoutFaults: ['empty'] } });
});
