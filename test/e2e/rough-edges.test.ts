import { afterAll, beforeAll, describe, it } from 'vitest';
import { sendOrderVisits } from '../helpers/order-visits';
import { sendShoppingDay } from './helpers/beacons';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();

describe.skipIf(skip)('explore', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi({}, { viewport: { width: 390, height: 844 } });
    await sendShoppingDay(s.sandbox.url);
    await sendOrderVisits(s.sandbox.url);
  });
  afterAll(async () => {
    await s?.close();
  });
  it('shots', async () => {
    for (const [w, h] of [[390, 844], [1440, 900]] as const) {
      await s.page.setViewportSize({ width: w, height: h });
      for (const v of ['timelines', 'requests', 'visits', 'orders']) {
        await s.ui.open(`#/${v}`);
        await s.ui.testId(`${v}-view`).waitFor();
        await new Promise((r) => setTimeout(r, 400));
        await s.page.screenshot({ path: `/tmp/i42/${v}-${w}.png` });
      }
    }
  });
});
