// Layout and access in real Chromium: every control has a name on every screen, the list works from the
// keyboard, half a laptop screen shows one pane at a time with a way back, and dark mode is readable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBadPage, sendGoodPage } from './helpers/beacons';
import {
  BODY_BACKGROUND,
  FOCUSED_EVENT_ID,
  FOCUSED_PAGE_LOAD_ID,
  FOCUSED_TESTID,
  SIDEWAYS_OVERFLOW,
  UNNAMED_CONTROLS,
} from './helpers/in-page';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);

const SCREENS = [
  'timelines',
  'visits',
  'orders',
  'requests',
  'feeds',
  'outbox',
  'connect',
  'actions',
] as const;

describe.skipIf(skip)('layout and keyboard', () => {
  let s: UiSession;
  let bad: { pageLoadId: string };

  beforeAll(async () => {
    s = await openUi();
    await sendGoodPage(s.sandbox.url);
    bad = await sendBadPage(s.sandbox.url);
    await sendGoodPage(s.sandbox.url);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('names every control on every screen', async () => {
    await s.ui.open('#/timelines');
    for (const screen of SCREENS) {
      await s.ui.nav(screen);
      expect(await s.page.evaluate<string[]>(UNNAMED_CONTROLS), screen).toEqual([]);
    }
    await s.ui.open(`#/timelines/demo42%2F${bad.pageLoadId}`);
    await s.ui.testId('page-view').waitFor();
    expect(await s.page.evaluate<string[]>(UNNAMED_CONTROLS), 'page view').toEqual([]);
  });

  it('moves through pages with the arrow keys and opens findings and events from the keyboard', async () => {
    await s.ui.open('#/timelines');
    const rows = s.ui.testId('page-row');
    await expect.poll(() => rows.count()).toBe(3);
    // Reach the list with Tab alone, from the search box: the first page is the list's tab stop.
    await s.ui.testId('filter-text').focus();
    for (let i = 0; i < 15 && !(await s.page.evaluate<string | null>(FOCUSED_PAGE_LOAD_ID)); i++)
      await s.page.keyboard.press('Tab');
    expect(await s.page.evaluate<string | null>(FOCUSED_PAGE_LOAD_ID)).toBe(
      await rows.first().getAttribute('data-page-load-id'),
    );
    await s.page.keyboard.press('ArrowDown');
    await s.ui.testId('page-view').waitFor();
    const second = await rows.nth(1).getAttribute('data-page-load-id');
    expect(await s.ui.testId('page-view').getAttribute('data-page-load-id')).toBe(second);
    expect(await s.page.evaluate<string | null>(FOCUSED_PAGE_LOAD_ID)).toBe(second);

    await s.ui.open(`#/timelines/demo42%2F${bad.pageLoadId}`);
    await s.ui.finding('click-not-impressed-at-exit').focus();
    await s.page.keyboard.press('Enter');
    expect(await s.ui.finding('click-not-impressed-at-exit').getAttribute('aria-pressed')).toBe(
      'true',
    );
    const marker = s.ui.chartEvents().first();
    await marker.focus();
    await s.page.keyboard.press('Enter');
    await s.ui.testId('inspector').waitFor();
    // Focus moves into the inspector, and back to the marker when it closes.
    expect(await s.page.evaluate<string | null>(FOCUSED_TESTID)).toBe('inspector');
    await s.page.keyboard.press('Escape');
    await s.ui.testId('inspector').waitFor({ state: 'detached' });
    expect(await s.page.evaluate<string | null>(FOCUSED_EVENT_ID)).toBe(
      await marker.getAttribute('data-event-id'),
    );
  });

  it('keeps the rows you are reading in place while new ones arrive above them', async () => {
    for (let i = 0; i < 12; i++) await sendGoodPage(s.sandbox.url);
    const lists = [
      {
        hash: '#/requests',
        scroll: 'requests-scroll',
        count: 'requests-count',
        row: 'request-row',
        id: 'data-event-id',
      },
      {
        hash: '#/timelines',
        scroll: 'timeline-scroll',
        count: 'pages-shown',
        row: 'page-row',
        id: 'data-page-load-id',
      },
    ];
    for (const list of lists) {
      await s.ui.open(list.hash);
      const rows = s.ui.testId(list.row);
      await expect.poll(() => rows.count()).toBeGreaterThan(10);
      await s.ui
        .testId(list.scroll)
        .evaluate((el: { scrollTop: number }) => void (el.scrollTop = 400));
      const id = (await rows.filter({ visible: true }).nth(5).getAttribute(list.id))!;
      const row = s.page.locator(`[data-testid="${list.row}"][${list.id}="${id}"]`);
      const before = (await row.boundingBox())!.y;
      const countBefore = await s.ui.testId(list.count).textContent();

      await sendGoodPage(s.sandbox.url);
      await expect.poll(() => s.ui.testId(list.count).textContent()).not.toBe(countBefore);
      expect((await row.boundingBox())!.y, list.hash).toBe(before);
    }
  });

  it('shows one pane at a time at half a laptop screen, with a way back', async () => {
    await s.page.setViewportSize({ width: 640, height: 800 });
    try {
      await s.ui.open('#/timelines');
      await s.ui.testId('timeline-list').waitFor();
      expect(await s.ui.testId('timelines-overview').isVisible()).toBe(false);
      // the list as a user opening it sees it: newest first (the test above left it scrolled)
      await s.ui
        .testId('timeline-scroll')
        .evaluate((el: { scrollTop: number }) => void (el.scrollTop = 0));
      await s.ui.screenshot('timelines-narrow');
      // the planted bad page is the oldest: bring it into the virtualised list's rendered rows
      await s.ui
        .testId('timeline-scroll')
        .evaluate(
          (el: { scrollTop: number; scrollHeight: number }) =>
            void (el.scrollTop = el.scrollHeight),
        );
      await s.ui.openPage(bad.pageLoadId);
      expect(await s.ui.testId('timeline-list').isVisible()).toBe(false);
      // Nothing wider than the window: no sideways scrolling of the whole page.
      expect(await s.page.evaluate<string[]>(SIDEWAYS_OVERFLOW)).toEqual([]);
      await s.ui.screenshot('page-narrow');
      await s.page.getByRole('link', { name: '← All pages' }).click();
      await s.ui.testId('timeline-list').waitFor();
      for (const screen of SCREENS) {
        await s.ui.nav(screen);
        expect(await s.page.evaluate<string[]>(SIDEWAYS_OVERFLOW), screen).toEqual([]);
      }
    } finally {
      await s.page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('follows the dark colour scheme', async () => {
    await s.page.emulateMedia({ colorScheme: 'dark' });
    try {
      await s.ui.open(`#/timelines/demo42%2F${bad.pageLoadId}`);
      await s.ui.testId('page-view').waitFor();
      const bg = await s.page.evaluate<string>(BODY_BACKGROUND);
      const [r, g, b] = bg.match(/\d+/g)!.map(Number);
      expect(r! + g! + b!).toBeLessThan(120);
      await s.ui.screenshot('page-dark');
    } finally {
      await s.page.emulateMedia({ colorScheme: 'light' });
    }
  });
});

describe.skipIf(skip)('a page row with many chips', () => {
  let s: UiSession;

  beforeAll(async () => {
    s = await openUi({}, { viewport: { width: 1440, height: 900 } });
    const post = (endpoint: string, body: unknown) =>
      fetch(`${s.sandbox.url}/beacon/v2/demo42/${endpoint}`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify(body),
      });
    const context = (pageLoadId: string, pageUrl: string) => ({
      timestamp: new Date().toISOString(),
      pageUrl,
      userId: 'user-1',
      sessionId: `sess-${pageLoadId}`,
      pageLoadId,
      initiator: 'athos/beaconjs/1.3.0',
    });
    const result = { type: 'product', uid: '9', parentId: '9', sku: 'sku-9' };
    // a click without render or impression, and an impression the schema rejects, in production mode:
    // a rejected event, two errors, a warning and an info on one row
    for (const [pageLoadId, url] of [
      ['pl-search', 'http://localhost:3000/search?q=bad'],
      ['pl-home', 'http://localhost:3000/'],
    ] as const) {
      const data = { responseId: `resp-${pageLoadId}` };
      await post('search/clickthrough', {
        context: context(pageLoadId, url),
        data: { ...data, results: [result] },
      });
      await post('search/impression', {
        context: { ...context(pageLoadId, url), seed: 1 },
        data: { ...data, results: [{ type: 'thing', uid: 9 }] },
      });
    }
    // the search box on the home page: two badges (other page, autocomplete) and a chip
    await post('autocomplete/render', {
      context: context('pl-box', 'http://localhost:3000/'),
      data: { responseId: 'resp-box' },
    });
    // a product page with a long handle, a widget and a category listing: three badges and a long count
    const pdp = 'http://localhost:3000/products/waterproof-rain-shell-jacket?variant=2&utm=x';
    await post('product/pageview', {
      context: context('pl-pdp', pdp),
      data: { result: { uid: '9', parentId: '9', sku: 'sku-9' } },
    });
    await post('recommendations/render', {
      context: context('pl-pdp', pdp),
      data: { responseId: 'resp-widget', tag: 'similar' },
    });
    await post('category/render', {
      context: context('pl-pdp', pdp),
      data: { responseId: 'resp-cat' },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('keeps its event count readable: the finding chips give way instead', async () => {
    await s.ui.open('#/timelines');
    const rows = s.ui.testId('page-row');
    await expect.poll(() => rows.count()).toBe(4);
    for (const id of ['pl-search', 'pl-home']) {
      const chips = rows
        .and(s.page.locator(`[data-page-load-id="${id}"]`))
        .getByTestId('finding-counts');
      // too tight for their words: shortened whole, none cut, each labelled whole
      await expect
        .poll(() => chips.innerText())
        .toMatch(/^\d+ rej\s+\d+ err\s+\d+ warn\s+\d+ info$/);
      const labels = await chips
        .locator('.count-chip')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      expect(labels.map((l) => l?.replace(/^\d+ /, ''))).toEqual([
        'rejected',
        'errors',
        'warning',
        'info',
      ]);
      for (const chip of await chips.locator('.count-chip').all())
        expect(await chip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(false);
    }
    for (const row of await rows.all()) {
      const id = await row.getAttribute('data-page-load-id');
      const count = row.locator('.page-row-line:nth-child(2) > :first-child');
      expect([id, await count.innerText()]).toEqual([
        id,
        expect.stringMatching(/^\d+ events?( · \d+ responses)?$/),
      ]);
      // the whole count is on screen, not cut to "2…" or "1 ev…"
      const cut = await count.evaluate((el) => el.scrollWidth > el.clientWidth);
      expect([id, cut]).toEqual([id, false]);
    }
    await s.ui.screenshot('timelines-row-chips');
  });

  it('keeps a page’s kind badges inside its row, at the desktop width and on a phone: a tight row shortens their words, each naming itself whole in its title', async () => {
    for (const width of [1440, 390]) {
      await s.page.setViewportSize({ width, height: 900 });
      await s.ui.open('#/timelines');
      const row = s.page.locator('[data-testid="page-row"][data-page-load-id="pl-pdp"]');
      await row.waitFor();
      const badges = row.locator('[data-testid="row-page-kind"], [data-testid="row-kinds"] > *');
      await expect.poll(() => badges.count()).toBe(3);
      const outside = await row.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const pieces = el.querySelectorAll(
          '[data-testid="row-page-kind"], [data-testid="row-kinds"] > *, [data-testid="finding-counts"]',
        );
        return [...pieces]
          .filter((b) => {
            const r = b.getBoundingClientRect();
            const cut = b.scrollWidth > b.clientWidth;
            const named = (b.getAttribute('title') ?? '').includes(b.textContent ?? '');
            return r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5 || (cut && !named);
          })
          .map((b) => b.textContent);
      });
      expect([width, outside]).toEqual([width, []]);
      await s.ui.screenshot(`timelines-row-kinds-${width}`);
    }
    await s.page.setViewportSize({ width: 1440, height: 900 });
  });
});
