// The README's CDN install, run in Chromium with the provider's real CDN build of beacon.js
// (@athoscommerce/beacon's dist/cdn/beacon.js, served where the README's script tag points): the tracker it
// creates is swapped for one sending to the sandbox, its first beacon lands on a timeline, and nothing goes
// to the provider's hosts.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/main/api/index';
import { beaconCdnSnippet } from '../../src/shared/snippets';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { fileBrowser, skipReason } from './helpers/ui';

const skip = skipReason();
const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const CDN_BUILD = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@athoscommerce/beacon/package.json')),
  'dist/cdn/beacon.js',
);

let sandbox: StartedSandbox;
let chrome: Awaited<ReturnType<typeof fileBrowser>> | undefined;
let browser: Browser;
let shop: http.Server;
let shopUrl: string;
let pageHtml = '';

beforeAll(async () => {
  if (skip) return;
  sandbox = await startSandbox();
  shop = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml),
  );
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/search?q=shoes`;
  chrome = await fileBrowser();
  browser = chrome.browser;
});

afterAll(async () => {
  await chrome?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

describe.skipIf(skip)('the CDN beacon.js pointed at the sandbox (README)', () => {
  it('is the snippet the README shows', () => {
    const block = /```html\n([\s\S]*?)```/.exec(README)?.[1];
    expect(block?.trim()).toBe(beaconCdnSnippet('http://127.0.0.1:4545', 'demo42'));
  });

  it('sends the real CDN tracker’s beacons to the sandbox, where they land on a timeline', async () => {
    pageHtml = `<!doctype html><html><head><title>shop</title>
${beaconCdnSnippet(sandbox.url, 'demo42')}
</head><body><script>
  window.athos.tracker.events.search.render({ data: { responseId: 'cdn-r1' } });
</script></body></html>`;
    const context = await browser.newContext();
    const toProvider: string[] = [];
    await context.route('https://cdn.athoscommerce.net/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: readFileSync(CDN_BUILD, 'utf8') }),
    );
    await context.route(
      /analytics\.(athoscommerce|searchspring)\.net|\.a\.searchspring\.io/,
      (route) => {
        toProvider.push(route.request().url());
        return route.abort();
      },
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(shopUrl);

    const seen = await sandbox.waitForEvents({
      siteId: 'demo42',
      event: 'render',
      timeout: 10_000,
    });
    const [render] = seen;
    expect(render!.accepted).toBe(true);
    const context0 = (render!.body as { context: Record<string, unknown> }).context;
    expect(context0.initiator).toMatch(/cdn\/beaconjs\//);
    expect(context0.dev).toBe(true);
    expect(context0.pageUrl).toBe(shopUrl);
    const pages = (await sandbox.timelines({ siteId: 'demo42' })) as PageTimelineDto[];
    const shown = pages.find((p) => p.responses.some((r) => r.responseId === 'cdn-r1'));
    expect(shown?.pageUrl).toBe(shopUrl);
    expect(toProvider).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
