// Where each responseId was first seen (ResponseOrigins), as a sandbox with a big retention and `check` hold
// it: up to a million responseIds. Baseline in the same run: a plain Map of the same ids to a number, the
// least any index by responseId costs. Timed, per call: noting a responseId never seen (every new response
// does it), and finding the first origin of a recent one and of any one (the rules ask for each response
// they judge). Also the slowest single note while the store fills to its size and forgets its oldest past
// it, as the engine does: nothing may hold the event loop while the index grows.
import { performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { ResponseOrigins } from '../../src/main/tracking/timeline/response-origins';
import type { Bench } from './bench';
import { fmt, median, spread } from './bench';

const SIZES = (process.env.BENCH_ORIGINS_SIZES ?? '100000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ORIGINS_ROUNDS ?? 3);
/** calls timed per figure */
const CALLS = 100_000;

const PAGE = {
  siteId: 'demo42',
  pageLoadId: 'p-1',
  pageUrl: 'https://shop.example/s',
  sessionId: 's-1',
};
const uuid = (i: number) => `1993f5fa-676a-4048-a9be-${String(i).padStart(12, '0')}`;
const event = (responseId: string, i: number) => ({
  id: `e-${i}`,
  responseId,
  kind: 'search' as const,
  event: 'render',
  time: i,
  dev: false,
  pageUrl: PAGE.pageUrl,
  sessionId: PAGE.sessionId,
});

interface Figures {
  note: number;
  recent: number;
  any: number;
}

/** what the timed calls answered, kept so that no call is optimized away */
let sink = 0;

/** µs a call of `fn`, over `CALLS` ids picked by `pick` */
function perCall(fn: (i: number) => unknown, pick: (k: number) => number): number {
  const t = performance.now();
  for (let k = 0; k < CALLS; k++) if (fn(pick(k)) !== undefined) sink++;
  return ((performance.now() - t) * 1000) / CALLS;
}

function mapRound(ids: string[], size: number): Figures {
  const map = new Map<string, number>();
  for (let i = 0; i < size; i++) map.set(ids[i]!, i);
  return {
    note: perCall(
      (i) => map.set(ids[i]!, i),
      (k) => size + k,
    ),
    recent: perCall(
      (i) => map.get(ids[i]!),
      (k) => size + k,
    ),
    any: perCall(
      (i) => map.get(ids[i]!),
      (k) => (k * 7_919) % size,
    ),
  };
}

/** The notes that took over 1 ms, as [start, end]: the slowest of those no collection overlapped is the index's own. */
function slowestWithoutGc(slow: Array<[number, number]>, gcs: PerformanceEntry[]): number {
  let slowest = 0;
  for (const [start, end] of slow)
    if (!gcs.some((g) => g.startTime < end && g.startTime + g.duration > start))
      slowest = Math.max(slowest, end - start);
  return slowest;
}

function originsRound(ids: string[], size: number): Figures & { slow: Array<[number, number]> } {
  const o = new ResponseOrigins();
  const slow: Array<[number, number]> = [];
  // half as many again as it keeps: the oldest are forgotten as the engine forgets them, past its retention
  // and 1,024 more, back to its retention
  const filled = size + size / 2;
  for (let i = 0; i < filled; i++) {
    const t = performance.now();
    o.note(PAGE, event(ids[i]!, i));
    if (o.size > size + 1_024) o.forgetOldest(size);
    const end = performance.now();
    if (end - t > 1) slow.push([t, end]);
  }
  const oldestKept = filled - o.size;
  return {
    slow,
    note: perCall(
      (i) => o.note(PAGE, event(ids[i]!, i)),
      (k) => filled + k,
    ),
    recent: perCall(
      (i) => o.first(PAGE.siteId, ids[i]!),
      (k) => filled + k,
    ),
    any: perCall(
      (i) => o.first(PAGE.siteId, ids[i]!),
      (k) => oldestKept + ((k * 7_919) % (filled - oldestKept)),
    ),
  };
}

export const bench: Bench = {
  name: 'origins',
  description: `where each responseId was first seen, at ${SIZES.map((s) => s.toLocaleString('en-US')).join(' and ')} responseIds, against a Map of the same ids, ${ROUNDS} rounds (BENCH_ORIGINS_SIZES, BENCH_ORIGINS_ROUNDS)`,
  async run(log) {
    const rows: Array<Array<string | number>> = [];
    const targets = [];
    for (const size of SIZES) {
      const ids = Array.from({ length: size + size / 2 + CALLS }, (_, i) => uuid(i));
      const map: Figures[] = [];
      const origins: Array<Figures & { slowestMs: number }> = [];
      for (let r = 0; r < ROUNDS; r++) {
        map.push(mapRound(ids, size));
        const gcs: PerformanceEntry[] = [];
        const observer = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
        observer.observe({ entryTypes: ['gc'] });
        const { slow, ...figures } = originsRound(ids, size);
        // the collections' entries come on a later turn
        await new Promise((resolve) => setTimeout(resolve, 50));
        observer.disconnect();
        origins.push({ ...figures, slowestMs: slowestWithoutGc(slow, gcs) });
        const [m, o] = [map.at(-1)!, origins.at(-1)!];
        log(
          `${size.toLocaleString('en-US')} ids, round ${r + 1}: note ${fmt(o.note)} µs (Map ${fmt(m.note)}), first of a recent ${fmt(o.recent)} (${fmt(m.recent)}), of any ${fmt(o.any)} (${fmt(m.any)}), slowest note no collection fell in ${fmt(o.slowestMs)} ms`,
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
      log(`(${sink} answers)`);
      for (const key of ['note', 'recent', 'any'] as const) {
        const ratios = origins.map((o, r) => o[key] / map[r]![key]);
        rows.push([
          `${size.toLocaleString('en-US')} ids: ${key === 'note' ? 'note a new responseId' : key === 'recent' ? 'first origin of a recent one' : 'first origin of any one'}`,
          spread(origins.map((o) => o[key])),
          spread(map.map((m) => m[key])),
          spread(ratios),
        ]);
        if (key !== 'recent')
          targets.push({
            name: `${size.toLocaleString('en-US')} ids: ${key === 'note' ? 'note' : 'first of any'} / Map (median)`,
            measured: median(ratios),
            op: '<=' as const,
            limit: 10,
          });
      }
      const slowest = Math.max(...origins.map((o) => o.slowestMs));
      rows.push([
        `${size.toLocaleString('en-US')} ids: slowest note no collection fell in (ms)`,
        spread(origins.map((o) => o.slowestMs)),
        '',
        '',
      ]);
      targets.push({
        name: `${size.toLocaleString('en-US')} ids: slowest note while filling (ms)`,
        measured: slowest,
        op: '<=' as const,
        limit: 30,
      });
    }
    return {
      table: { columns: ['call', 'origins µs', 'Map µs', 'origins / Map'], rows },
      targets,
      notes: [
        'a note also writes the origin (its site, kind, event, time and page); the Map only maps the id to a number',
        'the slowest note: of the notes over 1 ms while the index filled and forgot its oldest, the slowest that no garbage collection pause overlapped (0: none); the steps of incremental marking V8 takes inside allocations are not told apart',
      ],
    };
  },
};
