// The load the ingest benchmarks send, and how they read a server's CPU: valid search/render beacons
// (a fresh page and responseId per request as real traffic has, or one constant body: every beacon on one
// page, which grows by one event per request), at full speed with autocannon or open-loop at a fixed rate.
import http from 'node:http';
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { spawnCli, type CliProcess } from '../api/cli-process';

export const PATH = '/beacon/v2/demo42/search/render';
export const CONNECTIONS = 10;

export interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function render(n: number, timestamp: string): string {
  return JSON.stringify({
    context: {
      IP: '89.76.6.25',
      userAgent:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36',
      timestamp,
      pageUrl: 'https://versawearco.myshopify.com/collections/shop?q=shirt&view=products',
      userId: '41f87850-65f5-4546-851c-f166109e57b9',
      sessionId: `1c311c14-c33b-4222-952a-${String(n % 1000).padStart(12, '0')}`,
      pageLoadId: `080d179f-0034-4278-8d3c-${String(n).padStart(12, '0')}`,
      shopperId: 'user123456',
      initiator: 'athos/snap/preact/1.7.0',
      currency: { code: 'USD' },
    },
    data: { responseId: `a907d0ad-720a-4666-b046-${String(n).padStart(12, '0')}` },
  });
}

let sequence = 0;
/** The OAS render example, with a fresh page and response per request as real traffic has. */
export function renderBody(): string {
  return render(sequence++, new Date().toISOString());
}

/** One body sent again and again: one page, one responseId (the page grows by an event per request). */
export const CONSTANT_BODY = render(999_999_999, '2026-11-20T10:00:00.000Z');

export type BodyMode = 'fresh' | 'constant';

/** Valid renders at full speed (or `overallRate`) to `path`; throws unless every answer was 2xx. */
export async function load(
  url: string,
  options: { duration?: number; amount?: number; overallRate?: number },
  beaconPath = PATH,
  mode: BodyMode = 'fresh',
): Promise<autocannon.Result> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...options,
    requests: [
      {
        method: 'POST',
        path: beaconPath,
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        ...(mode === 'constant'
          ? { body: CONSTANT_BODY }
          : { setupRequest: (req) => ({ ...req, body: renderBody() }) }),
      },
    ],
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `load on ${url} was not all 2xx: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

/** The built sandbox (`serve --data` in a temp dir) as a child process. */
export async function startSandbox(): Promise<Server> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const cli: CliProcess = spawnCli(['serve', '--port', '0', '--data', path.join(dir, 'data')], dir);
  await cli.ready;
  return {
    url: cli.url,
    pid: cli.child.pid!,
    async stop() {
      cli.child.kill('SIGTERM');
      await cli.exit;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Open-loop load at a fixed rate (requests leave on schedule whatever the answers do), with each
 * latency measured in µs from the moment the request was sent; autocannon only reports whole ms.
 */
export async function fixedRate(
  url: string,
  rate: number,
  seconds: number,
): Promise<{ p50: number; p99: number; max: number; achieved: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const total = rate * seconds;
  const latencies: number[] = [];
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    let sent = 0;
    let done = 0;
    const fire = () => {
      const t0 = performance.now();
      const req = http.request(
        `${url}${PATH}`,
        { method: 'POST', agent, headers: { 'content-type': 'text/plain;charset=UTF-8' } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (res.statusCode !== 200) reject(new Error(`fixed-rate load got ${res.statusCode}`));
            if (++done === total) resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(renderBody());
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      for (; sent < due; sent++) fire();
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return {
    p50: pct(50),
    p99: pct(99),
    max: sorted.at(-1)!,
    achieved: total / ((performance.now() - start) / 1000),
  };
}

/** CPU time of every thread of a process, ns (Linux); null elsewhere. */
export function cpuNs(pid: number): number | null {
  try {
    let total = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return total;
  } catch {
    return null;
  }
}
