// `search-sandbox check`: what it says, and its exit code, on the recordings and config files users give it.
// The built command (out/main/cli.js) runs as a process for each exit code (0, 1, 2) and where serve's answer
// is compared with check's; the other cases run the command's function in this process, from the same folder
// with the same arguments (a process each cost ~0.35 s of CPU, most of it loading the bundle).
import { withoutUnjudged } from '../helpers/check';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { journey, run } from '../helpers/journey';
import { CLI, runCli, runHere, spawnCli } from './cli-process';
import { startSandbox } from '../../src/main/api/index';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** A temp dir holding `files` (name → text). */
function dirWith(files: Record<string, string>): string {
  const t = tempDir('cli-check-');
  cleanups.push(t.cleanup);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(t.dir, name), text);
  return t.dir;
}

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

describe('check --readiness --config', () => {
  it('reports a site the config expects something of though it sent nothing, and fails', async () => {
    const cwd = dirWith({
      'journey.ndjson': run(journey()),
      'config.json': JSON.stringify({
        accounts: [{ siteId: 'other1', secretKey: 'k', readiness: { expect: ['cart'] } }],
      }),
    });
    const text = await runCli(
      ['check', 'journey.ndjson', '--readiness', '--config', 'config.json'],
      cwd,
    );
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toMatch(
      /readiness of other1: 0 ok, 0 with findings, \d+ unseen, \d+ not applicable \(it sent nothing in this recording: the config expects it to\)/,
    );
    expect(text.stdout).toContain('- area cart is unseen: nothing of it was sent');

    const json = await runHere(
      'check',
      ['journey.ndjson', '--readiness', '--config', 'config.json', '--format', 'json'],
      cwd,
    );
    expect(json.code).toBe(1);
    const answer = JSON.parse(json.stdout) as {
      ready: boolean;
      sites: Array<{ siteId: string; sent?: boolean; expect: string[]; gaps: string[] }>;
    };
    expect(answer.ready).toBe(false);
    const other = answer.sites.find((s) => s.siteId === 'other1');
    expect(other).toMatchObject({ sent: false, expect: ['cart'] });
    expect(other!.gaps).toEqual([expect.stringMatching(/^area cart is unseen/)]);
    // the site that sent is reported as before
    expect(answer.sites.find((s) => s.siteId === 'demo42')).not.toHaveProperty('sent');
  });
});

