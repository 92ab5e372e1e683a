// The first held-out set as the shared report and tests take it: its journeys, how to build them, its title.
import { evaluateSet, type HeldoutSet } from '../helpers/heldout-set';
import {
  CLEAN,
  FAULTS,
  PRINCIPLES,
  buildClean,
  buildFault,
  type CleanJourney,
  type Fault,
  type Principle,
} from './journeys';

export const HELDOUT: HeldoutSet<Principle, never, CleanJourney, Fault> = {
  title: 'Held-out evaluation (judged offline, apart from the rules)',
  principles: PRINCIPLES,
  clean: CLEAN,
  faults: FAULTS,
  buildClean,
  buildFault,
};

export const evaluate = () => evaluateSet(HELDOUT);
