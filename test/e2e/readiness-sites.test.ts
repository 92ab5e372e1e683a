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
  });

  it('Actions: the site to reset is the first configured one too', async () => {
    await s.ui.open('#/actions');
    await s.ui.testId('actions-view').waitFor();
    expect(await choices('select[aria-label="Site to reset"]')).toEqual({
      value: 'zeta99',
      options: ['zeta99', 'demo42', 'aaa111'],
    });
  });
});