describe('check of a JSON file that is not a recording it reads', () => {
  it('says what the file is: a baseline, a cut-off document, valid JSON of another shape, a pretty-printed body', async () => {
    const body = JSON.parse(run(journey()).split('\n')[0]!) as unknown;
    const exportText = JSON.stringify({ format: 'search-sandbox-export', events: [body] }, null, 2);
    const cwd = dirWith({
      'baseline.json':
        '{\n  "format": "search-sandbox-baseline",\n  "version": 1,\n  "sessions": []\n}\n',
      'cut.json': exportText.slice(0, Math.floor(exportText.length / 2)),
      'other.json': JSON.stringify({ results: [1, 2] }, null, 2),
      'pretty.json': JSON.stringify(body, null, 2),
    });
    const cases: Array<[string, RegExp]> = [
      [
        'baseline.json',
        /^search-sandbox check: baseline\.json is a baseline file \(written by expectMatchesBaseline\), not a recording to check: compare a recording with it, search-sandbox diff baseline\.json RECORDING$/,
      ],
      [
        'cut.json',
        /^search-sandbox check: cut\.json: a JSON document that is cut off \(truncated after \d+ characters/,
      ],
      [
        'other.json',
        /^search-sandbox check: other\.json: valid JSON, but not a recording: expected NDJSON of beacon events \(one per line\), a sandbox export .* or a HAR file/,
      ],
      [
        'pretty.json',
        /^search-sandbox check: pretty\.json: one beacon body or event pretty-printed over several lines: NDJSON holds one per line/,
      ],
    ];
    for (const [file, message] of cases) {
      const { code, stdout, stderr } = await runHere('check', [file], cwd);
      expect([code, stdout], file).toEqual([2, '']);
      expect(stderr.trim().split('\n'), file).toHaveLength(1);
      expect(stderr.trim(), file).toMatch(message);
      expect(stderr, file).not.toContain('one beacon body or recorded event per line');
    }
  });
});

describe('check --config', () => {
  it('refuses a config file serve refuses, with the same message: unknown keys, bad values, all of a file’s problems at once', async () => {
    const cwd = dirWith({
      'journey.ndjson': run(journey()),
      'typo.json': JSON.stringify({ rulez: { 'no-impression': 'off' } }),
      'badport.json': JSON.stringify({ port: 'eighty', rules: { 'no-impression': 'off' } }),
      'badexpect.json': JSON.stringify({
        accounts: [{ siteId: 'demo42', secretKey: 'k', readiness: { expect: 'cart' } }],
      }),
      'several.json': JSON.stringify({
        port: 'eighty',
        accounts: [{ siteId: 'demo42', secretKey: 'k', feeds: [{ id: 1, intervall: '24h' }] }],
      }),
    });
    for (const [file, message] of [
      [
        'typo.json',
        /^search-sandbox check: typo\.json: rulez: unknown key; did you mean rules\? allowed keys are port, /,
      ],
      ['badport.json', /^search-sandbox check: badport\.json: port: "eighty" is not a port/],
      [
        'badexpect.json',
        /^search-sandbox check: badexpect\.json: accounts\[0\]\.readiness\.expect: "cart" must be a list/,
      ],
      // every problem of a file in one run, a line each
      [
        'several.json',
        /^search-sandbox check: 2 problems:\n {2}several\.json: port: "eighty" is not a port[^\n]*\n {2}several\.json: accounts\[0\]\.feeds\[0\]\.intervall: unknown key; did you mean interval\?/,
      ],
    ] as const) {
      const checked = await runHere('check', ['journey.ndjson', '--config', file], cwd);
      expect([checked.code, checked.stdout], file).toEqual([2, '']);
      expect(checked.stderr.trim().split('\n'), file).toHaveLength(file === 'several.json' ? 3 : 1);
      expect(checked.stderr, file).toMatch(message);
      // serve says the same of it (no --port: the file's own port is checked too)
      const served = spawnCli(['serve', '--ephemeral', '--config', file], cwd);
      cleanups.push(() => void served.kill());
      expect(await Promise.race([served.exit, served.ready]), file).toBe(2);
      // (each line without the command's name and the file's path, which serve gives whole)
      const said = (text: string) =>
        text.replace(/^search-sandbox(?: check)?: /, '').replace(/^( *)\S*?\.json: /gm, '$1');
      expect(said(served.stderr()), file).toBe(said(checked.stderr));
    }
  });
});

describe('check of the same events twice', () => {
  it('reads an event given twice once (overlapping exports, a file named twice), and says how many', async () => {
    const exported = JSON.parse(
      readFileSync(
        path.resolve(__dirname, '../../fixtures/corpus/visit-search-order.json'),
        'utf8',
      ),
    ) as { events: Array<{ id: string; receivedAt: string }> };
    const lines = exported.events.map((e) => JSON.stringify(e));
    expect(lines.length).toBeGreaterThan(2);
    const cwd = dirWith({
      'a.ndjson': `${lines.join('\n')}\n`,
      // a later export overlapping the first: its last two events again, and nothing new
      'b.ndjson': `${lines.slice(-2).join('\n')}\n`,
    });
    const once = await runCli(['check', 'a.ndjson', '--format', 'json'], cwd);
    expect(once.code, once.stderr).toBe(0);
    const twice = await runHere(
      'check',
      ['a.ndjson', 'a.ndjson', 'b.ndjson', '--format', 'json'],
      cwd,
    );
    expect(twice.code, twice.stderr).toBe(0);
    expect(withoutUnjudged(twice.stderr)).toBe(
      `search-sandbox check: ${lines.length + 2} events were read twice (the same recorded event in more than one place of the input, e.g. overlapping exports, or a file given twice) and checked once\n`,
    );
    // the same pages, findings and verdicts as the events read once
    const pages = (out: string) =>
      (
        JSON.parse(out) as {
          pages: Array<{ pageLoadId: string; verdict: string; findings: unknown[] }>;
        }
      ).pages.map((p) => [p.pageLoadId, p.verdict, p.findings]);
    expect(pages(twice.stdout)).toEqual(pages(once.stdout));
  });
});

/** The HAR fixture of a storefront visit (16 beacons), to be changed by a test. */
type HarEntry = {
  request: { url: string; bodySize?: number; postData?: { text?: string | null } };
  response: Record<string, unknown> & { status: number };
};
const visitHar = () =>
  JSON.parse(
    readFileSync(path.resolve(__dirname, '../../fixtures/har/storefront-visit.har'), 'utf8'),
  ) as { log: { entries: HarEntry[] } };
const beaconsOf = (har: ReturnType<typeof visitHar>) =>
  har.log.entries.filter((e) => e.request.url.includes('/beacon/v2/'));
/** What check --format json judged: each page's pageLoadId and its events' ids. */
const judged = (stdout: string) =>
  (
    JSON.parse(stdout) as {
      pages: Array<{ pageLoadId: string; responses: Array<{ events: Array<{ id: string }> }> }>;
    }
  ).pages.map((p) => [p.pageLoadId, p.responses.flatMap((r) => r.events.map((e) => e.id))]);

describe('an export whose search section holds no response', () => {
  it('says the sandbox that recorded it issued none, not to check an export', async () => {
    const sandbox = await startSandbox();
    try {
      const res = await fetch(`${sandbox.url}/beacon/v2/demo42/search/render`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          context: {
            timestamp: new Date().toISOString(),
            pageUrl: 'https://shop.example/search?q=boots',
            userId: 'u1',
            sessionId: 's1',
            pageLoadId: 'p1',
            initiator: 'x',
            dev: true,
          },
          data: { responseId: 'r1' },
        }),
      });
      expect(res.status).toBe(200);
      const exported = await (await fetch(`${sandbox.url}/_sandbox/export`)).text();
      const cwd = dirWith({ 'export.json': exported });
      const checked = await runHere('check', ['export.json'], cwd);
      expect(checked.stderr).toContain(
        "To give them what they need: the export's search section holds no response, so the storefront's searches did not go through the sandbox that recorded it",
      );
      expect(checked.stderr).not.toContain('`check` reads them from a sandbox export');
    } finally {
      await sandbox.close();
    }
  });
});

