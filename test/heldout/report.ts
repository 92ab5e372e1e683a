// `npm run heldout`: the held-out set's recall by principle, its false alarms, and what was missed.
// `--json` writes the same as JSON to stdout.
import { evaluate, type HeldoutReport } from './evaluate';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function text(r: HeldoutReport): string {
  const out: string[] = [];
  out.push('Held-out evaluation (judged offline, apart from the rules)');
  out.push('');
  out.push(`${pad('principle', 30)} ${pad('faults caught', 15)} clean false alarms`);
  for (const p of [...r.principles, r.total]) {
    const caught = p.faults === 0 ? '-' : `${p.caught}/${p.faults}`;
    const fa = p.clean === 0 ? '-' : `${p.falseAlarms}/${p.clean}`;
    out.push(`${pad(p.principle, 30)} ${pad(caught, 15)} ${fa}`);
  }
  out.push('');
  out.push(`Missed faults (${r.missed.length}):`);
  for (const f of r.missed) {
    out.push(
      `  [${f.principle}] ${f.id} (twin ${f.twin}): ${f.description}\n      contradicts: ${f.contradicts}`,
    );
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
    out.push(`  [${f.principle}] ${f.id}: ${first.severity} ${first.rule}`);
  }
  return out.join('\n');
}

const report = evaluate();
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else process.stdout.write(`${text(report)}\n`);
