// A sandbox for the responsiveness benchmark, in its own process (journal in a temp data dir, default
// retention, demo fixtures), watching its own event loop. Commands on stdin, one per line, answered on
// stdout as `reply {json}`: `mark` starts a window (event-loop delay histogram and peak RSS reset),
// `read` ends it with { eldMaxMs, eldP99Ms, rssMb, peakRssGrowthMb }.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { DEMO_CONFIG_PATH, loadConfig } from '../../src/main/config';
import { createSandbox } from '../../src/main/sandbox';

const dir = mkdtempSync(path.join(tmpdir(), 'bench-responsiveness-'));
const config = loadConfig(
  { port: 0, host: '127.0.0.1', config: DEMO_CONFIG_PATH, data: path.join(dir, 'data') },
  {},
);
const sandbox = await createSandbox(config, { rendererDir: null });

// 10 ms resolution: the histogram's own timer must not be what it measures
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let rssAtMark = process.memoryUsage.rss();
let peakRss = rssAtMark;
// RSS is sampled off the measured work's path: a timer that only reads a number
setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20).unref();

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'mark') {
    delay.reset();
    rssAtMark = process.memoryUsage.rss();
    peakRss = rssAtMark;
    process.stdout.write('reply {}\n');
  } else if (line === 'read') {
    // after one more turn of the histogram's timer: a stall that just ended is recorded when it fires
    setTimeout(() => reply(), 15);
  }
});

function reply(): void {
  const out = {
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
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