describe('NDJSON lines that name no site', () => {
  it('take the only site the lines before them named, on the same page, and stderr says so', async () => {
    const context = {
      timestamp: '2026-12-03T15:00:00.000Z',
      pageUrl: 'https://shop.example/search?q=boots',
      userId: 'u9',
      sessionId: 's9',
      pageLoadId: 'pl9',
      initiator: 'x',
      dev: true,
    };
    const lines = [
      {
        siteId: 'demo42',
        kind: 'search',
        event: 'render',
        body: { context, data: { responseId: 'rb' } },
      },
      // bare: no siteId, no path
      {
        context: { ...context, timestamp: '2026-12-03T15:00:01.500Z' },
        data: {
          responseId: 'rb',
          results: [{ type: 'product', uid: 'A', parentId: 'A' }],
          banners: [],
        },
      },
    ];
    const cwd = dirWith({ 'mixed.ndjson': lines.map((l) => JSON.stringify(l)).join('\n') });
    const res = await runHere('check', ['mixed.ndjson', '--format', 'json'], cwd);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as {
      pages: Array<{ siteId: string; pageLoadId: string }>;
    };
    expect(report.pages.map((p) => [p.siteId, p.pageLoadId])).toEqual([['demo42', 'pl9']]);
    expect(res.stderr).toContain(
      `mixed.ndjson: 1 line names no site (no "siteId" or "path") and was judged as site demo42's, the only site the lines before it name`,
    );
    // a bare line first: no site is named before it, so it stays a page of no site
    const first = dirWith({
      'first.ndjson': [lines[1], lines[0]].map((l) => JSON.stringify(l)).join('\n'),
    });
    const split = await runHere('check', ['first.ndjson', '--format', 'json'], first);
    expect((JSON.parse(split.stdout) as { pages: unknown[] }).pages).toHaveLength(2);
  });
});

