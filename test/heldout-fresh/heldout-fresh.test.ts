// The fresh held-out set runs and is well-formed: every fault names its principle, page kind, a description,
// the client fact it contradicts and a clean twin it changes; every clean journey sends only beacons the
// service accepts. Recall and false alarms are reported by `npm run heldout:fresh`, never asserted here.
import { describe } from 'vitest';
import { heldoutSetTests } from '../helpers/heldout-set-tests';
import { FRESH } from './set';

describe('fresh held-out set', () => {
  heldoutSetTests(FRESH, { spread: { faults: 45, clean: 20 } });
});
