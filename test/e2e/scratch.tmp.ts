import { openUi } from './helpers/ui';
import { sendBadPage, sendGoodPage } from './helpers/beacons';
const width = Number(process.env.W ?? 1280);
const s = await openUi({}, { viewport: { width, height: 800 }, colorScheme: (process.env.DARK ? 'dark' : 'light') });
const errors: string[] = [];
s.page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
s.page.on('pageerror', (e) => errors.push(String(e)));
await s.ui.open('#/timelines');
await sendGoodPage(s.sandbox.url);
const bad = await sendBadPage(s.sandbox.url);
await s.ui.pageRow(bad.pageLoadId).waitFor();
await s.page.screenshot({ path: `/tmp/uiscratch/timelines-${width}.png` });
await s.ui.openPage(bad.pageLoadId);
await s.page.screenshot({ path: `/tmp/uiscratch/page-${width}.png` });
await s.ui.chartEvents().first().click();
await s.ui.testId('inspector').waitFor();
await s.page.screenshot({ path: `/tmp/uiscratch/inspector-${width}.png` });
for (const v of ['feeds', 'connect', 'actions', 'outbox', 'requests'] as const) {
  await s.ui.nav(v);
  await s.page.waitForTimeout(300);
  await s.page.screenshot({ path: `/tmp/uiscratch/${v}-${width}.png`, fullPage: false });
}
console.log(errors.join('\n'));
await s.close();
