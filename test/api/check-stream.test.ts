// `check` as a stream: pages judged and written as they settle (a million events fit), the JSON and JUnit
// reports byte for byte those of the whole-report functions, input from a FIFO or standard input.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { check, CHECK_NOW, tempFile, withoutUnjudged } from '../helpers/check';
import { runCheck } from '../../src/main/check/cli';
import { parseInput } from '../../src/main/recordings/inputs';
import { checkOffline } from '../../src/main/tracking/timeline/offline-check';
import { jsonReport, junitReport, textReport } from '../../src/main/tracking/timeline/report';
import { unjudgedWithoutIssued } from '../../src/main/tracking/timeline/unjudged';
import type { TimelineReportDto } from '../../src/shared/timeline';
import { tempDir } from '../helpers/sandbox';
import { CLI } from './cli-process';

const ROOT = path.resolve(__dirname, '../..');
const NOW = CHECK_NOW;
/** what `check` says of its rules that could not judge these recordings of beacons alone */
const UNJUDGED = [unjudgedWithoutIssued(() => false)];
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const temp = (name: string, text: string) => tempFile(cleanups, name, text);

/** Every recorded session fixture in one NDJSON file: passing, warning and failing pages, 3 sites' worth. */
function sessions(): string {
  const dir = path.join(ROOT, 'fixtures', 'sessions');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), 'utf8').trimEnd())
    .join('\n');
}

/**
 * `pages` search pages of bare bodies, one after another (`stepMs` apart); every 7th has no render
 * (missing-render).
 */
function manyPages(pages: number, from = 0, stepMs = 1000): string {
  const lines: string[] = [];
  const start = Date.parse('2026-11-21T04:00:00Z');
  for (let n = from; n < from + pages; n++) {
    const context = (ms: number) => ({
      timestamp: new Date(start + n * stepMs + ms).toISOString(),
      pageUrl: `http://localhost:3000/search?q=q${n}`,
      userId: `u${n % 50}`,
      sessionId: `s${n % 50}`,
      pageLoadId: `p-${n}`,
      dev: true,
      initiator: 'athos/beaconjs/1.3.0',
    });
    const responseId = `r-${n}`;
    if (n % 7 !== 0) lines.push(JSON.stringify({ context: context(0), data: { responseId } }));
    lines.push(
      JSON.stringify({
        // a tile impressed once visible for a second
        context: context(1_100),
        data: {
          responseId,
          results: [{ type: 'product', uid: `${n}`, parentId: `${n}` }],
          banners: [],
        },
      }),
    );
  }
  return lines.join('\n');
}

