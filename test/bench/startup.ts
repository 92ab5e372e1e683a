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

/**
 * Requests like those of a UI's first screen and a test's first reset: what a sandbox answers first, once
 * each (their queries and JSON bodies judged by the declared schemas, with nothing to compile first).
 */
const FIRST_ADMIN = [
  'GET /_sandbox/health',
  'GET /_sandbox/rules',
  'GET /_sandbox/timelines?siteId=demo42&limit=500',
  'GET /_sandbox/events?limit=200&accepted=true',
  'GET /_sandbox/visits?siteId=demo42',
  'GET /_sandbox/orders?siteId=demo42',
  'GET /_sandbox/readiness?siteId=demo42',
  'GET /_sandbox/feeds?siteId=demo42',
  'POST /_sandbox/reset {"what":"events","siteId":"demo42"}',
  'POST /_sandbox/clock {"advance":"PT1M"}',
];

/** Each of FIRST_ADMIN, one after another; throws on an answer that is not a 200. */
async function firstAdmin(url: string): Promise<void> {
  for (const request of FIRST_ADMIN) {
    const [method, target, body] = request.split(' ') as [string, string, string?];
    const res = await fetch(`${url}${target}`, {
      method,
      ...(body && { body, headers: { 'content-type': 'application/json' } }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${request} was answered ${res.status}`);
  }
}

/**
 * `serve --port 0 --ephemeral` until its ready line (then SIGTERM): ms to the line, and its CPU at exit.
 * With `admin`, it first answers FIRST_ADMIN: ms from the ready line to the last answer, CPU at exit.
 */
async function serve(admin = false): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CHILD, 'serve', '--port', '0', '--ephemeral'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let ms = 0;
  let failed: unknown;
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    const url = /listening on (http:\/\/\S+)/.exec(c)?.[1];
    if (ms || !url) return;
    ms = performance.now() - started;
    if (!admin) return void child.kill('SIGTERM');
    const answering = performance.now();
    firstAdmin(url).then(
      () => ((ms = performance.now() - answering), child.kill('SIGTERM')),
      (error: unknown) => ((failed = error), child.kill('SIGTERM')),
    );
  });
  const [code] = (await once(child, 'close')) as [number];
  if (failed) throw failed;
  const cpu = /cpu=(\d+)\n/.exec(err);
  if (!ms || !cpu) throw new Error(`serve printed no ready line or cpu= (exit ${code}): ${err}`);
  return { ms, cpuMs: Number(cpu[1]) / 1000 };
}

export const bench: Bench = {
  name: 'startup',
  description: 'serve to its ready line and check of a small session, vs a bare Node process',
  async run(log) {
    const bare: Array<{ ms: number; cpuMs: number }> = [];
    const served: typeof bare = [];
    const checked: typeof bare = [];
    const answered: typeof bare = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await timed(['-e', BARE]));
      served.push(await serve());
      answered.push(await serve(true));
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
          row(
            `serve, then its first ${FIRST_ADMIN.length} admin requests (wall: from the ready line to the last answer)`,
            answered,
          ),
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
