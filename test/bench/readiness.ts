// Readiness benchmark: 100,000 events (the timelines bench's 10,000 search pages, every one with findings,
// plus a product page, a cart, an order and a recommendations widget every tenth page) imported into a
// sandbox, then GET /_sandbox/readiness?siteId= timed to its last byte: the first answer (once a timelines
// list has judged what the import left unjudged), then ROUNDS answers, median. Baseline in the same run,
// on the same store: GET /_sandbox/timelines?siteId=&verdict=warn&view=summary&limit=50 (a list the page
// index answers). Target: the readiness answer under 50 ms.
import { performance } from 'node:perf_hooks';
import type { ReadinessDto } from '../../src/shared/readiness';
import { startSandbox } from '../helpers/sandbox';
import { pageEvents } from './timelines';
import { disturbedNote, fmt, median, spread, type Bench } from './bench';

const PAGES = Number(process.env.BENCH_READINESS_PAGES ?? 9_500);
const ROUNDS = Number(process.env.BENCH_READINESS_ROUNDS ?? 9);
const SITE = 'demo42';

/** NDJSON of recorded requests, as the journal holds them: search pages, and every tenth a visit's pages. */
function recording(start: number): { ndjson: string; events: number } {
  const lines: string[] = [];
  let seq = 0;
  const rec = (category: string, event: string, body: object, at: number) => {
    seq++;
    lines.push(
      JSON.stringify({
        id: `ev_${String(seq).padStart(9, '0')}`,
        seq,
        receivedAt: new Date(at + 40).toISOString(),
        siteId: SITE,
        category,
        event,
        path: `/beacon/v2/${SITE}/${category}/${event}`,
        accepted: true,
        status: 200,
        errors: [],
        body,
      }),
    );
  };
  for (let n = 0; n < PAGES; n++) {
    const at = start + n * 50;
    for (const e of pageEvents(n, at)) rec('search', e.event, e.body, at);
    if (n % 9 !== 0) continue;
    const ctx = (page: string, ms: number) => ({
      timestamp: new Date(at + ms).toISOString(),
      pageUrl: `https://shop.example/${page}/${n}`,
      userId: `u-${n % 3000}`,
      sessionId: `s-${n % 3000}`,
      pageLoadId: `${page}-${n}`,
      initiator: 'athos/beaconjs/1.3.0',
    });
    const item = { uid: String(n * 100 + 13), parentId: String(n * 100 + 13), qty: 1, price: 9.5 };
    rec('product', 'pageview', { context: ctx('p', 9_000), data: { result: item } }, at);
    const widget = { responseId: `w-${n}`, tag: 'similar' };
    rec('recommendations', 'render', { context: ctx('p', 9_100), data: widget }, at);
    rec(
      'recommendations',
      'impression',
      {
        context: ctx('p', 10_200),
        data: { ...widget, results: [{ type: 'product', uid: '1' }], banners: [] },
      },
      at,
    );
    rec(
      'cart',
      'add',
      { context: ctx('cart', 12_000), data: { results: [item], cart: [item] } },
      at,
    );
    rec(
      'order',
      'transaction',
      {
        context: ctx('thanks', 20_000),
        data: { orderId: `o-${n}`, transactionTotal: 9.5, total: 9.5, results: [item] },
      },
      at,
    );
  }
  return { ndjson: `${lines.join('\n')}\n`, events: seq };
}

/** Wall time to the last byte, and the CPU time of this process meanwhile (the sandbox runs in it). */
async function timed(url: string): Promise<{ ms: number; cpuMs: number; body: string }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(c0);
  const cpuMs = (used.user + used.system) / 1000;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
  return { ms, cpuMs, body };
}

export const bench: Bench = {
  name: 'readiness',
  description:
    'GET /_sandbox/readiness at 100,000 events (every page with findings), against an index-backed timelines list',
  async run(log) {
    const sb = await startSandbox();
    try {
      const { ndjson, events } = recording(Date.now() - 3_600_000);
      const imported = await fetch(`${sb.url}/_sandbox/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: ndjson,
      });
      if (imported.status !== 200) throw new Error(`import answered ${imported.status}`);
      log(`imported ${fmt(events)} events`);
      const readinessUrl = `${sb.url}/_sandbox/readiness?siteId=${SITE}`;
      const listUrl = `${sb.url}/_sandbox/timelines?siteId=${SITE}&verdict=warn&view=summary&limit=50`;
      // the first read after an import judges every page it left unjudged, whichever read it is: the
      // timelines list pays it here, then readiness reads each page's findings once (its memo is cold)
      const settled = await timed(listUrl);
      const first = await timed(readinessUrl);
      const answer = JSON.parse(first.body) as ReadinessDto;
      log(
        `first timelines list ${fmt(settled.ms)} ms (judges the import), first readiness ${fmt(first.ms)} ms: ${JSON.stringify(answer.summary)}`,
      );
      const reads: number[] = [];
      const cpu: number[] = [];
      const lists: number[] = [];
      // alternating, so both see the same machine
      for (let i = 0; i < ROUNDS; i++) {
        lists.push((await timed(listUrl)).ms);
        const read = await timed(readinessUrl);
        reads.push(read.ms);
        cpu.push(read.cpuMs);
      }
      const ratio = median(reads) / median(lists);
      const disturbed = disturbedNote('the timelines list', lists);
      return {
        table: {
          columns: ['answer', 'ms (median, min–max)'],
          rows: [
            ['timelines list, first after the import (judges every page)', fmt(settled.ms)],
            ['readiness, first (each page’s findings read once)', fmt(first.ms)],
            [`readiness (${ROUNDS} reads)`, spread(reads)],
            [`readiness, CPU ms of the process (${ROUNDS} reads)`, spread(cpu)],
            [`timelines verdict=warn limit=50 (${ROUNDS} reads)`, spread(lists)],
            ['readiness / timelines list (medians)', fmt(ratio)],
          ],
        },
        targets: [
          {
            name: 'readiness at 100,000 events (median)',
            measured: median(reads),
            op: '<',
            limit: 50,
            unit: ' ms',
          },
          {
            name: 'readiness at 100,000 events, CPU (median)',
            measured: median(cpu),
            op: '<',
            limit: 50,
            unit: ' ms',
          },
        ],
        notes: [
          `${fmt(events)} events on ${fmt(PAGES + Math.ceil(PAGES / 9) * 3)} pages; rows: ${answer.summary.ok} ok, ${answer.summary.findings} with findings, ${answer.summary.unseen} unseen`,
          ...(disturbed ? [disturbed] : []),
        ],
      };
    } finally {
      await sb.close();
    }
  },
};
