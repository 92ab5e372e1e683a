// Judges the blind held-out journeys with the sandbox's offline judgement (the rules `check` runs) and
// counts, the way the first held-out set does: a fault is caught when its journey has a warning or error
// finding (by rule and severity) beyond those of its clean twin; a clean journey is a false alarm when it
// has any warning or error (principle `empty`: any finding at all about a response that served nothing).
// Recall is reported, never asserted.
import type { World } from '../heldout/client';
import { alarmsOf, beyond, judgeWorld, type FindingBrief } from '../heldout/evaluate';

export type { FindingBrief };
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

export interface FaultResult {
  id: string;
  principle: Principle;
  page: PageKind;
  twin: string;
  description: string;
  contradicts: string;
  caught: boolean;
  /** warning/error findings of the fault journey beyond its twin's (by rule and severity) */
  newFindings: FindingBrief[];
  /** info findings beyond the twin's: not a catch, shown beside a missed fault */
  newInfo: FindingBrief[];
}

export interface CleanResult {
  id: string;
  principle: Principle;
  pages: PageKind[];
  description: string;
  falseAlarm: boolean;
  /** the findings that make it a false alarm */
  findings: FindingBrief[];
}

export interface Row<K extends string> {
  key: K | 'all';
  faults: number;
  caught: number;
  clean: number;
  falseAlarms: number;
}

export interface BlindReport {
  principles: Row<Principle>[];
  /** faults by the page kind they are on; clean journeys by every page kind they walk through */
  pages: Row<PageKind>[];
  total: Row<never>;
  missed: FaultResult[];
  falseAlarms: CleanResult[];
  faults: FaultResult[];
  clean: CleanResult[];
}

const GRAVE = new Set(['warning', 'error']);

export function judgeFault(fault: Fault, twinFindings: FindingBrief[]): FaultResult {
  const extra = beyond(judgeWorld(buildFault(fault)), twinFindings);
  const newFindings = extra.filter((f) => GRAVE.has(f.severity));
  return {
    id: fault.id,
    principle: fault.principle,
    page: fault.page,
    twin: fault.twin,
    description: fault.description,
    contradicts: fault.contradicts,
    caught: newFindings.length > 0,
    newFindings,
    newInfo: extra.filter((f) => !GRAVE.has(f.severity)),
  };
}

/** A clean journey's false alarms: warnings and errors; for principle `empty` also any finding about an empty response. */
export function judgeClean(c: CleanJourney, world: World, findings: FindingBrief[]): CleanResult {
  const counted = alarmsOf(world, findings, c.principle === 'empty');
  return {
    id: c.id,
    principle: c.principle,
    pages: c.pages,
    description: c.description,
    falseAlarm: counted.length > 0,
    findings: counted,
  };
}

function row<K extends string>(key: K | 'all', fs: FaultResult[], cs: CleanResult[]): Row<K> {
  return {
    key,
    faults: fs.length,
    caught: fs.filter((f) => f.caught).length,
    clean: cs.length,
    falseAlarms: cs.filter((c) => c.falseAlarm).length,
  };
}

export function evaluate(): BlindReport {
  const twinFindings = new Map<string, FindingBrief[]>();
  const clean = CLEAN.map((c) => {
    const world = buildClean(c);
    const findings = judgeWorld(world);
    twinFindings.set(c.id, findings);
    return judgeClean(c, world, findings);
  });
  const faults = FAULTS.map((f) => judgeFault(f, twinFindings.get(f.twin) ?? []));
  return {
    principles: PRINCIPLES.map((p) =>
      row(
        p,
        faults.filter((f) => f.principle === p),
        clean.filter((c) => c.principle === p),
      ),
    ),
    pages: PAGE_KINDS.map((k) =>
      row(
        k,
        faults.filter((f) => f.page === k),
        clean.filter((c) => c.pages.includes(k)),
      ),
    ),
    total: row<never>('all', faults, clean),
    missed: faults.filter((f) => !f.caught),
    falseAlarms: clean.filter((c) => c.falseAlarm),
    faults,
    clean,
  };
}