describe('check of a HAR whose beacons did not all arrive, or were saved without their body', () => {
  it("leaves out DevTools' failed requests (response._error) as Playwright's, counted on stderr", async () => {
    const har = visitHar();
    const [a, b, c] = beaconsOf(har);
    // DevTools "Save all as HAR": status 0 and the error in _error
    a!.response = {
      ...a!.response,
      status: 0,
      statusText: '',
      _error: 'net::ERR_BLOCKED_BY_CLIENT',
    };
    b!.response = { ...b!.response, status: 0, _error: 'net::ERR_CONNECTION_REFUSED' };
    // sent as the page went on: judged, and said
    c!.response = { ...c!.response, status: 0, _error: 'net::ERR_ABORTED' };
    const cwd = dirWith({ 'devtools.har': JSON.stringify(har) });
    const res = await runHere('check', ['devtools.har', '--format', 'json'], cwd);
    expect(res.code, res.stderr).toBeLessThan(2);
    expect(judged(res.stdout).flatMap(([, ids]) => ids)).toHaveLength(14);
    expect(res.stderr).toContain(
      'devtools.har: 2 beacon requests never left the browser (net::ERR_BLOCKED_BY_CLIENT ×1, net::ERR_CONNECTION_REFUSED ×1) and are not judged: the service never received them',
    );
    expect(res.stderr).toContain(
      'devtools.har: 1 beacon request has no answer in the HAR (status 0: net::ERR_ABORTED ×1) and is judged as sent',
    );
    // a status 0 with no error at all: judged as sent, and said so
    const [d] = beaconsOf(har).slice(5);
    d!.response = { ...d!.response, status: 0 };
    const cwd2 = dirWith({ 'quiet.har': JSON.stringify(har) });
    const quiet = await runHere('check', ['quiet.har', '--format', 'json'], cwd2);
    expect(judged(quiet.stdout).flatMap(([, ids]) => ids)).toHaveLength(14);
    expect(quiet.stderr).toContain(
      '2 beacon requests have no answer in the HAR (status 0: net::ERR_ABORTED ×1, no status, no error ×1) and are judged as sent',
    );
  });

  it('judges a beacon posted as application/json across origins that failed (net::ERR_FAILED) as the refused CORS preflight, as live', async () => {
    const har = visitHar();
    const beacons = beaconsOf(har);
    const blocked = beacons[2]! as HarEntry & {
      request: {
        headers?: Array<{ name: string; value: string }>;
        postData?: { mimeType?: string };
      };
    };
    // what Chromium keeps of a request it never sent: provisional headers, the page's Referer
    blocked.request.headers = [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Referer', value: 'https://shop.example/search?q=jacket' },
      { name: 'User-Agent', value: 'Mozilla/5.0 HeadlessChrome' },
    ];
    blocked.response = { status: -1, headers: [], _failureText: 'net::ERR_FAILED' };
    // the same failure of a text/plain beacon is no preflight's: judged as sent
    const plain = beacons[3]!;
    plain.response = { status: -1, headers: [], _failureText: 'net::ERR_FAILED' };
    const cwd = dirWith({ 'cors.har': JSON.stringify(har) });
    const res = await runHere('check', ['cors.har', '--format', 'json'], cwd);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(
      "cors.har: 1 beacon request failed in the browser (net::ERR_FAILED) after being posted across origins as application/json ×1: the browser asks the service first with a CORS preflight (OPTIONS), which the beacon endpoints refuse (405), and never sends the beacon. Each is judged as the refused preflight the service received (request-refused); send beacons as text/plain, as the provider's client does",
    );
    expect(res.stderr).toContain(
      '1 beacon request has no answer in the HAR (status 0: net::ERR_FAILED ×1) and is judged as sent',
    );
    const report = JSON.parse(res.stdout) as {
      pages: Array<{ findings: Array<{ rule: string; message: string; eventIds: string[] }> }>;
    };
    const refused = report.pages
      .flatMap((p) => p.findings)
      .filter((f) => f.rule === 'request-refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toContain('it is a browser’s CORS preflight (OPTIONS /beacon/v2/');
    expect(refused[0]!.eventIds).toEqual([`entry:${har.log.entries.indexOf(blocked) + 1}`]);
  });

  it('leaves out a beacon the service took whose body the HAR did not keep, and judges one it refused', async () => {
    const original = await runHere(
      'check',
      [path.resolve(__dirname, '../../fixtures/har/storefront-visit.har'), '--format', 'json'],
      process.cwd(),
    );
    const all = judged(original.stdout);
    const har = visitHar();
    const beacons = beaconsOf(har);
    // answered 200: no postData, a postData without its text, a body cut off, a body that is not JSON
    delete beacons[1]!.request.postData;
    beacons[3]!.request.postData!.text = null;
    beacons[5]!.request.postData!.text = beacons[5]!.request.postData!.text!.slice(0, 40);
    beacons[6]!.request.postData!.text = '{"context": {';
    beacons[6]!.request.bodySize = 13;
    const cwd = dirWith({ 'bodies.har': JSON.stringify(har) });
    const res = await runHere('check', ['bodies.har', '--format', 'json'], cwd);
    expect(res.code, res.stderr).toBeLessThan(2);
    expect(res.stderr).toContain(
      'bodies.har: 4 beacon requests without a recorded body (no request.postData ×1, request.postData without its text ×1, a body cut off (shorter than its request.bodySize) ×1, a body that is not JSON, though the service took it ×1): not judged. The service took them (answered 2xx, or the HAR holds no answer), but the tool that saved the HAR dropped or cut the body',
    );
    expect(res.stdout).not.toContain('missing JSON POST body');
    // the other beacons on their pages, as in the whole HAR; no page of a beacon without a pageLoadId
    const left = new Set(
      [1, 3, 5, 6].map((k) => `entry:${har.log.entries.indexOf(beacons[k]!) + 1}`),
    );
    expect(judged(res.stdout)).toEqual(
      all.map(([id, ids]) => [id, (ids as string[]).filter((e) => !left.has(e))]),
    );

    // the service refused it (400): judged as sent, the body it lacked named
    const refused = visitHar();
    const first = beaconsOf(refused)[1]!;
    delete first.request.postData;
    first.response = { ...first.response, status: 400 };
    const cwd2 = dirWith({ 'refused.har': JSON.stringify(refused) });
    const res2 = await runHere('check', ['refused.har'], cwd2);
    expect(res2.code).toBe(1);
    expect(res2.stdout).toContain('missing JSON POST body');
    expect(res2.stderr).not.toContain('without a recorded body');
  });
});

describe('check of recorded events whose fields are not what the sandbox writes', () => {
  it('refuses each, naming the line, the field and what the sandbox writes (exit 2)', async () => {
    const line = (fields: Record<string, unknown>) =>
      `${JSON.stringify({ siteId: 'demo42', category: 'search', event: 'render', body: { data: {} }, accepted: true, status: 200, errors: [], ...fields })}\n`;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { accepted: 'yes' },
        /:1: field accepted is "yes": it must be true or false, whether the sandbox accepted the event; a recorded verdict is "accepted", "status" and "errors" together/,
      ],
      [
        { status: '200' },
        /:1: field status is "200": it must be the HTTP status the sandbox answered, a number from 100 to 599/,
      ],
      [
        { receivedAt: 'yesterday' },
        /:1: field receivedAt is "yesterday": it must be the time the sandbox received the event, ISO 8601 with seconds and its zone as the sandbox writes it, e\.g\. "2026-11-21T05:00:00\.000Z"; leave it out when unknown$/,
      ],
      [
        { siteId: 42 },
        /:1: field siteId is 42: it must be a string, the siteId of the path, e\.g\. "demo42"/,
      ],
      [
        { errors: 'none' },
        /:1: field errors is "none": it must be the list of what the sandbox found wrong, \[\{"message": "…", "path": "…"\}\] \(\[\] for an accepted event\)/,
      ],
      [
        { errors: [42] },
        /:1: field errors is \[42\]: it must be the list of what the sandbox found wrong/,
      ],
      [
        { id: null },
        /:1: field id is null: it must be the event's id, a string such as "ev_000001"; leave it out to number the line$/,
      ],
      [
        { event: 7, path: '/beacon/v2/demo42/search/render' },
        /:1: field event is 7: it must be a string, the event of the category/,
      ],
      [
        { accepted: true, status: 400 },
        /:1: field accepted is true with status 400: an event is accepted exactly when its status is 200/,
      ],
      [
        { errors: undefined },
        /:1: field errors is missing: a recorded verdict is "accepted", "status" and "errors" together/,
      ],
      // one the sandbox recorded (an export's, with its id and seq) is held to the rule imports keep
      [
        { id: 'ev_000000001', seq: 1, receivedAt: '2026-11-21T05:00:00.000Z' },
        /:1: field path must be a string$/,
      ],
    ];
    for (const [fields, message] of cases) {
      const cwd = dirWith({ 'events.ndjson': line(fields) });
      const res = await runHere('check', ['events.ndjson'], cwd);
      const what = JSON.stringify(fields);
      expect([res.code, res.stdout], what).toEqual([2, '']);
      expect(res.stderr.trim().split('\n'), what).toHaveLength(1);
      expect(res.stderr.trim(), what).toMatch(/^search-sandbox check: events\.ndjson:1: field /);
      expect(res.stderr.trim(), what).toMatch(message);
    }
    // what the sandbox writes is read as before
    const good = dirWith({
      'events.ndjson': line({ id: 'ev_000001', receivedAt: '2026-11-21T05:00:00.000Z' }),
    });
    expect((await runHere('check', ['events.ndjson'], good)).code).toBeLessThan(2);
  });
});

