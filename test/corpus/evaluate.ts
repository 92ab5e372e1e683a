// Judges the recorded corpus offline, the way `search-sandbox check` reads an export: each journey's
// findings against its target (clean: no error or warning; fault: found by its rule, at its severity, with a
// message naming the cause and the fix), and the table `npm run corpus` prints and docs/timelines.md holds.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseInput } from '../../src/main/recordings/inputs';
import { judgeOffline } from '../../src/main/tracking/timeline/offline-check';
import type { TimelineFindingDto } from '../../src/shared/timeline';
import { CORPUS, type CorpusEntry, type ExpectedCredit, type JourneyClass } from './catalog';
import type { OrderDto } from '../../src/shared/visits';

export const FIXTURE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/corpus',
);

export interface Judged {
  entry: CorpusEntry;
  /** false: no recording (unobservable or covered elsewhere, or not recorded yet) */
  recorded: boolean;
  events: number;
  findings: TimelineFindingDto[];
  /** the finding that detects the fault (fault journeys) */
  hit?: TimelineFindingDto;
  namesCause: boolean;
  namesFix: boolean;
  /** the journey meets its target */
  ok: boolean;
  /** why not, in a line */
  problem?: string;
}

const loud = (f: TimelineFindingDto) => f.severity !== 'info';

export function judge(entry: CorpusEntry): Judged {
  const file = path.join(FIXTURE_DIR, `${entry.id}.json`);
  const base = { entry, events: 0, findings: [], namesCause: false, namesFix: false };
  if (!existsSync(file)) {
    const expected = entry.kind === 'fault' && (entry.unobservable || entry.coveredBy);
    return {
      ...base,
      recorded: false,
      ok: Boolean(expected),
      ...(!expected && { problem: `no recording: run npm run corpus:record -- ${entry.id}` }),
    };
  }
  const read = parseInput(readFileSync(file, 'utf8'), file);
  const { pages, orders } = judgeOffline(read.events, read.responses ?? []);
  const findings = pages.flatMap((p) => p.findings);
  const judged = { ...base, recorded: true, events: read.events.length, findings };
  if (entry.kind === 'clean') {
    const bad = findings.filter(loud);
    const credits = creditProblem(entry.credits, orders);
    const named = entry.named;
    const unnamed =
      named &&
      !findings.some(
        (f) => f.rule === named.rule && f.severity === 'info' && named.cause.test(f.message),
      )
        ? `not named by ${named.rule} (info) matching ${named.cause}`
        : undefined;
    const problems = [
      ...(bad.length > 0
        ? [`false alarm: ${bad.map((f) => `${f.rule} (${f.severity})`).join(', ')}`]
        : []),
      ...(credits ? [credits] : []),
      ...(unnamed ? [unnamed] : []),
    ];
    return {
      ...judged,
      ok: problems.length === 0,
      ...(problems.length > 0 && { problem: problems.join('; ') }),
    };
  }
  if (!entry.expect) {
    // recorded to show what reaches the wire: nothing the rules could name
    const bad = findings.filter(loud);
    return {
      ...judged,
      ok: bad.length === 0,
      ...(bad.length > 0 && { problem: `listed as unobservable, yet ${bad[0]!.rule} fires` }),
    };
  }
  const want = entry.expect;
  const hit = findings.find((f) => f.rule === want.rule && f.severity === want.severity);
  if (!hit) {
    const got = findings.filter(loud).map((f) => `${f.rule} (${f.severity})`);
    return {
      ...judged,
      ok: false,
      problem: `not detected by ${want.rule} at ${want.severity}; found ${got.join(', ') || 'nothing'}`,
    };
  }
  const namesCause = want.cause.test(hit.message);
  const namesFix = hit.fix.trim() !== '';
  return {
    ...judged,
    hit,
    namesCause,
    namesFix,
    ok: namesCause && namesFix,
    ...(!(namesCause && namesFix) && {
      problem: `${hit.rule}'s message does not ${namesCause ? 'name the fix' : `match ${want.cause}`}`,
    }),
  };
}

/** A clean visit's order lines against the credit each must get; undefined when all match. */
function creditProblem(
  want: readonly ExpectedCredit[] | undefined,
  orders: readonly OrderDto[],
): string | undefined {
  if (!want) return undefined;
  const lines = orders.flatMap((o) => o.lines);
  for (const w of want) {
    const line = lines.find((l) => l.uid === w.uid);
    const got = line ? (line.credit?.kind ?? null) : 'no such line';
    if (got !== w.credit)
      return `credit: line ${w.uid} credited to ${got ?? 'nothing'}, expected ${w.credit ?? 'nothing'}${line?.noCreditReason ? ` (${line.noCreditReason})` : ''}`;
  }
  return undefined;
}

export function judgeAll(): Judged[] {
  return CORPUS.map(judge);
}

export interface Totals {
  /** the whole-visit journeys among them */
  visitClean: number;
  visitCleanOk: number;
  visitObservable: number;
  visitDetected: number;
  clean: number;
  cleanOk: number;
  observable: number;
  detected: number;
  unobservable: number;
  elsewhere: number;
}

