// The fresh held-out set as the shared report and tests take it: its journeys, how to build them, its
// title; it counts by page kind as well as by principle (a client-facts section).
import { evaluateSet, type HeldoutSet } from '../helpers/heldout-set';
import { FAULTS, type Fault } from './faults';
import {
  CLEAN,
  PAGE_KINDS,
  PRINCIPLES,
  cleanById,
  play,
  type CleanJourney,
  type PageKind,
  type Principle,
} from './journeys';

export const FRESH: HeldoutSet<Principle, PageKind, CleanJourney, Fault> = {
  title:
    'Fresh held-out evaluation (judged offline; written from the client facts and source only)',
  principles: PRINCIPLES,
  pageKinds: PAGE_KINDS,
  clean: CLEAN,
  faults: FAULTS,
  buildClean: (c) => play(c, null),
  buildFault: (f) => play(cleanById(f.twin), f.flag),
};

export const evaluate = () => evaluateSet(FRESH);
