// `npm run heldout:blind`: the blind held-out set's recall by principle and by page kind, its false
// alarms, and what was missed with the client fact each missed fault contradicts. `--json` writes the
// same as JSON to stdout.
import { evaluate, type BlindReport, type Row } from './evaluate';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function table<K extends string>(title: string, rows: Row<K>[]): string[] {
  const out = [`${pad(title, 20)} ${pad('faults caught', 15)} clean false alarms`];
  for (const r of rows) {
    const caught = r.faults === 0 ? '-' : `${r.caught}/${r.faults}`;
    const fa = r.clean === 0 ? '-' : `${r.falseAlarms}/${r.clean}`;
    out.push(`${pad(r.key, 20)} ${pad(caught, 15)} ${fa}`);
  }
  return out;
}

function text(r: BlindReport): string {
  const out: string[] = [];
  out.push("Blind held-out evaluation (judged offline; written from the client's behaviour only)");
  out.push('');
  out.push(...table('principle', [...r.principles, r.total]));
  out.push('');
  out.push(...table('page kind', r.pages));
  out.push('');
  out.push(`Missed faults (${r.missed.length}):`);
  for (const f of r.missed) {
    out.push(`  [${f.principle}/${f.page}] ${f.id} (twin ${f.twin}): ${f.description}`);
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
    out.push(`  [${f.principle}/${f.page}] ${f.id}: ${first.severity} ${first.rule}`);
  }
  return out.join('\n');
}

const report = evaluate();
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else process.stdout.write(`${text(report)}\n`);
