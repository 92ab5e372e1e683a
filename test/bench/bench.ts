// What a benchmark module provides to the runner (test/bench/run.ts), and how results are printed:
// one table per benchmark, then every target with its measured value and a pass/miss verdict.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Target {
  /** e.g. "ingest ratio sandbox / bare express" */
  name: string;
  measured: number;
  /** how the measured value must compare to `limit` */
  op: '>=' | '<=' | '<';
  limit: number;
  unit?: string;
}

export interface BenchResult {
  /** column headers, then rows; cells are printed as given */
  table: { columns: string[]; rows: Array<Array<string | number>> };
  targets: Target[];
  /** free-form lines printed under the table (how it was measured, caveats) */
  notes?: string[];
}

export interface Bench {
  /** short name, used to pick benchmarks: `npm run bench -- ingest` */
  name: string;
  description: string;
  run(log: (line: string) => void): Promise<BenchResult>;
}

export function met(t: Target): boolean {
  if (t.op === '>=') return t.measured >= t.limit;
  if (t.op === '<=') return t.measured <= t.limit;
  return t.measured < t.limit;
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits);
}

/** A plain-text table with right-aligned numbers. */
export function renderTable(columns: string[], rows: Array<Array<string | number>>): string {
  const cells = [columns, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: Array<string | number>) =>
    r
      .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!)))
      .join('  ');
  return [
    line(cells[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
  ].join('\n');
}

export function renderTargets(targets: Target[]): string {
  return renderTable(
    ['target', 'measured', 'required', 'verdict'],
    targets.map((t) => [
      t.name,
      `${fmt(t.measured)}${t.unit ?? ''}`,
      `${t.op} ${fmt(t.limit)}${t.unit ?? ''}`,
      met(t) ? 'met' : 'MISSED',
    ]),
  );
}

/** A server a benchmark runs in a child process, to measure it apart from the load generator. */
export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Run a TypeScript server script (`node --import tsx script …args`) and resolve once it prints
 * `listening on <url>` on stdout; `stop()` ends it with SIGTERM and waits for the exit.
 */
export async function startScriptServer(script: string, args: string[] = []): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before it listened`)),
    );
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { url, pid: child.pid!, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

/** A process's resident memory now, in bytes (VmRSS of /proc/PID/status). */
export function rssBytes(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

/** The most RSS the process has had since it started (Linux: VmHWM, its high-water mark). */
export function peakRssBytes(pid: number): number {
  return statusBytes(pid, 'VmHWM');
}

function statusBytes(pid: number, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

/** The middle value (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** "median (min–max)" of one figure over repeats. */
export function spread(xs: readonly number[], digits = 2): string {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 1) return fmt(s[0]!, digits);
  return `${fmt(median(s), digits)} (${fmt(s[0]!, digits)}–${fmt(s.at(-1)!, digits)})`;
}

/**
 * When a baseline measured in the same run varies this much between repeats (slowest / fastest), the
 * machine was busy with something else: its figures, and ratios against it, say more about the neighbours.
 */
export const DISTURBED_SPREAD = 1.25;

/** A note saying the baseline was disturbed, or null when its repeats agree. */
export function disturbedNote(baseline: string, xs: readonly number[]): string | null {
  const s = [...xs].sort((a, b) => a - b);
  const ratio = s.at(-1)! / s[0]!;
  return s.length > 1 && ratio > DISTURBED_SPREAD
    ? `BASELINE DISTURBED: ${baseline} varied ${ratio.toFixed(2)}× between repeats (${s.map((x) => fmt(x)).join(', ')}); the machine was busy, read the ratios with care`
    : null;
}

/** The operations whose name holds one of the comma-separated words of `only` (all when unset); the first `always` stay. */
export function chosen<T extends { name: string }>(
  ops: T[],
  only: string | undefined,
  always = 0,
): T[] {
  const words = only?.split(',').filter(Boolean);
  return words?.length
    ? ops.filter((o, i) => i < always || words.some((w) => o.name.includes(w)))
    : ops;
}
