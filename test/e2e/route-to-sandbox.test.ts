// routeToSandbox in real Chromium: requests a page makes to the provider's production hosts reach the
// sandbox with their bytes, content type and origin intact, and the page reads the sandbox's answers
// exactly as the sandbox sent them. Other hosts are left alone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/main/api/index';
import { routeToSandbox, sandboxUrlFor } from '../../src/main/api/playwright';
import { fileBrowser, skipReason } from './helpers/ui';

const skip = skipReason();
let sandbox: StartedSandbox;
let chrome: Awaited<ReturnType<typeof fileBrowser>> | undefined;
let browser: Browser;
let shop: http.Server;
let shopUrl: string;
let context: BrowserContext;
let page: Page;

interface Answer {
  status: number;
  type: string | null;
  text: string;
}

/** Run fetch in the page, as a storefront script would, and read the answer. */
function pageFetch(url: string, init: { method?: string; body?: string; type?: string } = {}) {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, {
          method: init.method ?? 'GET',
          body: init.body,
          headers: init.type ? { 'content-type': init.type } : {},
        });
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          text: await res.text(),
        };
      } catch (err) {
        return { status: 0, type: null, text: String(err) };
      }
    },
    { url, init },
  ) as Promise<Answer>;
}

/** The same request straight to the sandbox from Node, for comparison. */
async function direct(path: string, init: { method?: string; body?: string; type?: string } = {}) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: init.method ?? 'GET',
    body: init.body,
    headers: { ...(init.type ? { 'content-type': init.type } : {}), origin: shopUrl },
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

beforeAll(async () => {
  if (skip) return;
  sandbox = await startSandbox();
  shop = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title>'),
  );
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  chrome = await fileBrowser();
  browser = chrome.browser;
});

afterAll(async () => {
  await context?.close();
  await chrome?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
});

beforeEach(async () => {
  if (skip) return;
  await context?.close();
  await sandbox.reset();
  context = await browser.newContext();
  page = await context.newPage();
  await page.goto(shopUrl);
});

const context0 = {
  timestamp: '2026-11-21T04:00:00.000Z',
  pageUrl: 'https://shop.example/search?q=jäcket',
  userId: 'u1',
  sessionId: 's1',
  pageLoadId: 'p1',
  initiator: 'route-test',
};

describe.skipIf(skip)('routeToSandbox', () => {
  it('carries beacons byte for byte to the sandbox, from either analytics host', async () => {
    await routeToSandbox(context, sandbox);
    // odd spacing and non-ASCII: the sandbox must see exactly these bytes
    const body = `{"context": ${JSON.stringify(context0)},\n  "data": {"responseId": "r-ü"}}`;
    for (const host of ['analytics.athoscommerce.net', 'analytics.searchspring.net']) {
      const answer = await pageFetch(`https://${host}/beacon/v2/demo42/search/render`, {
        method: 'POST',
        body,
        type: 'text/plain;charset=UTF-8',
      });
      expect(answer).toEqual({ status: 200, type: expect.any(String), text: '{"success":true}' });
    }
    const events = await sandbox.events({ event: 'render' });
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e).toMatchObject({
        accepted: true,
        contentType: 'text/plain;charset=UTF-8',
        origin: shopUrl,
        path: '/beacon/v2/demo42/search/render',
      });
      expect((e.body as { data: { responseId: string } }).data.responseId).toBe('r-ü');
    }
  });

  it("answers the page with the sandbox's own status, content type and body", async () => {
    await routeToSandbox(page, sandbox);
    const bad = 'not json: ü {';
    const init = { method: 'POST', body: bad, type: 'text/plain' };
    const path = '/beacon/v2/demo42/search/impression';
    const viaRoute = await pageFetch(`https://analytics.athoscommerce.net${path}`, init);
    expect(viaRoute.status).toBe(400);
    expect(viaRoute).toEqual(await direct(path, init));
    expect(JSON.parse(viaRoute.text)).toMatchObject({
      error: 'ValidationError',
      messages: ['invalid JSON POST body'],
    });

    const search = '/api/search/search.json?siteId=demo42&q=jacket&beacon=true';
    const found = await pageFetch(`https://demo42.a.searchspring.io${search}`);
    expect(found.status).toBe(200);
    expect(found.type).toMatch(/application\/json/);
    const issued = (JSON.parse(found.text) as { responseId: string }).responseId;
    expect(await sandbox.searchResponse(issued)).toMatchObject({ responseId: issued });
    const meta = await pageFetch(
      'https://demo42.a.searchspring.io/api/meta/meta.json?siteId=demo42',
    );
    expect(meta).toEqual(await direct('/api/meta/meta.json?siteId=demo42'));
  });

  it('preflights what a browser would, so an application/json beacon fails as in production and the sandbox names it', async () => {
    await routeToSandbox(context, sandbox);
    const body = JSON.stringify({ context: context0, data: { responseId: 'r1' } });
    const beacon = 'https://analytics.athoscommerce.net/beacon/v2/demo42/search/render';
    const json = await pageFetch(beacon, { method: 'POST', body, type: 'application/json' });
    // the browser's failed preflight: fetch rejects, no answer
    expect(json).toMatchObject({ status: 0, text: expect.stringMatching(/TypeError/) });
    const recorded = await sandbox.events();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      method: 'OPTIONS',
      status: 405,
      origin: shopUrl,
      body: null,
    });
    const [refused] = await sandbox.timelines();
    expect(refused!.findings.map((f) => f.rule)).toEqual(['request-refused']);

    // text/plain needs no preflight, and a search API GET passes its preflight-free way too
    const plain = await pageFetch(beacon, { method: 'POST', body, type: 'text/plain' });
    expect(plain.status).toBe(200);
    // a preflighted request the sandbox allows goes on (the search API answers OPTIONS with CORS)
    const search = await pageFetch(
      'https://demo42.a.searchspring.io/api/search/search.json?siteId=demo42&q=jacket',
      { method: 'POST', body: '{}', type: 'application/json' },
    );
    expect(search.status).not.toBe(0);
    expect(
      (await sandbox.events()).filter((e) => e.method === 'OPTIONS').map((e) => e.path),
    ).toEqual(['/beacon/v2/demo42/search/render']);
  });

  it('leaves other hosts alone, and stops when the route is removed', async () => {
    const unroute = await routeToSandbox(context, sandbox);
    const elsewhere = await pageFetch('https://shop.invalid/beacon/v2/demo42/search/render', {
      method: 'POST',
      body: '{}',
      type: 'text/plain',
    });
    expect(elsewhere.status).toBe(0); // a network error: not routed, and that host does not exist
    await unroute();
    const after = await pageFetch(
      'https://analytics.athoscommerce.net/beacon/v2/demo42/search/render',
      {
        method: 'POST',
        body: '{}',
        type: 'text/plain',
      },
    );
    expect(after.status).toBe(0);
    expect(await sandbox.events()).toEqual([]);
  });
});