export function totals(all: readonly Judged[]): Totals {
  const t: Totals = {
    visitClean: 0,
    visitCleanOk: 0,
    visitObservable: 0,
    visitDetected: 0,
    clean: 0,
    cleanOk: 0,
    observable: 0,
    detected: 0,
    unobservable: 0,
    elsewhere: 0,
  };
  for (const j of all) {
    const e = j.entry;
    if (e.kind === 'clean') {
      t.clean++;
      if (j.ok) t.cleanOk++;
      if (e.visit) {
        t.visitClean++;
        if (j.ok) t.visitCleanOk++;
      }
    } else if (e.expect) {
      t.observable++;
      if (j.ok) t.detected++;
      if (e.visit) {
        t.visitObservable++;
        if (j.ok) t.visitDetected++;
      }
    } else if (e.unobservable) t.unobservable++;
    else t.elsewhere++;
  }
  return t;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

const CLASS_TITLE: Record<JourneyClass, string> = {
  'spa-research': 'SPA re-searches',
  timing: 'clicks and impressions out of order',
  banners: 'banners',
  unfinished: 'pages judged as finished',
  visit: 'the whole visit',
  rhythm: 'interactions the client never repeats',
  values: 'values the client never produces',
  paging: 'lists that page or scroll',
  identity: 'identity across the visit',
};

/** Recall and false alarms per class of bug (issue #22's classes and the whole visit). */
export function byClass(
  all: readonly Judged[],
): Array<
  [JourneyClass, { observable: number; detected: number; clean: number; falseAlarms: number }]
> {
  const out = new Map<
    JourneyClass,
    { observable: number; detected: number; clean: number; falseAlarms: number }
  >();
  for (const j of all) {
    const cls = j.entry.cls;
    if (!cls) continue;
    let c = out.get(cls);
    if (!c) out.set(cls, (c = { observable: 0, detected: 0, clean: 0, falseAlarms: 0 }));
    if (j.entry.kind === 'clean') {
      c.clean++;
      if (!j.ok) c.falseAlarms++;
    } else if (j.entry.expect) {
      c.observable++;
      if (j.ok) c.detected++;
    }
  }
  return [...out.entries()];
}

/** The recall / false-alarm table, in Markdown. */
export function table(all: readonly Judged[]): string {
  const t = totals(all);
  const rows = [
    '| journey | kind | what | result | rule (severity) | names cause | names fix |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const j of all) {
    const e = j.entry;
    const info = j.findings.filter((f) => f.severity === 'info').map((f) => f.rule);
    let result: string;
    let rule = '';
    if (e.kind === 'clean') {
      result = j.ok ? 'clean' : `**${j.problem}**`;
      if (info.length) rule = `info only: ${[...new Set(info)].join(', ')}`;
    } else if (e.expect) {
      result = j.ok ? 'detected' : `**${j.problem}**`;
      rule = j.hit ? `\`${j.hit.rule}\` (${j.hit.severity})` : `expected \`${e.expect.rule}\``;
    } else if (e.unobservable) {
      result = `not observable: ${e.unobservable}`;
    } else {
      result = `covered by ${e.coveredBy}`;
    }
    if (e.tradeoff) result += ` (trade-off: ${e.tradeoff})`;
    const yes = (b: boolean) => (e.kind === 'fault' && e.expect ? (b ? 'yes' : 'no') : '');
    rows.push(
      `| \`${e.id}\` | ${e.kind} | ${cell(e.title)}${e.kind === 'fault' ? ` (${cell(e.source)})` : ''} | ${cell(result)} | ${cell(rule)} | ${yes(j.namesCause)} | ${yes(j.namesFix)} |`,
    );
  }
  rows.push(
    '',
    `Recall: ${t.detected} of ${t.observable} observable faults detected at warning or error by the rule that names them ` +
      `(${t.unobservable} not observable on the wire, ${t.elsewhere} covered elsewhere). ` +
      `False alarms: ${t.clean - t.cleanOk} of ${t.clean} clean journeys have an error or warning.`,
    '',
    `By class: ${byClass(all)
      .map(
        ([cls, c]) =>
          `${CLASS_TITLE[cls]}: ${c.detected} of ${c.observable} faults detected, ${c.falseAlarms} of ${c.clean} clean journeys with a false alarm${cls === 'visit' ? ' or a credit other than expected' : ''}`,
      )
      .join('; ')}.`,
  );
  return rows.join('\n');
}

export const DOCS = path.resolve(FIXTURE_DIR, '../../docs/timelines.md');
export const START = '<!-- corpus:start (npm run corpus -- --update-docs) -->';
export const END = '<!-- corpus:end -->';

/** docs/timelines.md with the table between the markers replaced. */
export function withTable(docs: string, md: string): string {
  const a = docs.indexOf(START);
  const b = docs.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOCS}: the markers ${START} … ${END} are missing`);
  return `${docs.slice(0, a + START.length)}\n\n${md}\n\n${docs.slice(b)}`;
}

/** A Markdown table as prettier pads it and as the report prints it compare equal. */
export function sameTable(a: string, b: string): boolean {
  const norm = (t: string) =>
    t
      .trim()
      .split('\n')
      .map((l) => l.replace(/ {2,}/g, ' ').replace(/-{3,}/g, '---').trim())
      .join('\n');
  return norm(a) === norm(b);
}
