// The Chromium the end-to-end tests drive. The whole browser, as helpers/chromium.sh starts it: without the
// browser UI a headless test never shows, and still without every feature Playwright turns off (Chromium reads
// only the last --disable-features, so the script folds them into one). And the headless shell the tests start
// in its place where it is installed: the same Chromium.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  CHROMIUM_LAUNCH,
  CHROMIUM_SCRIPT,
  fileBrowser,
  HEADLESS_SHELL,
  skipReason,
} from './helpers/ui';

const skip = skipReason();

/** The command lines of this process's descendants (Linux /proc), by pid. */
function descendants(): Map<number, string[]> {
  const parent = new Map<number, number>();
  const args = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      args.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0'));
    } catch {
      // the process ended while we read
    }
  }
  const mine = new Map<number, string[]>();
  for (const [pid, argv] of args) {
    let up = parent.get(pid);
    for (let hops = 0; up !== undefined && up > 1 && up !== process.pid && hops < 64; hops++)
      up = parent.get(up);
    if (up === process.pid) mine.set(pid, argv);
  }
  return mine;
}

describe.skipIf(skip !== null)('the whole Chromium, as the script starts it', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_SCRIPT,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });
  afterAll(() => browser?.close());

  it('opens a page with no address-bar popup preloaded beside it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('data:text/html,<h1>a page</h1>');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as {
      targetInfos: Array<{ type: string; url: string }>;
    };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url)).toEqual([]);
    expect(targetInfos.map((t) => t.url)).toContain('data:text/html,<h1>a page</h1>');
  });

  it('keeps every feature Playwright turns off in the one --disable-features Chromium reads', () => {
    const browsers = [...descendants().values()].filter(
      (argv) =>
        argv[0] === '/usr/lib/chromium/chromium' &&
        argv.includes('--remote-debugging-pipe') &&
        !argv.some((a) => a.startsWith('--type=')),
    );
    expect(browsers.length).toBeGreaterThan(0);
    for (const argv of browsers) {
      const lists = argv.filter((a) => a.startsWith('--disable-features='));
      expect(lists.length).toBe(1);
      // one of Playwright's (it sees to it that a page paints as soon as it can), and the script's two
      expect(lists[0]!.slice('--disable-features='.length).split(',')).toEqual(
        expect.arrayContaining(['PaintHolding', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']),
      );
    }
  });

  it.skipIf(!existsSync(HEADLESS_SHELL))(
    'is where the tests start the headless shell: the same Chromium, the same version',
    async () => {
      expect(CHROMIUM_LAUNCH).toBe(HEADLESS_SHELL);
      const shell = await fileBrowser();
      try {
        expect(shell.browser.version()).toBe(browser.version());
      } finally {
        await shell.close();
      }
    },
  );
});
