// Ingest benchmark: valid search/render beacons against (a) the real headless sandbox (validation, journal in
// a temp data dir, timelines), (b) the floor with the same guarantees (floor-server.ts: node:http + JSON.parse
// + ajv with our beacon schemas + the journal's group commit before the 200 + the event kept), (c) bare
// node:http parsing the body and (d) bare express answering {"success":true}; each a child process loaded by
// autocannon from here, alternating, ROUNDS times, with two bodies: a fresh page and responseId per request,
// and one constant body (one page that grows by an event per request: 100,000 events within a few runs).
// Between the floor and the sandbox, two rungs (ladder-server.ts): the floor's server with the sandbox's own
// ingest and event store, then with its timelines too; the CPU each rung adds per request is what that
// guarantee costs. Also p99 at a fixed 1,000 req/s against the floor's, and the CPU per event as the history
// grows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import {
  disturbedNote,
  fmt,
  median,
  spread,
  startScriptServer,
  type Bench,
  type BenchResult,
  type Target,
} from './bench';
import {
  CONNECTIONS,
  cpuNs,
  fixedRate,
  load,
  startSandbox,
  type BodyMode,
  type Server,
} from './ingest-load';
import { historyCost, WINDOWS } from './ingest-history';

export { cpuNs, load } from './ingest-load';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FIXED_ROUNDS = Number(process.env.BENCH_FIXED_ROUNDS ?? 3);
/** BENCH_INGEST_HISTORY=0 skips the 200,000-event history (a minute or more) */
const HISTORY = process.env.BENCH_INGEST_HISTORY !== '0';

const NAMES = ['sandbox', 'timelines', 'store', 'floor', 'node', 'express'] as const;
type Name = (typeof NAMES)[number];
const LABELS: Record<Name, string> = {
  sandbox: '(a) sandbox, validation + journal + timelines',
  timelines: '(a2) rung: the sandbox ingest + store + timelines on node:http',
  store: '(a1) rung: the sandbox ingest + store on node:http',
  floor: '(b) floor: node:http + ajv + journal before the 200',
  node: '(c) bare node:http, JSON.parse',
  express: '(d) bare express {"success":true}',
};
type Run = autocannon.Result & { cpuUs: number | null };

