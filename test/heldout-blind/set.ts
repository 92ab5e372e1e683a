// The blind held-out set as the shared report and tests take it: its journeys, how to build them, its
// title; it counts by page kind as well as by principle.
import { evaluateSet, type HeldoutSet } from '../helpers/heldout-set';
import {
  CLEAN,
  FAULTS,
  PAGE_KINDS,
  PRINCIPLES,
  buildClean,
  buildFault,
  type CleanJourney,
  type Fault,
  type PageKind,
  type Principle,
} from './journeys';

export const BLIND: HeldoutSet<Principle, PageKind, CleanJourney, Fault> = {
  title: "Blind held-out evaluation (judged offline; written from the client's behaviour only)",
  principles: PRINCIPLES,
  pageKinds: PAGE_KINDS,
  clean: CLEAN,
  faults: FAULTS,
  buildClean,
  buildFault,
};

export const evaluate = () => evaluateSet(BLIND);
