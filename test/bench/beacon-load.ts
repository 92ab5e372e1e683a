// The responsiveness benchmark's background load, in a process of its own: beacons sent on schedule (open
// loop, `rate` per second) to a sandbox, each answer time measured from its send. Apart from the process
// that runs the heavy operation and reads its answer (a 53 MB export, 100,000 events), so that reading
// never delays this clock: what it measures is the sandbox's answer time, not the client's.
//
// Beside the beacons, a health check (`GET /_sandbox/health`) every HEALTH_EVERY_MS on a connection of its
// own, as a script waiting on the sandbox polls it: issue 45's target names both answers.
//
// Usage: node --import tsx beacon-load.ts <sandbox url> <rate>. Prints `ready`; then, on stdin, `start`
// begins sending and `stop` stops, waits for the answers still due, and prints
// `samples [{at, ms, failed, health?}]` (`at`: epoch ms of the send, comparable across processes; `health`:
// a health check's answer, not a beacon's); start/stop may repeat.
import http from 'node:http';
import { createInterface } from 'node:readline';

const [url, rateArg] = process.argv.slice(2);
const rate = Number(rateArg);
if (!url || !(rate > 0)) {
  process.stderr.write('usage: beacon-load.ts <sandbox url> <rate per second>\n');
  process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const HEALTH_EVERY_MS = 20;
const epoch = () => performance.timeOrigin + performance.now();
let samples: Array<{ at: number; ms: number; failed: boolean; health?: true }> = [];
let n = 0;
let pending = 0;
let drained: (() => void) | null = null;
let timer: NodeJS.Timeout | null = null;

function body(): string {
  const i = n++;
  return JSON.stringify({
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=shirt',
      userId: 'u-background',
      sessionId: `s-background-${i % 100}`,
      pageLoadId: `p-background-${process.pid}-${i}`,
      initiator: 'athos/snap/preact/1.7.0',
    },
    data: { responseId: `r-background-${process.pid}-${i}` },
  });
}

function fire(health = false): void {
  const t0 = performance.now();
  const at = epoch();
  pending++;
  const done = (failed: boolean) => {
    const ms = performance.now() - t0;
    samples.push(health ? { at, ms, failed, health } : { at, ms, failed });
    if (--pending === 0) drained?.();
  };
  const req = http.request(
    health ? `${url}/_sandbox/health` : `${url}/beacon/v2/demo42/search/render`,
    health
      ? { method: 'GET', agent: healthAgent }
      : { method: 'POST', agent, headers: { 'content-type': 'text/plain;charset=UTF-8' } },
    (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode !== 200));
    },
  );
  // a reset connection is what a test runner meets when the sandbox stalls: counted, not fatal
  req.on('error', () => done(true));
  req.end(health ? undefined : body());
}

function start(): void {
  const began = performance.now();
  let sent = 0;
  let checked = 0;
  samples = [];
  timer = setInterval(() => {
    const elapsed = performance.now() - began;
    const due = Math.floor((elapsed / 1000) * rate);
    for (; sent < due; sent++) fire();
    for (; checked < Math.floor(elapsed / HEALTH_EVERY_MS); checked++) fire(true);
  }, 2);
}

function stop(): void {
  clearInterval(timer!);
  timer = null;
  const report = () => {
    drained = null;
    process.stdout.write(`samples ${JSON.stringify(samples)}\n`);
  };
  if (pending) drained = report;
  else report();
}

createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line === 'start' && !timer) start();
    else if (line === 'stop' && timer) stop();
  })
  .on('close', () => {
    agent.destroy();
    healthAgent.destroy();
    process.exit(0);
  });
process.stdout.write('ready\n');
