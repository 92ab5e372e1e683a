// What a tester found at 390 px and with the keyboard, each held by a check that fails without its fix:
// empty screens that fit a phone (their long code scrolls in its own box), a visible focus ring on a
// timeline marker, Compare's BASE and CURRENT stacked on a phone, the clock's note wrapped in its popover,
// ids cut at their start (where ids that share a prefix are the same) and read whole to a screen reader,
// and the Overview's findings table with column headers, errors first (at the level the config set).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journey, run } from '../helpers/journey';
import { newPage, sendBadPage, sendGoodPage, sendProductionSession } from './helpers/beacons';
import { SETTLE, SIDEWAYS_OVERFLOW } from './helpers/in-page';
import { testConfig } from '../helpers/sandbox';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

/** Elements matching `selector` that are drawn (partly) outside the window's width, as "tag text". */
function outside(s: UiSession, selector: string): Promise<string[]> {
  return s.page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})]
    .filter((e) => e.checkVisibility())
    .filter((e) => { const r = e.getBoundingClientRect(); return r.left < -0.5 || r.right > window.innerWidth + 0.5; })
    .map((e) => e.tagName.toLowerCase() + ' ' + (e.textContent || '').trim().slice(0, 40))`);
}

describe.skipIf(skip)('an empty sandbox on a phone', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi({}, { viewport: PHONE });
  });
  afterAll(async () => {
    await s?.close();
  });

  const SCREENS = [
    ['#/timelines', 'timelines'],
    ['#/requests', 'requests'],
    ['#/visits', 'visits'],
    ['#/orders', 'orders'],
    ['#/readiness', 'readiness'],
    ['#/connect', 'connect'],
    ['#/feeds', 'feeds'],
  ] as const;

  it('fits every screen’s empty state in 390 px, its long code scrolling in its own box', async () => {
    for (const [hash, view] of SCREENS) {
      await s.ui.open(hash);
      await s.ui.testId(`${view}-view`).waitFor();
      await s.page.evaluate(SETTLE);
      // headings, text and code boxes all inside the window: nothing stretched its column
      expect(
        await outside(s, 'main h1, main h2, main h3, main p, main pre, main figure'),
        view,
      ).toEqual([]);
      expect(await s.page.evaluate<string[]>(SIDEWAYS_OVERFLOW), view).toEqual([]);
    }
    await s.ui.open('#/timelines');
    const empty = s.ui.testId('timelines-empty');
    await empty.waitFor();
    const heading = (await empty.locator('h2').boundingBox())!;
    expect(heading.x).toBeGreaterThanOrEqual(0);
    expect(heading.x + heading.width).toBeLessThanOrEqual(PHONE.width);
    // the curl line is longer than the window: its own box scrolls sideways
    const pre = s.ui.testId('first-event-snippet').locator('pre');
    expect(await pre.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await s.ui.screenshot('timelines-empty-390');
  });

  it('wraps the clock’s note inside its popover', async () => {
    await s.ui.open('#/timelines');
    await s.ui.testId('clock-button').click();
    const note = s.page.locator('p.clock-note');
    await note.waitFor();
    const box = (await note.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    // the whole sentence is drawn: none of it runs out of its paragraph
    expect(await note.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    await s.ui.screenshot('clock-open-390');
    await s.page.keyboard.press('Escape');
  });
});

describe.skipIf(skip)('a timeline marker from the keyboard', () => {
  it('draws a focus ring on the focused marker, and none once focus leaves', async () => {
    const s = await openUi({}, { viewport: LAPTOP });
    try {
      const bad = await sendBadPage(s.sandbox.url);
      await s.ui.open(`#/timelines/demo42%2F${bad.pageLoadId}`);
      await s.ui.testId('page-view').waitFor();
      const marker = s.ui.chartEvents().first();
      await marker.scrollIntoViewIfNeeded();
      /**
       * The marker and the 8 pixels around it, wherever it is drawn now: a picture of a fixed place failed
       * once on a busy machine after focus had left (cause not found), and a chart moved between the pictures
       * must not read as a ring left behind.
       */
      const picture = async () => {
        await s.page.evaluate(SETTLE);
        const b = (await marker.boundingBox())!;
        return s.page.screenshot({
          clip: { x: b.x - 8, y: b.y - 8, width: b.width + 16, height: b.height + 16 },
        });
      };
      const before = await picture();
      // reach it with the keyboard, as a keyboard user does: back from the marker after it
      await s.ui.chartEvents().nth(1).focus();
      await s.page.keyboard.press('Shift+Tab');
      expect(await marker.evaluate((m) => m.matches(':focus-visible'))).toBe(true);
      const focused = await picture();
      expect(focused.equals(before), 'the focused marker looks as it did unfocused').toBe(false);
      await s.ui.screenshot('marker-focus-1366');
      // focus gone: the ring goes too
      await s.page.keyboard.press('Shift+Tab');
      expect(await marker.evaluate((m) => m.matches(':focus'))).toBe(false);
      expect((await picture()).equals(before)).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(skip)('Compare on a phone', () => {
  it('stacks BASE above CURRENT, each labelled, CURRENT’s changes in sight', async () => {
    const s = await openUi({}, { viewport: PHONE });
    try {
      const release = journey();
      release[0]![0]!.events.splice(2, 1);
      for (const line of run(release, { origin: 'http://127.0.0.1:5173' }).trim().split('\n')) {
        const e = JSON.parse(line) as Record<string, string>;
        const res = await fetch(`${s.sandbox.url}/beacon/v2/${e.siteId}/${e.category}/${e.event}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify(e.body),
        });
        expect(res.status).toBe(200);
      }
      await s.ui.open('#/compare');
      await s.ui.testId('compare-input').setInputFiles({
        name: 'good-run.ndjson',
        mimeType: 'application/json',
        buffer: Buffer.from(run(journey())),
      });
      const page = s.ui.testId('compare-page').first();
      await page.waitFor();
      await s.page.evaluate(SETTLE);
      const base = (await page.getByRole('list', { name: 'BASE events' }).boundingBox())!;
      const current = (await page.getByRole('list', { name: 'CURRENT events' }).boundingBox())!;
      expect(current.y).toBeGreaterThanOrEqual(base.y + base.height);
      for (const [name, box] of [
        ['BASE', base],
        ['CURRENT', current],
      ] as const) {
        expect(box.x, name).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, name).toBeLessThanOrEqual(PHONE.width);
        expect(await page.getByText(new RegExp(`^${name} \\(`)).isVisible(), name).toBe(true);
      }
      expect(await outside(s, '[data-testid="compare-page"] li')).toEqual([]);
      await s.ui.screenshot('compare-390');
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(skip)('ids that share a prefix', () => {
  let s: UiSession;
  const sessions = ['qa-sess-x0', 'qa-sess-x1', 'qa-sess-x2', 'qa-sess-x3'];
  const long = 'qa-session-1796085764-2c9f-41d3-a1b2-9e0c7d6b5a4f';
  beforeAll(async () => {
    s = await openUi({}, { viewport: LAPTOP });
    for (const sessionId of [...sessions, long]) {
      const page = newPage({ sessionId, pageLoadId: `pl-1796085764-${sessionId}` });
      await sendGoodPage(s.sandbox.url, page);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows a session’s whole id where it fits, and its end where it must be cut, read whole', async () => {
    for (const size of [LAPTOP, PHONE]) {
      await s.page.setViewportSize(size);
      await s.ui.open('#/timelines');
      await s.ui.testId('timeline-list').waitFor();
      await s.page.evaluate(SETTLE);
      for (const id of sessions) {
        const row = s.page.locator(`[data-testid="session-row"][data-session-id="${id}"]`);
        // in sight, whole, and in the row's accessible name
        expect(await row.getByText(id, { exact: true }).isVisible(), id).toBe(true);
        const idBox = row.locator('.id-end');
        expect(await idBox.evaluate((e) => e.scrollWidth <= e.clientWidth), id).toBe(true);
        expect(
          await s.page.getByRole('button', { name: new RegExp(`session ${id}\\b`) }).count(),
        ).toBe(1);
      }
      const row = s.page.locator(`[data-testid="session-row"][data-session-id="${long}"]`);
      expect(
        await s.page.getByRole('button', { name: new RegExp(`session ${long}`) }).count(),
      ).toBe(1);
      if (size === PHONE) {
        // cut on a phone: what shows is its end, where it differs from the others
        const idBox = row.locator('.id-end');
        const shown = await idBox.evaluate((e) => {
          const box = e.getBoundingClientRect();
          const text = e.ownerDocument.createRange();
          text.selectNodeContents(e);
          const t = text.getBoundingClientRect();
          return { cut: t.width > box.width + 0.5, endsInside: t.right <= box.right + 0.5 };
        });
        expect(shown).toEqual({ cut: true, endsInside: true });
      }
      await s.ui.screenshot(`session-ids-${size.width}`);
    }
  });

  it('names a Readiness page link by its whole pageLoadId', async () => {
    await s.page.setViewportSize(LAPTOP);
    await s.ui.open('#/readiness/demo42');
    const links = s.ui.testId('readiness-page-link');
    await expect.poll(() => links.count()).toBeGreaterThan(0);
    for (const link of await links.all()) {
      const href = decodeURIComponent((await link.getAttribute('href'))!);
      const pageLoadId = href.slice(href.lastIndexOf('/') + 1);
      expect(pageLoadId).toMatch(/^pl-1796085764-/);
      expect(await link.evaluate((a) => (a.textContent ?? '').startsWith('…'))).toBe(true);
      // what a screen reader says is the id, not its cut text
      expect(
        await s.page.getByRole('link', { name: pageLoadId, exact: true }).count(),
      ).toBeGreaterThan(0);
    }
  });
});

describe.skipIf(skip)('the Overview’s findings by rule', () => {
  it('has column headers, and lists errors before an info that is on more pages', async () => {
    const s = await openUi({}, { viewport: LAPTOP });
    try {
      // three production sessions: dev-flag, an info, on three pages; the bad page's errors on one
      for (const session of ['prod-a', 'prod-b', 'prod-c'])
        await sendProductionSession(s.sandbox.url, session, 1);
      await sendBadPage(s.sandbox.url);
      await s.ui.open('#/timelines');
      const overview = s.ui.testId('timelines-overview');
      const table = overview.getByRole('table');
      await table.waitFor();
      const headers = table.locator('th[scope="col"]');
      expect(await headers.allTextContents()).toEqual([
        'Rule',
        'Severity',
        'What it checks',
        'Pages',
      ]);
      const rows = table.locator('tbody tr');
      await expect.poll(() => rows.count()).toBeGreaterThan(2);
      const severities = await rows.locator('td:nth-child(2)').allTextContents();
      const order = ['error', 'warning', 'info'];
      const ranks = severities.map((v) => order.indexOf(v));
      expect(ranks.every((r) => r >= 0)).toBe(true);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      // dev-flag (info, 3 pages) comes after the bad page's errors (1 page each), first of the infos
      const rules = await rows.locator('code').allTextContents();
      expect(rules.indexOf('dev-flag')).toBe(severities.indexOf('info'));
      expect(await rows.nth(rules.indexOf('dev-flag')).locator('td').last().textContent()).toBe(
        '3 pages',
      );
      await s.ui.screenshot('overview-rules-1366');
    } finally {
      await s.close();
    }
  });

  it('shows the level the config set for a rule, and sorts it among the errors', async () => {
    // a team that must never ship a dev build's traffic: dev-flag, an info by default, is an error
    const s = await openUi({ rules: { 'dev-flag': 'error' } }, { viewport: LAPTOP });
    try {
      for (const session of ['prod-a', 'prod-b', 'prod-c'])
        await sendProductionSession(s.sandbox.url, session, 1);
      await sendBadPage(s.sandbox.url);
      await s.ui.open('#/timelines');
      const rows = s.ui.testId('timelines-overview').getByRole('table').locator('tbody tr');
      await expect.poll(() => rows.count()).toBeGreaterThan(2);
      const rules = await rows.locator('code').allTextContents();
      const severities = await rows.locator('td:nth-child(2)').allTextContents();
      expect(severities[rules.indexOf('dev-flag')]).toBe('error');
      // on three pages, more than any of the bad page's errors: the first row
      expect(rules[0]).toBe('dev-flag');
      const order = ['error', 'warning', 'info'];
      const ranks = severities.map((v) => order.indexOf(v));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    } finally {
      await s.close();
    }
  });

  it('says which site a rule is an error on when the sites shown have different levels', async () => {
    const demo = testConfig().accounts[0]!;
    const s = await openUi(
      {
        accounts: [
          { ...demo, rules: { 'dev-flag': 'error' } },
          { ...demo, siteId: 'zeta99', feeds: [] },
        ],
      },
      { viewport: LAPTOP },
    );
    try {
      await sendProductionSession(s.sandbox.url, 'prod-a', 1);
      for (const session of ['prod-b', 'prod-c'])
        await sendProductionSession(s.sandbox.url, session, 1, session, 'zeta99');
      await sendBadPage(s.sandbox.url);
      await s.ui.open('#/timelines');
      const rows = s.ui.testId('timelines-overview').getByRole('table').locator('tbody tr');
      await expect.poll(() => rows.locator('code').allTextContents()).toContain('dev-flag');
      const rules = await rows.locator('code').allTextContents();
      const row = rows.nth(rules.indexOf('dev-flag'));
      expect(await row.locator('td:nth-child(2)').innerText()).toBe(
        'error on demo42, info elsewhere',
      );
      // an error on some of its pages: among the errors, first for its three pages
      expect(rules[0]).toBe('dev-flag');
      await s.ui.screenshot('overview-rule-levels-by-site-1366');
    } finally {
      await s.close();
    }
  });
});
