// The whole visit in real Chromium: a shopper's path reads search → product → cart → order with each
// page's verdict, the orders view shows each line's credit (or why none) with a link to the crediting
// click, and an id holding a lone surrogate (any web page can send one) breaks no view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBeacon } from '../helpers/sandbox';
import { SITE_ID } from './helpers/beacons';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();

function ctx(pageLoadId: string, pageUrl: string, ms: number, over: Record<string, unknown> = {}) {
  return {
    timestamp: new Date(Date.now() - 120_000 + ms).toISOString(),
    pageUrl,
    userId: 'shopper-u1',
    sessionId: 'visit-s1',
    pageLoadId,
    initiator: 'e2e',
    dev: true,
    ...over,
  };
}

async function send(base: string, endpoint: string, body: unknown): Promise<void> {
  const res = await postBeacon(base, `${SITE_ID}/${endpoint}`, body);
  expect(res.status, endpoint).toBe(200);
}

/** search jacket → click P103 → product page of variant 1030 → cart → thank-you page with a second, unclicked line */
async function shop(base: string): Promise<void> {
  const search = (ms: number) => ctx('v-search', 'https://shop.example/search?q=jacket', ms);
  const tile = { type: 'product', uid: 'P103', parentId: 'P103' };
  await send(base, 'search/render', { context: search(0), data: { responseId: 'r-jacket' } });
  await send(base, 'search/impression', {
    context: search(1200),
    data: { responseId: 'r-jacket', results: [tile], banners: [] },
  });
  await send(base, 'search/clickthrough', {
    context: search(3000),
    data: { responseId: 'r-jacket', results: [tile] },
  });
  await send(base, 'product/pageview', {
    context: ctx('v-pdp', 'https://shop.example/p/1030', 4000),
    data: { result: { uid: '1030', parentId: 'P103', sku: 'S-1030' } },
  });
  const jacket = { uid: '1030', parentId: 'P103', sku: 'S-1030', qty: 1, price: 80 };
  const socks = { uid: 'SOCK', parentId: 'SOCK', qty: 2, price: 5 };
  await send(base, 'cart/add', {
    context: ctx('v-cart', 'https://shop.example/cart', 9000),
    data: { results: [jacket, socks], cart: [jacket, socks] },
  });
  // the thank-you page sends the order twice, 40 ms apart (the snippet and a tag manager copy):
  // order-duplicate on the second
  for (const ms of [20_000, 20_040])
    await send(base, 'order/transaction', {
      context: ctx('v-thanks', 'https://shop.example/thanks', ms),
      data: { orderId: 'A-1001', transactionTotal: 90, total: 97.2, results: [jacket, socks] },
    });
}

describe.skipIf(skip)('visits and orders UI', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows the visit as the shopper’s path with each page’s verdict, and the order’s finding on its page', async () => {
    await shop(s.sandbox.url);
    await s.ui.open('#/visits');
    const steps = s.ui.testId('visit-step');
    await expect.poll(() => steps.count()).toBe(4);
    expect(await s.ui.testId('visit-path').textContent()).toMatch(
      /Search.*pass.*Product.*pass.*Cart.*pass.*Order.*fail/,
    );
    expect(await s.ui.testId('visit-detail').getAttribute('data-verdict')).toBe('fail');
    // a visit's span is the storefront's clock; a page's "seen" is when the sandbox received it
    expect(await s.ui.testId('visit-time').textContent()).toMatch(/UTC by the events' timestamps$/);
    await s.ui.screenshot('visit');
    // the order step opens its page: the duplicate order is an error there, with the visit events
    await steps.nth(3).click();
    await s.ui.testId('page-view').waitFor();
    await expect.poll(() => s.ui.testId('page-kind').textContent()).toBe('order page');
    expect(await s.ui.testId('page-seen').textContent()).toMatch(/UTC received$/);
    const finding = s.page.locator('[data-testid="finding"][data-rule="order-duplicate"]');
    await finding.waitFor();
    await finding.click();
    const highlighted = s.page.locator('[data-testid="visit-event-row"][data-highlight="true"]');
    expect(await highlighted.count()).toBe(2);
  });

  it('shows each order line’s credit with a link to the crediting click, or why it has none', async () => {
    await s.ui.open('#/orders');
    await s.ui.testId('order-detail').waitFor();
    const lines = s.ui.testId('order-line');
    await expect.poll(() => lines.count()).toBe(2);
    const credited = lines.nth(0).getByTestId('credit');
    expect(await credited.textContent()).toMatch(/search.*query.*jacket.*clickthrough/);
    expect(await lines.nth(1).getByTestId('no-credit').textContent()).toMatch(
      /no clickthrough or addtocart of "SOCK"/,
    );
    await s.ui.screenshot('orders');
    await credited.getByRole('link').click();
    await s.ui.testId('page-view').waitFor();
    expect(await s.ui.testId('page-view').getAttribute('data-page-load-id')).toBe('v-search');
  });

  it('a lone surrogate in a pageLoadId breaks neither the list, the page nor the visit', async () => {
    const lone = 'bad-\uD800-page';
    await send(s.sandbox.url, 'product/pageview', {
      context: ctx(lone, 'https://shop.example/p/\uDC00', 30_000, { sessionId: 'visit-\uD83D' }),
      data: { result: { uid: 'X\uD800', parentId: 'X' } },
    });
    await s.ui.open('#/timelines');
    const row = s.page.locator('[data-page-load-id="bad-\uD800-page"]').first();
    await row.waitFor();
    await row.click();
    await s.ui.testId('page-view').waitFor();
    expect(await s.ui.testId('page-kind').textContent()).toBe('product page');
    await s.ui.testId('page-visit-link').click();
    await s.ui.testId('visit-detail').waitFor();
    expect(await s.page.locator('[data-testid="view-error"]').count()).toBe(0);
    // after a reload, from the URL alone
    await s.page.reload();
    await s.ui.testId('visit-detail').waitFor();
    expect(await s.page.locator('[data-testid="view-error"]').count()).toBe(0);
  });

  it('an order sent again by a reload of its thank-you page: counted twice, named as the client’s own repeat (info)', async () => {
    const order = {
      orderId: 'R-7',
      transactionTotal: 12,
      total: 12,
      results: [{ uid: 'SOCK', parentId: 'SOCK', qty: 1, price: 12 }],
    };
    // a reload 4 s later keeps the pageLoadId for the same URL
    for (const ms of [40_000, 44_000])
      await send(s.sandbox.url, 'order/transaction', {
        context: ctx('v-thanks-r7', 'https://shop.example/thanks?order=R-7', ms),
        data: order,
      });
    await s.ui.open('#/orders');
    const repeat = s.page.locator('[data-testid="order-item"]', { hasText: 'R-7' }).last();
    await repeat.click();
    const note = s.ui.testId('order-duplicate-of');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/Counted twice.*R-7.*add this order's 12 again/);
    const finding = s.page.locator('[data-testid="order-finding"][data-rule="order-reloaded"]');
    expect(await finding.textContent()).toMatch(
      /info.*counts its revenue twice: the client's own traffic/,
    );
    await s.ui.screenshot('order-reloaded');
  });
});
