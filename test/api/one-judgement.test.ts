// One judgement: for any recording, the live sandbox and `check` of its export give the same findings
// (rule, severity, events, message, causedBy), page by page. Every corpus recording (the provider's client
// and planted faults) and every sample session goes in live (imported), comes out as the sandbox's export,
// and is checked offline; requests the sandbox refused over HTTP (404, 405, 413, 415) are checked by the
// built command, which must read back what made each one refused (path, Content-Type).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import { check, tempFile } from '../helpers/check';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { CLI, runCli } from './cli-process';

const FIXTURES = path.resolve(__dirname, '../../fixtures');
const recordings = [
  ...readdirSync(path.join(FIXTURES, 'corpus'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join('corpus', f)),
  ...readdirSync(path.join(FIXTURES, 'sessions'))
    .filter((f) => f.endsWith('.ndjson'))
    .map((f) => path.join('sessions', f)),
];

let sandbox: Sandbox;
const cleanups: Array<() => unknown> = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  for (const c of cleanups) c();
});

/** What must not differ: per page, each finding's rule, severity, events, message and cause. */
function gist(pages: PageTimelineDto[]) {
  return Object.fromEntries(
    pages
      .map((p) => [
        p.pageLoadId,
        p.findings.map((f) => ({
          rule: f.rule,
          severity: f.severity,
          eventIds: [...f.eventIds].sort(),
          message: f.message,
          causedBy: f.causedBy ?? null,
        })),
      ])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

describe('the live sandbox and check of its export judge alike', () => {
  it.each(recordings)('%s', async (file) => {
    const base = sandbox.url;
    expect((await fetch(`${base}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    const imported = await fetch(`${base}/_sandbox/import?replace=true`, {
      method: 'POST',
      body: readFileSync(path.join(FIXTURES, file), 'utf8'),
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    // live: the report judges every page as finished, as check does
    const live = (await (
      await fetch(`${base}/_sandbox/report?format=json`)
    ).json()) as TimelineReportDto;
    const exported = await (await fetch(`${base}/_sandbox/export`)).text();
    const offline = await check(tempFile(cleanups, 'export.json', exported), '--format', 'json');
    expect(offline.code, offline.err).toBeLessThan(2);
    const checked = JSON.parse(offline.out) as TimelineReportDto;
    expect(gist(checked.pages)).toEqual(gist(live.pages));
    expect(live.pages.map((p) => p.pageLoadId).sort()).toEqual(
      checked.pages.map((p) => p.pageLoadId).sort(),
    );
  });
});

/** A search render of page `pageLoadId`, as text. */
function render(pageLoadId: string, responseId = 'r1'): string {
  return JSON.stringify({
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=x',
      userId: 'u1',
      sessionId: 's1',
      pageLoadId,
      initiator: 'test',
      dev: true,
    },
    data: { responseId },
  });
}

/** A request as a storefront may send it; no `contentType` sends none (a byte body gets no default). */
function send(base: string, method: string, path: string, text: string, contentType?: string) {
  return fetch(`${base}${path}`, {
    method,
    ...(contentType !== undefined && { headers: { 'Content-Type': contentType } }),
    ...(method !== 'GET' && { body: new TextEncoder().encode(text) }),
  });
}

describe('requests refused live, and check of the export by the built command', () => {
  it('names the same status, path and Content-Type for each', async () => {
    if (!existsSync(CLI))
      throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
    const base = sandbox.url;
    expect((await fetch(`${base}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    const render_ = '/beacon/v2/demo42/search/render';
    const sent: Array<[number, Response]> = [
      [200, await send(base, 'POST', render_, render('p-refused'), 'text/plain')],
      // two 415s on one page: only their Content-Type tells them apart
      [415, await send(base, 'POST', render_, render('p-refused'), 'application/xml')],
      [415, await send(base, 'POST', render_, render('p-refused'))],
      [
        404,
        await send(base, 'POST', '/beacon/v2/BAD/search/render', render('p-404'), 'text/plain'),
      ],
      [
        404,
        await send(base, 'POST', '/beacon/v2/demo42/search/rendr', render('p-404'), 'text/plain'),
      ],
      // the siteId left out: the path as sent is not one the event's parts would rebuild
      [404, await send(base, 'POST', '/beacon/v2/search/render', render('p-404'), 'text/plain')],
      [405, await send(base, 'GET', render_, '')],
      [
        413,
        await send(base, 'POST', render_, render('p-413', 'x'.repeat(1_100_000)), 'text/plain'),
      ],
    ];
    for (const [status, res] of sent) expect(res.status, await res.text()).toBe(status);
    const live = (await (
      await fetch(`${base}/_sandbox/report?format=json`)
    ).json()) as TimelineReportDto;
    const refused = live.pages
      .flatMap((p) => p.findings)
      .filter((f) => f.rule === 'request-refused');
    expect(refused.map((f) => f.message).join('\n')).toMatch(
      /1 request refused \(ev_\d+\): its Content-Type is "application\/xml"/,
    );
    expect(refused.map((f) => f.message).join('\n')).toMatch(/its Content-Type is missing/);
    expect(refused.map((f) => f.message).join('\n')).toMatch(
      /its path \/beacon\/v2\/BAD\/search\/render has no valid siteId/,
    );
    expect(refused.map((f) => f.message).join('\n')).toMatch(
      /its path \/beacon\/v2\/search\/render is not a beacon v2 endpoint/,
    );

    const { dir, cleanup } = tempDir('one-judgement-');
    cleanups.push(cleanup);
    writeFileSync(
      path.join(dir, 'beacons.json'),
      await (await fetch(`${base}/_sandbox/export`)).text(),
    );
    const { code, stdout, stderr } = await runCli(
      ['check', 'beacons.json', '--format', 'json'],
      dir,
    );
    expect(code, stderr).toBe(1);
    expect(gist((JSON.parse(stdout) as TimelineReportDto).pages)).toEqual(gist(live.pages));
  });
});

describe('a visit whose clicks and quick adds the visit rules read, live and by the built command', () => {
  it('gets the same findings: pageview-not-clicked and price-unit-mismatch among them', async () => {
    if (!existsSync(CLI))
      throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
    const base = sandbox.url;
    expect((await fetch(`${base}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    const search = { responseId: 'r-visit' };
    const t0 = Date.now() - 60_000;
    const context = (pageLoadId: string, ms: number, pageUrl: string) => ({
      timestamp: new Date(t0 + ms).toISOString(),
      pageUrl,
      userId: 'u-visit',
      sessionId: 's-visit',
      pageLoadId,
      initiator: 'athos/beaconjs/1.3.0',
    });
    const listing = 'https://shop.example/search?q=shoes';
    const pdp = 'https://shop.example/p/P103';
    const item = (uid: string, price: number) => ({
      uid,
      parentId: uid,
      sku: `SKU-${uid}`,
      qty: 1,
      price,
    });
    const beacons: Array<[string, object]> = [
      [
        'search/render',
        { context: context('pl-search', 0, listing), data: { responseId: search.responseId } },
      ],
      [
        'search/addtocart',
        {
          context: context('pl-search', 1_500, listing),
          data: { responseId: search.responseId, results: [item('P105', 12.5)] },
        },
      ],
      // a click on P999, then (1.5 s on) the product page of P103
      [
        'search/clickthrough',
        {
          context: context('pl-search', 2_000, listing),
          data: {
            responseId: search.responseId,
            results: [{ type: 'product', uid: 'P999', parentId: 'P999', sku: 'SKU-999' }],
          },
        },
      ],
      [
        'product/pageview',
        {
          context: context('pl-pdp', 3_500, pdp),
          data: { result: { uid: 'P103', parentId: 'P103', sku: 'SKU-103' } },
        },
      ],
      // the cart globals in cents where the quick add carried units
      [
        'cart/add',
        {
          context: context('pl-pdp', 3_600, pdp),
          data: {
            results: [{ ...item('P105', 1250), qty: 1 }],
            cart: [{ ...item('P105', 1250), qty: 2 }],
          },
        },
      ],
    ];
    for (const [endpoint, body] of beacons) {
      const res = await postBeacon(base, `demo42/${endpoint}`, body);
      expect(res.status, await res.text()).toBe(200);
    }
    const live = (await (
      await fetch(`${base}/_sandbox/report?format=json`)
    ).json()) as TimelineReportDto;
    const rules = (pages: PageTimelineDto[]) =>
      pages.flatMap((p) => p.findings.map((f) => `${p.pageLoadId} ${f.rule}`));
    expect(rules(live.pages)).toEqual(
      expect.arrayContaining(['pl-pdp pageview-not-clicked', 'pl-pdp price-unit-mismatch']),
    );
    const { dir, cleanup } = tempDir('one-judgement-');
    cleanups.push(cleanup);
    writeFileSync(
      path.join(dir, 'visit.json'),
      await (await fetch(`${base}/_sandbox/export`)).text(),
    );
    const json = await runCli(['check', 'visit.json', '--format', 'json'], dir);
    expect(json.code, json.stderr).toBe(1);
    expect(gist((JSON.parse(json.stdout) as TimelineReportDto).pages)).toEqual(gist(live.pages));
    // the text report (findings only) judges it alike
    const text = await runCli(['check', 'visit.json', '--fail-on', 'warning'], dir);
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toMatch(/warning pageview-not-clicked {2}\[/);
    expect(text.stdout).toMatch(/error {3}price-unit-mismatch {2}\[/);
  });
});
