// What the fault-corpus journeys run on: the corpus storefront (bundled with vite, served from its own
// origin), a sandbox whose demo42 account searches through the companion API over the corpus catalog (and
// serves the product page's recommendation widgets from it), and Chromium. A Shop drives one tab of the
// storefront the way a shopper does.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import type { Sandbox } from '../../src/main/sandbox';
import { startSandbox, tempDir, testConfig } from '../helpers/sandbox';
import { runToEnd, upload } from '../api/indexing-helpers';
import { CHROMIUM_ARGS, CHROMIUM_LAUNCH } from '../e2e/helpers/ui';
import { serveDir, type StaticServer } from '../e2e/helpers/static-server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CATALOG = path.resolve(HERE, '../../fixtures/corpus/catalog.csv');
export const SITE = 'demo42';

export interface Harness {
  sandbox: Sandbox;
  shopUrl: string;
  /** the recommend API the product page's widgets ask: the sandbox's own */
  recommendUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const out = tempDir('search-sandbox-corpus-');
  await build({
    root: path.join(HERE, 'storefront'),
    configFile: false,
    logLevel: 'silent',
    base: './',
    build: {
      outDir: out.dir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: {
        input: {
          index: path.join(HERE, 'storefront/index.html'),
          product: path.join(HERE, 'storefront/product.html'),
        },
      },
    },
  });
  // merchandising redirects land on a plain page of the shop
  const shop: StaticServer = await serveDir(out.dir, (p) =>
    p.startsWith('/pages/') ? `<!doctype html><title>${p}</title><h1>${p}</h1>` : null,
  );
  const base = testConfig();
  // the product page's two widgets, served by the sandbox's recommend API over the corpus catalog
  const recommendations = ['similar', 'more-like-this'].map((tag) => ({
    tag,
    type: 'default' as const,
    strategy: 'similar' as const,
    limit: 4,
  }));
  const sandbox = await startSandbox({
    accounts: base.accounts.map((a) => ({
      ...a,
      search: { ...a.search!, companion: true, recommendations },
    })),
  });
  const res = await upload(sandbox.url, 'feedId=42', await readFile(CATALOG), 'catalog.csv');
  if (res.status !== 200) throw new Error(`corpus catalog upload answered ${res.status}`);
  if ((await runToEnd(sandbox, 42)).state !== 'done') throw new Error('corpus catalog not indexed');
  // Indexing moved the sandbox clock on; back to real time, so receive times match browser timestamps
  // in the recordings (timestamp-skew judges them offline against each other).
  await fetch(`${sandbox.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ set: new Date().toISOString() }),
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_LAUNCH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    sandbox,
    shopUrl: shop.url,
    recommendUrl: sandbox.url,
    browser,
    async close() {
      await browser.close();
      await sandbox.close();
      await shop.close();
      out.cleanup();
    },
  };
}

interface ShopState {
  searches: number;
  sent: Array<{ category: string; event: string; status: number; uids: string[] }>;
  redirected: string | null;
  error: string | null;
  responseIds: string[];
  autocompletes: number;
  widgets: number;
}

/** One browser profile (cookies, storage) = one shopper; journeys open tabs in it. */
export class Shopper {
  constructor(
    readonly h: Harness,
    readonly context: BrowserContext,
  ) {}

  static async create(
    h: Harness,
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<Shopper> {
    const context = await h.browser.newContext({
      viewport: { width: 1000, height: 700 },
      ...options,
    });
    return new Shopper(h, context);
  }

  /** Open the search page in a new tab; `settings` are the storefront's (fault, mode, scroll, …). */
  async open(search: Record<string, string>, settings: Record<string, string> = {}): Promise<Shop> {
    const page = await this.context.newPage();
    const shop = new Shop(page);
    const qs = new URLSearchParams({
      sandbox: this.h.sandbox.url,
      recommend: this.h.recommendUrl,
      siteId: SITE,
      ...settings,
      ...search,
    });
    await page.goto(`${this.h.shopUrl}/index.html?${qs}`);
    return shop;
  }

  close(): Promise<void> {
    return this.context.close();
  }
}

const VISIBLE =
  '#results > li, #slot-header > *, #slot-banner > *, #slot-left > *, #slot-footer > *';

export class Shop {
  constructor(readonly page: Page) {}

  /** What the storefront did on the current page load (empty on a page that is not the storefront). */
  state(): Promise<ShopState> {
    return this.page.evaluate(
      `window.__shop || { searches: 0, sent: [], redirected: null, error: null, responseIds: [], autocompletes: 0, widgets: 0 }`,
    ) as Promise<ShopState>;
  }

  /** Wait until the storefront completed `n` searches on this page load (or failed). */
  async searched(n = 1): Promise<void> {
    await this.page.waitForFunction(
      `window.__shop && (window.__shop.searches >= ${n} || window.__shop.error)`,
    );
    const s = await this.state();
    if (s.error) throw new Error(`the storefront's search failed: ${s.error}`);
  }

  /** Wait until an answered impression reported `uid`. */
  impressed(uid: string): Promise<unknown> {
    return this.page.waitForFunction(
      `window.__shop.sent.some((s) => s.event === 'impression' && s.uids.includes(${JSON.stringify(uid)}))`,
    );
  }

