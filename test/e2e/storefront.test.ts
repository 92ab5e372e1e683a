// End to end in Chromium: a small storefront (test/e2e/storefront, bundled here with vite) searches through
// the provider's Snap client against the sandbox's companion search API and tracks with the provider's beacon
// client. Done right, its pages pass with zero findings; each planted defect yields exactly its finding.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { startSandbox, tempDir, testConfig } from '../helpers/sandbox';
import { runToEnd, upload } from '../api/indexing-helpers';
import { fileBrowser, skipReason } from './helpers/ui';
import { serveDir, type StaticServer } from './helpers/static-server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STOREFRONT = path.join(HERE, 'storefront');
const FEED = path.resolve(HERE, '../../fixtures/search/outdoor-products.csv');

const skip = skipReason();
let sandbox: Sandbox;
let chrome: Awaited<ReturnType<typeof fileBrowser>> | undefined;
let browser: Browser;
let shop: StaticServer;
let shopUrl: string;
const out = tempDir('search-sandbox-storefront-');

beforeAll(async () => {
  if (skip) return;
  await build({
    root: STOREFRONT,
    configFile: false,
    logLevel: 'silent',
    base: './',
    build: { outDir: out.dir, emptyOutDir: true, minify: false },
  });
  shop = await serveDir(out.dir);
  shopUrl = shop.url;
  // demo42 as a site whose storefront searches through the sandbox: responseid-unknown applies too
  const base = testConfig();
  sandbox = await startSandbox({
    accounts: base.accounts.map((a) => ({ ...a, search: { ...a.search!, companion: true } })),
  });
  expect(
    (await upload(sandbox.url, 'feedId=42', await readFile(FEED), 'outdoor-products.csv')).status,
  ).toBe(200);
  expect((await runToEnd(sandbox, 42)).state).toBe('done');
  chrome = await fileBrowser();
  browser = chrome.browser;
});

afterAll(async () => {
  await chrome?.close();
  await sandbox?.close();
  await shop?.close();
  out.cleanup();
});

interface StorefrontState {
  searches: number;
  impressed: string[];
  clicked: string[];
  redirected: string | null;
  error: string | null;
}

/** A fresh browser profile per page load (the beacon client keeps ids in cookies and storage). */
async function openStorefront(
  query: Record<string, string>,
): Promise<{ page: Page; run: string; close: () => Promise<void> }> {
  const run = randomUUID();
  const context = await browser.newContext({ viewport: { width: 900, height: 640 } });
  const page = await context.newPage();
  const qs = new URLSearchParams({ sandbox: sandbox.url, run, ...query });
  await page.goto(`${shopUrl}/index.html?${qs}`);
  return { page, run, close: () => context.close() };
}

const state = (page: Page) => page.evaluate('window.__storefront') as Promise<StorefrontState>;

async function waitForSearch(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    `window.__storefront && (window.__storefront.searches >= ${n} || window.__storefront.error)`,
  );
  const s = await state(page);
  if (s.error) throw new Error(`the storefront's search failed: ${s.error}`);
}

/** Scroll every tile and banner of the current results into view, waiting for each to be impressed. */
async function scrollThrough(page: Page): Promise<void> {
  const targets = page.locator(
    '#slot-header > *, #slot-banner > *, #slot-left > *, #results > li, #slot-footer > *',
  );
  const n = await targets.count();
  for (let i = 0; i < n; i++) {
    const el = targets.nth(i);
    await el.scrollIntoViewIfNeeded();
    const uid = await el.getAttribute('data-uid');
    const item = await el.getAttribute('data-item');
    const reported = item ? (JSON.parse(item) as { uid: string }).uid : uid;
    await page.waitForFunction(
      `window.__storefront.impressed.includes(${JSON.stringify(reported)})`,
    );
  }
}

async function pageTimeline(run: string): Promise<PageTimelineDto | undefined> {
  const res = await fetch(`${sandbox.url}/_sandbox/timelines?siteId=demo42`);
  const { pages } = (await res.json()) as { pages: PageTimelineDto[] };
  return pages.find((p) => p.pageUrl.includes(run));
}

/**
 * The page's timeline once every impression, click and redirect the storefront made has been recorded
 * (polled with the calling test's own `expect`: the tests run side by side).
 */
async function settledTimeline(
  expect: ExpectStatic,
  page: Page,
  run: string,
): Promise<PageTimelineDto> {
  const s = await state(page);
  let last: PageTimelineDto | undefined;
  await expect
    .poll(
      async () => {
        last = await pageTimeline(run);
        if (!last) return false;
        const events = last.responses.flatMap((r) => r.events);
        const impressed = new Set(
          events
            .filter((e) => e.event === 'impression')
            .flatMap((e) => [...e.uids, ...e.bannerUids]),
        );
        const clicked = new Set(
          events.filter((e) => e.event === 'clickthrough').flatMap((e) => e.uids),
        );
        return (
          s.impressed.every((u) => impressed.has(u)) &&
          s.clicked.every((u) => clicked.has(u)) &&
          (s.redirected === null || events.some((e) => e.event === 'redirect'))
        );
      },
      { timeout: 15_000, interval: 100 },
    )
    .toBe(true);
  return last!;
}