describe('check and diff of a recording saved as UTF-16 (PowerShell `>`)', () => {
  it('reads it as the text it holds, with or without its byte order mark', async () => {
    const text = run(journey()).replace(/\n/g, '\r\n');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    const cwd = dirWith({ 'utf8.ndjson': text });
    writeFileSync(path.join(cwd, 'utf16le.ndjson'), le);
    writeFileSync(path.join(cwd, 'utf16be.ndjson'), be);
    writeFileSync(path.join(cwd, 'nobom.ndjson'), Buffer.from(text, 'utf16le'));
    const utf8 = await runHere('check', ['utf8.ndjson', '--format', 'json'], cwd);
    expect(utf8.code, utf8.stderr).toBeLessThan(2);
    const pages = (out: string) =>
      (JSON.parse(out) as { pages: Array<{ pageLoadId: string; verdict: string }> }).pages.map(
        (p) => [p.pageLoadId, p.verdict],
      );
    for (const file of ['utf16le.ndjson', 'utf16be.ndjson', 'nobom.ndjson']) {
      const res = await runHere('check', [file, '--format', 'json'], cwd);
      expect([res.code, withoutUnjudged(res.stderr)], file).toEqual([utf8.code, '']);
      expect(pages(res.stdout), file).toEqual(pages(utf8.stdout));
      // diff reads it the same way: the same tracking as the UTF-8 file
      const diff = await runHere('diff', ['utf8.ndjson', file], cwd);
      expect([diff.code, diff.stderr], file).toEqual([0, '']);
    }
    // an export saved so reads as one too
    writeFileSync(
      path.join(cwd, 'export.json'),
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(
          JSON.stringify(
            {
              format: 'search-sandbox-export',
              events: text
                .trim()
                .split('\r\n')
                .map((l) => JSON.parse(l) as unknown),
            },
            null,
            2,
          ),
          'utf16le',
        ),
      ]),
    );
    const exported = await runHere('check', ['export.json', '--format', 'json'], cwd);
    expect(pages(exported.stdout)).toEqual(pages(utf8.stdout));
  });
});

