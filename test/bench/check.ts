// check benchmark: `search-sandbox check` over 1,000,000 events (100,000 search pages of 10, interleaved
// as real shoppers' pages are) against the floor: a bare Node process that reads the same NDJSON file
// line by line and JSON.parse-s each line, measured in the same run, alternating. Each run is its own
// process; its wall time and peak RSS are reported as median (min–max). Two rungs between them say what
// each part of check costs: the floor with each body checked against the beacon schemas
// (check-floor-validate.ts), and check writing its findings only (`--format text`: the timelines and the
// rules, no page report); `--format json` adds the report of every page.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { median, spread, type Bench } from './bench';
import { writePages } from './timelines';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGES = Number(process.env.BENCH_CHECK_PAGES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_CHECK_ROUNDS ?? 2);

const FLOOR = `
const rl = require('node:readline').createInterface({ input: require('node:fs').createReadStream(process.argv[1]) });
let n = 0;
rl.on('line', (l) => { if (l) { JSON.parse(l); n++; } });
rl.on('close', () => { const u = process.resourceUsage(); process.stderr.write('cpu=' + (u.userCPUTime + u.systemCPUTime) + '\\nmaxrss=' + u.maxRSS + '\\n'); });
`;

/**
 * Run a process to its end: wall ms, the CPU it printed as `cpu=µs` (user and system, all its threads: the
 * figure a shared machine disturbs least) in ms, and the peak RSS it printed as `maxrss=KiB`, in MB (10^6
 * bytes: the "under 400 MB"; 400 MiB would be 419 MB).
 */
export async function timed(
  args: string[],
): Promise<{ ms: number; cpuMs: number; rssMb: number; code: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const [code] = (await once(child, 'close')) as [number];
  const ms = performance.now() - started;
  const m = /maxrss=(\d+)\s*$/.exec(err);
  const cpu = /cpu=(\d+)\n/.exec(err);
  if (!m || !cpu) throw new Error(`no cpu= or maxrss= from ${args.join(' ')}: ${err.slice(-500)}`);
  return { ms, cpuMs: Number(cpu[1]) / 1000, rssMb: (Number(m[1]) * 1024) / 1e6, code };
}

export const bench: Bench = {
  name: 'check',
  description: `check over ${(PAGES * 10).toLocaleString('en-US')} events vs a bare read-and-JSON.parse of the same file`,
  async run(log) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-check-'));
    try {
      const file = path.join(dir, 'events.ndjson');
      const events = await writePages(file, PAGES);
      log(`wrote ${events.toLocaleString('en-US')} events`);
      const floor: Array<Awaited<ReturnType<typeof timed>>> = [];
      const check: typeof floor = [];
      const validate: typeof floor = [];
      const findings: typeof floor = [];
      for (let round = 0; round < ROUNDS; round++) {
        floor.push(await timed(['-e', FLOOR, file]));
        validate.push(
          await timed(['--import', 'tsx', path.join(HERE, 'check-floor-validate.ts'), file]),
        );
        const text = await timed([path.join(HERE, 'check-child.mjs'), 'check', file]);
        if (text.code !== 0) throw new Error(`check --format text exited ${text.code}`);
        findings.push(text);
        const run = await timed([
          path.join(HERE, 'check-child.mjs'),
          'check',
          file,
          '--format',
          'json',
        ]);
        // every page warns (its first impressions come 10 ms after its render), none fails: exit 0
        if (run.code !== 0) throw new Error(`check exited ${run.code} on an input without errors`);
        check.push(run);
        log(
          `round ${round + 1}: floor ${Math.round(floor.at(-1)!.ms)} ms, + schemas ${Math.round(validate.at(-1)!.ms)} ms, check (findings only) ${Math.round(text.ms)} ms, check ${Math.round(run.ms)} ms, ${Math.round(run.rssMb)} MB`,
        );
      }
      // what a second thread could add on this machine: two floors at once against one alone (1.0 = the two
      // took as long as one, a whole second core; 2.0 = no second core at all)
      const pair: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const [x, y] = await Promise.all([timed(['-e', FLOOR, file]), timed(['-e', FLOOR, file])]);
        pair.push(Math.max(x.ms, y.ms) / floor[round]!.ms);
      }
      log(`two floors at once: ${pair.map((p) => p.toFixed(2)).join(', ')} × one alone`);
      const ratios = check.map((c, i) => c.ms / floor[i]!.ms);
      const cpuRatios = check.map((c, i) => c.cpuMs / floor[i]!.cpuMs);
      type Run = (typeof floor)[number];
      const row = (label: string, runs: Run[]) => [
        label,
        spread(runs.map((r) => r.ms / 1000)),
        spread(runs.map((r) => r.cpuMs / 1000)),
        spread(
          runs.map((r) => r.rssMb),
          0,
        ),
      ];
      return {
        table: {
          columns: [
            'run',
            'wall s: median (min–max)',
            'CPU s (user + system, all threads)',
            'peak RSS MB: median (min–max)',
          ],
          rows: [
            row('bare read + JSON.parse (floor)', floor),
            row('rung: read + JSON.parse + the beacon schemas', validate),
            row(
              'rung: check --format text (findings only: timelines and rules, no page report)',
              findings,
            ),
            row('check --format json', check),
            ['ratio check / floor', spread(ratios), spread(cpuRatios), ''],
            [
              'of which: schemas / timelines and rules / page report (s, each rung less the one below)',
              [
                spread(validate.map((r, i) => (r.ms - floor[i]!.ms) / 1000)),
                spread(findings.map((r, i) => (r.ms - validate[i]!.ms) / 1000)),
                spread(check.map((r, i) => (r.ms - findings[i]!.ms) / 1000)),
              ].join(' / '),
              [
                spread(validate.map((r, i) => (r.cpuMs - floor[i]!.cpuMs) / 1000)),
                spread(findings.map((r, i) => (r.cpuMs - validate[i]!.cpuMs) / 1000)),
                spread(check.map((r, i) => (r.cpuMs - findings[i]!.cpuMs) / 1000)),
              ].join(' / '),
              '',
            ],
            [
              'two floors at once / one alone (second core: 1.0 whole, 2.0 none)',
              spread(pair),
              '',
              '',
            ],
          ],
        },
        targets: [
          {
            name: 'check time / floor (median)',
            measured: median(ratios),
            op: '<=',
            limit: 2,
            unit: '×',
          },
          {
            name: 'check peak RSS (median)',
            measured: median(check.map((r) => r.rssMb)),
            op: '<',
            limit: 400,
            unit: ' MB',
          },
        ],
        notes: [
          'BENCH_CHECK_PAGES (default 100,000 pages of 10 events) and BENCH_CHECK_ROUNDS (default 2) change the size.',
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
