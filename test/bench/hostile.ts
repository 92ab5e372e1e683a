// Hostile-input benchmark: a sandbox in its own process gets 1,000 crafted requests in a loop (a 1 MB body
// of 340,000 bad items, a log body nested 6,000 levels, lone-surrogate ids, a body over the size limit,
// broken JSON, a path that climbs out of /beacon/v2) while a normal client sends good beacons and reads
// /_sandbox/health. Each hostile answer's time, the normal client's p99, and the sandbox's RSS after
// the first 100 hostile requests and after all of them (it must stay flat).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, rssBytes, startScriptServer, type Bench } from './bench';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOSTILE = Number(process.env.BENCH_HOSTILE_REQUESTS ?? 1_000);

const ctx = (pageLoadId: string) => ({
  timestamp: new Date().toISOString(),
  pageUrl: 'https://shop.example/search?q=x',
  userId: 'u-hostile',
  sessionId: 's-hostile',
  pageLoadId,
  initiator: 'bench-hostile',
});

interface Shot {
  name: string;
  path: string;
  body: string;
}

function shots(): Shot[] {
  let deep = '"x"';
  for (let i = 0; i < 6000; i++) deep = `[${deep}]`;
  return [
    {
      name: '340,000 bad items (1 MB)',
      path: '/beacon/v2/demo42/search/impression',
      body: `{"context":${JSON.stringify(ctx('amp'))},"data":{"responseId":"r","results":[${'{},'.repeat(340_000)}{}],"banners":[]}}`,
    },
    {
      name: 'log body nested 6,000 deep',
      path: '/beacon/v2/demo42/log/snap',
      body: `{"context":${JSON.stringify(ctx('deep'))},"data":{"message":"deep","details":{"v":${deep}}}}`,
    },
    {
      name: 'lone surrogate ids',
      path: '/beacon/v2/demo42/search/render',
      body: JSON.stringify({
        context: { ...ctx('\uD800lone'), userId: '\uDC00' },
        data: { responseId: '\uD83D' },
      }),
    },
    {
      name: 'body over the size limit (2 MB)',
      path: '/beacon/v2/demo42/search/render',
      body: `{"context":${JSON.stringify(ctx('big'))},"data":{"responseId":"${'x'.repeat(2_000_000)}"}}`,
    },
    {
      name: 'broken JSON',
      path: '/beacon/v2/demo42/search/render',
      body: '{"context": {"timestamp": [[[',
    },
    { name: 'path climbing out', path: '/beacon/v2/abc123/../../_sandbox/reset', body: '{}' },
  ];
}

/** MiB, as this benchmark's target counts */
function rssMb(pid: number): number {
  return rssBytes(pid) / 1024 / 1024;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

export const bench: Bench = {
  name: 'hostile',
  description: `${HOSTILE.toLocaleString('en-US')} hostile requests while a normal client sends beacons and reads health`,
  async run(log) {
    const server = await startScriptServer(path.join(HERE, 'responsiveness-server.ts'));
    const list = shots();
    const hostileMs = new Map<string, number[]>(list.map((s) => [s.name, []]));
    const normalMs: number[] = [];
    const statuses = new Map<string, Set<number>>(list.map((s) => [s.name, new Set()]));
    let running = true;
    let normalFailures = 0;
    const normal = (async () => {
      let n = 0;
      while (running) {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/beacon/v2/demo42/search/render`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({
            context: { ...ctx(`normal-${n++}`), dev: true },
            data: { responseId: `r${n}` },
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) normalFailures++;
        const health = await fetch(`${server.url}/_sandbox/health`);
        await health.arrayBuffer();
        if (health.status !== 200) normalFailures++;
        normalMs.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    let rssAfterWarmup = 0;
    try {
      for (let i = 0; i < HOSTILE; i++) {
        const shot = list[i % list.length]!;
        const t0 = performance.now();
        const res = await fetch(`${server.url}${shot.path}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: shot.body,
        });
        await res.arrayBuffer();
        hostileMs.get(shot.name)!.push(performance.now() - t0);
        statuses.get(shot.name)!.add(res.status);
        if (i === 99) rssAfterWarmup = rssMb(server.pid);
        if ((i + 1) % 200 === 0)
          log(`${i + 1} hostile requests, RSS ${Math.round(rssMb(server.pid))} MiB`);
      }
    } finally {
      running = false;
      await normal;
    }
    const rssEnd = rssMb(server.pid);
    await server.stop();
    const all = [...hostileMs.values()].flat();
    const worstMedian = Math.max(...[...hostileMs.values()].map((xs) => median(xs)));
    return {
      table: {
        columns: ['request', 'answered', 'ms: median', 'p99', 'max'],
        rows: [
          ...list.map((s) => {
            const xs = hostileMs.get(s.name)!;
            return [
              s.name,
              [...statuses.get(s.name)!].join(', '),
              fmt(median(xs)),
              fmt(pct(xs, 99)),
              fmt(Math.max(...xs)),
            ];
          }),
          [
            'normal client: beacon + health',
            normalFailures ? `${normalFailures} failed` : '200',
            fmt(median(normalMs)),
            fmt(pct(normalMs, 99)),
            fmt(Math.max(...normalMs)),
          ],
        ],
      },
      targets: [
        {
          name: 'hostile answer time, worst kind (median)',
          measured: worstMedian,
          op: '<',
          limit: 100,
          unit: ' ms',
        },
        {
          name: 'hostile answer time p99 (all kinds)',
          measured: pct(all, 99),
          op: '<',
          limit: 100,
          unit: ' ms',
        },
        {
          name: 'normal client p99 (beacon + health)',
          measured: pct(normalMs, 99),
          op: '<',
          limit: 50,
          unit: ' ms',
        },
        { name: 'normal client failures', measured: normalFailures, op: '<=', limit: 0 },
        {
          name: 'RSS growth after 100 → after all',
          measured: rssEnd - rssAfterWarmup,
          op: '<',
          limit: 64,
          unit: ' MiB',
        },
      ],
      notes: [
        `RSS ${fmt(rssAfterWarmup, 0)} MiB after 100 hostile requests, ${fmt(rssEnd, 0)} MiB after ${HOSTILE}; every accepted request is recorded (journal in a temp dir, default retention).`,
        'BENCH_HOSTILE_REQUESTS changes the count.',
      ],
    };
  },
};
