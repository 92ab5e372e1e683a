// A big store loads in two steps (the newest 1,000 first, painted at once, then the whole window): the
// lists end up whole, and the whole window is asked for only once the first rows are on screen, one
// answer after the other (with a million stored events each takes the sandbox and the browser a while);
// and a load overtaken by a later one (the sandbox started again meanwhile) applies nothing.
// `npm run bench -- store` measures the first paint with a million stored events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchDraft } from '../helpers/drafts';
import { startSandbox } from '../helpers/sandbox';
import { sendGoodPage } from './helpers/beacons';
import { openUi, RENDERER_DIR, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
const PAGES = 1_500;
/** the requests for a whole window (after the first slice) */
const WHOLE = /\/_sandbox\/(events\?limit=20000|timelines\?view=summary&limit=100000)$/;

describe.skipIf(skip)('a store bigger than the first slice', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
    const drafts = Array.from({ length: PAGES }, (_, n) =>
      searchDraft('render', {
        context: {
          timestamp: new Date(Date.now() - (PAGES - n) * 1000).toISOString(),
          pageUrl: `https://shop.example/search?q=term${n}`,
          userId: `u-${n}`,
          sessionId: `s-${n}`,
          pageLoadId: `big-${n}`,
          initiator: 'big-store-test',
        },
        data: { responseId: `r-${n}` },
      }),
    );
    const res = await fetch(`${s.sandbox.url}/_sandbox/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(drafts),
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows every page and every request once both steps have loaded', async () => {
    // Whether a row of the first slice was on screen when the UI asked for a whole window is seen in the
    // page itself, as it calls fetch: the route below runs in this process, later, and under load it
    // looked after the test had moved on to the Requests view, where no page row is left.
    await s.page.addInitScript(`{
      const WHOLE = ${WHOLE.toString()};
      const fetch = window.fetch;
      window.__wholeAsked = [];
      window.fetch = function (input, init) {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (WHOLE.test(url))
          window.__wholeAsked.push({
            url,
            rowShown: document.querySelector('[data-testid="page-row"], [data-testid="request-row"]') !== null,
          });
        return fetch.call(this, input, init);
      };
    }`);
    // each request for a whole window: when it was asked and when its answer was back
    const whole: Array<{ url: string; asked: number; answered: number }> = [];
    await s.page.route(WHOLE, async (route) => {
      const asked = performance.now();
      const response = await route.fetch();
      whole.push({ url: route.request().url(), asked, answered: performance.now() });
      await route.fulfill({ response });
    });
    // one fresh load (from a blank page: no request of an earlier load is still on its way)
    await s.page.goto('about:blank');
    const loaded = performance.now();
    await s.ui.open('#/timelines');
    await expect
      .poll(() => s.ui.testId('pages-shown').textContent(), { timeout: 20_000 })
      .toBe('1,500 pages');
    await s.ui.open('#/requests');
    await expect
      .poll(() => s.ui.testId('requests-count').textContent(), { timeout: 20_000 })
      .toMatch(/1,500/);
    await s.page.unrouteAll();
    // the load's first requests for a whole window (a reconnect meanwhile would load the pages again)
    const asked = whole.filter((w) => w.asked >= loaded).sort((a, b) => a.asked - b.asked);
    const pages = asked.find((w) => w.url.endsWith('view=summary&limit=100000'));
    const events = asked.find((w) => w.url.endsWith('events?limit=20000'));
    expect(asked[0]).toBe(pages);
    expect(events).toBeDefined();
    expect(events!.asked).toBeGreaterThanOrEqual(pages!.answered);
    const inPage =
      await s.page.evaluate<Array<{ url: string; rowShown: boolean }>>('window.__wholeAsked');
    expect(inPage.length).toBeGreaterThanOrEqual(2);
    expect(inPage).toEqual(inPage.map((w) => ({ ...w, rowShown: true })));
  });

  it("never shows the earlier load's answer: a sandbox started again while the whole window was on its way", async () => {
    // the 1,500 pages imported above: the first slice is 1,000 of their events, the whole window 1,500
    // the first sandbox's whole window of events is fetched, and held back from the page until released
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const fetched = new Promise<void>((r) => (held = r));
    let answered!: () => void;
    const delivered = new Promise<void>((r) => (answered = r));
    await s.page.route(/\/_sandbox\/events\?limit=20000$/, async (route) => {
      const response = await route.fetch();
      held();
      await released;
      await route.fulfill({ response });
      answered();
    });
    await s.page.goto('about:blank');
    await s.ui.open('#/requests');
    await fetched;
    expect(await s.ui.testId('requests-count').textContent()).toMatch(/^1,000 requests/);

    // the sandbox goes and comes back on the same port, in memory, with one page of its own
    const port = s.sandbox.port;
    await s.sandbox.close();
    await s.ui.testId('disconnected-banner').waitFor();
    const reloaded = s.page.waitForResponse(/\/_sandbox\/events\?limit=1000$/, { timeout: 20_000 });
    s.sandbox = await startSandbox({ port }, { rendererDir: RENDERER_DIR });
    await sendGoodPage(s.sandbox.url);
    const stored = (await (await fetch(`${s.sandbox.url}/_sandbox/events`)).json()) as {
      events: unknown[];
    };
    const now = `${stored.events.length} requests`;
    await s.page
      .locator('[data-testid="connection"][data-state="live"]')
      .waitFor({ timeout: 20_000 });
    await reloaded;

    // the first sandbox's 1,500 events reach the page only now: they are not shown in place of the new
    release();
    await delivered;
    await s.page.unrouteAll();
    await expect.poll(() => s.ui.testId('requests-count').textContent()).toBe(now);
    expect(await s.page.getByText('big-1499').count()).toBe(0);
  });
});
