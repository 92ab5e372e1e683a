// Timelines benchmark: in-process ingest (validation + in-memory event store, wired as createCore wires it)
// of 100,000 search events across 10,000 pages, with the timeline engine subscribed vs not, in the same run
// (alternating, best of each). Also the engine's own cost per event early vs late (it must stay flat).
import { performance } from 'node:perf_hooks';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { openEventStore } from '../../src/main/store/open-events';
import { TrackingIngest, type TrackingRequest } from '../../src/main/tracking/ingest';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { fmt, type Bench, type BenchResult } from './bench';

const PAGES = Number(process.env.BENCH_TIMELINE_PAGES ?? 10_000);
const PER_PAGE = 10;
/** pages being browsed at the same time: their events interleave as real traffic does */
const CONCURRENT = 100;
const ROUNDS = 3;

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
  return [
    { event: 'render', body: { context: ctx(0), data: { responseId: r1 } } },
    { event: 'impression', body: { context: ctx(10), data: { responseId: r1, results: items(0), banners: [] } } },
    { event: 'impression', body: { context: ctx(900), data: { responseId: r1, results: items(6), banners: [] } } },
    { event: 'impression', body: { context: ctx(1800), data: { responseId: r1, results: items(12), banners: [] } } },
    { event: 'addtocart', body: { context: ctx(2000), data: { responseId: r1, results: [{ uid: String(n * 100 + 7), parentId: String(n * 100 + 7), qty: 1, price: 9.5 }] } } },
    { event: 'clickthrough', body: { context: ctx(2500), data: { responseId: r1, results: [product(String(n * 100 + 13))] } } },
    { event: 'render', body: { context: ctx(5000), data: { responseId: r2 } } },
    { event: 'impression', body: { context: ctx(5010), data: { responseId: r2, results: items(50), banners: [] } } },
    { event: 'impression', body: { context: ctx(6000), data: { responseId: r2, results: items(56), banners: [] } } },
    { event: 'clickthrough', body: { context: ctx(7000), data: { responseId: r2, results: [product(String(n * 100 + 52))] } } },
  ];
}

function requests(start: number): TrackingRequest[] {
  const out: TrackingRequest[] = [];
  for (let block = 0; block < PAGES; block += CONCURRENT) {
    const pages = [];
    for (let n = block; n < Math.min(PAGES, block + CONCURRENT); n++) pages.push(pageEvents(n, start));
    for (let i = 0; i < PER_PAGE; i++) {
      for (const page of pages) {
        const { event, body } = page[i]!;
        out.push({ method: 'POST', path: `/beacon/v2/demo42/search/${event}`, contentType: 'text/plain', rawBody: Buffer.from(JSON.stringify(body)) });
      }
    }
  }
  return out;
}

interface RunResult {
  ms: number;
  /** ms for the first and the last 10% of the events */
  earlyMs: number;
  lateMs: number;
  pages: number;
  verdicts: Record<string, number>;
}

