// The Feeds board by keyboard and screen reader, on a phone and a laptop: tabbing onto a card's file chooser
// rings its drop zone where it is and never scrolls the app's frame, the state diagram stays within reach on
// a phone (it scrolls sideways), and the top-bar clock's name never reads as a step button's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOCUSED_TESTID, SETTLE } from './helpers/in-page';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 900 };

describe.skipIf(skip)('the feed board by keyboard and on a phone', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi({}, { viewport: PHONE });
  });
  afterAll(async () => {
    await s?.close();
  });

  async function at(size: { width: number; height: number }) {
    await s.page.setViewportSize(size);
    await s.ui.open('#/feeds');
    await s.ui.feedState(42, 'done');
    await s.page.evaluate(SETTLE);
  }

  /** Tab from the top of the page until the focus is on `testId`; false when it never gets there. */
  async function tabTo(testId: string): Promise<boolean> {
    for (let i = 0; i < 120; i++) {
      await s.page.keyboard.press('Tab');
      if ((await s.page.evaluate(FOCUSED_TESTID)) === testId) return true;
    }
    return false;
  }

  const frameScroll = () => s.page.evaluate<number>("document.querySelector('main').scrollTop");

  for (const [name, size] of [
    ['390', PHONE],
    ['1366', LAPTOP],
  ] as const) {
    it(`at ${name} px, tabbing onto a feed's file chooser rings its drop zone in sight and leaves the frame unscrolled`, async () => {
      await at(size);
      expect(await tabTo('feed-upload-input-42')).toBe(true);
      const zone = s.ui.testId('feed-dropzone-42');
      expect(
        await s.page.evaluate(
          `getComputedStyle(document.querySelector('[data-testid="feed-dropzone-42"]')).outlineStyle`,
        ),
      ).toBe('solid');
      // the frame around the screens does not scroll: a scrolled one leaves the screen blank
      expect(await frameScroll()).toBe(0);
      const box = (await zone.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      await s.ui.screenshot(`feeds-file-focus-${name}`);
      await s.page.keyboard.press('Tab');
      expect(await frameScroll()).toBe(0);
    });
  }

  it('on a phone, the state diagram is drawn at a readable size and scrolls sideways to its last state', async () => {
    await at(PHONE);
    const card = s.ui.feedCard(43);
    const diagram = card.getByTestId('feed-diagram');
    expect(await diagram.isVisible()).toBe(true);
    await diagram.scrollIntoViewIfNeeded();
    const heights = await diagram
      .locator('text')
      .evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
    for (const h of heights) expect(h).toBeGreaterThanOrEqual(10);
    // the far-right state, reached by keyboard as by a finger: its box ends inside the screen
    const last = card.getByTestId('diagram-node-regen_error');
    await last.focus();
    const box = (await last.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await s.ui.screenshot('feeds-diagram-390');
  });

  it("names the moved top-bar clock in words no step button's name contains", async () => {
    await at(LAPTOP);
    const step = s.page.getByRole('button', { name: '+1 min' });
    await s.ui.testId('feeds-view').getByTestId('clock-plus-minute').click();
    await s.ui.testId('clock-button-offset').waitFor();
    // the step button only: a screen reader hears the clock's offset as an offset, not a button label
    expect(await step.count()).toBe(1);
    expect(await step.getAttribute('data-testid')).toBe('clock-plus-minute');
    expect(
      await s.page
        .getByRole('button', {
          name: 'Sandbox clock: 1 minute ahead of real time — show controls',
          exact: true,
        })
        .count(),
    ).toBe(1);
    expect(await s.ui.testId('clock-button-offset').textContent()).toBe('+1 min');
    await s.page.setViewportSize(PHONE);
    await s.ui.screenshot('clock-named-390');
  });
});
