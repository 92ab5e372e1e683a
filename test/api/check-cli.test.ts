// `search-sandbox check`: NDJSON, sandbox exports and HAR files through the same rules; formats; exit codes;
// one-line errors naming the file (and line) for input it cannot read.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { check, tempFile, withoutUnjudged } from '../helpers/check';
import type { TimelineReportDto } from '../../src/shared/timeline';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { attachBodies, writePlaywrightHars } from '../helpers/playwright-har';
import { zipOf } from '../helpers/zip';
import { PageBuilder } from '../unit/timeline-events';
import { capturingFetch, toHar, type Captured } from '../unit/timeline-beacon';
import { kindsVisit } from '../unit/timeline-beacon-kinds';
import { vi } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const fixture = (...p: string[]) => path.join(ROOT, 'fixtures', ...p);
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const temp = (name: string, text: string) => tempFile(cleanups, name, text);

/** One NDJSON line: a recorded search render with `fields` besides. */
const recordedLine = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ siteId: 'demo42', category: 'search', event: 'render', body: { data: {} }, ...fields })}\n`;

/** An event as a sandbox export's NDJSON records it: accepted, of site demo42, in development mode. */
function recorded(id: string, endpoint: string, pageLoadId: string, pageUrl: string, data: object) {
  return JSON.stringify({
    id,
    seq: Number(id.slice(3)),
    receivedAt: '2026-11-29T06:00:00.100Z',
    siteId: 'demo42',
    category: endpoint.split('/')[0],
    event: endpoint.split('/')[1],
    path: `/beacon/v2/demo42/${endpoint}`,
    accepted: true,
    status: 200,
    errors: [],
    body: {
      context: {
        timestamp: '2026-11-29T06:00:00.000Z',
        initiator: 'athos/beaconjs/1.3.0',
        shopperId: '',
        sessionId: 's1',
        userId: 'u1',
        pageLoadId,
        pageUrl,
        dev: true,
      },
      data,
    },
  });
}

describe('search-sandbox check', () => {
  it('passes a good NDJSON session (exit 0) and fails a bad one (exit 1) with its findings in text', async () => {
    const good = await check(fixture('sessions', 'good-search-scroll-click.ndjson'));
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/^PASS {2}demo42 {2}page 0b6c1c1e-good-scroll/m);
    expect(good.out).toContain('1 page: 0 fail, 0 warn, 1 pass');

    const bad = await check(
      fixture('sessions', 'bad-missing-render.ndjson'),
      fixture('sessions', 'good-quick-add.ndjson'),
    );
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^FAIL .*0b6c1c1e-bad-no-render/m);
    expect(bad.out).toMatch(/error {3}missing-render {2}\[ev_000001, ev_000002\]/);
    expect(bad.out).toContain('2 pages: 1 fail, 0 warn, 1 pass');
  });

  it('says where a click without its responseId comes from: a search asked without beacon=true', async () => {
    const context = {
      timestamp: '2026-11-29T06:00:00.000Z',
      pageUrl: 'https://shop.example/search?q=mug',
      userId: 'u1',
      sessionId: 's1',
      pageLoadId: 'pl-1',
      initiator: 'my-own-client',
      dev: true,
    };
    const item = { type: 'product', uid: 'P1', parentId: 'P1', sku: 'P1' };
    const file = temp(
      'no-response-id.ndjson',
      JSON.stringify({
        siteId: 'demo42',
        category: 'search',
        event: 'clickthrough',
        body: { context, data: { results: [item] } },
      }),
    );
    const res = await check(file);
    expect(res.code).toBe(1);
    expect(res.out).toContain('missing required key-value: data.responseId');
    expect(res.out).toContain('the search API gives only when the request asks with beacon=true');
    expect(res.out).toMatch(
      /fix: send data\.responseId of the response that delivered the results/,
    );
  });

  it('reads a browser HAR: the beacon POSTs (text/plain) to the provider host, other requests skipped', async () => {
    const good = await check(fixture('har', 'storefront-visit.har'), '--format', 'json');
    expect(good.code).toBe(0);
    const report = JSON.parse(good.out) as TimelineReportDto;
    expect(report.verdicts).toEqual({ pass: 2, warn: 0, fail: 0 });
    expect(report.pages.flatMap((p) => p.responses.flatMap((r) => r.events)).length).toBe(16);

    const broken = await check(fixture('har', 'broken-impression.har'));
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/error {3}schema {2}\[entry:3\]/);
    expect(broken.out).toContain('missing required key-value: data.banners');

    const lost = await check(fixture('har', 'lost-impression.har'));
    expect(lost.code).toBe(0);
    expect(lost.out).toMatch(/warning click-not-impressed {2}\[entry:11\]/);

    // saved without request bodies: an unusable recording (exit 2), not 16 beacons the storefront sent empty
    const har = JSON.parse(readFileSync(fixture('har', 'storefront-visit.har'), 'utf8')) as {
      log: { entries: Array<{ request: { postData?: unknown } }> };
    };
    for (const e of har.log.entries) delete e.request.postData;
    const bodiless = await check(temp('no-bodies.har', JSON.stringify(har)));
    expect(bodiless.code).toBe(2);
    expect(bodiless.err).toContain(
      'none of its 16 beacon requests carries its body (request.postData): the HAR was saved without request bodies',
    );
    // one beacon without its body among others, which the service refused, is the storefront's: judged as
    // the service answered it (one it took is left out: the HAR lost its body, test/api/cli-check.test.ts)
    const one = JSON.parse(readFileSync(fixture('har', 'storefront-visit.har'), 'utf8')) as {
      log: { entries: Array<{ request: { postData?: unknown }; response: { status: number } }> };
    };
    const firstBeacon = one.log.entries.find((e) => e.request.postData !== undefined)!;
    delete firstBeacon.request.postData;
    firstBeacon.response.status = 400;
    const partly = await check(temp('one-without.har', JSON.stringify(one)));
    expect(partly.code).toBe(1);
    expect(partly.out).toContain('missing JSON POST body');
  });

  it("reads the HARs Playwright's recordHar saves with their bodies apart: a .zip, and content: 'attach'", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const embedded = readFileSync(fixture('har', 'storefront-visit.har'), 'utf8');
    const { attach, zip, files } = writePlaywrightHars(embedded, dir);
    for (const input of [zip, attach]) {
      const res = await check(input, '--format', 'json');
      expect(withoutUnjudged(res.err)).toBe('');
      expect(res.code).toBe(0);
      const report = JSON.parse(res.out) as TimelineReportDto;
      expect(report.verdicts).toEqual({ pass: 2, warn: 0, fail: 0 });
      expect(report.pages.flatMap((p) => p.responses.flatMap((r) => r.events)).length).toBe(16);
    }
    // a broken beacon inside the zip is judged like one inline
    const broken = readFileSync(fixture('har', 'broken-impression.har'), 'utf8');
    const brokenZip = writePlaywrightHars(broken, path.join(dir, 'broken')).zip;
    const bad = await check(brokenZip);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('missing required key-value: data.banners');

    // a side file that is not there: which one, and where it was looked for
    const { har, files: bodies } = attachBodies(embedded);
    const first = har.log.entries.findIndex((e) => e.request.postData?._file === files[0]) + 1;
    rmSync(path.join(path.dirname(attach), files[0]!));
    const missing = await check(attach);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(
      `${attach}: entry ${first}'s request body is in the side file "${files[0]}" (request.postData._file), which is not there: looked for ${path.join(path.dirname(attach), files[0]!)}`,
    );
    const zipWithout = path.join(dir, 'without.zip');
    writeFileSync(zipWithout, zipOf([['har.har', JSON.stringify(har)], ...bodies.slice(1)]));
    const notInZip = await check(zipWithout);
    expect(notInZip.code).toBe(2);
    expect(notInZip.err).toContain(
      `${zipWithout}: entry ${first}'s request body is in the side file "${bodies[0]![0]}" (request.postData._file), which is not in the zip`,
    );
  });

  it('refuses a Playwright HAR whose side file would be read from outside its folder, and a zip that holds no har.har', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const embedded = readFileSync(fixture('har', 'storefront-visit.har'), 'utf8');
    for (const name of ['../secret.txt', '/etc/passwd', 'bodies/../../secret.txt']) {
      const { har } = attachBodies(embedded);
      const at = har.log.entries.findIndex((e) => e.request.postData?._file);
      har.log.entries[at]!.request.postData!._file = name;
      const file = path.join(dir, 'outside.har');
      writeFileSync(file, JSON.stringify(har));
      const res = await check(file);
      expect(res.code).toBe(2);
      expect(res.err).toContain(
        `${file}: entry ${at + 1}'s request.postData._file is ${JSON.stringify(name)}: a side file is named relative to the HAR's folder, without ".." or a leading /; refused`,
      );
    }
    const noHar = path.join(dir, 'nohar.zip');
    writeFileSync(
      noHar,
      zipOf([
        ['trace.trace', '{}'],
        ['a.txt', 'x'],
      ]),
    );
    const res = await check(noHar);
    expect(res.code).toBe(2);
    expect(res.err).toContain(
      `${noHar}: a zip without har.har (it holds trace.trace, a.txt): a HAR zip is what Playwright's recordHar writes to a path ending in .zip`,
    );
    // on standard input, a HAR comes without the folder its side files are in
    const { har: piped } = attachBodies(embedded);
    const stdin = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bin/search-sandbox.js'), 'check', '-'],
      {
        input: JSON.stringify(piped),
        encoding: 'utf8',
      },
    );
    expect(stdin.status).toBe(2);
    expect(stdin.stderr).toMatch(
      /^search-sandbox check: -: its beacon requests keep their bodies in side files beside the HAR \(request\.postData\._file "[0-9a-f]{40}\.txt": Playwright's recordHar with content 'attach'\), which are read from the HAR's folder: give the HAR file by its path/,
    );
    // Playwright's content: 'omit' keeps no body: the advice is Playwright's, not DevTools'
    const omitted = JSON.parse(embedded) as {
      log: { creator?: unknown; entries: Array<{ request: { postData?: { text?: string } } }> };
    };
    omitted.log.creator = { name: 'Playwright', version: '1.65.1' };
    for (const e of omitted.log.entries) if (e.request.postData) e.request.postData.text = '';
    const omit = path.join(dir, 'omit.har');
    writeFileSync(omit, JSON.stringify(omitted));
    const noBodies = await check(omit);
    expect(noBodies.code).toBe(2);
    expect(noBodies.err).toContain(
      `${omit}: none of its 16 beacon requests carries its body (request.postData): Playwright saved it without request bodies (recordHar content: 'omit'); record it again with content 'embed' (the default for a .har path), 'attach', or a path ending in .zip`,
    );
    const evil = path.join(dir, 'evil.zip');
    writeFileSync(
      evil,
      zipOf([
        ['har.har', '{"log":{"entries":[]}}'],
        ['../x.txt', 'x'],
      ]),
    );
    const unsafe = await check(evil);
    expect(unsafe.code).toBe(2);
    expect(unsafe.err).toContain(
      `${evil}: the zip entry "../x.txt" has a name that leaves the archive's folder`,
    );
  });

  it('reads a zip without har.har as a zip: an empty one, macOS metadata, an entry with no compressed data', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const without = (held: string) =>
      `a zip without har.har (${held}): a HAR zip is what Playwright's recordHar writes to a path ending in .zip`;
    // 2 MB declared, with no compressed byte to inflate them from: a broken entry, not a bomb
    const noData = zipOf([['har.har', Buffer.alloc(2 * 1024 * 1024, ' ')]]);
    noData.writeUInt32LE(0, 18);
    noData.writeUInt32LE(0, noData.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 20);
    const cases: Array<[name: string, zip: Buffer, said: string]> = [
      // an empty zip is its end record alone (PK\5\6), no local header
      ['empty.zip', zipOf([]), without('it holds no file')],
      [
        'finder.zip',
        zipOf([
          ['.DS_Store', 'x'],
          ['__MACOSX/._trace.trace', 'x'],
          ['trace.trace', '{}'],
        ]),
        without('it holds trace.trace'),
      ],
      [
        'no-data.zip',
        noData,
        'the zip entry "har.har" is corrupt (unexpected end of file): record the HAR again',
      ],
    ];
    for (const [name, zip, said] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, zip);
      const res = await check(file);
      expect([name, res.code]).toEqual([name, 2]);
      expect(res.err).toContain(`${file}: ${said}`);
    }
  });

  it('names a cart line whose sku the --catalog feed gives to another product, and leaves a sku the feed does not hold alone', async () => {
    const cartAdd = (id: string, line: object) =>
      recorded(id, 'cart/add', `pl-${id}`, 'https://shop.example/cart', {
        results: [line],
        cart: [line],
      });
    const feed = fixture('feeds', 'products.csv');
    // the trail runner (P100) carried with the sku of the red rain shell (1010, a variant of P101)
    const wrong = temp(
      'wrong-sku.ndjson',
      cartAdd('ev_1', { uid: 'P100', parentId: 'P100', sku: 'P101-RED', qty: 1, price: 89.99 }),
    );
    const flagged = await check(wrong, '--catalog', `demo42=${feed}`, '--fail-on', 'warning');
    expect(flagged.code).toBe(1);
    expect(flagged.out).toMatch(/warning line-sku-mismatch {2}\[ev_1\]/);
    expect(flagged.out).toContain(
      'cart/add ev_1 names uid "P100" with sku "P101-RED", which the indexed catalog gives to product "1010" (a variant of "P101")',
    );
    // a variant of the same product, and a sku the feed does not hold, are no one else's
    const own = temp(
      'own-sku.ndjson',
      [
        cartAdd('ev_1', { uid: '1001', parentId: 'P100', sku: 'P100-BLU', qty: 1, price: 89.99 }),
        cartAdd('ev_2', { uid: 'P100', parentId: 'P100', sku: 'NOPE-SKU', qty: 1, price: 89.99 }),
      ].join('\n'),
    );
    const clean = await check(own, '--catalog', `demo42=${feed}`, '--fail-on', 'warning');
    expect(clean.out).not.toContain('line-sku-mismatch');
  });

  it('checks a site against the product feed given with --catalog, and says what is wrong with the flag', async () => {
    // a product page of the rain shell (the feed's url column) that sends the view of the puffer, and a
    // cart priced in cents
    const line = { uid: 'P200', parentId: 'P200', sku: 'P200', qty: 1, price: 14900 };
    const file = temp(
      'visit.ndjson',
      [
        recorded(
          'ev_1',
          'product/pageview',
          'pl-1',
          'https://shop.example/products/rain-shell-jacket',
          {
            result: { uid: 'P201', parentId: 'P201', sku: 'P201' },
          },
        ),
        recorded('ev_2', 'cart/add', 'pl-2', 'https://shop.example/cart', {
          results: [line],
          cart: [line],
        }),
      ].join('\n'),
    );
    const feed = fixture('search', 'outdoor-products.csv');
    const without = await check(file, '--fail-on', 'warning');
    expect(without.code).toBe(0);
    const withFeed = await check(file, '--catalog', `demo42=${feed}`, '--fail-on', 'warning');
    expect(withFeed.code).toBe(1);
    expect(withFeed.out).toMatch(/warning pageview-other-url {2}\[ev_1\]/);
    expect(withFeed.out).toContain('is the catalog\'s page of "P200"');
    expect(withFeed.out).toMatch(/error {3}price-unit-mismatch {2}\[ev_2\]/);
    expect(withFeed.out).toContain('uid "P200" at 14900 where the catalog has 149');
    // another site's feed leaves demo42 unchecked, and says it checked nothing (a mistyped siteId)
    const other = await check(file, '--catalog', `other1=${feed}`, '--fail-on', 'warning');
    expect(other.code).toBe(0);
    expect(other.err).toContain(
      '--catalog other1: the input holds no event of site other1, so its catalog checked nothing',
    );
    expect(withFeed.err).not.toContain('checked nothing');
    const notASite = await check(file, '--catalog', `BAD SITE=${feed}`);
    expect(notASite.code).toBe(2);
    expect(notASite.err).toContain('"bad site" is not a siteId (six letters or digits');
    const folder = await check(file, '--catalog', `demo42=${path.dirname(feed)}`);
    expect(folder.code).toBe(2);
    expect(folder.err).toContain('is a folder, not a file');
    // the config turns the site's catalog check off: the flag and the config disagree, said before reading
    const off = temp(
      'off.json',
      JSON.stringify({
        accounts: [{ siteId: 'demo42', secretKey: 'k', search: { catalogCheck: false } }],
      }),
    );
    const conflict = await check(file, '--catalog', `demo42=${feed}`, '--config', off);
    expect(conflict.code).toBe(2);
    expect(conflict.err).toContain(
      'turns that check off for it (accounts[0].search.catalogCheck: false): drop one of the two',
    );

    const noFile = await check(file, '--catalog', 'demo42');
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain('--catalog "demo42" must be SITE=FILE');
    const missing = await check(file, '--catalog', 'demo42=/no/such/feed.csv');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no such file "/no/such/feed.csv"');
    const empty = temp('empty.csv', '');
    const unreadable = await check(file, '--catalog', `demo42=${empty}`);
    expect(unreadable.code).toBe(2);
    expect(unreadable.err).toContain(`--catalog demo42=${empty}: the feed file is empty`);
  });

  it("names a product page that sends its URL handle for ids, on the catalog's page of a product, with the product's ids as the fix; the unknown ids follow from it", async () => {
    const view = {
      siteId: 'demo42',
      category: 'product',
      event: 'pageview',
      body: {
        context: {
          timestamp: '2026-11-29T06:00:00.000Z',
          initiator: 'athos/beaconjs/1.3.0',
          sessionId: 's1',
          userId: 'u1',
          pageLoadId: 'pl-1',
          pageUrl: 'https://shop.example/products/rain-shell-jacket',
        },
        data: { result: { uid: 'rain-shell-jacket', parentId: 'rain-shell-jacket' } },
      },
    };
    const feed = fixture('search', 'outdoor-products.csv');
    const res = await check(
      temp('handle.ndjson', JSON.stringify(view) + '\n'),
      '--catalog',
      `demo42=${feed}`,
      '--fail-on',
      'warning',
    );
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/warning pageview-other-url {2}\[line:1\]/);
    expect(res.out).toContain('which the catalog does not hold, but this page');
    expect(res.out).toContain("fix: render the product page's tracking script with the feed's ids");
    // the same ids not in the catalog are told after it, as following from it
    expect(res.out).toContain(
      '↳ warning item-not-in-catalog, follows from pageview-other-url  [line:1]',
    );
  });

  it('writes JUnit with one test case per page and failures carrying the findings', async () => {
    const res = await check(
      fixture('sessions', 'bad-order.ndjson'),
      fixture('sessions', 'good-redirect.ndjson'),
      '--format',
      'junit',
    );
    expect(res.code).toBe(1);
    expect(res.out.match(/<testcase /g)).toHaveLength(2);
    expect(res.out).toMatch(
      /<failure type="order" message="order: [^"]+">page [^\n]+\n1 error\n\n\[error\] order: /,
    );
  });

  it('--fail-on warning fails pages with warnings (exit 1, JUnit failures); the default fails on errors only', async () => {
    const warned = fixture('sessions', 'bad-duplicates.ndjson'); // warnings only
    expect((await check(warned)).code).toBe(0);
    expect((await check(warned, '--fail-on', 'error')).code).toBe(0);
    const strict = await check(warned, '--fail-on', 'warning');
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/^WARN .*0b6c1c1e-bad-duplicates/m);

    const lenient = await check(warned, '--format', 'junit');
    expect(lenient.out).toContain('failures="0"');
    expect(lenient.out).toMatch(/<system-out>page [^\n]+\n\n\[warning\] duplicate-render: /);
    const junit = await check(warned, '--format', 'junit', '--fail-on', 'warning');
    expect(junit.code).toBe(1);
    expect(junit.out).toContain('failures="1"');
    expect(junit.out).toMatch(
      /<failure type="duplicate-render" message="duplicate-render: [^"]+ \(and 1 more finding: duplicate-impression\)">page [^\n]+\n2 findings\n\n\[warning\] duplicate-render: /,
    );
    expect(junit.out).not.toMatch(/<system-out>[^<]*\[warning\]/);

    // a page that passes stays a pass however strict
    const good = fixture('sessions', 'good-search-scroll-click.ndjson');
    expect((await check(good, '--fail-on', 'warning')).code).toBe(0);

    const bad = await check(good, '--fail-on', 'fatal');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /^search-sandbox check: --fail-on "fatal" is not one of error, warning, info/,
    );
  });

  it('reads a sandbox export (GET /_sandbox/export) and a bare {events:[…]} file', async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    // the export of a sandbox that took nothing has nothing to check
    const empty = await check(
      temp('empty-export.json', await (await fetch(`${sandbox.url}/_sandbox/export`)).text()),
    );
    expect([empty.code, empty.out]).toEqual([2, '']);
    expect(empty.err).toMatch(
      /empty-export\.json has no beacon v2 event \(of any kind: .*\): nothing to check/,
    );
    const p = new PageBuilder({ pageLoadId: 'exported' });
    const now = Date.now() - Date.parse('2026-11-21T04:00:00.000Z');
    for (const e of [
      p.impression('r1', ['a'], { at: now }),
      p.click('r1', 'a', { at: now + 100 }),
    ]) {
      await postBeacon(sandbox.url, `demo42/search/${e.event}`, e.body);
    }
    const exported = await (await fetch(`${sandbox.url}/_sandbox/export`)).text();
    const res = await check(temp('export.json', exported));
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/^FAIL .*page exported/m);
    expect(res.out).toContain('missing-render');

    const bare = await check(
      temp('bare.json', JSON.stringify({ events: JSON.parse(exported).events })),
    );
    expect(bare.code).toBe(1);
  });

  it('judges the whole visit: product, cart and order lines (bare or wrapped) and an order counted twice', async () => {
    const ctx = (pageLoadId: string, at: string) => ({
      timestamp: at,
      sessionId: 's-1',
      userId: 'u-1',
      pageLoadId,
      pageUrl: `http://localhost:3000/${pageLoadId}`,
      initiator: 'athos/beaconjs/1.3.0',
      dev: true,
    });
    const item = { uid: '1030', parentId: 'P103', sku: 'S-1030', qty: 1, price: 20 };
    const order = (pageLoadId: string, at: string) => ({
      context: ctx(pageLoadId, at),
      data: { orderId: 'o-1', transactionTotal: 20, total: 22, results: [item] },
    });
    const lines = [
      {
        context: ctx('pdp', '2026-11-21T04:00:00Z'),
        data: { result: { uid: 'P103', parentId: 'P103' } },
      },
      {
        category: 'cart',
        event: 'add',
        body: {
          context: ctx('pdp', '2026-11-21T04:00:05Z'),
          data: { results: [item], cart: [item] },
        },
      },
      order('thanks', '2026-11-21T04:01:00Z'),
      order('thanks-again', '2026-11-21T04:09:00Z'),
    ].map((l) => JSON.stringify(l));
    const res = await check(temp('visit.ndjson', lines.join('\n') + '\n'));
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/^FAIL .*thanks-again/m);
    expect(res.out).toMatch(/error {3}order-duplicate/);
    expect(res.out).toContain('3 pages: 1 fail, 0 warn, 2 pass');
    const json = JSON.parse(
      (await check(temp('visit.ndjson', lines.join('\n')), '--format', 'json')).out,
    ) as TimelineReportDto;
    expect(json.pages.map((p) => p.pageKind)).toEqual(['product', 'order', 'order']);

    const cart = JSON.stringify({
      context: ctx('c', '2026-11-21T04:00:00Z'),
      data: { results: [item], cart: [] },
    });
    const unwrapped = await check(temp('cart.ndjson', cart + '\n'));
    expect(unwrapped.code).toBe(2);
    expect(unwrapped.err).toMatch(
      /cart\.ndjson:1: a cart body does not say whether it adds or removes/,
    );
  });

  it('names a product page of another product after a click on a product whose ids are one (uid = parentId = sku)', async () => {
    const ctx = (pageLoadId: string, at: string, path: string) => ({
      timestamp: at,
      sessionId: 's-1',
      userId: 'u-1',
      pageLoadId,
      pageUrl: `http://localhost:3000${path}`,
      initiator: 'athos/beaconjs/1.3.0',
      dev: true,
    });
    const line = (category: string, event: string, body: object) =>
      JSON.stringify({ siteId: 'demo42', category, event, body });
    const tile = { type: 'product', uid: 'P200', parentId: 'P200', sku: 'P200' };
    const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 4, 0, s)).toISOString();
    const search = (s: number) => ctx('search', at(s), '/search?q=jacket');
    const lines = [
      line('search', 'render', { context: search(0), data: { responseId: 'r1' } }),
      line('search', 'impression', {
        context: search(2),
        data: { responseId: 'r1', results: [tile], banners: [] },
      }),
      line('search', 'clickthrough', {
        context: search(4),
        data: { responseId: 'r1', results: [tile] },
      }),
      line('product', 'pageview', {
        context: ctx('pdp', at(5), '/products/rain-shell-jacket'),
        data: { result: { uid: 'rain-shell-jacket', parentId: 'rain-shell-jacket' } },
      }),
    ];
    const res = await check(temp('one-id.ndjson', lines.join('\n') + '\n'), '--fail-on', 'warning');
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/warning pageview-not-clicked/);
    expect(res.out).toContain(
      'names "rain-shell-jacket", but the shopper reached this page 1 s after clicking "P200" (',
    );
  });

  it('fails a page whose header banner is sent by name, not by its data-banner-id, and passes it by id', async () => {
    const session = (uid: string) => {
      const p = new PageBuilder({ pageLoadId: `banner-${uid}` });
      return [
        p.render('r1', { at: 0 }),
        p.impression('r1', ['a'], { at: 1_200 }, [uid]),
        p.bannerClick('r1', uid, { at: 3_000 }),
      ]
        .map((e) => JSON.stringify(e))
        .join('\n');
    };
    const bad = await check(temp('banner.ndjson', session('winter-sale') + '\n'));
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^FAIL .*banner-winter-sale/m);
    expect(bad.out).toMatch(/error {3}banner-uid-malformed {2}\[ev_\d+, ev_\d+\]/);
    expect(bad.out).toContain('data-banner-id');
    const good = await check(temp('banner-id.ndjson', session('81001') + '\n'));
    expect(good.code).toBe(0);
    expect(good.out).toContain('1 page: 0 fail, 0 warn, 1 pass');
  });

  it('reads NDJSON of bare beacon bodies, telling events apart by their fields', async () => {
    const p = new PageBuilder({ pageLoadId: 'bodies' });
    const lines = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 1_100 }),
      p.cart('r1', 'a', { at: 1_500 }),
      p.click('r1', 'a', { at: 3_000 }),
    ].map((e) => JSON.stringify(e.body));
    const res = await check(temp('bodies.ndjson', lines.join('\n') + '\n'), '--format', 'json');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.out) as TimelineReportDto;
    expect(report.pages[0]!.responses[0]!.events.map((e) => `${e.id}:${e.event}`)).toEqual([
      'line:1:render',
      'line:2:impression',
      'line:3:addtocart',
      'line:4:clickthrough',
    ]);
    expect(report.pages[0]!.verdict).toBe('pass');
  });

  it('checks every kind in a HAR of the provider client’s visit (category, autocomplete, search, widgets) and names a planted fault’s kind', async () => {
    const har = async (plant?: 'bundles-missing-render') => {
      const captured: Captured[] = [];
      vi.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      try {
        await kindsVisit(
          capturingFetch(captured),
          (ms) => vi.advanceTimersByTimeAsync(ms).then(() => {}),
          plant ? { plant } : {},
        );
      } finally {
        vi.useRealTimers();
      }
      return temp('visit.har', JSON.stringify(toHar(captured)));
    };
    const good = await check(await har(), '--format', 'json');
    expect(withoutUnjudged(good.err)).toBe('');
    expect(good.code).toBe(0);
    const report = JSON.parse(good.out) as TimelineReportDto;
    expect(report.pages.map((p) => p.responses.map((r) => r.kind))).toEqual([
      ['category', 'autocomplete', 'autocomplete'],
      ['search'],
      ['recommendations', 'bundles'],
    ]);
    expect(report.verdicts).toEqual({ pass: 3, warn: 0, fail: 0 });
    const bad = await check(await har('bundles-missing-render'));
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(
      /error {3}missing-render \(bundles "bundle-pdp" response "[^"]+"\) {2}\[entry:/,
    );
    expect(bad.out).toContain('2 responses: recommendations, bundles');
  });

  it('reads NDJSON lines of any kind: wrapped with their kind, or a bare body with data.tag as a recommendation widget’s', async () => {
    const p = new PageBuilder({ pageLoadId: 'kinds' });
    const cat = p.as('category');
    const rec = p.as('recommendations', 'similar');
    const lines = [
      JSON.stringify({ kind: 'category', event: 'render', body: cat.render('c1', { at: 0 }).body }),
      JSON.stringify({
        kind: 'category',
        event: 'impression',
        body: cat.impression('c1', ['a'], { at: 10 }).body,
      }),
      JSON.stringify(rec.render('w1', { at: 20 }).body),
      JSON.stringify(rec.impression('w1', ['b'], { at: 30 }).body),
    ];
    const res = await check(temp('kinds.ndjson', lines.join('\n') + '\n'), '--format', 'json');
    expect(withoutUnjudged(res.err)).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.out) as TimelineReportDto;
    expect(report.pages[0]!.responses.map((r) => [r.kind, r.tag ?? '', r.events.length])).toEqual([
      ['category', '', 2],
      ['recommendations', 'similar', 2],
    ]);
  });

  it("judges an export's beacons against the search responses it carries (provenance rules offline)", async () => {
    const p = new PageBuilder({ pageLoadId: 'with-search' });
    const events = [
      p.render('r-search', { at: 0 }),
      p.impression('r-search', ['P1', 'P1-RED'], { at: 100 }),
    ];
    const issued = {
      responseId: 'r-search',
      siteId: 'demo42',
      query: 'shirt',
      page: 1,
      perPage: 24,
      issuedAt: Date.parse('2026-11-21T03:59:59.000Z'),
      results: [{ uid: 'P1', sku: 'P1-RED', parentId: null, children: [] }],
      inline: [],
      slots: { header: [], banner: [], footer: [], left: [] },
      redirect: null,
      test: true,
    };
    const file = (search: unknown) =>
      temp(
        'export.json',
        JSON.stringify({ format: 'search-sandbox-export', version: 1, search, events }),
      );
    const res = await check(file({ responses: [issued] }));
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/error {3}item-not-in-response/);
    expect(res.out).toContain('that is the sku of result "P1": send its uid');
    // without the search section the same beacons cannot be judged: silent, as before
    expect((await check(file(undefined))).code).toBe(0);
    const broken = await check(file({ responses: [{ responseId: 'x' }] }));
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/search\.responses\[0\] is not an issued search response/);
    // a time from which the responses are complete that is not a time: exit 2, naming the field
    const badSince = await check(file({ responses: [issued], rememberedSince: 'yesterday' }));
    expect(badSince.code).toBe(2);
    expect(badSince.err).toContain(
      'search.rememberedSince is "yesterday": it must be a time in ms, as GET /_sandbox/export writes it',
    );
    // a recorded catalog that is not one: exit 2, naming the entry and the field
    const badCatalogs: Array<[unknown, RegExp]> = [
      [{}, /"search\.catalogs" is not a list/],
      [[{ siteId: 'demo42' }], /search\.catalogs\[0\] is not a recorded catalog/],
      [
        [{ siteId: 'demo42', products: [{ uid: '' }] }],
        /catalogs\[0\]\.products\[0\]: uid must be/,
      ],
      [
        [{ siteId: 'demo42', products: [{ uid: 'P1' }, { uid: 'P2', price: '9' }] }],
        /catalogs\[0\]\.products\[1\]: price must be a number/,
      ],
      [
        [{ siteId: 'demo42', products: [{ uid: 'P1', url: 7 }] }],
        /products\[0\]: url must be a string/,
      ],
    ];
    for (const [catalogs, message] of badCatalogs) {
      const res = await check(file({ responses: [issued], catalogs }));
      expect(res.code, String(message)).toBe(2);
      expect(res.err).toMatch(message);
    }
  });

  it("reads a data directory's events.ndjson as a sandbox started on it holds it: its resets and imports replayed", async () => {
    const page = (id: string, p: string) =>
      recorded(id, 'search/render', p, `https://shop.example/search?q=${p}`, {
        responseId: `r-${p}`,
      });
    const journal = [
      '{"journal":"search-sandbox events","version":1,"nextSeq":1}',
      page('ev_000000001', 'forgotten'),
      '{"reset":{"siteId":"demo42"},"nextSeq":2}',
      page('ev_000000002', 'kept'),
      '{"import":{"id":"i1","begin":true}}',
      `{"import":"i1","event":${page('ev_000000003', 'imported')}}`,
      '{"import":{"id":"i1","commit":true}}',
      '{"import":{"id":"i2","begin":true}}',
      `{"import":"i2","event":${page('ev_000000004', 'unfinished')}}`,
    ];
    const res = await check(temp('events.ndjson', `${journal.join('\n')}\n`), '--format', 'json');
    const report = JSON.parse(res.out) as { pages: Array<{ pageLoadId: string }> };
    expect(report.pages.map((p) => p.pageLoadId)).toEqual(['kept', 'imported']);
    expect(res.err).toMatch(
      /events journal .*events\.ndjson, line 8: an import that did not complete \(the process stopped during it, or it failed\) was undone: its 1 event is not restored/,
    );
  });

  it('exits 2 with one line naming the file (and line) for input it cannot read', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[path.join(ROOT, 'no-such-file.ndjson')], /no-such-file\.ndjson: no such file \(ENOENT\)/],
      [[temp('page.html', '<html></html>')], /page\.html:1: not JSON/],
      [
        [temp('broken.ndjson', '{"context":{},"data":{"responseId":"r"}}\n{oops\n')],
        /broken\.ndjson:2: not valid JSON/,
      ],
      [[temp('other.json', '{"hello":"world"}')], /other\.json:1: not a beacon body/],
      [
        [temp('notes.har', '{"log":{"version":"1.2"}}')],
        /notes\.har: not a HAR file: "log\.entries" is missing/,
      ],
      [
        [temp('nope.har', '{"log":{"version":"1.2","entries":"nope"}}')],
        /nope\.har: not a HAR file: "log\.entries" is a string, expected an array of entries, one per request/,
      ],
      [
        [temp('one.har', '{"log":1}')],
        /one\.har: not a HAR file: "log" is a number, expected an object with "entries"/,
      ],
      [[temp('empty.ndjson', '\n')], /empty\.ndjson: empty file/],
      // a recorded event's request fields are what the sandbox writes, or refused (not dropped)
      [
        [temp('type.ndjson', recordedLine({ contentType: 415 }))],
        /type\.ndjson:1: field contentType is 415: it must be a string, the Content-Type header as sent/,
      ],
      [
        [temp('up.ndjson', recordedLine({ upstream: { url: 'http://x', outcome: 'maybe' } }))],
        /up\.ndjson:1: field upstream\.outcome "maybe" must be one of accepted, rejected, unavailable, not-sent \(upstream is \{"url":/,
      ],
      [
        [temp('cut.ndjson', recordedLine({ bodyTruncated: { length: 10, kept: 20 } }))],
        /cut\.ndjson:1: field bodyTruncated is \{"length":10,"kept":20\}: it must be \{"length": N, "kept": K\} with K <= N/,
      ],
      [
        [
          temp(
            'verb.ndjson',
            recordedLine({ method: 'get', status: 405, accepted: false, errors: [] }),
          ),
        ],
        /verb\.ndjson:1: field method is "get": it must be an HTTP method as a request line carries it \(e\.g\. "OPTIONS", "GET"\); leave it out when the request was a POST/,
      ],
      [
        [
          temp(
            'got.ndjson',
            recordedLine({ method: 'GET', status: 200, accepted: true, errors: [] }),
          ),
        ],
        /got\.ndjson:1: field method is "GET": it is GET with status 200: the service accepts POST only/,
      ],
      // a visit recorded while the storefront's tracking never fired: its page and assets, no beacon
      [
        [
          temp(
            'no-tracking.har',
            JSON.stringify({
              log: {
                version: '1.2',
                entries: [
                  {
                    startedDateTime: '2026-11-29T10:00:00.000Z',
                    request: {
                      method: 'GET',
                      url: 'https://shop.example/search?q=shoe',
                      headers: [],
                    },
                    response: { status: 200, headers: [], content: { mimeType: 'text/html' } },
                  },
                ],
              },
            }),
          ),
        ],
        /no-tracking\.har has no beacon v2 event \(of any kind: a search, a product view, a cart, an order, …\): nothing to check\. Record the storefront with its tracking on/,
      ],
      [[], /no input file given/],
      // a rule given twice is refused as a --format given twice is: the last one silently winning would
      // run with a level the user may not have meant
      ...(['error', 'off'] as const).map((first): [string[], RegExp] => [
        [
          fixture('har', 'storefront-visit.har'),
          '--rule',
          `no-impression=${first}`,
          '--rule',
          `no-impression=${first === 'off' ? 'error' : 'off'}`,
        ],
        new RegExp(
          `--rule no-impression is given twice, as ${first} and as ${first === 'off' ? 'error' : 'off'}: give each rule once, with the level you mean`,
        ),
      ]),
      [
        [
          fixture('har', 'storefront-visit.har'),
          '--rule',
          'no-impression=off',
          '--rule',
          'no-impression=off',
        ],
        /--rule no-impression=off is given twice: give each rule once$/m,
      ],
      [
        [fixture('har', 'storefront-visit.har'), '--format'],
        /--format needs a value: give one of text, json, junit \(--format junit\)/,
      ],
      [
        [fixture('har', 'storefront-visit.har'), '--fail-on'],
        /--fail-on needs a value: give one of error, warning, info \(--fail-on warning\)/,
      ],
      [
        [path.join(ROOT, 'nope.json')],
        /nope\.json: no such file \(ENOENT\): give a recording file \(NDJSON of events, a sandbox export, a HAR or a baseline file\), or - for standard input$/m,
      ],
      [
        [fixture('har', 'storefront-visit.har'), '--format', 'xml'],
        /--format "xml" is not one of text, json, junit/,
      ],
      [['--colour'], /unknown flag --colour: the flags are --format, --fail-on/],
    ];
    for (const [args, message] of cases) {
      const res = await check(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.err).toMatch(message);
      expect(res.err.trim().split('\n')[0]).toMatch(/^search-sandbox check: /);
      expect(res.out).toBe('');
    }
  });

  it('names a file without beacon events among others, and checks the others', async () => {
    const none = temp('no-events.har', JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const res = await check(none, fixture('sessions', 'good-quick-add.ndjson'));
    expect(res.code).toBe(0);
    expect(res.err).toMatch(/no-events\.har: no beacon v2 event found\n/);
    expect(res.out).toContain('1 page: 0 fail, 0 warn, 1 pass');
    const other = temp('other.har', JSON.stringify({ log: { version: '1.2', entries: [] } }));
    const both = await check(none, other);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(
      /^search-sandbox check: none of .*no-events\.har, .*other\.har has a beacon v2 event \(of any kind: .*\): nothing to check/,
    );
    expect(both.out).toBe('');
  });

  it('runs as the installed command (built CLI): exit code and output', () => {
    const bin = path.join(ROOT, 'bin/search-sandbox.js');
    const bad = spawnSync(
      process.execPath,
      [bin, 'check', fixture('sessions', 'bad-context-drift.ndjson')],
      { encoding: 'utf8' },
    );
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('context-drift');
    const missing = spawnSync(process.execPath, [bin, 'check', 'nope.har'], { encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      'search-sandbox check: nope.har: no such file (ENOENT): give a recording file (NDJSON of events, a sandbox export, a HAR or a baseline file), or - for standard input\n',
    );
  });
});