async function ingestRun(reqs: TrackingRequest[], withTimelines: boolean): Promise<RunResult> {
  const clock = new SandboxClock();
  const store = await openEventStore({ dataDir: null, retention: reqs.length });
  const ingest = new TrackingIngest(store, clock);
  let engine: TimelineEngine | null = null;
  if (withTimelines) {
    engine = new TimelineEngine({ clock, settings: defaultTimelineSettings(), maxPages: reqs.length, realNow: Date.now, onChange: () => {} });
    const e = engine;
    store.onAppend((event) => e.apply(event, { live: true }));
  }
  const tenth = Math.floor(reqs.length / 10);
  let earlyMs = 0;
  let lateMs = 0;
  const started = performance.now();
  for (let i = 0; i < reqs.length; i++) {
    const t = i === 0 || i === reqs.length - tenth ? performance.now() : 0;
    const res = await ingest.handle(reqs[i]!);
    if (res.status !== 200) throw new Error(`request ${i} answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (i === tenth - 1) earlyMs = performance.now() - started;
    if (t && i !== 0) lateMs = -t;
  }
  const ms = performance.now() - started;
  lateMs += performance.now();
  const verdicts: Record<string, number> = { pass: 0, warn: 0, fail: 0 };
  let pages = 0;
  if (engine) {
    for (const p of engine.pagesDto()) verdicts[p.verdict]!++;
    pages = engine.size();
    engine.dispose();
  }
  await store.close();
  clock.dispose();
  return { ms, earlyMs, lateMs, pages, verdicts };
}

/** The engine alone: cost per event over the first and last 10% (flat = history does not slow it down). */
async function engineOnly(reqs: TrackingRequest[]): Promise<{ earlyNs: number; lateNs: number }> {
  const clock = new SandboxClock();
  const store = await openEventStore({ dataDir: null, retention: reqs.length });
  const ingest = new TrackingIngest(store, clock);
  for (const r of reqs) await ingest.handle(r);
  const events = store.all();
  const engine = new TimelineEngine({ clock, settings: defaultTimelineSettings(), maxPages: reqs.length, onChange: () => {} });
  const tenth = Math.floor(events.length / 10);
  let t = performance.now();
  for (let i = 0; i < tenth; i++) engine.apply(events[i]!, { live: true });
  const earlyNs = ((performance.now() - t) * 1e6) / tenth;
  for (let i = tenth; i < events.length - tenth; i++) engine.apply(events[i]!, { live: true });
  t = performance.now();
  for (let i = events.length - tenth; i < events.length; i++) engine.apply(events[i]!, { live: true });
  const lateNs = ((performance.now() - t) * 1e6) / tenth;
  engine.dispose();
  await store.close();
  clock.dispose();
  return { earlyNs, lateNs };
}

export const bench: Bench = {
  name: 'timelines',
  description: `ingest of ${fmt(PAGES * PER_PAGE)} search events across ${fmt(PAGES)} pages, timelines on vs off (in process, same run)`,
  async run(log): Promise<BenchResult> {
    const reqs = requests(Date.now());
    log(`${fmt(reqs.length)} requests built; warming up`);
    await ingestRun(reqs.slice(0, 20_000), true);
    await ingestRun(reqs.slice(0, 20_000), false);
    let off: RunResult | null = null;
    let on: RunResult | null = null;
    for (let round = 1; round <= ROUNDS; round++) {
      const a = await ingestRun(reqs, false);
      const b = await ingestRun(reqs, true);
      log(`round ${round}: off ${fmt(a.ms)} ms, on ${fmt(b.ms)} ms`);
      if (!off || a.ms < off.ms) off = a;
      if (!on || b.ms < on.ms) on = b;
    }
    const engine = await engineOnly(reqs);
    const rate = (r: RunResult) => (reqs.length / r.ms) * 1000;
    const ratio = rate(on!) / rate(off!);
    const flat = engine.lateNs / engine.earlyNs;
    const ingestFlat = on!.lateMs / on!.earlyMs;
    return {
      table: {
        columns: ['run', 'events/s', 'µs/event', 'first 10% ms', 'last 10% ms'],
        rows: [
          ['timelines off', Math.round(rate(off!)), (off!.ms * 1000) / reqs.length, off!.earlyMs, off!.lateMs],
          ['timelines on', Math.round(rate(on!)), (on!.ms * 1000) / reqs.length, on!.earlyMs, on!.lateMs],
          ['engine alone (ns/event)', '', '', engine.earlyNs, engine.lateNs],
        ],
      },
      targets: [
        { name: 'ingest rate, timelines on / off', measured: ratio, op: '>=', limit: 0.9 },
        { name: 'engine cost per event, last 10% / first 10%', measured: flat, op: '<=', limit: 1.5 },
        { name: 'ingest with timelines, last 10% / first 10%', measured: ingestFlat, op: '<=', limit: 1.5 },
      ],
      notes: [
        `timelines on: ${on!.pages} pages, verdicts ${JSON.stringify(on!.verdicts)} (every generated page is a clean session)`,
        `best of ${ROUNDS} alternating rounds each; ingest = validation + in-memory event store, as createCore wires it (no HTTP)`,
      ],
    };
  },
};
