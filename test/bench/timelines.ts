// Timelines benchmark: ingest over HTTP of 100,000 search events across 10,000 pages (interleaved as real
// shoppers' pages are) into a sandbox with timelines on and one with them off, same run, alternating, each in
// its own process with its journal. Also the engine's own cost per event, first vs last 10% (must be flat).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { openEventStore } from '../../src/main/store/open-events';
import { TrackingIngest, type TrackingRequest } from '../../src/main/tracking/ingest';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { fmt, type Bench, type BenchResult } from './bench';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PAGES = Number(process.env.BENCH_TIMELINE_PAGES ?? 10_000);
const PER_PAGE = 10;
/** pages being browsed at the same time: their events interleave as real traffic does */
const CONCURRENT = 100;
const ROUNDS = Number(process.env.BENCH_TIMELINE_ROUNDS ?? 3);
const CONNECTIONS = 10;

const product = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: `SKU-${uid}` });

/** One page: a search scrolled, a quick add and a click, then a second search (SPA) with a click. */
function pageEvents(n: number, start: number): Array<{ event: string; body: object }> {
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
  const items = (from: number) => [0, 1, 2, 3, 4, 5].map((i) => product(String(n * 100 + from + i)));
  const cart = { uid: String(n * 100 + 7), parentId: String(n * 100 + 7), qty: 1, price: 9.5 };
  return [
    { event: 'render', body: { context: ctx(0), data: { responseId: r1 } } },
    { event: 'impression', body: { context: ctx(10), data: { responseId: r1, results: items(0), banners: [] } } },
    { event: 'impression', body: { context: ctx(900), data: { responseId: r1, results: items(6), banners: [] } } },
    { event: 'impression', body: { context: ctx(1800), data: { responseId: r1, results: items(12), banners: [] } } },
    { event: 'addtocart', body: { context: ctx(2000), data: { responseId: r1, results: [cart] } } },
    { event: 'clickthrough', body: { context: ctx(2500), data: { responseId: r1, results: [product(String(n * 100 + 13))] } } },
    { event: 'render', body: { context: ctx(5000), data: { responseId: r2 } } },
    { event: 'impression', body: { context: ctx(5010), data: { responseId: r2, results: items(50), banners: [] } } },
    { event: 'impression', body: { context: ctx(6000), data: { responseId: r2, results: items(56), banners: [] } } },
    { event: 'clickthrough', body: { context: ctx(7000), data: { responseId: r2, results: [product(String(n * 100 + 52))] } } },
  ];
}

