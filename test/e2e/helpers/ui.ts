// End-to-end helpers: a real sandbox (in process, port 0, serving the built UI) driven by real Chromium
// through playwright-core, plus page helpers that keep the tests about behaviour, not selectors.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import type { Sandbox } from '../../../src/main/sandbox';
import type { SandboxConfig } from '../../../src/main/config';
import { startSandbox } from '../../helpers/sandbox';
import { SETTLE } from './in-page';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHROMIUM = '/usr/bin/chromium';
/**
 * CHROMIUM without the browser UI a headless test never shows (the script says what and why): the whole
 * browser, as a user's `headless: true` with a system Chromium starts it.
 */
export const CHROMIUM_SCRIPT = path.join(ROOT, 'test/e2e/helpers/chromium.sh');
/**
 * Debian's headless build of the same Chromium (package chromium-headless-shell): the same Blink and V8, the
 * same version, without the browser around them, as Playwright's own `headless: true` starts its download of
 * it. Opening the UI in a fresh context took it 0.28-0.30 s of CPU against 0.57-0.62 for CHROMIUM_SCRIPT
 * (docs/benchmarks.md, "The test suite").
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/**
 * What the tests start, as Playwright's executablePath and the example suite's CHROMIUM_PATH: the headless
 * shell where it is installed (`.ci/run` installs it), else the whole browser through CHROMIUM_SCRIPT.
 */
export const CHROMIUM_LAUNCH = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_SCRIPT;
export const RENDERER_DIR = path.join(ROOT, 'out/renderer');
/**
 * Where screenshots go: the README's docs/screenshots with UPDATE_SCREENSHOTS=1 (`npm run screenshots`),
 * otherwise test-results/screenshots, so a test run never rewrites committed files.
 */
export const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS
  ? path.join(ROOT, 'docs/screenshots')
  : path.join(ROOT, 'test-results/screenshots');
/** Headless Chromium on this closed network: no background traffic, no first-run UI (headless is set apart). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const FIXTURE_FEEDS = path.join(ROOT, 'fixtures/feeds');

let shared: Promise<Browser> | null = null;

/**
 * Chromium for this test worker, launched on first use: the files a worker runs one after another share it,
 * each page in a context of its own (a fresh profile: no cache, cookies or storage). A launch cost ~1.5 s of
 * CPU and a context ~0.3; a run launched twenty. Playwright closes the browser when the worker exits.
 */
function sharedBrowser(): Promise<Browser> {
  shared ??= chromium
    .launch({ executablePath: CHROMIUM_LAUNCH, headless: true, args: CHROMIUM_ARGS })
    .then(
      (browser) => {
        browser.on('disconnected', () => (shared = null));
        return browser;
      },
      (err: unknown) => {
        shared = null;
        throw err;
      },
    );
  return shared;
}

/** The worker's Chromium for one test file, and `close` for its afterAll: the contexts the file opened. */
export async function fileBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await sharedBrowser();
  const before = new Set(browser.contexts());
  return {
    browser,
    async close() {
      const opened = browser.contexts().filter((c) => !before.has(c));
      await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    },
  };
}

/** Why e2e tests cannot run here, or null when they can. Only a missing browser is a reason to skip. */
export function skipReason(): string | null {
  return existsSync(CHROMIUM)
    ? null
    : `e2e tests skipped: ${CHROMIUM} is missing (install chromium; .ci/run does)`;
}

export interface UiSession {
  sandbox: Sandbox;
  context: BrowserContext;
  page: Page;
  ui: SandboxUi;
  close(): Promise<void>;
}

/** Start a sandbox serving the built UI, open it in Chromium with a fresh profile (a context of its own). */
export async function openUi(
  overrides: Partial<SandboxConfig> = {},
  {
    viewport = { width: 1280, height: 800 },
    colorScheme = 'light',
  }: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<UiSession> {
  if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
    throw new Error(
      `the UI is not built (${RENDERER_DIR}/index.html missing): run npx electron-vite build first`,
    );
  }
  const sandbox = await startSandbox(overrides, { rendererDir: RENDERER_DIR });
  let context: BrowserContext | null = null;
  try {
    context = await (
      await sharedBrowser()
    ).newContext({ viewport, colorScheme, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sandbox.url });
    const page = await context.newPage();
    const ui = new SandboxUi(page, sandbox.url);
    const ctx = context;
    const session: UiSession = {
      sandbox,
      context: ctx,
      page,
      ui,
      async close() {
        await ctx.close().catch(() => undefined);
        // the test may have replaced the sandbox (restart on the same port): close the current one
        await session.sandbox.close();
      },
    };
    return session;
  } catch (err) {
    await context?.close().catch(() => undefined);
    await sandbox.close();
    throw err;
  }
}

/** What a test does with the UI, in the user's words. */
export class SandboxUi {
  constructor(
    readonly page: Page,
    readonly base: string,
  ) {}

  testId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  /** Open a screen by its hash route and wait until the live stream is connected. */
  async open(hash = '#/timelines'): Promise<void> {
    await this.page.goto(`${this.base}/${hash}`);
    await this.testId('connection').and(this.page.locator('[data-state="live"]')).waitFor();
  }

  async nav(
    name:
      'timelines' | 'visits' | 'orders' | 'requests' | 'feeds' | 'outbox' | 'connect' | 'actions',
  ): Promise<void> {
    await this.testId(`nav-${name}`).click();
    await this.testId(`${name}-view`).waitFor();
  }

  pageRow(pageLoadId: string): Locator {
    return this.page.locator(`[data-testid="page-row"][data-page-load-id="${pageLoadId}"]`);
  }

  async openPage(pageLoadId: string): Promise<Locator> {
    await this.pageRow(pageLoadId).click();
    const view = this.page.locator(`[data-testid="page-view"][data-page-load-id="${pageLoadId}"]`);
    await view.waitFor();
    return view;
  }

  finding(rule: string): Locator {
    return this.page.locator(`[data-testid="finding"][data-rule="${rule}"]`);
  }

  chartEvents(): Locator {
    return this.testId('chart-event');
  }

  feedCard(feedId: number): Locator {
    return this.testId(`feed-card-${feedId}`);
  }

  /** Wait until a feed card shows `state`. */
  async feedState(feedId: number, state: string): Promise<void> {
    await this.page.locator(`[data-testid="feed-card-${feedId}"][data-state="${state}"]`).waitFor();
  }

  /** Save a screenshot of the current view (<SCREENSHOT_DIR>/<name>.png). */
  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    // Let fonts and the last live update settle so the picture shows the finished layout.
    await this.page.evaluate(SETTLE);
    await this.page.screenshot({ path: file });
    return file;
  }
}
