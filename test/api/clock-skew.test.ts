// A moved sandbox clock and `timestamp-skew`: one recording, one judgement. Each event records how far the
// sandbox clock was from real time when it arrived (`clockOffsetMs`), so a storefront whose clock is right
// is not flagged for the clock's move, and one whose clock is far off is, alike in the live sandbox (over
// HTTP), in `search-sandbox check` of its export (the built command) and in the sandbox restarted on the
// same data directory (its journal replayed). A bad recorded offset is refused, naming where, the field,
// the value and the rule; an export made before the field existed reads and judges as it always did;
// `diff` takes two runs with different clock moves for the same run.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecordedEvent } from '../../src/shared/events';
import type { TimelineListDto, TimelineReportDto } from '../../src/shared/timeline';
import { runDiff } from '../../src/main/baseline/cli';
import { clockMove } from '../../src/shared/clock-offset';
import { PageBuilder, T0 } from '../unit/timeline-events';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { captured, check, exportFile, tempFile } from '../helpers/check';
import { CLI, runCli } from './cli-process';

const HOUR = 3_600_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

/** A search page whose client clock reads real time plus `clientOffsetMs` (render, impression, click). */
function page(pageLoadId: string, clientOffsetMs: number): RecordedEvent[] {
  const p = new PageBuilder({ pageLoadId, sessionId: 'session-clock', userId: 'user-clock' });
  const at = (ms: number) => ({ at: Date.now() + clientOffsetMs - T0 + ms });
  return [
    p.render(`r-${pageLoadId}`, at(0)),
    p.impression(`r-${pageLoadId}`, ['a', 'b'], at(1000)),
    p.click(`r-${pageLoadId}`, 'a', at(1500)),
  ];
}

async function send(base: string, events: RecordedEvent[]): Promise<void> {
  for (const e of events) {
    const res = await postBeacon(base, `${e.siteId}/search/${e.event}`, e.body);
    expect(res.status, await res.clone().text()).toBe(200);
  }
}

async function json<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as T;
}

