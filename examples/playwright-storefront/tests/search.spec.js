// A clean search journey: results are rendered, the tiles in view impressed, one clicked. The beacons
// go to the provider's production hosts, which the fixture routes to this worker's sandbox.
import { test, expect } from './fixtures.js';

test('a search page tracks cleanly', async ({ page, sandbox, storefrontUrl }) => {
  await page.goto(`${storefrontUrl}/?q=jacket`);
  await expect(page.getByRole('status')).toHaveText(/\d+ results/);
  await sandbox.waitForEvents({ siteId: 'demo42', event: 'impression' });
  await page.locator('#results li').first().click();
  await sandbox.waitForEvents({ siteId: 'demo42', event: 'clickthrough' });
  await sandbox.expectClean({ siteId: 'demo42', failOn: 'warning' });
  // and its search asked with the tracker's context, as the provider's own client asks
  await sandbox.expectReady({ siteId: 'demo42', expect: ['search.request-context'] });
});