/** `count` pages from `firstPage`, CONCURRENT at a time, their events interleaved. */
function requests(start: number, firstPage = 0, count = PAGES): TrackingRequest[] {
  const out: TrackingRequest[] = [];
  for (let block = firstPage; block < firstPage + count; block += CONCURRENT) {
    const pages = [];
    for (let n = block; n < Math.min(firstPage + count, block + CONCURRENT); n++) pages.push(pageEvents(n, start));
    for (let i = 0; i < PER_PAGE; i++) {
      for (const page of pages) {
        const { event, body } = page[i]!;
        out.push({ method: 'POST', path: `/beacon/v2/demo42/search/${event}`, contentType: 'text/plain', rawBody: Buffer.from(JSON.stringify(body)) });
      }
    }
  }
  return out;
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

async function startServer(timelines: boolean): Promise<Server> {
  const args = ['--import', 'tsx', path.join(HERE, 'timelines-server.ts'), ...(timelines ? [] : ['--timelines-off'])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`benchmark sandbox exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { url, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

/** Send `reqs[from..to)` over CONNECTIONS keep-alive connections; events/s. */
async function send(url: string, reqs: TrackingRequest[], from: number, to: number): Promise<number> {
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
    throw new Error(`load was not all 200: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return (to - from) / seconds;
}

interface RunResult {
  rate: number;
  firstRate: number;
  lastRate: number;
}

/** Warm up on other pages, then the events into a fresh sandbox: first 10%, middle 80%, last 10%. */
async function httpRun(reqs: TrackingRequest[], warmup: TrackingRequest[], timelines: boolean): Promise<RunResult> {
  const server = await startServer(timelines);
  try {
    await send(server.url, warmup, 0, warmup.length);
    const tenth = Math.floor(reqs.length / 10);
    const started = performance.now();
    const firstRate = await send(server.url, reqs, 0, tenth);
    await send(server.url, reqs, tenth, reqs.length - tenth);
    const lastRate = await send(server.url, reqs, reqs.length - tenth, reqs.length);
    const rate = reqs.length / ((performance.now() - started) / 1000);
    if (timelines) {
      const res = await fetch(`${server.url}/_sandbox/timelines?view=summary&limit=1`);
      const list = (await res.json()) as { total: number; verdicts: Record<string, number> };
      const total = (reqs.length + warmup.length) / PER_PAGE;
      if (list.total !== total || list.verdicts.pass !== total) throw new Error(`expected ${total} passing pages, got ${JSON.stringify(list)}`);
    }
    return { rate, firstRate, lastRate };
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
  let best = { earlyNs: Infinity, lateNs: Infinity };
  for (let round = 0; round < 3; round++) {
    // rules run when a change is reported: here after every event, the most a live sandbox ever does
    const engine = new TimelineEngine({ clock, settings: defaultTimelineSettings(), maxPages: reqs.length, onChange: () => {} });
    const tenth = Math.floor(events.length / 10);
    const run = (from: number, to: number) => {
      for (let i = from; i < to; i++) engine.apply(events[i]!, { live: true });
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
    log(`${fmt(reqs.length)} requests built (${PER_PAGE} per page, ${CONCURRENT} pages at a time) + ${fmt(warmup.length)} warm-up`);
    let off: RunResult | null = null;
    let on: RunResult | null = null;
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await httpRun(reqs, warmup, false);
      const b = await httpRun(reqs, warmup, true);
      ratios.push(b.rate / a.rate);
      log(`round ${round}: off ${fmt(a.rate)} events/s, on ${fmt(b.rate)} events/s (ratio ${fmt(b.rate / a.rate)})`);
      if (!off || a.rate > off.rate) off = a;
      if (!on || b.rate > on.rate) on = b;
    }
    ratios.sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const engine = await engineOnly(reqs);
    return {
      table: {
        columns: ['run', 'events/s', 'first 10% events/s', 'last 10% events/s'],
        rows: [
          ['timelines off', Math.round(off!.rate), Math.round(off!.firstRate), Math.round(off!.lastRate)],
          ['timelines on', Math.round(on!.rate), Math.round(on!.firstRate), Math.round(on!.lastRate)],
          ['engine alone, ns/event (in process)', '', Math.round(engine.earlyNs), Math.round(engine.lateNs)],
        ],
      },
      targets: [
        { name: 'HTTP ingest rate, timelines on / off (best of each)', measured: on!.rate / off!.rate, op: '>=', limit: 0.9 },
        { name: 'HTTP ingest with timelines, last 10% / first 10% rate', measured: on!.lastRate / on!.firstRate, op: '>=', limit: 0.8 },
        { name: 'engine cost per event, last 10% / first 10%', measured: engine.lateNs / engine.earlyNs, op: '<=', limit: 1.5 },
      ],
      notes: [
        `per-round ratios on/off: ${ratios.map((r) => fmt(r)).join(', ')} (median ${fmt(median)}); their spread is the machine's noise`,
        `best of ${ROUNDS} alternating rounds; each run a fresh sandbox process with its journal in a temp dir; ${CONNECTIONS} keep-alive connections (autocannon)`,
        `timelines on ended with every page passing (checked through GET /_sandbox/timelines)`,
      ],
    };
  },
};
