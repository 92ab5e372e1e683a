// Timelines benchmark: ingest over HTTP of 100,000 search events across 10,000 pages (interleaved as real
// shoppers' pages are) into a sandbox with timelines on and one with them off, same run, alternating, each in
// its own process with its journal. The ratio compares the sandbox process's CPU time per event (wall-clock
// rates on a shared machine swing by ±30% between identical runs; CPU time does not), wall rates are shown
// too. Also the cost per event over the first vs the last 10% (it must stay flat as history grows).
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { openEventStore } from '../../src/main/store/open-events';
import { TrackingIngest, type TrackingRequest } from '../../src/main/tracking/ingest';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { fmt, startScriptServer, type Bench, type BenchResult } from './bench';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGES = Number(process.env.BENCH_TIMELINE_PAGES ?? 10_000);
const PER_PAGE = 10;
/** pages being browsed at the same time: their events interleave as real traffic does */
const CONCURRENT = 100;
const ROUNDS = Number(process.env.BENCH_TIMELINE_ROUNDS ?? 3);
const CONNECTIONS = 10;

const product = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: `SKU-${uid}` });

/** One page: a search scrolled, a quick add and a click, then a second search (SPA) with a click. */
export function pageEvents(n: number, start: number): Array<{ event: string; body: object }> {
  const ctx = (ms: number) => ({
    timestamp: new Date(start + ms).toISOString(),
    pageUrl: `https://shop.example/search?q=term${n % 500}`,
    userId: `u-${n % 3000}`,
    sessionId: `s-${n % 3000}`,
    pageLoadId: `p-${n}`,
    shopperId: '',
    initiator: 'athos/beaconjs/1.3.0',
  });
  const r1 = `r-${n}-1`;
  const r2 = `r-${n}-2`;
  const items = (from: number) =>
    [0, 1, 2, 3, 4, 5].map((i) => product(String(n * 100 + from + i)));
  const cart = { uid: String(n * 100 + 7), parentId: String(n * 100 + 7), qty: 1, price: 9.5 };
  return [
    { event: 'render', body: { context: ctx(0), data: { responseId: r1 } } },
    {
      event: 'impression',
      body: { context: ctx(10), data: { responseId: r1, results: items(0), banners: [] } },
    },
    {
      event: 'impression',
      body: { context: ctx(900), data: { responseId: r1, results: items(6), banners: [] } },
    },
    {
      event: 'impression',
      body: { context: ctx(1800), data: { responseId: r1, results: items(12), banners: [] } },
    },
    { event: 'addtocart', body: { context: ctx(2000), data: { responseId: r1, results: [cart] } } },
    {
      event: 'clickthrough',
      body: {
        context: ctx(2500),
        data: { responseId: r1, results: [product(String(n * 100 + 13))] },
      },
    },
    { event: 'render', body: { context: ctx(5000), data: { responseId: r2 } } },
    {
      event: 'impression',
      body: { context: ctx(5010), data: { responseId: r2, results: items(50), banners: [] } },
    },
    {
      event: 'impression',
      body: { context: ctx(6000), data: { responseId: r2, results: items(56), banners: [] } },
    },
    {
      event: 'clickthrough',
      body: {
        context: ctx(7000),
        data: { responseId: r2, results: [product(String(n * 100 + 52))] },
      },
    },
  ];
}

/** One event of a page as `pageEvents` makes it. */
export type PageEvent = { event: string; body: object };

/**
 * Writes `count` of `pageEvents`' pages (one every 50 ms) to `file` as recorded events (NDJSON, site
 * bench1), CONCURRENT pages at a time with their events interleaved as shoppers' pages are. `change` may
 * give page `n`'s `i`th event another body, or drop it (null). Returns how many events it wrote.
 */
