// The site the per-site views open on, in Chromium: a configured one (the config's accounts first, in
// config order), never a siteId the beacon path refuses, even after such a request was recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUi, skipReason, type UiSession } from './helpers/ui';
import { postBeacon, testConfig } from '../helpers/sandbox';

const skip = skipReason();
let s: UiSession;

const render = (pageLoadId: string) => ({
  context: {
    timestamp: new Date().toISOString(),
    pageUrl: 'https://shop.example/search?q=tent',
    userId: 'ui-user',
    sessionId: 'ui-session',
    pageLoadId,
    initiator: 'search-sandbox/e2e',
  },
  data: { responseId: `r-${pageLoadId}` },
});

beforeAll(async () => {
  if (skip) return;
  const demo = testConfig().accounts[0]!;
  // zeta99 (no feeds) first: config order, not the alphabet, picks the site a view opens on
  s = await openUi({ accounts: [{ ...demo, siteId: 'zeta99', feeds: [] }, demo] });
  // "DEMO!" and "aaa111" both sort before the configured sites
  expect((await postBeacon(s.sandbox.url, 'DEMO!/search/render', render('junk'))).status).toBe(404);
  expect((await postBeacon(s.sandbox.url, 'aaa111/search/render', render('other'))).status).toBe(
    200,
  );
}, 60_000);

afterAll(async () => {
  await s?.close();
});

/** The options of a select and the one chosen, once the sites (health, feeds, pages) have loaded. */
async function choices(selector: string): Promise<{ value: string; options: string[] }> {
  const select = s.page.locator(selector);
  await expect.poll(async () => (await select.locator('option').allTextContents()).length).toBe(3);
  return {
    value: await select.inputValue(),
    options: await select.locator('option').allTextContents(),
  };
}

describe.skipIf(skip)('the site a per-site view opens on', () => {
  it('Readiness: the first configured site, and no siteId the beacon path refuses', async () => {
    await s.ui.open('#/readiness');
    await s.ui.testId('readiness-view').waitFor();
    expect(await choices('[data-testid="readiness-site"]')).toEqual({
      value: 'zeta99',
      options: ['zeta99', 'demo42', 'aaa111'],
    });
    // its report, not the refused request's ("0 ok, 1 with findings" for "DEMO!")
    await expect
      .poll(() => s.ui.testId('readiness-summary').textContent())
      .toMatch(/^0 ok0 with findings\d+ unseen/);
    // nothing seen for zeta99, while pages arrived for other siteIds: said, with how to see them
    const other = await s.ui.testId('readiness-other-site').textContent();
    expect(other).toContain('No traffic for zeta99 yet, but pages arrived for');
    expect(other).toContain('aaa111 (1 page)');
    expect(other).toContain('sends another siteId');
  });

  it('Actions: the site to reset is the first configured one too', async () => {
    await s.ui.open('#/actions');
    await s.ui.testId('actions-view').waitFor();
    expect(await choices('select[aria-label="Site to reset"]')).toEqual({
      value: 'zeta99',
      options: ['zeta99', 'demo42', 'aaa111'],
    });
  });

  it("Connect: the first configured site, and a picker of the config's accounts whose snippets follow it", async () => {
    await s.ui.open('#/connect');
    await s.ui.testId('connect-view').waitFor();
    const picker = s.ui.testId('connect-site');
    // the accounts only: aaa111 sent traffic but has no account, so no key or feed to write a snippet with
    await expect
      .poll(() => picker.locator('option').allTextContents())
      .toEqual(['zeta99', 'demo42']);
    expect(await picker.inputValue()).toBe('zeta99');
    expect(await s.ui.testId('snippet-beaconjs').textContent()).toContain("siteId: 'zeta99'");
    expect(await s.ui.testId('snippet-status').textContent()).toContain("curl -u 'zeta99:");
    // zeta99 has no feeds: no upload or re-index snippet naming another site's feed, and why
    await expect
      .poll(() => s.ui.testId('connect-no-feeds').textContent())
      .toMatch(/^Site zeta99 has no feeds/);
    expect(await s.ui.testId('snippet-upload').count()).toBe(0);
    expect(await s.ui.testId('snippet-reindex').count()).toBe(0);
    await s.ui.screenshot('connect-sites-1440');

    await picker.selectOption('demo42');
    await expect.poll(() => s.page.url()).toMatch(/#\/connect\/demo42$/);
    await expect
      .poll(() => s.ui.testId('snippet-beaconjs').textContent())
      .toContain("siteId: 'demo42'");
    expect(await s.ui.testId('snippet-status').textContent()).toContain(
      "curl -u 'demo42:demo-secret-key'",
    );
    expect(await s.ui.testId('snippet-upload').textContent()).toContain('feedId=42');
    expect(await s.ui.testId('snippet-reindex').textContent()).toContain('feedId=43');
    expect(await s.ui.testId('connect-no-feeds').count()).toBe(0);
    expect(await s.ui.testId('connect-readiness').getAttribute('href')).toBe('#/readiness/demo42');
    // the address holds the choice: a reload opens on it
    await s.page.reload();
    await expect.poll(() => s.ui.testId('connect-site').inputValue()).toBe('demo42');
    // a siteId in the address that is no account: its tracking snippets, and why indexing refuses it
    await s.ui.open('#/connect/aaa111');
    await expect
      .poll(() => s.ui.testId('connect-account').textContent())
      .toMatch(/^Account aaa111 is not an account of this sandbox's config/);
    expect(await s.ui.testId('snippet-beaconjs').textContent()).toContain("siteId: 'aaa111'");
    expect(await s.ui.testId('snippet-upload').count()).toBe(0);
  });
});
