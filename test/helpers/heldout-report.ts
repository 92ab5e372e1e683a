// The report every held-out set prints (`npm run heldout`, `heldout:blind`, `heldout:unseen`,
// `heldout:fresh`): recall and false alarms by principle (and by page kind when the set counts them), the
// missed faults with the client fact each contradicts, the false alarms with their findings and the first
// finding of each caught fault. `--json` writes the same as JSON to stdout.
import {
  evaluateSet,
  type FaultResult,
  type HeldoutReport,
  type HeldoutSet,
  type Row,
  type SetClean,
  type SetFault,
} from './heldout-set';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function table(title: string, rows: Row[], width: number): string[] {
  const out = [`${pad(title, width)} ${pad('faults caught', 15)} clean false alarms`];
  for (const r of rows) {
    const caught = r.faults === 0 ? '-' : `${r.caught}/${r.faults}`;
    const fa = r.clean === 0 ? '-' : `${r.falseAlarms}/${r.clean}`;
    out.push(`${pad(r.key, width)} ${pad(caught, 15)} ${fa}`);
  }
  return out;
}

function label(f: FaultResult): string {
  return f.page === undefined ? `[${f.principle}]` : `[${f.principle}/${f.page}]`;
}

export function reportText(title: string, r: HeldoutReport): string {
  const rows = [...r.principles, r.total, ...(r.pages ?? [])];
  // the first column fits its longest key, and is never narrower than 20
  const width = Math.max(20, ...rows.map((x) => x.key.length + 3));
  const out: string[] = [];
  out.push(title);
  out.push('');
  out.push(...table('principle', [...r.principles, r.total], width));
  if (r.pages) {
    out.push('');
    out.push(...table('page kind', r.pages, width));
  }
  out.push('');
  out.push(`Missed faults (${r.missed.length}):`);
  for (const f of r.missed) {
    out.push(`  ${label(f)} ${f.id} (twin ${f.twin}): ${f.description}`);
    out.push(`      contradicts: ${f.contradicts}`);
    if (f.newInfo.length > 0)
      out.push(`      (info only: ${[...new Set(f.newInfo.map((x) => x.rule))].join(', ')})`);
  }
  out.push('');
  out.push(`False alarms on clean journeys (${r.falseAlarms.length}):`);
  for (const c of r.falseAlarms) {
    out.push(`  [${c.principle}] ${c.id}: ${c.description}`);
    for (const f of c.findings)
      out.push(`      ${f.severity} ${f.rule} on ${f.pageUrl}: ${f.message}`);
  }
  out.push('');
  out.push('Caught faults (the first finding beyond the twin):');
  for (const f of r.faults.filter((x) => x.caught)) {
    const first = f.newFindings[0]!;
    out.push(`  ${label(f)} ${f.id}: ${first.severity} ${first.rule}`);
  }
  return out.join('\n');
}

/** A set's report command: judges the set and writes its report (text, or JSON with `--json`). */
export function printReport<
  P extends string,
  K extends string,
  C extends SetClean<P, K>,
  F extends SetFault<P, K>,
>(set: HeldoutSet<P, K, C, F>, argv: string[] = process.argv): void {
  const report = evaluateSet(set);
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${reportText(set.title, report)}\n`);
}
