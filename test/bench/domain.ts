// Domain benchmark: what a beacon costs the sandbox's own code, without HTTP or another process in the way
// (domain-child.ts): the ingest and the event store with its journal, then with the timelines, each
// below the retention limit (100,000: the store and the pages only grow) and at it (20,000: every beacon
// also drops the oldest event and its page). Alternating child processes, ROUNDS each, medians with their
// spread. Its noise is a few per cent where a beacon's HTTP round trip varies by tens (the ingest benchmark),
// so it is the one to run before and after a change to the domain. No target of its own: it says where a
// beacon's time goes (the figures of issue 45's accounting, docs/benchmarks.md). At the limit a beacon also
// pays for dropping the oldest event and page, and for its share of the journal's compaction (about one
// retained line rewritten per new one). Last, the timelines alone: the same beacons stored first and then
// folded in, only the fold timed, and the heap its pages hold weighed after a full collection.
import path from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { fmt, spread, type Bench } from './bench';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_DOMAIN_ROUNDS ?? 3);
const EVENTS = Number(process.env.BENCH_DOMAIN_EVENTS ?? 40_000);

interface Run {
  wallUs: number;
  cpuUs: number;
  /** the fold: the heap its timelines hold, bytes a beacon (a page each) */
  heapB?: number;
}

const CASES = [
  { rung: 'store', limit: false },
  { rung: 'timelines', limit: false },
  { rung: 'store', limit: true },
  { rung: 'timelines', limit: true },
  { rung: 'fold', limit: false },
] as const;
type Case = (typeof CASES)[number];
const RUNG_LABELS = {
  store: 'ingest + store',
  timelines: 'ingest + store + timelines',
  fold: 'the timelines alone (stored events folded in)',
} as const;
const label = (c: Case) =>
  `${RUNG_LABELS[c.rung]}, ${c.limit ? 'at the limit (20,000)' : 'below the limit'}`;

async function run(c: Case): Promise<Run> {
  // at the limit: filled past it first, so every measured beacon drops the oldest event and page
  const [retention, warm] = c.limit ? [20_000, 25_000] : [100_000, 5_000];
  const child = spawn(
    process.execPath,
    [
      // the fold weighs the heap its timelines hold, after a full collection
      ...(c.rung === 'fold' ? ['--expose-gc'] : []),
      '--import',
      'tsx',
      path.join(HERE, 'domain-child.ts'),
      c.rung,
      String(retention),
      String(warm),
      String(EVENTS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`domain-child.ts ${c.rung} exited ${code}`);
  return JSON.parse(out) as Run;
}

export const bench: Bench = {
  name: 'domain',
  description: `${EVENTS.toLocaleString('en-US')} fresh render beacons through ingest, store and timelines in process, below and at the retention limit, and the fold alone with the heap it holds, ${ROUNDS} rounds (BENCH_DOMAIN_ROUNDS, BENCH_DOMAIN_EVENTS)`,
  async run(log) {
    const runs = new Map<Case, Run[]>(CASES.map((c) => [c, []]));
    for (let round = 1; round <= ROUNDS; round++)
      for (const c of CASES) {
        const r = await run(c);
        runs.get(c)!.push(r);
        log(
          `round ${round} ${label(c)}: ${fmt(r.wallUs)} µs wall, ${fmt(r.cpuUs)} µs CPU per beacon`,
        );
      }
    const of = (c: Case) => runs.get(c)!;
    const ratio = (a: Case, b: Case) => of(a).map((r, i) => r.wallUs / of(b)[i]!.wallUs);
    const [store, timelines, storeAtLimit, timelinesAtLimit, fold] = CASES;
    const limitRatio = ratio(timelinesAtLimit, timelines);
    return {
      table: {
        columns: [
          'run',
          'µs wall per beacon',
          'µs CPU per beacon',
          'heap held per beacon (a page each), bytes',
        ],
        rows: [
          ...CASES.map((c) => [
            label(c),
            spread(of(c).map((r) => r.wallUs)),
            spread(of(c).map((r) => r.cpuUs)),
            c === fold
              ? spread(
                  of(c).map((r) => r.heapB ?? NaN),
                  0,
                )
              : '',
          ]),
          [
            'the timelines’ share (with timelines − store alone), below / at the limit',
            `${spread(of(timelines).map((r, i) => r.wallUs - of(store)[i]!.wallUs))} / ${spread(of(timelinesAtLimit).map((r, i) => r.wallUs - of(storeAtLimit)[i]!.wallUs))}`,
            '',
            '',
          ],
          ['at the limit / below it (with timelines), each round', spread(limitRatio), '', ''],
        ],
      },
      targets: [],
      notes: [
        'µs per beacon: median (min–max) of the rounds; CPU includes the collector’s helper threads',
        'the HTTP requests and answers cost the rest of what the ingest benchmark measures',
      ],
    };
  },
};
