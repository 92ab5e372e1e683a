/* global window */
// The same journey with a planted integration bug (the storefront forgets the render event), to show
// what a failing expectClean prints. It runs with PLANT_BUG=1 and is meant to fail then.
import { test } from './fixtures.js';

test.skip(!process.env.PLANT_BUG, 'run with PLANT_BUG=1 to see a failing journey');

test('a search page with a planted bug', async ({ page, sandbox, storefrontUrl }) => {
  await page.addInitScript(() => {
    window.__plantedBug = 'no-render';
  });
  await page.goto(`${storefrontUrl}/?q=jacket`);
  await sandbox.waitForEvents({ siteId: 'demo42', event: 'impression' });
  await page.locator('#results li').first().click();
  await sandbox.waitForEvents({ siteId: 'demo42', event: 'clickthrough' });
  await sandbox.expectClean({ siteId: 'demo42', failOn: 'warning' });
});
