// Judges the held-out journeys with the sandbox's offline judgement (the same rules as `check`) and counts:
// a fault is caught when its journey has a warning or error finding its clean twin does not have; a clean
// journey is a false alarm when it has any warning or error (principle `empty`: any finding at all about
// the response that served nothing, even info).
// Recall is reported, never asserted.
import { judgeOffline } from '../../src/main/tracking/timeline/offline-check';
import type { World } from './client';
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

export interface FindingBrief {
  rule: string;
  severity: string;
  pageUrl: string;
  message: string;
  /** the response the finding is about, when it is about one */
  responseId?: string;
}

export interface FaultResult {
  id: string;
  principle: Principle;
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
  description: string;
  falseAlarm: boolean;
  /** the findings that make it a false alarm */
  findings: FindingBrief[];
}

export interface PrincipleRow {
  principle: Principle | 'all';
  faults: number;
  caught: number;
  clean: number;
  falseAlarms: number;
}

export interface HeldoutReport {
  principles: PrincipleRow[];
  total: PrincipleRow;
  missed: FaultResult[];
  falseAlarms: CleanResult[];
  faults: FaultResult[];
  clean: CleanResult[];
}

const GRAVE = new Set(['warning', 'error']);

/** Every finding the offline judgement gives a journey's recording. */
export function judgeWorld(world: World): FindingBrief[] {
  const { events, responses, end } = world.recording();
  const { pages } = judgeOffline(events, responses, end + 60_000);
  return pages.flatMap((p) =>
    p.findings.map((f) => ({
      rule: f.rule,
      severity: f.severity,
      pageUrl: p.pageUrl,
      message: f.message,
      ...(f.responseId !== undefined && { responseId: f.responseId }),
    })),
  );
}

function counts(list: FindingBrief[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of list) {
    const k = `${f.rule}|${f.severity}`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/** The findings of `found` beyond those of `base`, counted by rule and severity. */
export function beyond(found: FindingBrief[], base: FindingBrief[]): FindingBrief[] {
  const have = counts(base);
  const seen = new Map<string, number>();
  const out: FindingBrief[] = [];
  for (const f of found) {
    const k = `${f.rule}|${f.severity}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (n > (have.get(k) ?? 0)) out.push(f);
  }
  return out;
}

export function judgeFault(fault: Fault, twinFindings: FindingBrief[]): FaultResult {
  const extra = beyond(judgeWorld(buildFault(fault)), twinFindings);
  const newFindings = extra.filter((f) => GRAVE.has(f.severity));
  return {
    id: fault.id,
    principle: fault.principle,
    twin: fault.twin,
    description: fault.description,
    contradicts: fault.contradicts,
    caught: newFindings.length > 0,
    newFindings,
    newInfo: extra.filter((f) => !GRAVE.has(f.severity)),
  };
}

/**
 * A clean journey's false alarms: its warnings and errors; for principle `empty` also every finding, of any
 * severity, about a response that served nothing (findings about the page's mode, such as production
 * traffic being production, are not about the empty response and are left to the other journeys).
 */
/**
 * What makes a clean journey a false alarm: its warnings and errors; for principle `empty` (`anyAboutEmpty`)
 * also every finding, of any severity, about a response that served nothing.
 */
export function alarmsOf(
  world: World,
  findings: FindingBrief[],
  anyAboutEmpty: boolean,
): FindingBrief[] {
  const empty = new Set(
    world.responses
      .filter(
        (r) =>
          r.results.length === 0 &&
          r.inline.length === 0 &&
          Object.values(r.slots).every((s) => s.length === 0),
      )
      .map((r) => r.responseId),
  );
  return findings.filter(
    (f) =>
      GRAVE.has(f.severity) ||
      (anyAboutEmpty && [...empty].some((id) => f.responseId === id || f.message.includes(id))),
  );
}

export function judgeClean(c: CleanJourney, world: World, findings: FindingBrief[]): CleanResult {
  const counted = alarmsOf(world, findings, c.principle === 'empty');
  return {
    id: c.id,
    principle: c.principle,
    description: c.description,
    falseAlarm: counted.length > 0,
    findings: counted,
  };
}

export function evaluate(): HeldoutReport {
  const cleanFindings = new Map<string, FindingBrief[]>();
  const clean = CLEAN.map((c) => {
    const world = buildClean(c);
    const findings = judgeWorld(world);
    cleanFindings.set(c.id, findings);
    return judgeClean(c, world, findings);
  });
  const faults = FAULTS.map((f) => judgeFault(f, cleanFindings.get(f.twin) ?? []));
  const principles = PRINCIPLES.map((principle) => {
    const fs = faults.filter((f) => f.principle === principle);
    const cs = clean.filter((c) => c.principle === principle);
    return {
      principle,
      faults: fs.length,
      caught: fs.filter((f) => f.caught).length,
      clean: cs.length,
      falseAlarms: cs.filter((c) => c.falseAlarm).length,
    };
  });
  const total = {
    principle: 'all' as const,
    faults: faults.length,
    caught: faults.filter((f) => f.caught).length,
    clean: clean.length,
    falseAlarms: clean.filter((c) => c.falseAlarm).length,
  };
  return {
    principles,
    total,
    missed: faults.filter((f) => !f.caught),
    falseAlarms: clean.filter((c) => c.falseAlarm),
    faults,
    clean,
  };
}
