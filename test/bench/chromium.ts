// Chromium for the benchmarks that load the UI (ui, store): a fresh profile, the e2e tests' flags, and
// the init script that notes when the first Timelines row enters the DOM and when it is painted.
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_LAUNCH } from '../e2e/helpers/ui';
import { tempDir } from '../helpers/sandbox';

/** Before the app's scripts run: `window.__firstRowDom` / `__firstRowPainted` (ms since navigation). */
export const WATCH_FIRST_ROW = `(() => {
  const mo = new MutationObserver(() => {
    if (window.__firstRowDom === undefined && document.querySelector('[data-testid="page-row"]')) {
      window.__firstRowDom = performance.now();
      mo.disconnect();
      requestAnimationFrame(() => (window.__firstRowPainted = performance.now()));
    }
  });
  document.addEventListener('DOMContentLoaded', () => mo.observe(document.body, { subtree: true, childList: true }));
})()`;

/** A headless Chromium with a fresh profile; `close` ends it and removes the profile. */
export async function launchChromium(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const profile = tempDir('search-sandbox-bench-chromium-');
  const context = await chromium.launchPersistentContext(profile.dir, {
    executablePath: CHROMIUM_LAUNCH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      profile.cleanup();
    },
  };
}
