// Benchmark runner: `npm run bench` (builds, then runs every benchmark), `npm run bench -- ingest` (only those named).
// Exit code 1 when a target is missed. Not part of `npm test`: numbers depend on the machine.
//
// To add a benchmark: create test/bench/<name>.bench.ts exporting `bench: Bench` (see ./bench.ts: name,
// description, run(log) → {table, targets, notes}), measure against a baseline started in the same run,
// and add ONE import line below plus its name to the `benches` list.
import { met, renderTable, renderTargets, type Bench } from './bench';
import { bench as ingest } from './ingest.bench';
import { bench as ui } from './ui';
import { bench as feeds } from './feeds';
import { bench as timelines } from './timelines';
import { bench as responsiveness } from './responsiveness';
import { bench as forwarding } from './forwarding';
import { bench as visits } from './visits';
import { bench as check } from './check';
import { bench as hostile } from './hostile';
import { bench as store } from './store';
import { bench as diff } from './diff';
import { bench as domain } from './domain';
import { bench as readiness } from './readiness';
import { bench as shapes } from './shapes';
import { bench as origins } from './origins';
import { bench as startup } from './startup';
import { bench as search } from './search';

const benches: Bench[] = [
  ingest,
  ui,
  feeds,
  timelines,
  responsiveness,
  forwarding,
  visits,
  check,
  hostile,
  store,
  diff,
  domain,
  readiness,
  shapes,
  origins,
  startup,
  search,
];

async function main(argv: string[]): Promise<number> {
  const wanted = argv.filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !benches.some((b) => b.name === w));
  if (unknown.length) {
    console.error(
      `unknown benchmark ${unknown.join(', ')}; available: ${benches.map((b) => b.name).join(', ')}`,
    );
    return 2;
  }
  const selected = wanted.length ? benches.filter((b) => wanted.includes(b.name)) : benches;
  let missed = 0;
  for (const bench of selected) {
    console.log(`\n=== ${bench.name}: ${bench.description}`);
    const started = performance.now();
    const result = await bench.run((line) => console.log(`  ${line}`));
    console.log(`\n${renderTable(result.table.columns, result.table.rows)}`);
    for (const note of result.notes ?? []) console.log(`  note: ${note}`);
    console.log(`\n${renderTargets(result.targets)}`);
    console.log(`(${bench.name} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    missed += result.targets.filter((t) => !met(t)).length;
  }
  console.log(missed ? `\n${missed} target(s) missed` : '\nall targets met');
  return missed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('benchmark failed:', err);
    process.exit(2);
  },
);
