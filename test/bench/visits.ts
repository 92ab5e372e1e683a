// Visits benchmark: 10,000 visits (two search pages, three product pages, the cart and a thank-you page
// with its order each: ~270,000 events, 10,000 orders) imported into a sandbox in its own process, then
// GET /_sandbox/orders and /_sandbox/visits timed to their last byte, five times each, while a client
// asks /_sandbox/health every 5 ms. Baseline in the same run: the same health client with nothing else
// asked, and /_sandbox/timelines?verdict=fail&limit=50 over the same store.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pageEvents } from './timelines';
import { disturbedNote, fmt, median, spread, startScriptServer, type Bench } from './bench';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const VISITS = Number(process.env.BENCH_VISITS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_VISITS_ROUNDS ?? 5);
const SITE = 'demo42';

/** One visit's recorded events (NDJSON lines of recorded requests, as the journal holds them). */
function visitLines(v: number, start: number, seq: { n: number }): string[] {
  const lines: string[] = [];
  const session = `vs-${v}`;
  const user = `vu-${v}`;
  const rec = (category: string, event: string, body: object, at: number) => {
    const n = ++seq.n;
    lines.push(
      JSON.stringify({
        id: `ev_${String(n).padStart(9, '0')}`,
        seq: n,
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
  const ctx = (pageLoadId: string, url: string, at: number) => ({
    timestamp: new Date(at).toISOString(),
    pageUrl: url,
    userId: user,
    sessionId: session,
    pageLoadId,
    initiator: 'athos/beaconjs/1.3.0',
  });
  let t = start;
  for (const k of [0, 1]) {
    for (const e of pageEvents(v * 2 + k, t)) {
      const body = e.body as { context: Record<string, unknown> };
      body.context.userId = user;
      body.context.sessionId = session;
      rec('search', e.event, body, Date.parse(body.context.timestamp as string));
    }
    t += 10_000;
  }
  const bought = String(v * 2 * 100 + 13); // the first page's clicked tile
  for (const p of [0, 1, 2]) {
    const uid = p === 0 ? bought : `${v}-other-${p}`;
    rec(
      'product',
      'pageview',
      {
        context: ctx(`vp-${v}-${p}`, `https://shop.example/p/${uid}`, t),
        data: { result: { uid, parentId: uid } },
      },
      t,
    );
    t += 5_000;
  }
  const line = { uid: bought, parentId: bought, qty: 1, price: 30 };
  rec(
    'cart',
    'add',
    {
      context: ctx(`vc-${v}`, 'https://shop.example/cart', t),
      data: { results: [line], cart: [line] },
    },
    t,
  );
  t += 5_000;
  const thanks = ctx(`vt-${v}`, 'https://shop.example/thanks', t);
  rec('cart', 'remove', { context: thanks, data: { results: [line], cart: [] } }, t);
  rec(
    'order',
    'transaction',
    {
      context: { ...thanks, timestamp: new Date(t + 50).toISOString() },
      data: { orderId: `O-${v}`, transactionTotal: 30, total: 33, results: [line] },
    },
    t + 50,
  );
  return lines;
}

/**
 * Ask /_sandbox/health every 5 ms until stopped, from a worker thread: its own event loop, so the
 * benchmark reading a 5 MB answer meanwhile does not delay (and spoil) the health client's figures.
 */
function healthClient(url: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const times = [];
     let running = true;
     parentPort.on('message', () => { running = false; });
     (async () => {
       while (running) {
         const t0 = performance.now();
         await (await fetch(workerData + '/_sandbox/health')).arrayBuffer();
         times.push(performance.now() - t0);
         await new Promise((r) => setTimeout(r, 5));
       }
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: url },
  );
  const done = new Promise<number[]>((resolve) => worker.once('message', resolve));
  return {
    async stop() {
      worker.postMessage('stop');
      const times = await done;
      await worker.terminate();
      return times;
    },
  };
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? NaN;

async function timed(url: string): Promise<{ ms: number; bytes: number; count: number }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return { ms, bytes: text.length, count: (JSON.parse(text) as unknown[]).length };
}

export const bench: Bench = {
  name: 'visits',
  description: `GET /_sandbox/orders and /visits over ${VISITS.toLocaleString('en-US')} visits, health answered meanwhile`,
  async run(log) {
    process.env.SEARCH_SANDBOX_RETENTION = String(VISITS * 40);
    const server = await startScriptServer(path.join(HERE, 'responsiveness-server.ts'));
    try {
      const seq = { n: 0 };
      const start = Date.now() - VISITS * 1000 - 3_600_000;
      const lines: string[] = [];
      for (let v = 0; v < VISITS; v++) lines.push(...visitLines(v, start + v * 1000, seq));
      log(`importing ${lines.length.toLocaleString('en-US')} events …`);
      const t0 = performance.now();
      const imported = await fetch(`${server.url}/_sandbox/import`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson' },
        body: lines.join('\n'),
      });
      if (!imported.ok)
        throw new Error(`import answered ${imported.status}: ${await imported.text()}`);
      log(`imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // let the timelines catch up with the import before anything is timed
      await timed(`${server.url}/_sandbox/timelines?verdict=fail&limit=50`);
      // the first answers build each visit's and order's JSON (kept until it changes): timed apart
      const coldOrders = await timed(`${server.url}/_sandbox/orders`);
      const coldVisits = await timed(`${server.url}/_sandbox/visits`);
      log(`first answers: orders ${fmt(coldOrders.ms)} ms, visits ${fmt(coldVisits.ms)} ms`);

      const idle = healthClient(server.url);
      await new Promise((r) => setTimeout(r, 1000));
      const idleHealth = await idle.stop();

      const rounds: Record<string, number[]> = { orders: [], visits: [], failList: [] };
      const busyHealth: number[] = [];
      let orders = 0;
      let visits = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const health = healthClient(server.url);
        const o = await timed(`${server.url}/_sandbox/orders`);
        const v = await timed(`${server.url}/_sandbox/visits`);
        busyHealth.push(...(await health.stop()));
        const f = await timed(`${server.url}/_sandbox/timelines?verdict=fail&limit=50`);
        rounds.orders!.push(o.ms);
        rounds.visits!.push(v.ms);
        rounds.failList!.push(f.ms);
        orders = o.count;
        visits = v.count;
        log(
          `round ${r + 1}: orders ${fmt(o.ms)} ms (${o.count}), visits ${fmt(v.ms)} ms (${v.count})`,
        );
      }
      const notes = [
        `${lines.length.toLocaleString('en-US')} events, ${visits.toLocaleString('en-US')} visits, ${orders.toLocaleString('en-US')} orders; each list is the whole store (no filter), timed to its last byte`,
        'health: GET /_sandbox/health every 5 ms by a second client while the lists are asked (its p99 and max), against the same client with nothing else asked',
      ];
      const disturbed = disturbedNote('the failing-pages list', rounds.failList!);
      if (disturbed) notes.push(disturbed);
      return {
        table: {
          columns: ['request', 'ms: median (min–max)'],
          rows: [
            ['GET /_sandbox/orders, first after the import', fmt(coldOrders.ms)],
            ['GET /_sandbox/visits, first after the import', fmt(coldVisits.ms)],
            ['GET /_sandbox/orders', spread(rounds.orders!)],
            ['GET /_sandbox/visits', spread(rounds.visits!)],
            ['GET /_sandbox/timelines?verdict=fail&limit=50 (baseline)', spread(rounds.failList!)],
            [
              'health p99 / max, idle (baseline)',
              `${fmt(p99(idleHealth))} / ${fmt(Math.max(...idleHealth))}`,
            ],
            [
              'health p99 / max, while lists are built',
              `${fmt(p99(busyHealth))} / ${fmt(Math.max(...busyHealth))}`,
            ],
          ],
        },
        targets: [
          {
            name: 'orders answered (median)',
            measured: median(rounds.orders!),
            op: '<',
            limit: 200,
            unit: ' ms',
          },
          {
            name: 'visits answered (median)',
            measured: median(rounds.visits!),
            op: '<',
            limit: 200,
            unit: ' ms',
          },
          {
            name: 'health p99 while they are built',
            measured: p99(busyHealth),
            op: '<',
            limit: 50,
            unit: ' ms',
          },
          { name: 'every order listed', measured: orders, op: '>=', limit: VISITS },
        ],
        notes,
      };
    } finally {
      await server.stop();
    }
  },
};