/** A script server given a temp dir of its own (`args` makes its arguments from it), removed when it stops. */
async function startInTempDir(
  script: string,
  args: (dir: string) => string[],
  name: string,
): Promise<Server> {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  const server = await startScriptServer(path.join(HERE, script), args(dir));
  return {
    ...server,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const startFloor = () =>
  startInTempDir('floor-server.ts', (dir) => [path.join(dir, 'events.ndjson')], 'floor');

/** A rung of ladder-server.ts, with a data dir of its own. */
const startRung = (rung: 'store' | 'timelines') =>
  startInTempDir('ladder-server.ts', (dir) => [rung, dir], rung);

const starters: Record<Name, () => Promise<Server>> = {
  sandbox: startSandbox,
  timelines: () => startRung('timelines'),
  store: () => startRung('store'),
  floor: startFloor,
  node: () => startScriptServer(path.join(HERE, 'bare-node-server.ts')),
  express: () => startScriptServer(path.join(HERE, 'bare-server.ts')),
};

/** ROUNDS alternating runs of every server with one body mode; fresh servers for each mode. */
async function throughput(mode: BodyMode, log: (line: string) => void) {
  const servers = {} as Record<Name, Server>;
  const rounds: Array<Record<Name, Run>> = [];
  try {
    for (const name of NAMES) servers[name] = await starters[name]();
    for (const name of NAMES) await load(servers[name].url, { duration: 1 }, undefined, mode);
    for (let round = 1; round <= ROUNDS; round++) {
      const runs = {} as Record<Name, Run>;
      for (const name of NAMES) {
        const server = servers[name];
        const cpu0 = cpuNs(server.pid);
        const result = await load(server.url, { duration: SECONDS }, undefined, mode);
        const cpu1 = cpuNs(server.pid);
        const cpuUs =
          cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / 1000 / result.requests.total;
        runs[name] = { ...result, cpuUs };
        log(
          `${mode} round ${round} ${name}: ${fmt(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, worst ${result.latency.max} ms, ${cpuUs === null ? '?' : fmt(cpuUs)} CPU µs/req`,
        );
      }
      rounds.push(runs);
    }
  } finally {
    for (const name of NAMES) await servers[name]?.stop();
  }
  return rounds;
}

/** Figures of one mode: a row per server, ratios per round against the floor and express. */
function summarise(mode: BodyMode, rounds: Array<Record<Name, Run>>) {
  const of = (name: Name, f: (r: Run) => number) => rounds.map((r) => f(r[name]));
  const rows: Array<Array<string | number>> = NAMES.map((name) => [
    `${mode}: ${LABELS[name]}`,
    spread(
      of(name, (r) => r.requests.average),
      0,
    ),
    spread(of(name, (r) => r.latency.p99)),
    Math.max(...of(name, (r) => r.latency.max)),
    `CPU µs/req ${spread(of(name, (r) => r.cpuUs ?? NaN))}`,
  ]);
  const ratioTo = (base: Name) =>
    rounds.map((r) => r.sandbox.requests.average / r[base].requests.average);
  const floorRatio = ratioTo('floor');
  const rungRatio = (name: Name) =>
    spread(rounds.map((r) => r[name].requests.average / r.floor.requests.average));
  // what each guarantee adds to a request's CPU: a rung's µs less the one below it, round by round
  const added = (name: Name, below: Name) =>
    spread(rounds.map((r) => (r[name].cpuUs ?? NaN) - (r[below].cpuUs ?? NaN)));
  rows.push(
    [`${mode}: ratio (a) / (b) floor`, spread(floorRatio), '', '', 'each round its own ratio'],
    [`${mode}: ratio (a1) store rung / (b) floor`, rungRatio('store'), '', '', ''],
    [`${mode}: ratio (a2) timelines rung / (b) floor`, rungRatio('timelines'), '', '', ''],
    [`${mode}: ratio (a) / (d) express`, spread(ratioTo('express')), '', '', ''],
    [
      `${mode}: CPU µs/req added by the store (a1 − b)`,
      added('store', 'floor'),
      '',
      '',
      'the sandbox ingest, its indexes, shared strings, compact old events',
    ],
    [
      `${mode}: CPU µs/req added by the timelines (a2 − a1)`,
      added('timelines', 'store'),
      '',
      '',
      'pages, visits, rule tallies, judging pages that go quiet',
    ],
    [
      `${mode}: CPU µs/req added by the rest of the sandbox (a − a2)`,
      added('sandbox', 'timelines'),
      '',
      '',
      'beacon lane headers, bus, admin API, search and indexing at rest',
    ],
  );
  const p99 = median(of('sandbox', (r) => r.latency.p99));
  const floorP99 = median(of('floor', (r) => r.latency.p99));
  return {
    rows,
    ratio: median(floorRatio),
    expressRatio: median(ratioTo('express')),
    p99,
    floorP99,
    worst: Math.max(...of('sandbox', (r) => r.latency.max)),
    floorRps: of('floor', (r) => r.requests.average),
  };
}

async function fixedRuns(log: (line: string) => void) {
  const sandbox = await startSandbox();
  const floor = await startFloor();
  const a: Array<Awaited<ReturnType<typeof fixedRate>>> = [];
  const b: typeof a = [];
  const cold: typeof a = [];
  try {
    // "steady": the first second after a start (JIT, first buffers, the validators still compiling in idle
    // turns) is run and shown apart, for both servers, and kept out of the p99
    cold.push(await fixedRate(sandbox.url, 1000, 1), await fixedRate(floor.url, 1000, 1));
    log(
      `first second after start at 1,000 req/s (not in the p99): sandbox p99 ${fmt(cold[0]!.p99)} ms worst ${fmt(cold[0]!.max)} ms; floor p99 ${fmt(cold[1]!.p99)} ms worst ${fmt(cold[1]!.max)} ms`,
    );
    for (let round = 1; round <= FIXED_ROUNDS; round++) {
      a.push(await fixedRate(sandbox.url, 1000, SECONDS));
      b.push(await fixedRate(floor.url, 1000, SECONDS));
      log(
        `round ${round} at 1,000 req/s: sandbox p50 ${fmt(a.at(-1)!.p50)} ms p99 ${fmt(a.at(-1)!.p99)} ms; floor p50 ${fmt(b.at(-1)!.p50)} ms p99 ${fmt(b.at(-1)!.p99)} ms`,
      );
    }
  } finally {
    await sandbox.stop();
    await floor.stop();
  }
  const row = (label: string, runs: typeof a) => [
    label,
    median(runs.map((r) => r.achieved)),
    spread(runs.map((r) => r.p99)),
    spread(runs.map((r) => r.max)),
    `p50 ${spread(runs.map((r) => r.p50))} ms; median (min–max) of ${runs.length}`,
  ];
  return {
    rows: [
      row('(a) sandbox at a fixed 1,000 req/s', a),
      row('(b) floor at a fixed 1,000 req/s', b),
      row('(a) sandbox: its first second after start', cold.slice(0, 1)),
      row('(b) floor: its first second after start', cold.slice(1)),
    ],
    p99: median(a.map((r) => r.p99)),
  };
}

export const bench: Bench = {
  name: 'ingest',
  description: `valid render beacons, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per server and body (BENCH_SECONDS, BENCH_ROUNDS; BENCH_INGEST_HISTORY=0 skips the history)`,
  async run(log): Promise<BenchResult> {
    const fresh = summarise('fresh', await throughput('fresh', log));
    const constant = summarise('constant', await throughput('constant', log));
    const fixed = await fixedRuns(log);
    const history = HISTORY ? await historyCost(log) : null;
    const rows = [...fresh.rows, ...constant.rows, ...fixed.rows];
    const targets: Target[] = [
      {
        name: 'fresh page per request: sandbox / floor',
        measured: fresh.ratio,
        op: '>=',
        limit: 0.7,
      },
      { name: 'constant body: sandbox / floor', measured: constant.ratio, op: '>=', limit: 0.8 },
      {
        name: 'sandbox / bare express (fresh)',
        measured: fresh.expressRatio,
        op: '>=',
        limit: 0.7,
      },
    ];
    for (const m of [fresh, constant]) {
      const mode = m === fresh ? 'fresh' : 'constant';
      targets.push(
        {
          name: `${mode}: p99 (median) ≤ 1.2 × floor p99 (${fmt(m.floorP99)} ms) + 1 ms`,
          measured: m.p99,
          op: '<=',
          limit: 1.2 * m.floorP99 + 1,
          unit: ' ms',
        },
        {
          name: `${mode}: worst single answer`,
          measured: m.worst,
          op: '<=',
          limit: 100,
          unit: ' ms',
        },
      );
    }
    targets.push({
      name: `p99 at 1,000 req/s (median of ${FIXED_ROUNDS})`,
      measured: fixed.p99,
      op: '<=',
      limit: 2,
      unit: ' ms',
    });
    const notes = [
      disturbedNote('the floor (fresh bodies)', fresh.floorRps),
      disturbedNote('the floor (constant body)', constant.floorRps),
    ].filter((n): n is string => n !== null);
    if (history) {
      const growth = history.at100k / history.at1k;
      rows.push(
        ...(['at1k', 'at100k', 'at200k'] as const).map((k) => [
          `(a) around event ${k === 'at1k' ? '1,000' : k === 'at100k' ? '100,000' : '200,000 (retention full, compaction)'}`,
          '',
          '',
          '',
          `${spread(history.windows[k])} ${history.metric}, median (min–max) of ${WINDOWS} windows`,
        ]),
        ['growth 100,000th / 1,000th', growth.toFixed(2), '', '', ''],
        [
          '(a) slowest answer while the history grew',
          '',
          '',
          history.slowest.map((ms) => fmt(ms)).join(', '),
          'the loads that filled it to 98,750 and to 200,000 events (each beacon a new page)',
        ],
      );
      targets.push({
        name: 'cost at 100,000th / 1,000th event',
        measured: growth,
        op: '<=',
        limit: 1.2,
      });
      const d = disturbedNote('the CPU per event around event 1,000', history.windows.at1k);
      if (d) notes.push(d);
    }
    notes.push(
      'req/s and p99: median (min–max) of the rounds; worst: the slowest answer of any round (autocannon: whole ms)',
      'servers run as child processes (out/main/cli.js serve --data <temp>; ladder-server.ts store|timelines; floor-server.ts; bare-node-server.ts; bare-server.ts); autocannon runs here',
    );
    return {
      table: { columns: ['run', 'req/s', 'p99 ms', 'worst ms', 'note'], rows },
      targets,
      notes,
    };
  },
};
