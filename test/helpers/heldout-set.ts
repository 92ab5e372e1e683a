// What every held-out set shares: its shape (faults, each a flag of a clean twin, with the client fact it
// contradicts) and its judgement. Each journey's recording is judged offline with the rules `check` runs; a
// fault is caught when its journey has a warning or error finding (by rule and severity) beyond those of
// its clean twin; a clean journey is a false alarm when it has any warning or error (principle `empty`: any
// finding at all about a response that served nothing). Recall is reported, never asserted.
import { judgeOffline } from '../../src/main/tracking/timeline/offline-check';
import type { Visit, World } from '../heldout/client';

/** The page kinds the sets that count by page kind spread their journeys over. */
export const PAGE_KINDS = [
  'search',
  'autocomplete',
  'category',
  'recommendations',
  'product',
  'cart',
  'order',
  'login',
] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** A fault of a set that counts by page kind: it names the page it is on. */
export type PagedFault<P extends string> = SetFault<P, PageKind> & { page: PageKind };

/** A clean journey of a set that counts by page kind: the pages it walks and how a visit plays it. */
export interface PagedClean<P extends string> extends SetClean<P, PageKind> {
  pages: PageKind[];
  /** development mode (context.dev and test searches) */
  dev?: boolean;
  /** the journey; `flag` is the fault to play, null for the clean journey */
  build: (v: Visit, flag: string | null) => void;
}

export interface SetFault<P extends string = string, K extends string = string> {
  id: string;
  principle: P;
  /** the page kind the fault is on (sets that count by page kind) */
  page?: K;
  /** the clean journey it is a variation of */
  twin: string;
  /** the flag the twin's builder reads */
  flag: string;
  description: string;
  /** the client fact the faulty traffic contradicts */
  contradicts: string;
}

export interface SetClean<P extends string = string, K extends string = string> {
  id: string;
  /** the principle whose faults are built on it (`empty`: judged with any finding at all a false alarm) */
  principle: P;
  /** the page kinds it walks through (sets that count by page kind) */
  pages?: K[];
  description: string;
}

/** One held-out set: its journeys, how to build them and the report's title. */
export interface HeldoutSet<
  P extends string = string,
  K extends string = string,
  C extends SetClean<P, K> = SetClean<P, K>,
  F extends SetFault<P, K> = SetFault<P, K>,
> {
  title: string;
  principles: readonly P[];
  /** count by page kind too (every fault then names its page, every clean journey its pages) */
  pageKinds?: readonly K[];
  clean: readonly C[];
  faults: readonly F[];
  buildClean: (c: C) => World;
  buildFault: (f: F) => World;
}

export interface FindingBrief {
  rule: string;
  severity: string;
  pageUrl: string;
  message: string;
  /** the response the finding is about, when it is about one */
  responseId?: string;
}

export interface FaultResult<P extends string = string, K extends string = string> {
  id: string;
  principle: P;
  page?: K;
  twin: string;
  description: string;
  contradicts: string;
  caught: boolean;
  /** warning/error findings of the fault journey beyond its twin's (by rule and severity) */
  newFindings: FindingBrief[];
  /** info findings beyond the twin's: not a catch, shown beside a missed fault */
  newInfo: FindingBrief[];
}

export interface CleanResult<P extends string = string, K extends string = string> {
  id: string;
  principle: P;
  pages?: K[];
  description: string;
  falseAlarm: boolean;
  /** the findings that make it a false alarm */
  findings: FindingBrief[];
}

export interface Row<K extends string = string> {
  key: K | 'all';
  faults: number;
  caught: number;
  clean: number;
  falseAlarms: number;
}

export interface HeldoutReport<P extends string = string, K extends string = string> {
  principles: Row<P>[];
  /** faults by the page kind they are on; clean journeys by every page kind they walk through */
  pages?: Row<K>[];
  total: Row<never>;
  missed: FaultResult<P, K>[];
  falseAlarms: CleanResult<P, K>[];
  faults: FaultResult<P, K>[];
  clean: CleanResult<P, K>[];
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

/**
 * What makes a clean journey a false alarm: its warnings and errors; for principle `empty` (`anyAboutEmpty`)
 * also every finding, of any severity, about a response that served nothing (findings about the page's
 * mode, such as production traffic being production, are not about the empty response).
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

function row<K extends string>(
  key: K | 'all',
  fs: FaultResult<string, string>[],
  cs: CleanResult<string, string>[],
): Row<K> {
  return {
    key,
    faults: fs.length,
    caught: fs.filter((f) => f.caught).length,
    clean: cs.length,
    falseAlarms: cs.filter((c) => c.falseAlarm).length,
  };
}

/** Judges every journey of a set: the clean ones first, then each fault against its twin's findings. */
export function evaluateSet<
  P extends string,
  K extends string,
  C extends SetClean<P, K>,
  F extends SetFault<P, K>,
>(set: HeldoutSet<P, K, C, F>): HeldoutReport<P, K> {
  const twinFindings = new Map<string, FindingBrief[]>();
  const clean: CleanResult<P, K>[] = set.clean.map((c) => {
    const world = set.buildClean(c);
    const findings = judgeWorld(world);
    twinFindings.set(c.id, findings);
    const counted = alarmsOf(world, findings, c.principle === 'empty');
    return {
      id: c.id,
      principle: c.principle,
      ...(c.pages && { pages: c.pages }),
      description: c.description,
      falseAlarm: counted.length > 0,
      findings: counted,
    };
  });
  const faults: FaultResult<P, K>[] = set.faults.map((f) => {
    const extra = beyond(judgeWorld(set.buildFault(f)), twinFindings.get(f.twin) ?? []);
    const newFindings = extra.filter((x) => GRAVE.has(x.severity));
    return {
      id: f.id,
      principle: f.principle,
      ...(f.page !== undefined && { page: f.page }),
      twin: f.twin,
      description: f.description,
      contradicts: f.contradicts,
      caught: newFindings.length > 0,
      newFindings,
      newInfo: extra.filter((x) => !GRAVE.has(x.severity)),
    };
  });
  const kinds = set.pageKinds;
  return {
    principles: set.principles.map((p) =>
      row(
        p,
        faults.filter((f) => f.principle === p),
        clean.filter((c) => c.principle === p),
      ),
    ),
    ...(kinds && {
      pages: kinds.map((k) =>
        row(
          k,
          faults.filter((f) => f.page === k),
          clean.filter((c) => c.pages?.includes(k)),
        ),
      ),
    }),
    total: row<never>('all', faults, clean),
    missed: faults.filter((f) => !f.caught),
    falseAlarms: clean.filter((c) => c.falseAlarm),
    faults,
    clean,
  };
}