describe('check of bare beacon bodies, which name no site', () => {
  it('says what names the site where its name would be', async () => {
    // the search beacons' bodies alone, as a storefront's bodies are often saved
    const bodies = run(journey())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { category: string; body: unknown })
      .filter((e) => e.category === 'search')
      .map((e) => JSON.stringify(e.body));
    const cwd = dirWith({ 'recorded.ndjson': `${bodies.join('\n')}\n` });
    const noSite = '(no siteId: a line names its site with a "siteId" or "path" field)';
    const readiness = await runHere('check', ['recorded.ndjson', '--readiness'], cwd);
    expect(readiness.stdout).toContain(`readiness of ${noSite}: `);
    expect(readiness.stdout).not.toMatch(/readiness of : /);
    const text = await runHere('check', ['recorded.ndjson'], cwd);
    expect(text.stdout).toMatch(
      /^(PASS|WARN|FAIL) {2}\(no siteId: a line names its site with a "siteId" or "path" field\) {2}page /m,
    );
    expect(text.stdout).not.toContain('(no site)');
  });
});

describe('check --format junit: a suite per site, named so a CI dashboard can tell them apart', () => {
  /** Each test suite's name and each test case's classname, in order, as a dashboard reads them. */
  const names = (xml: string) => ({
    suites: [...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1]),
    classes: [...xml.matchAll(/<testcase classname="([^"]*)"/g)].map((m) => m[1]),
  });

  it('names the pages of events without a siteId for what they are, and no two suites alike, run after run', async () => {
    const search = JSON.parse(run(journey()).split('\n')[0]!) as { body: Record<string, unknown> };
    const on = (siteId: string | undefined, session: string) => {
      const body = structuredClone(search.body) as { context: Record<string, unknown> };
      body.context.sessionId = session;
      body.context.pageLoadId = `page-${session}`;
      return JSON.stringify(
        siteId === undefined ? body : { siteId, category: 'search', event: 'render', body },
      );
    };
    const lines = [
      // a bare body names no site; `nosite` is a siteId the beacon path takes; the last two differ only in
      // a control character XML cannot carry
      on(undefined, 's1'),
      on('nosite', 's2'),
      on('site\u0001', 's3'),
      on('site\u0002', 's4'),
    ];
    const cwd = dirWith({ 'recorded.ndjson': `${lines.join('\n')}\n` });
    const first = await runHere('check', ['recorded.ndjson', '--format', 'junit'], cwd);
    expect(withoutUnjudged(first.stderr)).toBe('');
    expect(names(first.stdout)).toEqual({
      suites: [
        'no siteId: events that named no site',
        'site nosite',
        'site site\uFFFD',
        'site site\uFFFD (2)',
      ],
      classes: ['no siteId.search', 'nosite.search', 'site\uFFFD.search', 'site\uFFFD.search'],
    });
    const again = await runHere('check', ['recorded.ndjson', '--format', 'junit'], cwd);
    expect(names(again.stdout)).toEqual(names(first.stdout));
  });

  it('names each page the same in every run of the journey (new ids, another port): site and kind, path and query, the n-th repeat numbered', async () => {
    const j = journey();
    // the search made twice in the run: two pages of one name
    j[0]!.splice(1, 0, structuredClone(j[0]![0]!));
    // a click on a response the page never rendered: a failing page
    j[0]![0]!.events.splice(0, 1);
    const cases = (xml: string) =>
      [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
    const one = dirWith({ 'run.ndjson': run(j, { origin: 'http://127.0.0.1:33917' }) });
    const two = dirWith({ 'run.ndjson': run(j, { origin: 'http://127.0.0.1:41023' }) });
    const first = await runCli(['check', 'run.ndjson', '--format', 'junit'], one);
    const second = await runHere('check', ['run.ndjson', '--format', 'junit'], two);
    expect(first.code).toBe(1);
    expect(cases(first.stdout)).toEqual([
      'demo42.search /search?q=shoes',
      'demo42.search /search?q=shoes (2)',
      'demo42.product /product/102',
      'demo42.order /checkout/thanks',
      'demo42.category /shop/boots?sort=price',
    ]);
    expect(cases(second.stdout)).toEqual(cases(first.stdout));
    // the failure's message is its first finding, short; the ids of the page open its body
    const failure = /<failure type="([^"]*)" message="([^"]*)">([^<]*)<\/failure>/.exec(
      first.stdout,
    )!;
    expect(failure[2]).toMatch(new RegExp(`^${failure[1]}: \\S`));
    expect(failure[2]!.length).toBeLessThan(320);
    expect(failure[3]).toMatch(
      /^page [0-9a-f-]{36} of session [0-9a-f-]{36}: http:\/\/127\.0\.0\.1:33917\/search\?q=shoes\n/,
    );
    expect(first.stdout.match(/<system-out>page [0-9a-f-]{36} of session /g)).toHaveLength(5);
  });
});

describe('check with a mistyped flag', () => {
  it("says so in one line of the tool's words, with the flag it is near", async () => {
    const cwd = dirWith({ 'recorded.ndjson': run(journey()) });
    const res = await runCli(['check', '--frmat', 'json', 'recorded.ndjson'], cwd);
    expect([res.code, res.stdout]).toEqual([2, '']);
    const [first, usage, ...rest] = res.stderr.trim().split('\n');
    expect(first).toMatch(
      /^search-sandbox check: unknown flag --frmat: did you mean --format\? the flags are --format, --fail-on, /,
    );
    expect(usage).toMatch(/^usage: search-sandbox check FILE/);
    expect(rest).toEqual([]);
    expect(res.stderr).not.toContain('Unknown option');
  });
});
