// `npm run corpus [-- --update-docs]`: prints the fault corpus' recall / false-alarm table from the recorded
// fixtures (offline, fast); --update-docs writes it into docs/timelines.md. Exit 1 when a target is missed.
import { readFileSync, writeFileSync } from 'node:fs';
import { DOCS, judgeAll, table, totals, withTable } from './evaluate';

const all = judgeAll();
const md = table(all);
process.stdout.write(`${md}\n`);
if (process.argv.includes('--update-docs')) {
  // formatted as `npm run lint` wants the docs (prettier pads the table's columns)
  const prettier = await import('prettier');
  const options = { ...(await prettier.resolveConfig(DOCS)), filepath: DOCS };
  writeFileSync(DOCS, await prettier.format(withTable(readFileSync(DOCS, 'utf8'), md), options));
  process.stdout.write(`\nwritten into ${DOCS}\n`);
}
const t = totals(all);
const missed = all.filter((j) => !j.ok);
for (const j of missed) process.stderr.write(`corpus: ${j.entry.id}: ${j.problem}\n`);
process.exit(missed.length > 0 || t.clean < 20 || t.observable < 25 ? 1 : 0);
