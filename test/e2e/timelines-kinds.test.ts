// Every kind on one shopper's visit, in real Chromium: a category page with the header's autocomplete, then
// a search page, then a product page with a recommendations widget, listed in visit order under one session;
// each page, lane, event and the inspector name the kind (and a widget's tag); the kind filter narrows the list.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, searchBody, sendAs, sendGoodPage } from './helpers/beacons';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);

describe.skipIf(skip)('timelines of every kind in the UI', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows a category page and an autocomplete response on one session, in visit order, with their kinds', async () => {
    const base = s.sandbox.url;
    const shopper = { userId: randomUUID(), sessionId: randomUUID() };
    const t0 = Date.now() - 20_000;
    const cat = newPage({ ...shopper, pageUrl: 'https://shop.example.com/collections/jackets' });
    await sendAs(base, 'category', 'render', searchBody('render', cat, { at: t0 }));
    await sendAs(base, 'category', 'impression', searchBody('impression', cat, { at: t0 + 1200 }));
    const ac = randomUUID();
    await sendAs(
      base,
      'autocomplete',
      'render',
      searchBody('render', cat, { at: t0 + 3000, responseId: ac }),
    );
    await sendAs(
      base,
      'autocomplete',
      'impression',
      searchBody('impression', cat, { at: t0 + 4200, responseId: ac, uids: ['2001'] }),
    );
    const search = await sendGoodPage(
      base,
      newPage({ ...shopper, pageUrl: 'https://shop.example.com/search?q=jacket' }),
      t0 + 6000,
    );
    const pdp = newPage({ ...shopper, pageUrl: 'https://shop.example.com/products/2001' });
    const widget = (event: string, at: number) => {
      const body = searchBody(event, pdp, { at, uids: ['3001', '3002'] });
      return { ...body, data: { tag: 'similar', ...(body.data as object) } };
    };
    await sendAs(base, 'recommendations', 'render', widget('render', t0 + 10_000));
    await sendAs(base, 'recommendations', 'impression', widget('impression', t0 + 11_200));

    await s.ui.open('#/timelines');
    const session = s.page.locator(
      `[data-testid="session-row"][data-session-id="${shopper.sessionId}"]`,
    );
    await session.waitFor();
    await expect.poll(() => session.textContent()).toContain('3 pages');
    // the visit reads top to bottom: category page, search, product page
    const rows = await s.page
      .locator('[data-testid="page-row"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-page-load-id')));
    expect(rows).toEqual([cat.pageLoadId, search.pageLoadId, pdp.pageLoadId]);
    const catRow = s.ui.pageRow(cat.pageLoadId);
    await expect
      .poll(() =>
        catRow
          .getByTestId('response-kind')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
      )
      .toEqual(['category', 'autocomplete']);
    // a search-only page says nothing more; the product page names its widget kind
    expect(await s.ui.pageRow(search.pageLoadId).getByTestId('response-kind').count()).toBe(0);
    expect(
      await s.ui
        .pageRow(pdp.pageLoadId)
        .getByTestId('response-kind')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
    ).toEqual(['recommendations']);

    const view = await s.ui.openPage(cat.pageLoadId);
    expect(await view.getAttribute('data-verdict')).toBe('pass');
    expect(await s.ui.testId('page-kinds').getByTestId('response-kind').allTextContents()).toEqual([
      'category',
      'autocomplete',
    ]);
    const lanes = await s.ui
      .testId('lane')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(lanes).toEqual(['category', 'autocomplete']);
    await s.ui.screenshot('timelines-kinds');

    // the inspector of an autocomplete event names its kind
    await s.page.locator('[data-testid="page-event-row"]').nth(2).click();
    await s.ui.testId('inspector').waitFor();
    expect(await s.ui.testId('inspector').getByTestId('response-kind').first().textContent()).toBe(
      'autocomplete',
    );

    // a widget's tag is shown with its kind
    await s.ui.openPage(pdp.pageLoadId);
    await expect
      .poll(() => s.ui.testId('page-events').getByTestId('response-kind').first().textContent())
      .toBe('recommendations · similar');

    // the kind filter keeps the pages holding a response of that kind
    await s.ui.testId('filter-kind').selectOption('category');
    await expect.poll(() => s.ui.testId('page-row').count()).toBe(1);
    expect(await s.ui.testId('page-row').getAttribute('data-page-load-id')).toBe(cat.pageLoadId);
    await s.ui.testId('filter-kind').selectOption('');
  });
});
