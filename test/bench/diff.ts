// diff benchmark: `search-sandbox diff BASE CURRENT` over two recordings of 100,000 events each (10,000
// search pages of 10, interleaved as real shoppers' pages are; CURRENT with new ids, timestamps and host,
// and two pages changed) against `search-sandbox check BASE` (one recording) measured in the same run,
// alternating. Each run is its own process; wall time and peak RSS as median (min–max).
import { timed } from './check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, spread, type Bench } from './bench';
import { writePages } from './timelines';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGES = Number(process.env.BENCH_DIFF_PAGES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_DIFF_ROUNDS ?? 3);

type Body = { context: Record<string, string>; data: Record<string, unknown> };

/** CURRENT's version of an event: every id of the run new, an hour later, another host. */
function rerun(body: Body): Body {
  const c = body.context;
  const context = {
    ...c,
    timestamp: new Date(Date.parse(c.timestamp!) + 3_600_000).toISOString(),
    pageUrl: c.pageUrl!.replace('https://shop.example', 'http://127.0.0.1:5173'),
    userId: `next-${c.userId}`,
    sessionId: `next-${c.sessionId}`,
    pageLoadId: `next-${c.pageLoadId}`,
  };
  const data = { ...body.data };
  if (typeof data.responseId === 'string') data.responseId = `next-${data.responseId}`;
  return { context, data };
}

/** Writes BASE, or CURRENT (`changed`): the events of page 500 lose one, page 7,000's click another tile. */
export function writeInput(file: string, changed: boolean): Promise<number> {
  return writePages(file, PAGES, (n, i, { event, body }) => {
    if (!changed) return { event, body };
    if (n === 500 && i === 3) return null;
    const next = rerun(body as Body);
    if (n === 7000 && event === 'clickthrough')
      next.data.results = [{ type: 'product', uid: 'other', parentId: 'other' }];
    return { event, body: next };
  });
}

/** Run the built CLI (through check-child.mjs) to its end: wall ms, exit code, peak RSS in MB. */
const cli = (args: string[]) => timed([path.join(HERE, 'check-child.mjs'), ...args]);

export const bench: Bench = {
  name: 'diff',
  description: `diff of two recordings of ${(PAGES * 10).toLocaleString('en-US')} events vs check of one of them`,
  async run(log) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-diff-'));
    try {
      const base = path.join(dir, 'base.ndjson');
      const current = path.join(dir, 'current.ndjson');
      const events = [await writeInput(base, false), await writeInput(current, true)];
      log(`wrote ${events.map((n) => n.toLocaleString('en-US')).join(' and ')} events`);
      const check: Array<{ ms: number; rssMb: number }> = [];
      const diff: Array<{ ms: number; rssMb: number }> = [];
      for (let round = 0; round < ROUNDS; round++) {
        const c = await cli(['check', base, '--format', 'json']);
        if (c.code > 1) throw new Error(`check exited ${c.code}`);
        check.push(c);
        const d = await cli(['diff', base, current, '--format', 'json']);
        // exactly the two changed pages differ; anything else would be a wrong comparison, not a slow one
        if (d.code !== 1) throw new Error(`diff exited ${d.code}, expected 1 (two pages differ)`);
        diff.push(d);
        log(
          `round ${round + 1}: check ${Math.round(c.ms)} ms, diff ${Math.round(d.ms)} ms, ${Math.round(d.rssMb)} MB`,
        );
      }
      const ratios = diff.map((d, i) => d.ms / check[i]!.ms);
      const rss = (xs: Array<{ rssMb: number }>) =>
        spread(
          xs.map((r) => r.rssMb),
          0,
        );
      return {
        table: {
          columns: ['run', 'wall s: median (min–max)', 'peak RSS MB: median (min–max)'],
          rows: [
            [
              'check BASE --format json (baseline)',
              spread(check.map((r) => r.ms / 1000)),
              rss(check),
            ],
            ['diff BASE CURRENT --format json', spread(diff.map((r) => r.ms / 1000)), rss(diff)],
            ['ratio diff / check', spread(ratios), ''],
          ],
        },
        targets: [
          {
            name: 'diff time / check (median)',
            measured: median(ratios),
            op: '<=',
            limit: 2,
            unit: '×',
          },
          {
            name: 'diff peak RSS (median)',
            measured: median(diff.map((r) => r.rssMb)),
            op: '<',
            limit: 400,
            unit: ' MB',
          },
        ],
        notes: [
          'BENCH_DIFF_PAGES (default 10,000 pages of 10 events a recording) and BENCH_DIFF_ROUNDS (default 3) change the size.',
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
