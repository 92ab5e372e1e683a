// The unseen held-out set runs and is well-formed: every fault names its principle, page kind, a
// description, the client fact it contradicts and a clean twin it changes; every clean journey sends only
// beacons the service accepts. Recall and false alarms are reported by `npm run heldout:unseen`, never
// asserted here.
import { describe } from 'vitest';
import { heldoutSetTests } from '../helpers/heldout-set-tests';
import { UNSEEN } from './set';

describe('unseen held-out set', () => {
  heldoutSetTests(UNSEEN, {
    spread: { faults: 40, clean: 15, principlesWithoutFaults: ['empty'] },
  });
});