describe('sandboxUrlFor', () => {
  const base = 'http://127.0.0.1:4545';
  it("maps every production host the provider's clients use", () => {
    for (const url of [
      'https://analytics.athoscommerce.net/beacon/v2/abc123/search/render',
      'https://analytics.searchspring.net/beacon/v2/abc123/search/render',
      'https://abc123.a.searchspring.io/api/search/search.json?siteId=abc123&q=x',
      'https://abc123.a.p13n.searchspring.io/boost/abc123/recommend?tags=x',
      'https://at1234.a.athoscommerce.net/v1/preflight',
    ])
      expect(sandboxUrlFor(url, `${base}/`)).toBe(`${base}${url.replace(/^https:\/\/[^/]+/, '')}`);
  });

  it('maps nothing else: other hosts, look-alikes, plain http', () => {
    for (const url of [
      'https://shop.example/beacon/v2/abc123/search/render',
      'https://analytics.athoscommerce.net.evil.example/beacon/v2/x',
      'https://a.searchspring.io/api/search/search.json',
      'http://analytics.athoscommerce.net/beacon/v2/abc123/search/render',
    ])
      expect(sandboxUrlFor(url, base)).toBeNull();
  });

  it('refuses what is not a URL, naming the call, the argument, the value and an example', async () => {
    const example =
      "e.g. sandboxUrlFor('https://demo42.a.searchspring.io/api/search/search.json?q=shoes', sandbox.url)";
    expect(() => sandboxUrlFor('not a url', base)).toThrow(
      new TypeError(
        `sandboxUrlFor: url "not a url" is not an absolute URL (https://host/path…: a request's URL); ${example}`,
      ),
    );
    expect(() => sandboxUrlFor(42 as never, base)).toThrow(
      new TypeError(
        `sandboxUrlFor: url 42 must be a URL (a string such as a request.url(), or a URL object); ${example}`,
      ),
    );
    const url = 'https://analytics.athoscommerce.net/beacon/v2/abc123/search/render';
    expect(() => sandboxUrlFor(url, 'not a url')).toThrow(
      new TypeError(
        `sandboxUrlFor: sandboxUrl "not a url" is not a URL: pass the sandbox's address, e.g. http://127.0.0.1:4545`,
      ),
    );
    expect(() => sandboxUrlFor(url, { url: base } as never)).toThrow(
      new TypeError(
        `sandboxUrlFor: sandboxUrl {"url":"${base}"} must be the sandbox's URL (a string, e.g. sandbox.url); ${example}`,
      ),
    );
    // routeToSandbox says it before it routes anything
    const target = { route: () => undefined, unroute: () => undefined } as unknown as Page;
    await expect(routeToSandbox(target, 'localhost:4545')).rejects.toThrow(
      new TypeError(
        `routeToSandbox: sandbox "localhost:4545" must be an http:// or https:// address, e.g. http://127.0.0.1:4545`,
      ),
    );
  });

  it('routeToSandbox refuses a target that is not a Page or BrowserContext, naming it, before it routes anything', async () => {
    const takes =
      'must be a Playwright Page or BrowserContext (what has route() and unroute()); e.g. routeToSandbox(page, sandbox), or routeToSandbox(context, sandbox) for every page of a context';
    for (const [target, said] of [
      [{}, '{}'],
      [undefined, 'nothing'],
      [null, 'null'],
      ['page', '"page"'],
    ] as const)
      await expect(routeToSandbox(target as never, base)).rejects.toThrow(
        new TypeError(`routeToSandbox: target ${said} ${takes}`),
      );
  });
});
