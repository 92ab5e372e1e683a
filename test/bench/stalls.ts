// Where a stall of the event loop went: a timer asks every 2 ms how late it is, V8's sampling profiler runs
// beside it, and each stall over the threshold is summed from the samples taken while it lasted (the
// functions that ran, by their own time and by the time under them). For the responsiveness benchmark
// (`BENCH_RESP_STALLS=40`): the event-loop delay says how long the loop was held, this says by what.
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const TICK_MS = 2;

/** µs on the clock V8's profiler stamps its samples with (monotonic) */
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

export class StallWatch {
  private readonly session = new Session();
  private stalls: Array<{ from: number; to: number }> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly thresholdMs: number) {
    this.session.connect();
  }

  async start(): Promise<void> {
    this.stalls = [];
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 200 });
    await this.session.post('Profiler.start');
    let last = nowUs();
    this.timer = setInterval(() => {
      const now = nowUs();
      if (now - last > (this.thresholdMs + TICK_MS) * 1000)
        this.stalls.push({ from: last, to: now });
      last = now;
    }, TICK_MS);
  }

  /** One paragraph per stall: its length, then the functions that ran in it. */
  async stop(): Promise<string> {
    if (this.timer) clearInterval(this.timer);
    const { profile } = (await this.session.post('Profiler.stop')) as { profile: Profile };
    await this.session.post('Profiler.disable');
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const name = (n: ProfileNode) =>
      `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
    const out: string[] = [];
    for (const stall of this.stalls) {
      const self = new Map<string, number>();
      const under = new Map<string, number>();
      let t = profile.startTime;
      for (let i = 0; i < profile.samples.length; i++) {
        t += profile.timeDeltas[i]!;
        if (t < stall.from || t > stall.to) continue;
        const dt = profile.timeDeltas[i + 1] ?? 0;
        const leaf = byId.get(profile.samples[i]!)!;
        self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
        const seen = new Set<string>();
        for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
          const k = name(byId.get(id)!);
          if (!seen.has(k)) under.set(k, (under.get(k) ?? 0) + dt);
          seen.add(k);
        }
      }
      const top = (m: Map<string, number>, n: number) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, n)
          .map(([k, us]) => `${(us / 1000).toFixed(1)} ${k}`)
          .join(' | ');
      out.push(
        `stall ${((stall.to - stall.from) / 1000).toFixed(1)} ms\n  self: ${top(self, 8)}\n  under: ${top(under, 24)}`,
      );
    }
    return out.join('\n');
  }
}
