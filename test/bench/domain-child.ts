// One run of the domain benchmark (domain.ts), in a process of its own: fresh search/render beacons handed to
// the sandbox's ingest (TrackingIngest) and event store (EventLog with its journal in a temp dir: one write
// per ten beacons), and with the `timelines` rung to its timelines engine as well, ten at a time (as the
// group commit takes them); no HTTP, no other process in the way, so a change of a few per cent shows.
// The `fold` rung stores every beacon first and then folds the stored events into a timelines engine, ten
// at a time, measuring only the engine: the fold's own cost, without the store's, which the difference of
// the other two rungs holds as well and which varies as much from run to run as the fold costs in all.
// Args: store|timelines|fold, the retention, events sent first (not measured), events measured. Prints one
// JSON line: wall and CPU µs per measured event (and for `fold` under `--expose-gc`, the heap the timelines
// hold, in bytes per event folded).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SandboxClock } from '../../src/main/clock';
import { loadConfig } from '../../src/main/config';
import { openEventStore } from '../../src/main/store/open-events';
import { TrackingIngest } from '../../src/main/tracking/ingest';
import { storeTimelines } from '../../src/main/store-timelines';
import { PATH, renderBody } from './ingest-load';
import type { RecordedEvent } from '../../src/shared/events';

const [rung, retention, warm, measured] = [
  process.argv[2],
  Number(process.argv[3]),
  Number(process.argv[4]),
  Number(process.argv[5]),
];
if (!['store', 'timelines', 'fold'].includes(rung!) || !(retention > 0) || !(measured > 0))
  throw new Error(
    'usage: domain-child.ts store|timelines|fold <retention> <warm-up events> <events>',
  );

const config = loadConfig({ ephemeral: true }, { SEARCH_SANDBOX_RETENTION: String(retention) });
const clock = new SandboxClock();
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-domain-'));
const events = await openEventStore({ dataDir, retention: config.retention.events });
if (rung === 'timelines') {
  const timelines = storeTimelines(config, clock, events);
  events.onDrop((event) => timelines.storeDropped(event));
  events.onAppend((event) => timelines.apply(event));
}
const ingest = new TrackingIngest(events, clock);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The bodies made before they are sent: making them is not the sandbox's work. */
const bodies = (n: number) => Array.from({ length: n }, () => Buffer.from(renderBody()));

async function send(all: Buffer[]): Promise<void> {
  for (let i = 0; i < all.length; i += 10) {
    const batch = [];
    for (const rawBody of all.slice(i, i + 10))
      batch.push(
        ingest.handle({
          method: 'POST',
          path: PATH,
          contentType: 'text/plain;charset=UTF-8',
          rawBody,
        }),
      );
    for (const result of await Promise.all(batch))
      if (result.status !== 200) throw new Error(`a beacon was answered ${result.status}`);
    await turn();
  }
}

/** The heap in use after a full collection, when the process runs with `--expose-gc` (else null). */
function heldHeap(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * The `fold` rung: every beacon stored first, then the stored events folded; only the fold is measured. With
 * `--expose-gc`, also the heap the timelines hold for them (each beacon its own page), in bytes a beacon.
 */
async function fold(): Promise<{ wallMs: number; cpuUs: number; heapB: number | null }> {
  const stored: RecordedEvent[] = [];
  events.onAppend((event) => stored.push(event));
  await send(bodies(warm + measured));
  const before = heldHeap();
  const timelines = storeTimelines(config, clock, events);
  let wallMs = 0;
  let cpuUs = 0;
  for (let i = 0; i < stored.length; i += 10) {
    const timedBatch = i >= warm;
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let j = i; j < i + 10 && j < stored.length; j++) timelines.apply(stored[j]!);
    if (timedBatch) {
      const used = process.cpuUsage(cpu);
      cpuUs += used.user + used.system;
      wallMs += performance.now() - started;
    }
    await turn();
  }
  const after = heldHeap();
  const heapB = before === null || after === null ? null : (after - before) / stored.length;
  timelines.dispose();
  return { wallMs, cpuUs, heapB };
}

let wallMs: number;
let cpuUs: number;
let heapB: number | null = null;
if (rung === 'fold') ({ wallMs, cpuUs, heapB } = await fold());
else {
  await send(bodies(warm));
  const timed = bodies(measured);
  const started = performance.now();
  const cpu = process.cpuUsage();
  await send(timed);
  const used = process.cpuUsage(cpu);
  wallMs = performance.now() - started;
  cpuUs = used.user + used.system;
}
process.stdout.write(
  `${JSON.stringify({
    wallUs: (wallMs * 1000) / measured,
    cpuUs: cpuUs / measured,
    stored: events.size(),
    ...(heapB !== null && { heapB }),
  })}\n`,
);
await events.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
