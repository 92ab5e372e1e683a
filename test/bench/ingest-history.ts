// The ingest benchmark's history cost: CPU per event around the 1,000th, 100,000th and 200,000th recorded
// event (ingest must not slow down as history grows), and the slowest answer while the history grew.
import { fmt, median } from './bench';
import { cpuNs, load, startSandbox, type Server } from './ingest-load';

const WINDOW = 500;
export const WINDOWS = 5;

/** CPU µs and wall µs per event over one window of WINDOW events sent at full speed. */
async function window(server: Server): Promise<{ cpuUs: number | null; wallUs: number }> {
  const cpu0 = cpuNs(server.pid);
  const t0 = performance.now();
  await load(server.url, { amount: WINDOW });
  const wallUs = ((performance.now() - t0) * 1000) / WINDOW;
  const cpu1 = cpuNs(server.pid);
  return { cpuUs: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / 1000 / WINDOW, wallUs };
}

export async function historyCost(log: (line: string) => void): Promise<{
  at1k: number;
  at100k: number;
  at200k: number;
  windows: Record<'at1k' | 'at100k' | 'at200k', number[]>;
  metric: string;
  /** the slowest answer (autocannon's max, ms) of each load that filled the history */
  slowest: number[];
}> {
  const server = await startSandbox();
  const slowest: number[] = [];
  const fill = async (amount: number) =>
    slowest.push((await load(server.url, { amount })).latency.max);
  try {
    const measure = async (label: string) => {
      const windows = [];
      for (let i = 0; i < WINDOWS; i++) windows.push(await window(server));
      const cpu = windows.map((w) => w.cpuUs);
      const useCpu = cpu.every((c) => c !== null);
      const value = median(useCpu ? (cpu as number[]) : windows.map((w) => w.wallUs));
      log(
        `${label}: ${fmt(value)} µs ${useCpu ? 'CPU' : 'wall'} per event (windows: ${windows.map((w) => fmt(w.cpuUs ?? w.wallUs)).join(', ')})`,
      );
      const all = useCpu ? (cpu as number[]) : windows.map((w) => w.wallUs);
      return { value, all, metric: useCpu ? 'CPU µs/event' : 'wall µs/event' };
    };
    // Warm the JIT on 5,000 events, then forget them: "around the 1,000th" compares history, not warm-up.
    await load(server.url, { amount: 5_000 });
    const reset = await fetch(`${server.url}/_sandbox/reset`, { method: 'POST' });
    if (!reset.ok) throw new Error(`reset answered ${reset.status}`);
    const early = await measure('events 0–2,500');
    log('filling history to 98,750 events …');
    await fill(98_750 - 2_500);
    const late = await measure('events 98,750–101,250');
    // Past retention (100,000 by default) the oldest are dropped, and at ~201,000 journal lines the
    // background compaction starts: these windows straddle it.
    log('filling history to 200,000 events …');
    await fill(200_000 - 101_250);
    const full = await measure('events 200,000–202,500');
    return {
      at1k: early.value,
      at100k: late.value,
      at200k: full.value,
      windows: { at1k: early.all, at100k: late.all, at200k: full.all },
      metric: early.metric,
      slowest,
    };
  } finally {
    await server.stop();
  }
}