describe('check streams its input and its report', () => {
  it('writes JSON, JUnit and text with the same bytes as the whole-report functions', async () => {
    const text = sessions();
    const file = temp('sessions.ndjson', text);
    const pages = checkOffline(parseInput(text, file).events, [], NOW);
    expect(new Set(pages.map((p) => p.verdict))).toEqual(new Set(['pass', 'warn', 'fail']));

    const json = await check(file, '--format', 'json');
    expect(json.out).toBe(`${JSON.stringify(jsonReport(pages, file, NOW, UNJUDGED), null, 2)}\n`);
    const junit = await check(file, '--format', 'junit');
    expect(junit.out).toBe(junitReport(pages, file, NOW));
    const plain = await check(file);
    expect(plain.out).toBe(textReport(pages));
    expect([json.code, junit.code, plain.code]).toEqual([1, 1, 1]);

    // no event: no report at all (an empty one would pass a recording whose tracking never fired)
    const har = temp('nothing.har', '{"log":{"entries":[]}}');
    for (const format of ['json', 'junit', 'text']) {
      const none = await check(har, '--format', format);
      expect([none.code, none.out], format).toEqual([2, '']);
      expect(none.err).toMatch(
        /nothing\.har has no beacon v2 event \(of any kind: .*\): nothing to check/,
      );
    }
  });

  it('hands the spooled pages over as bytes when the output takes bytes: the same report, byte for byte', async () => {
    // multi-byte text in every page and a JSON report of more than one read-back piece (256 KiB each): a
    // piece may end inside a character, which bytes pass as they are
    const text = manyPages(600).replaceAll('search?q=', 'search?q=größe-😀-');
    const file = temp('wide.ndjson', text);
    const pages = checkOffline(parseInput(text, file).events, [], NOW);
    const wholes = [
      ['json', `${JSON.stringify(jsonReport(pages, file, NOW, UNJUDGED), null, 2)}\n`],
      ['junit', junitReport(pages, file, NOW)],
    ] as const;
    // an output done with the bytes when it returns gets the same buffer read into again; one that keeps
    // them (returns nothing) gets a new buffer for each piece
    for (const [[format, whole], done] of wholes.flatMap((w) => [
      [w, false] as const,
      [w, true] as const,
    ])) {
      const written: Buffer[] = [];
      const buffers = new Set<ArrayBufferLike>();
      let asBytes = 0;
      let pieces = 0;
      const code = await runCheck([file, '--format', format], {
        out: (t) => written.push(Buffer.from(t, 'utf8')),
        outBytes: (b) => {
          asBytes += b.length;
          pieces++;
          buffers.add(b.buffer);
          written.push(Buffer.from(b));
          return done || undefined;
        },
        err: () => {},
        now: () => NOW,
      });
      expect(code).toBe(1);
      const all = Buffer.concat(written);
      if (format === 'json') expect(all.length).toBeGreaterThan(3 * 256 * 1024);
      expect(asBytes).toBeGreaterThan(all.length * 0.9);
      if (format === 'json') expect(pieces).toBeGreaterThan(1);
      expect(buffers.size).toBe(done ? 1 : pieces);
      expect(all.equals(Buffer.from(whole, 'utf8'))).toBe(true);
    }
  });

  it('stops writing when the reader goes away (check … | head), still judges the input for its exit code', async () => {
    const file = temp('many.ndjson', manyPages(3_000));
    for (const format of ['text', 'json', 'junit']) {
      const child = spawn(process.execPath, [CLI, 'check', file, '--format', format], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      const done = new Promise<number>((resolve) =>
        child.on('close', (code) => resolve(code ?? -1)),
      );
      // the first piece read, the pipe closed: the report (over a MB) is far from written
      await new Promise((resolve) => child.stdout.once('data', resolve));
      child.stdout.destroy();
      // every 7th page has no render: missing-render is an error, as the whole report would say
      expect(await done).toBe(1);
      expect(withoutUnjudged(err)).not.toMatch(/EPIPE|Error|at /);
    }
  });

  it('spools a page bigger than its write buffer (128 KiB) between small ones, in order', async () => {
    const start = Date.parse('2026-11-21T04:00:00Z');
    const big = Array.from({ length: 700 }, (_, i) =>
      JSON.stringify({
        context: {
          timestamp: new Date(start + 5_000 + i).toISOString(),
          pageUrl: 'http://localhost:3000/search?q=big',
          userId: 'u-big',
          sessionId: 's-big',
          pageLoadId: 'p-big',
          dev: true,
          initiator: 'athos/beaconjs/1.3.0',
        },
        data: { responseId: 'r-big', results: [{ type: 'product', uid: `${i}` }], banners: [] },
      }),
    );
    const text = [manyPages(20), ...big, manyPages(20, 20)].join('\n');
    const file = temp('big.ndjson', text);
    const pages = checkOffline(parseInput(text, file).events, [], NOW);
    const json = await check(file, '--format', 'json');
    const whole = `${JSON.stringify(jsonReport(pages, file, NOW, UNJUDGED), null, 2)}\n`;
    expect(
      Buffer.byteLength(JSON.stringify(pages.find((p) => p.pageLoadId === 'p-big'))),
    ).toBeGreaterThan(128 * 1024);
    expect(json.out).toBe(whole);
    expect((await check(file, '--format', 'junit')).out).toBe(junitReport(pages, file, NOW));
  });

  it('more pages than it keeps open: each judged as the whole input judges it, in the same order', async () => {
    const text = manyPages(12_000);
    const file = temp('many.ndjson', text);
    const whole = checkOffline(parseInput(text, file).events, [], NOW);
    const streamed = await check(file, '--format', 'json');
    const report = JSON.parse(streamed.out) as TimelineReportDto;
    const brief = (p: TimelineReportDto['pages'][number]) =>
      `${p.pageLoadId} ${p.verdict} ${p.findings.map((f) => f.rule).join(',')}`;
    expect(report.pages.map(brief)).toEqual(whole.map(brief));
    expect(report.verdicts.fail).toBe(1_715);
    expect(withoutUnjudged(streamed.err)).toBe('');
  });

  it('says which pages got events after they were judged (input far out of order)', async () => {
    const text = `${manyPages(12_000)}\n${manyPages(1, 3)}`;
    const res = await check(temp('late.ndjson', text));
    expect(res.err).toMatch(
      /^search-sandbox check: page p-3 was judged in two parts: it sent nothing while 20,000 other events were read, with more than 5,000 pages open, so check judged it and let it go, and the events it sent later were judged as a second part, in the same visit\. A finding that needs both parts may be one the running sandbox does not report: .*\(missing-render\).*Check such sessions on their own/,
    );
    expect(res.err.match(/judged in two parts/g)).toHaveLength(1);
  });

  it('keeps the later part of a page it let go of in the page’s visit, as the running sandbox does', async () => {
    // a shopper's thank-you page empties the cart, and its order comes two minutes later, after 22,000
    // events of other shoppers, carrying a sessionId that drifted: one page load, one shopper, one visit
    const start = Date.parse('2026-11-21T04:00:00Z');
    const ctx = (pageLoadId: string, ms: number, sessionId = 's-shop') => ({
      timestamp: new Date(start + ms).toISOString(),
      pageUrl: `http://localhost:3000/${pageLoadId}`,
      userId: 'u-shop',
      sessionId,
      pageLoadId,
      dev: true,
      initiator: 'athos/beaconjs/1.3.0',
    });
    const item = { uid: 'A1', parentId: 'A1', sku: 'S-A1', qty: 1, price: 10 };
    const line = (v: unknown) => JSON.stringify(v);
    const text = [
      line({
        context: ctx('pdp', 0),
        data: { result: { uid: 'A1', parentId: 'A1', sku: 'S-A1' } },
      }),
      line({
        category: 'cart',
        event: 'add',
        body: { context: ctx('cart', 5_000), data: { results: [item], cart: [item] } },
      }),
      line({
        category: 'cart',
        event: 'remove',
        body: { context: ctx('thanks', 10_000), data: { results: [item], cart: [] } },
      }),
      manyPages(12_000, 0, 10),
      line({
        context: ctx('thanks', 125_000, 's-drifted'),
        data: { orderId: 'O-1', transactionTotal: 10, total: 10, results: [item] },
      }),
    ].join('\n');
    const file = temp('drifted-late.ndjson', text);
    const whole = checkOffline(parseInput(text, file).events, [], NOW);
    const res = await check(file, '--format', 'json');
    const parts = (JSON.parse(res.out) as TimelineReportDto).pages.filter(
      (p) => p.pageLoadId === 'thanks',
    );
    const rules = (pages: Array<{ findings: Array<{ rule: string }> }>) =>
      pages.flatMap((p) => p.findings.map((f) => f.rule));
    expect(rules(whole.filter((p) => p.pageLoadId === 'thanks'))).toEqual(['context-drift']);
    // judged in two parts, the later one in the page's visit: the drift named, no visit of its own begun
    expect(parts).toHaveLength(2);
    expect(rules(parts)).toEqual(rules(whole.filter((p) => p.pageLoadId === 'thanks')));
    expect(parts[1]!.sessionId).toBe('s-shop');
    expect(res.err).toMatch(/page thanks was judged in two parts: .*in the same visit/);
  });

  it('reads NDJSON from a FIFO as it is written, and from standard input (-)', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const fifo = path.join(dir, 'beacons.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const child = spawn(process.execPath, [CLI, 'check', fifo], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    // the writer opens the FIFO after check did: check must not block the reading end
    writeFileSync(fifo, `${manyPages(3)}\n`);
    expect(await done).toBe(1);
    expect(out).toContain('3 pages: 1 fail, 0 warn, 2 pass');

    const piped = spawnSync(process.execPath, [CLI, 'check', '-', '--format', 'json'], {
      input: manyPages(2, 1),
      encoding: 'utf8',
    });
    expect(piped.status).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ source: '-', verdicts: { pass: 2 } });
    // given twice, the second read found it empty ("-: empty file"): said as what it is
    for (const command of [
      ['check', '-', '-'],
      ['diff', '-', '-'],
    ]) {
      const twice = spawnSync(process.execPath, [CLI, ...command], {
        input: manyPages(1),
        encoding: 'utf8',
      });
      expect(twice.status, command.join(' ')).toBe(2);
      expect(twice.stderr).toMatch(
        /standard input \(-\) is given (twice|more than once): it can be read once/,
      );
    }
  });
});
