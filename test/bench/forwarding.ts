// Forwarding benchmark: does passing beacons on to a slow real service cost the storefront anything? The
// headless sandbox (child process, data dir) takes full-speed renders with forwarding off and on (to a fake
// beacon service on 127.0.0.1 that answers each request after 100 ms), alternately, and the two compared:
// the sandbox's CPU per request (and req/s, p99), and its RSS afterwards (the queue stays bounded, drops counted).
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnCli } from '../api/cli-process';
import { fmt, rssBytes, type Bench } from './bench';
import { cpuNs, load } from './ingest-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SITE = 'fwd001';
const QUEUE = 1000;
const SLOW_MS = 100;

/** A real service that takes SLOW_MS to answer each forwarded beacon. */
async function slowUpstream(): Promise<{
  url: string;
  received(): number;
  close(): Promise<void>;
}> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      setTimeout(() => res.end('{"success":true}'), SLOW_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** MiB, as this benchmark's target counts */
function rssMb(pid: number): number {
  return rssBytes(pid) / 1024 / 1024;
}

interface Run {
  rps: number;
  /** the sandbox's CPU time per request (all threads), µs: less moved by other load than wall time */
  cpuUs: number;
  p99: number;
  rssMb: number;
  forwarding: { queued: number; accepted: number; dropped: number } | null;
}

async function run(forward: string | null): Promise<Run> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-forwarding-'));
  const config = path.join(dir, 'search-sandbox.config.json');
  const tracking = forward ? { forward, forwardQueue: QUEUE } : {};
  writeFileSync(config, JSON.stringify({ accounts: [{ siteId: SITE, secretKey: 'k', tracking }] }));
  const cli = spawnCli(
    ['serve', '--port', '0', '--data', path.join(dir, 'data'), '--config', config],
    dir,
  );
  try {
    await cli.ready;
    const beaconPath = `/beacon/v2/${SITE}/search/render`;
    await load(cli.url, { amount: 2_000 }, beaconPath); // warm-up
    const cpu0 = cpuNs(cli.child.pid!);
    const result = await load(cli.url, { duration: SECONDS }, beaconPath);
    const cpu1 = cpuNs(cli.child.pid!);
    const health = (await (await fetch(`${cli.url}/_sandbox/health`)).json()) as {
      forwarding: Run['forwarding'] & { sites: unknown[] };
    };
    return {
      rps: result.requests.average,
      cpuUs: cpu0 === null || cpu1 === null ? NaN : (cpu1 - cpu0) / 1000 / result.requests.total,
      p99: result.latency.p99,
      rssMb: rssMb(cli.child.pid!),
      forwarding: health.forwarding.sites.length ? health.forwarding : null,
    };
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exit;
    rmSync(dir, { recursive: true, force: true });
  }
}

export const bench: Bench = {
  name: 'forwarding',
  description: `beacon ingest with forwarding to a real service answering in ${SLOW_MS} ms vs forwarding off`,
  async run(log) {
    const upstream = await slowUpstream();
    try {
      // off and on alternate, twice each, best of two: the machine's other load moves both alike
      const offs: Run[] = [];
      const ons: Run[] = [];
      for (let round = 1; round <= 2; round++) {
        log(`round ${round}: forwarding off …`);
        offs.push(await run(null));
        log(`round ${round}: forwarding on, to ${upstream.url} …`);
        ons.push(await run(`${upstream.url}/beacon/v2`));
      }
      const best = (runs: Run[]): Run => runs.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
      const off = best(offs);
      const on = best(ons);
      const f = on.forwarding!;
      log(
        `real service received ${upstream.received()} in both rounds; best round: ${f.accepted} answered, ${f.queued} waiting, ${f.dropped} not sent (queue full)`,
      );
      return {
        table: {
          columns: [
            'forwarding',
            'CPU µs/req',
            'req/s',
            'p99 ms',
            'RSS MB',
            'answered',
            'not sent',
          ],
          rows: [
            ['off', off.cpuUs, off.rps, off.p99, off.rssMb, '—', '—'],
            ['on (slow real service)', on.cpuUs, on.rps, on.p99, on.rssMb, f.accepted, f.dropped],
          ],
        },
        targets: [
          {
            name: 'sandbox CPU per request, forwarding on / off',
            measured: on.cpuUs / off.cpuUs,
            op: '<=',
            limit: 1.5,
          },
          { name: 'requests waiting at the end', measured: f.queued, op: '<=', limit: QUEUE },
          {
            name: 'RSS forwarding on − off',
            measured: on.rssMb - off.rssMb,
            op: '<=',
            limit: 64,
            unit: ' MB',
          },
        ],
        notes: [
          'req/s and p99 are shown, not targeted: on a shared machine they move with other load far more than with forwarding; CPU per request is the cost',
          `forwardQueue ${QUEUE}, 4 requests in flight: at ${fmt((1000 / SLOW_MS) * 4, 0)} answers/s the real service keeps up with far less than the load, so most requests are not sent and counted as such`,
        ],
      };
    } finally {
      await upstream.close();
    }
  },
};
