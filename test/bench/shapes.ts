// Shapes benchmark: `search-sandbox check` over the same events in three shapes, each its own process,
// alternating: the check benchmark's (pages of 3,000 shoppers' sessions), every page in one session (a
// crawler or a load test with one session id), and every event on one page (a storefront that keeps one
// pageLoadId for everything: a bug `pageload-shared` names, and a long SPA visit in smaller measure), and
// every page a session of its own of one userId (a load test that renews the session), and every event of
// one response on one page (a storefront that sends one responseId for everything). The work per event
// should not grow with a visit's or a page's length, nor with a userId's sessions: each shape's time over
// the first one's is the figure (docs/benchmarks.md has it before and after they stopped growing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, spread, type Bench } from './bench';
import { timed } from './check';
import { writePages } from './timelines';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGES = Number(process.env.BENCH_SHAPES_PAGES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_SHAPES_ROUNDS ?? 3);

const SHAPES = {
  spread: 'pages of 3,000 sessions',
  session: 'every page in one session',
  page: 'every event on one page',
  user: 'every page a session of one userId',
  response: 'every event of one response on one page',
} as const;
type Shape = keyof typeof SHAPES;

/** The check benchmark's pages (interleaved as shoppers' are), their ids folded into the shape. */
function writeInput(file: string, shape: Shape): Promise<number> {
  return writePages(file, PAGES, (_n, _i, e) => {
    const context = (e.body as { context: Record<string, string> }).context;
    if (shape === 'session' || shape === 'page')
      Object.assign(context, { sessionId: 's-one', userId: 'u-one' });
    if (shape === 'page') context.pageLoadId = 'p-one';
    if (shape === 'response') {
      Object.assign(context, { sessionId: 's-one', userId: 'u-one', pageLoadId: 'p-one' });
      const data = (e.body as { data?: { responseId?: string } }).data;
      if (data?.responseId) data.responseId = 'r-one';
    }
    if (shape === 'user')
      Object.assign(context, { sessionId: `s-${context.pageLoadId}`, userId: 'u-one' });
    return e;
  });
}

export const bench: Bench = {
  name: 'shapes',
  description: `check over ${(PAGES * 10).toLocaleString('en-US')} events spread over sessions, in one session, on one page`,
  async run(log) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-shapes-'));
    try {
      const shapes = Object.keys(SHAPES) as Shape[];
      const files = {} as Record<Shape, string>;
      for (const shape of shapes) {
        files[shape] = path.join(dir, `${shape}.ndjson`);
        const events = await writeInput(files[shape], shape);
        log(`wrote ${events.toLocaleString('en-US')} events: ${SHAPES[shape]}`);
      }
      const runs = Object.fromEntries(shapes.map((s) => [s, [] as number[]])) as Record<
        Shape,
        number[]
      >;
      for (let round = 0; round < ROUNDS; round++) {
        for (const shape of shapes) {
          // --format text: the timelines and the rules, whose work is what a shape could make grow
          const run = await timed([path.join(HERE, 'check-child.mjs'), 'check', files[shape]]);
          if (run.code === 2) throw new Error(`check could not read the ${shape} input`);
          runs[shape].push(run.cpuMs);
        }
        log(
          `round ${round + 1}: ${shapes.map((s) => `${s} ${Math.round(runs[s].at(-1)!)} ms CPU`).join(', ')}`,
        );
      }
      const over = (shape: Shape) => runs[shape].map((ms, i) => ms / runs.spread[i]!);
      return {
        table: {
          columns: ['input', 'CPU s: median (min–max)', 'over the spread input, round by round'],
          rows: shapes.map((shape) => [
            SHAPES[shape],
            spread(runs[shape].map((ms) => ms / 1000)),
            shape === 'spread' ? '' : spread(over(shape)),
          ]),
        },
        targets: (['session', 'page', 'user', 'response'] as const).map((shape) => ({
          name: `${SHAPES[shape]} / spread (median)`,
          measured: median(over(shape)),
          op: '<=' as const,
          limit: 1.5,
          unit: '×',
        })),
        notes: [
          'BENCH_SHAPES_PAGES (default 20,000 pages of 10 events) and BENCH_SHAPES_ROUNDS (default 3) change the size.',
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
