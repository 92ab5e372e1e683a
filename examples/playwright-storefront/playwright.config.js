// Playwright for the example storefront. Each worker gets its own sandbox (search-sandbox/playwright),
// so the two journeys may run side by side without seeing each other's events.
import { defineConfig } from '@playwright/test';

// A system Chromium instead of Playwright's download, e.g. CHROMIUM_PATH=/usr/bin/chromium
const chromium = process.env.CHROMIUM_PATH;

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: chromium
      ? { executablePath: chromium, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] }
      : {},
  },
});
