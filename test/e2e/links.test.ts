// Timelines links in real Chromium: the URL is the truth. A link pasted into a tab that was used before
// shows exactly the filters it carries (none without a query); the app's own navigation keeps the filters
// in force visible in the URL; Back and Forward bring back each history entry's own filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, sendBadPage, sendGoodPage, SITE_ID, type PageIds } from './helpers/beacons';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();

describe.skipIf(skip)('timelines links', () => {
  let s: UiSession;
  let good: PageIds;
  let bad: PageIds;
  let bad2: PageIds;
  const key = (p: PageIds) => encodeURIComponent(`${SITE_ID}/${p.pageLoadId}`);
  const hash = () => s.page.evaluate<string>('location.hash');
  const pressed = async () =>
    (await s.page
      .locator('[data-testid^="filter-verdict-"][aria-pressed="true"]')
      .getAttribute('data-testid'))!.replace('filter-verdict-', '');

  beforeAll(async () => {
    s = await openUi();
    good = await sendGoodPage(
      s.sandbox.url,
      newPage({ pageUrl: 'https://shop.example.com/search?q=good' }),
    );
    bad = await sendBadPage(
      s.sandbox.url,
      newPage({ pageUrl: 'https://shop.example.com/search?q=bad' }),
    );
    bad2 = await sendBadPage(
      s.sandbox.url,
      newPage({ pageUrl: 'https://shop.example.com/search?q=bad2' }),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows a link pasted into a used tab with no filters when it carries none, and an opened event adds none', async () => {
    await s.ui.open('#/timelines?verdict=pass&q=zzzznothing');
    await s.ui.testId('no-match').waitFor();
    expect(await pressed()).toBe('pass');

    // the same tab, a link to a failing page (as `check` prints it) pasted into the address bar
    await s.page.goto(`${s.sandbox.url}/#/timelines/${key(bad)}`);
    await s.page
      .locator(`[data-testid="page-view"][data-page-load-id="${bad.pageLoadId}"]`)
      .waitFor();
    await expect.poll(pressed).toBe('all');
    expect(await s.ui.testId('filter-text').inputValue()).toBe('');
    await expect.poll(() => s.ui.pageRow(bad.pageLoadId).count()).toBe(1);
    expect(await s.ui.testId('pages-shown').textContent()).not.toContain(' of ');
    expect(await hash()).toBe(`#/timelines/${key(bad)}`);

    // opening an event inspector brings no earlier filter back into the URL
    await s.ui.testId('page-event-row').first().click();
    await s.ui.testId('inspector').waitFor();
    await expect.poll(hash).toMatch(new RegExp(`^#/timelines/${key(bad)}/[^?]+$`));
  });

  it('says when the page open beside the list is hidden by the filters, and clears them', async () => {
    await s.ui.open(`#/timelines/${key(bad)}?verdict=pass`);
    await s.ui.pageRow(good.pageLoadId).waitFor();
    const hidden = s.ui.testId('open-page-hidden');
    await hidden.waitFor();
    expect(await hidden.textContent()).toContain('The open page is hidden by the filters');
    await hidden.getByRole('button', { name: 'Clear filters' }).click();
    await hidden.waitFor({ state: 'detached' });
    await s.ui.pageRow(bad.pageLoadId).waitFor();
    expect(await hash()).toBe(`#/timelines/${key(bad)}`);
  });

  it('keeps the filters in force visible in the URL as the app navigates, and on the way back from another screen', async () => {
    await s.ui.open('#/timelines');
    await s.ui.testId('filter-verdict-fail').click();
    await expect.poll(hash).toBe('#/timelines?verdict=fail');
    await s.ui.openPage(bad.pageLoadId);
    await expect.poll(hash).toBe(`#/timelines/${key(bad)}?verdict=fail`);

    // another screen, reloaded there, then the Timelines tab: the list's filters come back, in the URL
    await s.ui.nav('visits');
    await s.page.reload();
    await s.ui.testId('visits-view').waitFor();
    await s.ui.nav('timelines');
    await expect.poll(hash).toBe('#/timelines?verdict=fail');
    expect(await pressed()).toBe('fail');

    // a filter changed on the timelines: the Timelines tab then links to the list as it is now
    await s.ui.openPage(bad.pageLoadId);
    await s.ui.testId('filter-verdict-all').click();
    await expect.poll(hash).toBe(`#/timelines/${key(bad)}`);
    await s.ui.testId('nav-timelines').click();
    await expect.poll(hash).toBe('#/timelines');
    expect(await pressed()).toBe('all');
  });

  it("brings back each history entry's own filters on Back and Forward", async () => {
    await s.ui.open('#/timelines');
    await s.ui.openPage(bad.pageLoadId);
    await s.ui.testId('filter-verdict-fail').click();
    await expect.poll(hash).toBe(`#/timelines/${key(bad)}?verdict=fail`);
    await s.ui.openPage(bad2.pageLoadId);
    await expect.poll(hash).toBe(`#/timelines/${key(bad2)}?verdict=fail`);

    await s.page.goBack();
    await expect.poll(hash).toBe(`#/timelines/${key(bad)}?verdict=fail`);
    expect(await pressed()).toBe('fail');
    await s.page.goBack();
    await expect.poll(hash).toBe('#/timelines');
    await expect.poll(pressed).toBe('all');
    await s.ui.pageRow(good.pageLoadId).waitFor();
    await s.page.goForward();
    await expect.poll(hash).toBe(`#/timelines/${key(bad)}?verdict=fail`);
    await expect.poll(pressed).toBe('fail');
    await expect.poll(() => s.ui.pageRow(good.pageLoadId).count()).toBe(0);
  });
});
