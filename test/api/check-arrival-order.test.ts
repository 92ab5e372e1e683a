// Recorded events written as NDJSON are judged, and compared, in the order the sandbox received them (their
// seq), not their lines' order: a file sorted by hand or merged says the same as the export it came from.
// Bare beacon bodies carry no arrival and keep the file's order.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { check, tempFile, withoutUnjudged } from '../helpers/check';
import { journey, run } from '../helpers/journey';
import { CLI } from './cli-process';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const file = (name: string, text: string) => tempFile(cleanups, name, text);

/** A run of the journey as recorded events: each line with the seq and receivedAt the sandbox gave it. */
function recorded(): string[] {
  return run(journey())
    .trim()
    .split('\n')
    .map((line, i) => {
      const e = JSON.parse(line) as { body: { context: { timestamp: string } } };
      return JSON.stringify({ seq: i + 1, receivedAt: e.body.context.timestamp, ...e });
    });
}

/** Lines `a` and `b` (from 0) swapped. */
function swapped(lines: readonly string[], a: number, b: number): string[] {
  const out = [...lines];
  [out[a], out[b]] = [out[b]!, out[a]!];
  return out;
}

const ndjson = (lines: readonly string[]) => `${lines.join('\n')}\n`;

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe('recorded events in arrival order', () => {
  it('check judges recorded events by their seq, whatever the order of their lines; bare bodies by their lines', async () => {
    const lines = recorded();
    // the search page's render (line 1) written after its impression (line 2), their seq unchanged
    const asRecorded = await check(file('run.ndjson', ndjson(lines)), '--format', 'json');
    const moved = await check(
      file('moved.ndjson', ndjson(swapped(lines, 0, 1))),
      '--format',
      'json',
    );
    expect(asRecorded.code).toBe(0);
    expect(moved.code).toBe(0);
    expect(withoutUnjudged(moved.err)).toBe('');
    const rules = (out: string) =>
      (JSON.parse(out) as { pages: Array<{ findings: Array<{ rule: string }> }> }).pages.flatMap(
        (p) => p.findings.map((f) => f.rule),
      );
    expect(rules(moved.out)).toEqual(rules(asRecorded.out));
    // the impression sent 0.2 s before its render (and received so): found so, in either order of the lines
    const render = JSON.parse(lines[0]!) as { receivedAt: string };
    const at = new Date(Date.parse(render.receivedAt) - 200).toISOString();
    const impression = JSON.parse(lines[1]!) as { body: { context: { timestamp: string } } };
    impression.body.context.timestamp = at;
    const early = [
      JSON.stringify({ ...impression, seq: 1, receivedAt: at }),
      JSON.stringify({ ...render, seq: 2 }),
      ...lines.slice(2),
    ];
    for (const order of [early, swapped(early, 0, 1)]) {
      const r = await check(file('early.ndjson', ndjson(order)), '--format', 'json');
      expect(r.code).toBe(1);
      expect(rules(r.out)).toContain('order');
    }
    // bare bodies say nothing of their arrival: their lines' order is theirs, as sent
    const bodies = (ls: string[]) =>
      ndjson(ls.map((l) => JSON.stringify((JSON.parse(l) as { body: unknown }).body)));
    const bare = await check(file('bare.ndjson', bodies(early)), '--format', 'json');
    expect(rules(bare.out)).toContain('order');
    const bareSwapped = await check(
      file('bare.ndjson', bodies(swapped(early, 0, 1))),
      '--format',
      'json',
    );
    expect(rules(bareSwapped.out)).not.toContain('order');
  });

  it('diff compares recorded events by their seq: lines written in another order are the same run', () => {
    const lines = recorded();
    const base = file('base.events.ndjson', ndjson(lines));
    const current = file('current.events.ndjson', ndjson(swapped(lines, 0, 1)));
    const r = cli('diff', base, current);
    expect(r.err).toBe('');
    expect(r.out).not.toContain('moved');
    expect(r.code).toBe(0);
  });
});
