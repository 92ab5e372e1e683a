// A sandbox for the responsiveness benchmark, in its own process (journal in a temp data dir, default
// retention, demo fixtures), watching its own event loop. Commands on stdin, one per line, answered on
// stdout as `reply {json}`: `mark` starts a window (event-loop delay histogram and peak RSS reset),
// `read` ends it with { eldMaxMs, eldP99Ms, rssMb, peakRssGrowthMb }.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { DEMO_CONFIG_PATH, loadConfig } from '../../src/main/config';
import { capHeapGrowth, compactAfterReplay } from '../../src/main/heap';
import { createSandbox } from '../../src/main/sandbox';
import { StallWatch } from './stalls';

// as `serve` runs it: the heap's growth capped while it is big
capHeapGrowth();
// BENCH_DATA_DIR: the caller's data dir, kept at exit (the store benchmark starts a sandbox on it again)
const kept = process.env.BENCH_DATA_DIR;
const dir = kept ?? mkdtempSync(path.join(tmpdir(), 'bench-responsiveness-'));
const config = loadConfig(
  { port: 0, host: '127.0.0.1', config: DEMO_CONFIG_PATH, data: kept ?? path.join(dir, 'data') },
  // a benchmark that stores more than the default retention says so (the visits benchmark)
  process.env.SEARCH_SANDBOX_RETENTION
    ? { SEARCH_SANDBOX_RETENTION: process.env.SEARCH_SANDBOX_RETENTION }
    : {},
);
// the UI is served only when a benchmark loads it in Chromium (the store benchmark's first paint)
const sandbox = await createSandbox(config, {
  rendererDir: process.env.BENCH_RENDERER_DIR ?? null,
  // as `serve` starts it: the heap compacted after a big replay (a restart on BENCH_DATA_DIR)
  afterReplay: compactAfterReplay,
});

// 10 ms resolution: the histogram's own timer must not be what it measures
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let rssAtMark = process.memoryUsage.rss();
let peakRss = rssAtMark;
// RSS is sampled off the measured work's path: a timer that only reads a number
setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20).unref();

// Each beacon's time inside this process, from its request's arrival to its answer's last byte handed to
// the socket: beside the client's answer time, it tells the sandbox's delay from the machine's (a client
// starved of CPU by the others on a small machine measures its own wait too).
const arrived = new WeakMap<ServerResponse, number>();
let beaconMs: number[] = [];
diagnostics.subscribe('http.server.request.start', (message) => {
  const { response } = message as { response: ServerResponse };
  arrived.set(response, performance.now());
});
diagnostics.subscribe('http.server.response.finish', (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  const t0 = arrived.get(response);
  // express rewrites `url` while a mounted router runs; `originalUrl` is the request's own
  const url = (request as IncomingMessage & { originalUrl?: string }).originalUrl ?? request.url;
  if (t0 !== undefined && url?.startsWith('/beacon/')) beaconMs.push(performance.now() - t0);
});

// BENCH_RESP_STALLS=40: what ran during each stall of the loop over 40 ms, printed after each window
const stalls = process.env.BENCH_RESP_STALLS
  ? new StallWatch(Number(process.env.BENCH_RESP_STALLS))
  : null;

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'mark') {
    void stalls?.start();
    beaconMs = [];
    delay.reset();
    rssAtMark = process.memoryUsage.rss();
    peakRss = rssAtMark;
    process.stdout.write('reply {}\n');
  } else if (line === 'read') {
    // after one more turn of the histogram's timer: a stall that just ended is recorded when it fires
    setTimeout(() => {
      if (!stalls) return reply();
      void stalls.stop().then((found) => {
        if (found) process.stdout.write(`${found}\n`);
        reply();
      });
    }, 15);
  }
});

function reply(): void {
  const sorted = beaconMs.sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
      : NaN;
  const out = {
    serverP50Ms: pct(50),
    serverP99Ms: pct(99),
    serverMaxMs: sorted.at(-1) ?? NaN,
    eldMaxMs: delay.max / 1e6,
    eldP99Ms: delay.percentile(99) / 1e6,
    rssMb: process.memoryUsage.rss() / 1e6,
    peakRssGrowthMb: (Math.max(peakRss, process.memoryUsage.rss()) - rssAtMark) / 1e6,
  };
  process.stdout.write(`reply ${JSON.stringify(out)}\n`);
}

process.stdout.write(`listening on ${sandbox.url}\n`);
process.on('SIGTERM', () => {
  void sandbox.close().then(() => {
    if (!kept) rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