async function searchScrollClick(query: Record<string, string>) {
  const sf = await openStorefront({ q: 'jacket', ...query });
  await waitForSearch(sf.page, 1);
  await scrollThrough(sf.page);
  await sf.page.locator('#results > li[data-kind="product"]').nth(1).click();
  return sf;
}

// Each test is one page load in its own browser context, found on the timelines by its own run id: the
// pages load side by side, each waiting out its tiles' second in view at the same time as the others.
describe.skipIf(skip)(
  'a storefront on the companion search API, in Chromium',
  { concurrent: true },
  () => {
    it('search, render, impressions as tiles scroll into view, a clickthrough: pass with zero findings', async ({
      expect,
    }) => {
      const sf = await searchScrollClick({});
      try {
        const t = await settledTimeline(expect, sf.page, sf.run);
        const s = await state(sf.page);
        // header, banner, left and footer banners, three results and the inline banner were all reported
        expect(s.impressed.sort()).toEqual([
          '81001',
          '81002',
          '81003',
          '81004',
          '81005',
          'P200',
          'P201',
          'P202',
        ]);
        expect(s.clicked).toEqual(['P201']);
        const kinds = t.responses.flatMap((r) => r.events.map((e) => e.event));
        expect(new Set(kinds)).toEqual(new Set(['render', 'impression', 'clickthrough']));
        expect(t.responses).toHaveLength(1);
        expect(t.counts.rejected).toBe(0);
        expect(t.findings).toEqual([]);
        expect(t.verdict).toBe('pass');
      } finally {
        await sf.close();
      }
    });

    it('a redirect keyword: the redirect is reported as returned, pass with zero findings', async ({
      expect,
    }) => {
      const sf = await openStorefront({ q: 'gift card' });
      try {
        await sf.page.waitForFunction('window.__storefront.redirected !== null');
        const t = await settledTimeline(expect, sf.page, sf.run);
        expect(t.responses.flatMap((r) => r.events).map((e) => [e.event, e.redirect])).toEqual([
          ['redirect', '/pages/gift-cards'],
        ]);
        expect(t.findings).toEqual([]);
      } finally {
        await sf.close();
      }
    });

    it('a wrong uid (a variant sku) yields item-not-in-response', async ({ expect }) => {
      const sf = await searchScrollClick({ break: 'uid' });
      try {
        const t = await settledTimeline(expect, sf.page, sf.run);
        expect(t.findings.map((f) => [f.rule, f.severity])).toEqual([
          ['item-not-in-response', 'error'],
        ]);
        expect(t.findings[0]!.message).toContain('uid "P201-BLU-S"');
        expect(t.findings[0]!.message).toContain('the sku of variant "2011" of result "P201"');
      } finally {
        await sf.close();
      }
    });

    it('an inline banner in data.banners yields inline-banner-in-banners', async ({ expect }) => {
      const sf = await searchScrollClick({ break: 'banner' });
      try {
        const t = await settledTimeline(expect, sf.page, sf.run);
        expect(t.findings.map((f) => [f.rule, f.severity])).toEqual([
          ['inline-banner-in-banners', 'error'],
        ]);
        expect(t.findings[0]!.message).toContain('uid "81005"');
      } finally {
        await sf.close();
      }
    });

    it('a stale responseId after a second search yields item-not-in-response naming the later response', async ({
      expect,
    }) => {
      const sf = await searchScrollClick({ break: 'stale' });
      try {
        await sf.page.fill('#q', 'trail');
        await sf.page.press('#q', 'Enter');
        await waitForSearch(sf.page, 2);
        await scrollThrough(sf.page);
        await sf.page.locator('#results > li[data-kind="product"]').first().click();
        const t = await settledTimeline(expect, sf.page, sf.run);
        expect(t.responses).toHaveLength(1);
        expect(t.findings.map((f) => [f.rule, f.severity])).toEqual([
          ['item-not-in-response', 'error'],
          ['duplicate-render', 'warning'],
        ]);
        expect(t.findings[0]!.message).toContain('uid "P203"');
        expect(t.findings[0]!.message).toContain('(search "trail")');
        expect(t.findings[0]!.message).toContain('stale responseId');
        // the render of the second search, sent with the first response's id: not one the client sends
        // (this storefront's searches carry no tracking context, so the sandbox cannot name the search)
        expect(t.findings[1]!.message).toContain('in development mode');
        expect(t.findings[1]!.fix).toContain('the response the last search returned');
      } finally {
        await sf.close();
      }
    });
  },
);