  /** Scroll every tile and banner into view in turn; with `wait`, until each was impressed. */
  async scrollAll({ wait = true, from = 0 } = {}): Promise<void> {
    const tiles = this.page.locator(VISIBLE);
    const n = await tiles.count();
    for (let i = from; i < n; i++) {
      const el = tiles.nth(i);
      const uid = await el.getAttribute('data-uid');
      if (!uid) continue;
      await el.scrollIntoViewIfNeeded();
      if (wait) await this.impressed(uid);
    }
  }

  /** The uid a product tile reports. */
  async uidOf(n: number): Promise<string> {
    return (await this.product(n).getAttribute('data-uid'))!;
  }

  product(n: number) {
    return this.page.locator('#results > li[data-kind="product"]').nth(n);
  }

  /** Click a product tile (a clickthrough, then the product page loads). */
  async click(n: number): Promise<void> {
    await Promise.all([
      this.page.waitForURL(/product\.html/),
      this.product(n).locator('a').click(),
    ]);
  }

  async quickAdd(n: number, variant?: number): Promise<void> {
    const tile = this.product(n);
    if (variant !== undefined) await tile.locator('select').selectOption({ index: variant });
    const before = await this.count('addtocart');
    await tile.locator('.quick-add').click();
    await this.page.waitForFunction(
      `window.__shop.sent.filter((s) => s.event === 'addtocart').length > ${before}`,
    );
  }

  async count(event: string): Promise<number> {
    return (await this.state()).sent.filter((s) => s.event === event).length;
  }

  /** Wait until the storefront completed more than `n` autocomplete requests on this page load (or failed). */
  async autocompleted(n: number): Promise<void> {
    await this.page.waitForFunction(`window.__shop.autocompletes > ${n} || window.__shop.error`);
    const s = await this.state();
    if (s.error) throw new Error(`the storefront's autocomplete failed: ${s.error}`);
  }

  /** Type into the search box (the dropdown's autocomplete) and wait for the response to be shown. */
  async type(q: string): Promise<void> {
    const n = (await this.state()).autocompletes;
    await this.page.fill('#q', q);
    await this.autocompleted(n);
  }

  /** Leave the search box and come back to it: Snap's autocomplete searches again on focus. */
  async refocus(): Promise<void> {
    const n = (await this.state()).autocompletes;
    await this.page.locator('#q').blur();
    await this.page.focus('#q');
    await this.autocompleted(n);
  }

  acTile(n: number) {
    return this.page.locator('#ac > li').nth(n);
  }

  /** Wait until every tile of the autocomplete dropdown was impressed. */
  async acImpressed(): Promise<void> {
    const tiles = this.page.locator('#ac > li');
    const n = await tiles.count();
    for (let i = 0; i < n; i++)
      await this.impressed((await tiles.nth(i).getAttribute('data-uid'))!);
  }

  /** Click a product of the autocomplete dropdown (a clickthrough, then the product page loads). */
  async acClick(n: number): Promise<void> {
    await Promise.all([this.page.waitForURL(/product\.html/), this.acTile(n).locator('a').click()]);
  }

  /** On a product page: wait until both recommendation widgets were shown (or failed). */
  async widgetsShown(): Promise<void> {
    await this.page.waitForFunction(`window.__shop.widgets >= 2 || window.__shop.error`);
    const s = await this.state();
    if (s.error) throw new Error(`the storefront's recommendations failed: ${s.error}`);
  }

  recTile(tag: string, n: number) {
    return this.page.locator(`#rec-${tag} li`).nth(n);
  }

  /** Scroll every recommendation tile into view in turn, until each was impressed. */
  async scrollWidgets(): Promise<void> {
    const tiles = this.page.locator('.widget li');
    const n = await tiles.count();
    for (let i = 0; i < n; i++) {
      await tiles.nth(i).scrollIntoViewIfNeeded();
      await this.impressed((await tiles.nth(i).getAttribute('data-uid'))!);
    }
  }

  /** Click a recommended product (a clickthrough, then that product's page loads). */
  async recClick(tag: string, n: number): Promise<void> {
    const uid = (await this.recTile(tag, n).getAttribute('data-uid'))!;
    await Promise.all([
      this.page.waitForURL((u) => u.searchParams.get('id') === uid),
      this.recTile(tag, n).locator('a').click(),
    ]);
  }

  /** A search from the search box (SPA: same page load). */
  async submit(q: string): Promise<void> {
    const n = (await this.state()).searches;
    await this.page.fill('#q', q);
    await this.page.press('#q', 'Enter');
    await this.searched(n + 1);
  }

  /** Click a control that starts a new search (sort, filter, next page, load more) and wait for it. */
  async searchVia(act: () => Promise<unknown>): Promise<void> {
    const n = (await this.state()).searches;
    await act();
    await this.searched(n + 1);
  }

  /** The beacon client holds events up to 300 ms (restarted by each): wait until it sent nothing for 1.5 s. */
  async settle(): Promise<void> {
    let last = -1;
    for (;;) {
      const now = (await this.state()).sent.length;
      if (now === last) return;
      last = now;
      await this.page.waitForTimeout(1500);
    }
  }
}