export async function writePages(
  file: string,
  count: number,
  change: (n: number, i: number, e: PageEvent) => PageEvent | null = (_n, _i, e) => e,
): Promise<number> {
  const out = createWriteStream(file);
  const start = Date.parse('2026-11-20T10:00:00Z');
  let events = 0;
  for (let block = 0; block < count; block += CONCURRENT) {
    const pages = [];
    for (let n = block; n < Math.min(count, block + CONCURRENT); n++)
      pages.push(pageEvents(n, start + n * 50));
    let chunk = '';
    for (let i = 0; i < PER_PAGE; i++)
      pages.forEach((page, k) => {
        const e = change(block + k, i, page[i]!);
        if (!e) return;
        chunk += `${JSON.stringify({ siteId: 'bench1', category: 'search', event: e.event, body: e.body })}\n`;
        events++;
      });
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return events;
}

/** `count` pages from `firstPage`, CONCURRENT at a time, their events interleaved. */
function requests(start: number, firstPage = 0, count = PAGES): TrackingRequest[] {
  const out: TrackingRequest[] = [];
  for (let block = firstPage; block < firstPage + count; block += CONCURRENT) {
    const pages = [];
    for (let n = block; n < Math.min(firstPage + count, block + CONCURRENT); n++)
      pages.push(pageEvents(n, start));
    for (let i = 0; i < PER_PAGE; i++) {
      for (const page of pages) {
        const { event, body } = page[i]!;
        out.push({
          method: 'POST',
          path: `/beacon/v2/bench1/search/${event}`,
          contentType: 'text/plain',
          rawBody: Buffer.from(JSON.stringify(body)),
        });
      }
    }
  }
  return out;
}

interface Server {
  url: string;
  /** CPU time (user + system) the sandbox process has used so far, ms */
  cpuMs(): number;
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_S = 100; // Linux USER_HZ

function cpuMsOf(pid: number): number {
  // /proc/PID/stat: fields after the command name; utime and stime are the 12th and 13th of them
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

async function startServer(timelines: boolean): Promise<Server> {
  const server = await startScriptServer(
    path.join(HERE, 'timelines-server.ts'),
    timelines ? [] : ['--timelines-off'],
  );
  return { url: server.url, cpuMs: () => cpuMsOf(server.pid), stop: server.stop };
}

/** Send `reqs[from..to)` over CONNECTIONS keep-alive connections; events/s. */
async function send(
  url: string,
  reqs: TrackingRequest[],
  from: number,
  to: number,
): Promise<number> {
  let next = from;
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount: to - from,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        setupRequest: (req) => {
          const r = reqs[next++]!;
          return { ...req, path: r.path, body: r.rawBody!.toString('utf8') };
        },
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `load was not all 200: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return (to - from) / seconds;
}

interface RunResult {
  /** wall-clock events/s over the 100,000 */
  rate: number;
  /** sandbox CPU µs per event: all, first 10%, last 10% */
  cpuUs: number;
  firstCpuUs: number;
  lastCpuUs: number;
}

/** Warm up on other pages, then the events into a fresh sandbox: first 10%, middle 80%, last 10%. */
async function httpRun(
  reqs: TrackingRequest[],
  warmup: TrackingRequest[],
  timelines: boolean,
): Promise<RunResult> {
  const server = await startServer(timelines);
  try {
    await send(server.url, warmup, 0, warmup.length);
    const tenth = Math.floor(reqs.length / 10);
    const started = performance.now();
    const c0 = server.cpuMs();
    await send(server.url, reqs, 0, tenth);
    const c1 = server.cpuMs();
    await send(server.url, reqs, tenth, reqs.length - tenth);
    const c2 = server.cpuMs();
    await send(server.url, reqs, reqs.length - tenth, reqs.length);
    // let the last batched timeline report (every 100 ms) land inside the measurement
    await new Promise((resolve) => setTimeout(resolve, 150));
    const c3 = server.cpuMs();
    const rate = reqs.length / ((performance.now() - started) / 1000);
    const us = (ms: number, n: number) => (ms * 1000) / n;
    if (timelines) {
      const res = await fetch(`${server.url}/_sandbox/timelines?view=summary&limit=1`);
      const list = (await res.json()) as { total: number; verdicts: Record<string, number> };
      const total = (reqs.length + warmup.length) / PER_PAGE;
      // every page judged, none failing: each warns (its first impressions come 10 ms after its render,
      // impression-before-visible), as the check benchmark's pages of the same traffic do
      if (list.total !== total || (list.verdicts.fail ?? 0) !== 0)
        throw new Error(`expected ${total} pages, none failing, got ${JSON.stringify(list)}`);
    }
    return {
      rate,
      cpuUs: us(c3 - c0, reqs.length),
      firstCpuUs: us(c1 - c0, tenth),
      lastCpuUs: us(c3 - c2, tenth),
    };
  } finally {
    await server.stop();
  }
}

/** The engine alone, in process: cost per event over the first and the last 10% of the events. */
async function engineOnly(reqs: TrackingRequest[]): Promise<{ earlyNs: number; lateNs: number }> {
  const clock = new SandboxClock();
  const store = await openEventStore({ dataDir: null, retention: reqs.length });
  const ingest = new TrackingIngest(store, clock);
  for (const r of reqs) await ingest.handle(r);
  const events = store.all();
  // warm-up (JIT) on a throwaway engine
  const warm = new TimelineEngine({
    clock,
    settings: defaultTimelineSettings(),
    maxEvents: reqs.length,
    onChange: () => {},
  });
  for (const e of events.slice(0, 20_000)) warm.apply(e);
  warm.dispose();
  let best = { earlyNs: Infinity, lateNs: Infinity };
  for (let round = 0; round < 3; round++) {
    // rules run when a change is reported: here after every event, the most a live sandbox ever does
    const engine = new TimelineEngine({
      clock,
      settings: defaultTimelineSettings(),
      maxEvents: reqs.length,
      onChange: () => {},
    });
    const tenth = Math.floor(events.length / 10);
    const run = (from: number, to: number) => {
      for (let i = from; i < to; i++) engine.apply(events[i]!);
    };
    let t = performance.now();
    run(0, tenth);
    const earlyNs = ((performance.now() - t) * 1e6) / tenth;
    run(tenth, events.length - tenth);
    t = performance.now();
    run(events.length - tenth, events.length);
    const lateNs = ((performance.now() - t) * 1e6) / tenth;
    engine.dispose();
    if (earlyNs + lateNs < best.earlyNs + best.lateNs) best = { earlyNs, lateNs };
  }
  await store.close();
  clock.dispose();
  return best;
}

export const bench: Bench = {
  name: 'timelines',
  description: `HTTP ingest of ${fmt(PAGES * PER_PAGE)} search events across ${fmt(PAGES)} pages, timelines on vs off (same run)`,
  async run(log): Promise<BenchResult> {
    const reqs = requests(Date.now());
    // warm-up traffic on other pages (JIT, sockets), not measured
    const warmup = requests(Date.now(), PAGES, 1000);
    log(
      `${fmt(reqs.length)} requests built (${PER_PAGE} per page, ${CONCURRENT} pages at a time) + ${fmt(warmup.length)} warm-up`,
    );
    let off: RunResult | null = null;
    let on: RunResult | null = null;
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await httpRun(reqs, warmup, false);
      const b = await httpRun(reqs, warmup, true);
      // cost ratio → throughput ratio: events per CPU second with timelines on / off
      ratios.push(a.cpuUs / b.cpuUs);
      log(
        `round ${round}: off ${fmt(a.cpuUs)} µs CPU/event (${fmt(a.rate)} events/s), on ${fmt(b.cpuUs)} µs CPU/event (${fmt(b.rate)} events/s); ratio ${fmt(a.cpuUs / b.cpuUs)}`,
      );
      if (!off || a.cpuUs < off.cpuUs) off = a;
      if (!on || b.cpuUs < on.cpuUs) on = b;
    }
    ratios.sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const engine = await engineOnly(reqs);
    return {
      table: {
        columns: ['run (best of rounds)', 'CPU µs/event', 'first 10%', 'last 10%', 'wall events/s'],
        rows: [
          [
            'sandbox, timelines off',
            off!.cpuUs,
            off!.firstCpuUs,
            off!.lastCpuUs,
            Math.round(off!.rate),
          ],
          ['sandbox, timelines on', on!.cpuUs, on!.firstCpuUs, on!.lastCpuUs, Math.round(on!.rate)],
          ['engine alone (in process)', '', engine.earlyNs / 1000, engine.lateNs / 1000, ''],
        ],
      },
      targets: [
        {
          name: 'ingest events per CPU second, timelines on / off (median)',
          measured: median,
          op: '>=',
          limit: 0.9,
        },
        {
          name: 'sandbox CPU per event with timelines, last 10% / first 10%',
          measured: on!.lastCpuUs / on!.firstCpuUs,
          op: '<=',
          limit: 1.25,
        },
        {
          name: 'engine cost per event, last 10% / first 10%',
          measured: engine.lateNs / engine.earlyNs,
          op: '<=',
          limit: 1.5,
        },
      ],
      notes: [
        `per-round ratios on/off: ${ratios.map((r) => fmt(r)).join(', ')} (median ${fmt(median)}); best-of CPU ratio ${fmt(off!.cpuUs / on!.cpuUs)}`,
        `${ROUNDS} alternating rounds; each run a fresh sandbox process (journal in a temp dir) after ${fmt(1000 * PER_PAGE)} warm-up events; ${CONNECTIONS} keep-alive connections (autocannon); CPU from /proc/PID/stat`,
        `engine alone: µs per event when a change is reported after every event (the live sandbox batches reports every 100 ms)`,
        `timelines on ended with every page judged and none failing (checked through GET /_sandbox/timelines)`,
      ],
    };
  },
};