/** timestamp-skew findings by page: their ids and events, which must not differ between the three. */
function skew(pages: TimelineReportDto['pages']): Record<string, string[]> {
  return Object.fromEntries(
    pages
      .map((p) => [
        p.pageLoadId,
        p.findings
          .filter((f) => f.rule === 'timestamp-skew')
          .map((f) => `${f.id} ${[...f.eventIds].sort().join(',')}`),
      ])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

/** The live sandbox's view: its timelines as they stand, and its report (every page judged as finished). */
async function live(base: string) {
  const list = await json<TimelineListDto>(fetch(`${base}/_sandbox/timelines`));
  const report = await json<TimelineReportDto>(fetch(`${base}/_sandbox/report?format=json`));
  return { timelines: skew(list.pages), report: skew(report.pages) };
}

/** `search-sandbox check FILE --format json`, the built command: its timestamp-skew findings. */
async function checked(exported: string): Promise<Record<string, string[]>> {
  const { dir, cleanup } = tempDir('clock-skew-');
  cleanups.push(cleanup);
  writeFileSync(path.join(dir, 'export.json'), exported);
  const { code, stdout, stderr } = await runCli(['check', 'export.json', '--format', 'json'], dir);
  expect(code, stderr).toBeLessThan(2);
  return skew((JSON.parse(stdout) as TimelineReportDto).pages);
}

const MOVES: Array<[string, Record<string, unknown> | null, number]> = [
  ['at real time', null, 0],
  ['advanced PT61M', { advance: 'PT61M' }, 61 * 60_000],
  ['set a day back', { set: new Date(Date.now() - 24 * HOUR).toISOString() }, -24 * HOUR],
];

describe('timestamp-skew after the sandbox clock is moved: live, check of the export, after a restart', () => {
  it.each(MOVES)('the clock %s', async (_name, move, expectedOffset) => {
    const { dir, cleanup } = tempDir('clock-skew-data-');
    cleanups.push(cleanup);
    const first: Sandbox = await startSandbox({ dataDir: dir });
    let running: Sandbox | null = first;
    cleanups.push(() => running?.close());
    if (move) {
      const res = await fetch(`${first.url}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(move),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    // a storefront whose clock is right, and one whose clock is 2 hours behind real time
    await send(first.url, page('p-right', 0));
    await send(first.url, page('p-behind', -2 * HOUR));

    // each event says how far the clock was moved when it arrived (nothing at real time)
    const { events } = await json<{ events: RecordedEvent[] }>(
      fetch(`${first.url}/_sandbox/events`),
    );
    expect(events).toHaveLength(6);
    for (const e of events) {
      if (expectedOffset === 0) expect(e).not.toHaveProperty('clockOffsetMs');
      else expect(Math.abs(e.clockOffsetMs! - expectedOffset)).toBeLessThan(60_000);
    }

    const behind = (ids: RecordedEvent[]) => ids.map((e) => e.id);
    const expected = {
      'p-behind': [`timestamp-skew:far ${behind(events.slice(3)).sort().join(',')}`],
      'p-right': [],
    };
    const now = await live(first.url);
    expect(now).toEqual({ timelines: expected, report: expected });
    // where a receive time is shown, a moved clock is said beside it: the page's events, the HTML report
    const html = await (await fetch(`${first.url}/_sandbox/report?format=html`)).text();
    const { pages } = await json<TimelineListDto>(fetch(`${first.url}/_sandbox/timelines`));
    const shown = pages.flatMap((p) => p.responses.flatMap((r) => r.events));
    expect(shown).toHaveLength(6);
    if (expectedOffset === 0) {
      expect(shown.some((e) => 'clockOffsetMs' in e)).toBe(false);
      expect(html).not.toContain('clock moved');
    } else {
      expect(shown.map((e) => e.clockOffsetMs)).toEqual(events.map((e) => e.clockOffsetMs));
      expect(html).toContain(`(clock moved ${clockMove(expectedOffset)})`);
    }

    const exported = await (await fetch(`${first.url}/_sandbox/export`)).text();
    expect(await checked(exported)).toEqual(expected);

    // the same data directory, started again: the journal is replayed, and the clock is at real time
    running = null;
    await first.close();
    const second = (running = await startSandbox({ dataDir: dir }));
    expect(await live(second.url)).toEqual({ timelines: expected, report: expected });
    // and what it exports keeps the offsets
    const reExported = JSON.parse(await (await fetch(`${second.url}/_sandbox/export`)).text()) as {
      events: RecordedEvent[];
    };
    expect(reExported.events.map((e) => e.clockOffsetMs)).toEqual(
      events.map((e) => e.clockOffsetMs),
    );
  });

  it('an export made before offsets were recorded reads and judges by its receive times, as it did', async () => {
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT61M' }),
    });
    await send(sb.url, page('p-right', 0));
    const exported = JSON.parse(await (await fetch(`${sb.url}/_sandbox/export`)).text()) as {
      events: Array<Partial<RecordedEvent>>;
    };
    expect(exported.events.every((e) => typeof e.clockOffsetMs === 'number')).toBe(true);
    // as an older sandbox wrote it: no clockOffsetMs
    for (const e of exported.events) delete e.clockOffsetMs;
    const old = JSON.stringify(exported);
    const ids = exported.events.map((e) => e.id!).sort();
    // judged from receivedAt alone, as before: an hour from the client's timestamps
    expect(await checked(old)).toEqual({ 'p-right': [`timestamp-skew:far ${ids.join(',')}`] });
    // and imported into a sandbox, the same
    const imported = await fetch(`${sb.url}/_sandbox/import?replace=true`, {
      method: 'POST',
      body: old,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const { events } = await json<{ events: RecordedEvent[] }>(fetch(`${sb.url}/_sandbox/events`));
    expect(events.some((e) => 'clockOffsetMs' in e)).toBe(false);
    const judged = await live(sb.url);
    expect(Object.values(judged.timelines)).toEqual([[expect.any(String)]]);
    expect(judged.report).toEqual(judged.timelines);
  });
});

describe('a recorded clock offset that is not one', () => {
  const recorded = (clockOffsetMs: unknown) => ({
    ...page('p-bad', 0)[0]!,
    clockOffsetMs,
  });

  it.each([
    ['"1h"', '1h'],
    ['12.5', 12.5],
    ['null', null],
    ['1e+300', 1e300],
  ])(
    '%s is refused by check, naming the line, the field, the value and the rule',
    async (shown, value) => {
      const good = JSON.stringify(page('p-good', 0)[0]);
      const file = tempFile(
        cleanups,
        'rec.ndjson',
        `${good}\n${JSON.stringify(recorded(value))}\n`,
      );
      const r = await check(file);
      expect(r.code).toBe(2);
      expect(r.err).toContain(
        `${file}:2: field clockOffsetMs is ${shown}: it must be a whole number of milliseconds`,
      );
      expect(r.err).toContain(
        "the sandbox clock's time minus real time when the event was received",
      );
    },
  );

  it('is refused by an export read by check, and by an import, naming the element', async () => {
    const exportFile = tempFile(
      cleanups,
      'export.json',
      JSON.stringify({ format: 'search-sandbox-export', version: 1, events: [recorded('soon')] }),
    );
    const r = await check(exportFile);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${exportFile}: events[0]: field clockOffsetMs is "soon": it must be`);

    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const res = await fetch(`${sb.url}/_sandbox/import`, {
      method: 'POST',
      body: JSON.stringify([recorded(-0.5)]),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { problems: string[] };
    expect(body.problems[0]).toMatch(
      /^events\[0\]: field clockOffsetMs is -0\.5: it must be a whole number of milliseconds/,
    );
  });
});

describe('diff', () => {
  it('takes two runs with different clock moves for the same run', async () => {
    const run = async (move: Record<string, unknown> | null) => {
      const sb = await startSandbox();
      cleanups.push(() => sb.close());
      if (move)
        await fetch(`${sb.url}/_sandbox/clock`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(move),
        });
      await send(sb.url, page('p-right', 0));
      return await exportFile(cleanups, sb.url, 'run.json');
    };
    const a = await run(null);
    const b = await run({ advance: 'PT61M' });
    const { code, out, err } = await captured(runDiff, [a, b, '--format', 'json']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect((JSON.parse(out) as { same: boolean }).same).toBe(true);
  });
});
