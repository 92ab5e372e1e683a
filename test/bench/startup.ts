// startup benchmark: how long a `serve` takes to print its ready line and a `check` of a small session to
// end, against a bare Node process started and ended (`node -e ""`) in the same run, alternating. Each run
// is its own process of the built CLI (through check-child.mjs, which prints its CPU at exit): wall time and
// CPU (user and system, the whole process) as median (min–max). The test suite and a CI job start these
// processes by the hundred, and a user waits for every one.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { timed } from './check';
import { spread, type Bench } from './bench';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'check-child.mjs');
const SESSION = path.resolve(HERE, '../../fixtures/sessions/bad-stale-responseid.ndjson');
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 10);

/** `node -e ""` printing its CPU at exit as check-child.mjs does. */
const BARE = `process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('cpu=' + (u.userCPUTime + u.systemCPUTime) + '\\nmaxrss=' + u.maxRSS + '\\n'); });`;

/** `serve --port 0 --ephemeral` until its ready line (then SIGTERM): ms to the line, and its CPU at exit. */
async function serve(): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CHILD, 'serve', '--port', '0', '--ephemeral'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let ready = 0;
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    if (ready || !c.includes('listening on')) return;
    ready = performance.now() - started;
    child.kill('SIGTERM');
  });
  const [code] = (await once(child, 'close')) as [number];
  const cpu = /cpu=(\d+)\n/.exec(err);
  if (!ready || !cpu) throw new Error(`serve printed no ready line or cpu= (exit ${code}): ${err}`);
  return { ms: ready, cpuMs: Number(cpu[1]) / 1000 };
}

export const bench: Bench = {
  name: 'startup',
  description: 'serve to its ready line and check of a small session, vs a bare Node process',
  async run(log) {
    const bare: Array<{ ms: number; cpuMs: number }> = [];
    const served: typeof bare = [];
    const checked: typeof bare = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await timed(['-e', BARE]));
      served.push(await serve());
      const c = await timed([CHILD, 'check', SESSION]);
      // one of its pages fails: check exits 1 once it has judged them; anything else did not run
      if (c.code !== 1) throw new Error(`check exited ${c.code}, expected 1`);
      checked.push(c);
    }
    log(
      `last round: node ${Math.round(bare.at(-1)!.ms)} ms, serve ready ${Math.round(served.at(-1)!.ms)} ms, check ${Math.round(checked.at(-1)!.ms)} ms`,
    );
    const row = (label: string, runs: typeof bare) => [
      label,
      spread(
        runs.map((r) => r.ms),
        0,
      ),
      spread(
        runs.map((r) => r.cpuMs),
        0,
      ),
    ];
    return {
      table: {
        columns: ['run', 'wall ms: median (min–max)', 'CPU ms (user + system)'],
        rows: [
          row('node -e "" (bare Node, the floor)', bare),
          row('serve --port 0 --ephemeral, to its ready line', served),
          row('check of a 2-page session (to its exit)', checked),
        ],
      },
      targets: [],
      notes: [
        `BENCH_STARTUP_ROUNDS (default 10) rounds; serve's CPU is counted to its exit right after the ready line.`,
      ],
    };
  },
};
