// Orders you can trust at a glance, in real Chromium: the Orders view says what search earned and what
// the duplicate added, a repeated order sits beside the order it repeats with its finding and fix, an
// order is addressed by its eventId, a visit shows its orders' problems, and an order page links to its
// order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../src/shared/visits';
import {
  LOST_SITE,
  ORDER_SITE,
  STALE_SITE,
  sendDoubtfulOrder,
  sendLostCreditOrder,
  sendOrderVisits,
  sendStaleClickOrder,
} from '../helpers/order-visits';
import { postBeacon } from '../helpers/sandbox';
import { openUi, skipReason, type UiSession } from './helpers/ui';
import { cutText, inUpperHalf } from './helpers/in-page';

const skip = skipReason();

describe.skipIf(skip)('orders UI', () => {
  let s: UiSession;
  let orders: OrderDto[];
  beforeAll(async () => {
    s = await openUi({}, { viewport: { width: 1440, height: 900 } });
    await sendOrderVisits(s.sandbox.url);
    orders = (await (
      await fetch(`${s.sandbox.url}/_sandbox/orders?siteId=${ORDER_SITE}`)
    ).json()) as OrderDto[];
  });
  afterAll(async () => {
    await s?.close();
  });
  const first = () => orders.find((o) => o.orderId === 'A-1001' && !o.duplicateOf)!;
  const repeat = () => orders.find((o) => o.duplicateOf)!;

  it('shows the summary of the site in view: revenue by source and what the duplicate adds', async () => {
    await s.ui.open('#/orders');
    const summary = s.ui.testId('orders-summary');
    await summary.waitFor();
    await expect
      .poll(() => s.ui.testId('orders-summary-total').textContent())
      .toBe('4 orders · 6 lines · revenue 235');
    const source = (kind: string) =>
      s.page.locator(`[data-testid="orders-summary-source"][data-kind="${kind}"]`);
    expect(await source('search').innerText()).toMatch(/search\s+2\s+2\s+160\s+68 %/);
    expect(await source('category').innerText()).toMatch(/category\s+1\s+1\s+40\s+17 %/);
    expect(await s.ui.testId('orders-summary-uncredited').innerText()).toMatch(/3\s+35\s+15 %/);
    expect(await s.ui.testId('orders-summary-duplicates').textContent()).toMatch(
      /1 order sent again adds 90 to this revenue/,
    );
    expect(summary.getByRole('heading')).toBeTruthy();
    expect(await summary.getByRole('heading').textContent()).toBe(`Revenue of ${ORDER_SITE}`);
  });

  it('the summary follows the site picked, and the selected order’s site by default', async () => {
    const res = await postBeacon(s.sandbox.url, 'shop02/order/transaction', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'https://two.example/thanks',
        userId: 'u2',
        sessionId: 's2',
        pageLoadId: 'two-thanks',
        initiator: 'e2e',
        dev: true,
      },
      data: {
        orderId: 'T-1',
        transactionTotal: 12,
        total: 12,
        results: [{ uid: 'X', parentId: 'X', qty: 3, price: 4 }],
      },
    });
    expect(res.status).toBe(200);
    const site = s.ui.testId('orders-site');
    await site.waitFor();
    // the newest order (shop2's) is selected: its site is in view
    await expect
      .poll(() => s.ui.testId('orders-summary-total').textContent())
      .toBe('1 order · 1 line · revenue 12');
    await site.selectOption(ORDER_SITE);
    await expect
      .poll(() => s.ui.testId('orders-summary-total').textContent())
      .toBe('4 orders · 6 lines · revenue 235');
    await s.ui.open('#/orders');
  });

  it('lists the repeat right below the order it repeats, each with its errors and warnings counted', async () => {
    const items = s.ui.testId('order-item');
    await expect.poll(() => items.count()).toBe(5);
    const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-event-id')));
    expect(ids.indexOf(repeat().eventId)).toBe(ids.indexOf(first().eventId) + 1);
    const row = s.page.locator(`[data-testid="order-item"][data-event-id="${repeat().eventId}"]`);
    expect(await row.textContent()).toMatch(/A-1001.*repeat.*1 error.*1\/2 credited/);
  });

  it('a repeat’s detail says it is counted twice, beside the order it repeats, with the fix', async () => {
    await s.page.locator(`[data-testid="order-item"][data-event-id="${repeat().eventId}"]`).click();
    const detail = s.page.locator(
      `[data-testid="order-detail"][data-event-id="${repeat().eventId}"]`,
    );
    await detail.waitFor();
    expect(s.page.url()).toContain(`#/orders/${repeat().eventId}`);
    const dup = detail.getByTestId('order-duplicate-of');
    expect(await dup.textContent()).toMatch(/Counted twice.*A-1001.*add this order's 90 again/);
    const finding = detail.locator('[data-testid="order-finding"][data-rule="order-duplicate"]');
    expect(await finding.textContent()).toMatch(/order-duplicate.*counted twice/);
    expect(await finding.getByTestId('order-finding-fix').textContent()).toMatch(
      /^Fix: send the order from the thank-you page only, with its own orderId/,
    );
    await s.ui.screenshot('orders-duplicate-1440');
    // the order it repeats, one click away, names its repeat
    await dup.getByRole('link').click();
    const firstDetail = s.page.locator(
      `[data-testid="order-detail"][data-event-id="${first().eventId}"]`,
    );
    await firstDetail.waitFor();
    expect(await firstDetail.getByTestId('order-repeated-by').textContent()).toContain(
      repeat().eventId,
    );
  });

  it('an order without an id says so with its fix; the address survives a reload', async () => {
    const blank = orders.find((o) => o.orderId === '')!;
    await s.ui.open(`#/orders/${blank.eventId}`);
    const detail = s.page.locator(`[data-testid="order-detail"][data-event-id="${blank.eventId}"]`);
    await detail.waitFor();
    expect(await detail.getByTestId('order-finding').getAttribute('data-rule')).toBe(
      'order-id-missing',
    );
    expect(await detail.getByTestId('order-finding-fix').textContent()).toMatch(
      /Fix: set order\.id/,
    );
    await s.page.reload();
    await detail.waitFor();
    expect(await s.ui.testId('order-not-found').count()).toBe(0);
    // an address that names no order says so, and shows the newest instead
    await s.ui.open('#/orders/ev_999999999');
    await s.ui.testId('order-detail').waitFor();
    expect(await s.ui.testId('order-not-found').textContent()).toMatch(/ev_999999999/);
  });

  it('links the order page and the crediting click', async () => {
    await s.ui.open(`#/orders/${repeat().eventId}`);
    const detail = s.ui.testId('order-detail');
    await detail.waitFor();
    await detail.getByTestId('credit').getByRole('link').click();
    await s.ui.testId('page-view').waitFor();
    expect(await s.ui.testId('page-view').getAttribute('data-page-load-id')).toBe('a-search');
    await s.ui.open(`#/orders/${repeat().eventId}`);
    await s.ui.testId('order-page-link').click();
    await s.ui.testId('page-view').waitFor();
    expect(await s.ui.testId('page-view').getAttribute('data-page-load-id')).toBe('a-thanks-2');
  });

  it('the order page on the timelines links to its order', async () => {
    await s.ui.open('#/timelines');
    await s.ui.openPage('b-thanks');
    await s.ui.testId('visit-event-order-link').click();
    const b = orders.find((o) => o.orderId === 'B-2002')!;
    await s.page.locator(`[data-testid="order-detail"][data-event-id="${b.eventId}"]`).waitFor();
    expect(await s.ui.testId('order-no-findings').count()).toBe(1);
  });

  it('a visit’s detail shows its orders’ problems with their fixes', async () => {
    await s.ui.open(`#/visits/${encodeURIComponent(`${ORDER_SITE}/visit-a`)}`);
    const detail = s.ui.testId('visit-detail');
    await detail.waitFor();
    const orderSections = detail.getByTestId('visit-order');
    await expect.poll(() => orderSections.count()).toBe(2);
    for (const i of [0, 1]) {
      const finding = orderSections.nth(i).getByTestId('order-finding');
      expect(await finding.getAttribute('data-rule')).toBe('order-duplicate');
      expect(await finding.getByTestId('order-finding-fix').textContent()).toMatch(/^Fix: /);
    }
    expect(await orderSections.nth(1).textContent()).toMatch(/repeat: counted twice/);
    await orderSections.nth(0).scrollIntoViewIfNeeded();
    await s.ui.screenshot('visit-orders-1440');
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.ui.screenshot('visit-orders-390');
    await s.ui.open(`#/orders/${repeat().eventId}`);
    await s.ui.testId('order-duplicate-of').scrollIntoViewIfNeeded();
    await s.ui.screenshot('orders-duplicate-390');
  });

  it('a note on every production order (dev-flag) stays in the detail, out of the list’s count', async () => {
    const res = await postBeacon(s.sandbox.url, 'shop03/order/transaction', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'https://three.example/thanks',
        userId: 'u3',
        sessionId: 's3',
        pageLoadId: 'three-thanks',
        initiator: 'e2e',
      },
      data: {
        orderId: 'P-1',
        transactionTotal: 9,
        total: 9,
        results: [{ uid: 'Y', parentId: 'Y', qty: 1, price: 9 }],
      },
    });
    expect(res.status).toBe(200);
    const [order] = (await (
      await fetch(`${s.sandbox.url}/_sandbox/orders?siteId=shop03`)
    ).json()) as OrderDto[];
    expect(order!.findings.map((f) => [f.rule, f.severity])).toEqual([['dev-flag', 'info']]);
    await s.ui.open(`#/orders/${order!.eventId}`);
    const row = s.page.locator(`[data-testid="order-item"][data-event-id="${order!.eventId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('order-item-findings').count()).toBe(0);
    const detail = s.page.locator(
      `[data-testid="order-detail"][data-event-id="${order!.eventId}"]`,
    );
    expect(await detail.getByTestId('order-finding').getAttribute('data-rule')).toBe('dev-flag');
  });

  it('an order sent with a drifted sessionId links its page’s visit and names the sessionId it carried', async () => {
    const context = (sessionId: string, ms: number) => ({
      timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
      pageUrl: 'https://four.example/thanks',
      userId: 'u4',
      sessionId,
      pageLoadId: 'four-thanks',
      initiator: 'e2e',
      dev: true,
    });
    const sent = [
      ['product/pageview', context('s4-first', 0), { result: { uid: 'Z', parentId: 'Z' } }],
      [
        'order/transaction',
        context('s4-drifted', 1000),
        {
          orderId: 'F-1',
          transactionTotal: 7,
          total: 7,
          results: [{ uid: 'Z', parentId: 'Z', qty: 1, price: 7 }],
        },
      ],
    ] as const;
    for (const [endpoint, ctx, data] of sent)
      expect(
        (await postBeacon(s.sandbox.url, `shop04/${endpoint}`, { context: ctx, data })).status,
      ).toBe(200);
    const [order] = (await (
      await fetch(`${s.sandbox.url}/_sandbox/orders?siteId=shop04`)
    ).json()) as OrderDto[];
    await s.ui.open(`#/orders/${order!.eventId}`);
    const detail = s.page.locator(
      `[data-testid="order-detail"][data-event-id="${order!.eventId}"]`,
    );
    await detail.waitFor();
    expect(await detail.getByTestId('order-drifted-session').textContent()).toMatch(
      /sent with sessionId s4-drifted, which drifted from its page’s first.*context-drift/,
    );
    await detail.getByRole('link', { name: 'shop04 · s4-first' }).click();
    const visit = s.ui.testId('visit-detail');
    await visit.waitFor();
    expect(await visit.textContent()).toContain('s4-first');
    // the visit's orders are asked for once it shows: wait for their answer (an order, or none) to count
    await visit
      .locator('[data-testid="visit-order"], p:text-is("No order in this visit.")')
      .first()
      .waitFor();
    expect(await visit.getByTestId('visit-order').count()).toBe(1);
  });
});

describe.skipIf(skip)('an order whose credit rests on a click with errors, priced in cents', () => {
  let s: UiSession;
  let doubtful: OrderDto;
  beforeAll(async () => {
    s = await openUi({}, { viewport: { width: 1440, height: 900 } });
    await sendOrderVisits(s.sandbox.url);
    await sendDoubtfulOrder(s.sandbox.url);
    const list = (await (
      await fetch(`${s.sandbox.url}/_sandbox/orders?siteId=${ORDER_SITE}`)
    ).json()) as OrderDto[];
    doubtful = list.find((o) => o.orderId === 'D-4004')!;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('says so in the list, the detail and the summary', async () => {
    await s.ui.open(`#/orders/${doubtful.eventId}`);
    const row = s.page.locator(`[data-testid="order-item"][data-event-id="${doubtful.eventId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('order-item-credit-doubt').textContent()).toBe('credit in doubt');
    expect(await row.getByTestId('order-item-price-unit').textContent()).toBe('cents?');
    const detail = s.page.locator(
      `[data-testid="order-detail"][data-event-id="${doubtful.eventId}"]`,
    );
    const onClick = detail.locator(
      '[data-testid="order-finding"][data-rule="missing-render"][data-on="interaction"]',
    );
    await onClick.waitFor();
    expect(await onClick.getByTestId('order-finding-interaction').textContent()).toMatch(
      /On the clickthrough this order's credit rests on: ev_\w+ \(page d-search\)/,
    );
    expect(await detail.getByTestId('order-no-findings').count()).toBe(0);
    await expect
      .poll(() => s.ui.testId('orders-summary-errors').textContent())
      .toMatch(/^6195 of this revenue \(99 %\) sits on 4 orders with errors/);
    expect(await s.ui.testId('orders-summary-prices').textContent()).toMatch(
      /Prices in cents\? 1 order \(6000 of the revenue\)/,
    );
    await s.ui.testId('orders-summary').scrollIntoViewIfNeeded();
    await s.ui.screenshot('orders-doubt-1440');
  });

  it('an order whose credit a rejected click cost says "credit lost", and its detail names that click', async () => {
    expect(await sendLostCreditOrder(s.sandbox.url)).toBe(400);
    const [lost] = (await (
      await fetch(`${s.sandbox.url}/_sandbox/orders?siteId=${LOST_SITE}`)
    ).json()) as OrderDto[];
    await s.ui.open(`#/orders/${lost!.eventId}`);
    const row = s.page.locator(`[data-testid="order-item"][data-event-id="${lost!.eventId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('order-item-credit-lost').textContent()).toBe('credit lost');
    expect(await row.getByTestId('order-item-credit-doubt').count()).toBe(0);
    // the list's badge names its errors and warnings as such; an info is the detail's, and its title says so
    const bySeverity = (sev: string) => lost!.findings.filter((f) => f.severity === sev).length;
    expect(bySeverity('error')).toBeGreaterThan(0);
    const badge = row.getByTestId('order-item-findings');
    expect(await badge.textContent()).toBe(
      [
        `${bySeverity('error')} error${bySeverity('error') === 1 ? '' : 's'}`,
        ...(bySeverity('warning') > 0 ? [`${bySeverity('warning')} warning`] : []),
      ].join(', '),
    );
    expect(await badge.getAttribute('title')).toBe(
      bySeverity('info') > 0
        ? `and ${bySeverity('info')} info finding${bySeverity('info') === 1 ? '' : 's'}: the order's detail lists them`
        : null,
    );
    const detail = s.page.locator(`[data-testid="order-detail"][data-event-id="${lost!.eventId}"]`);
    const onClick = detail.locator('[data-testid="order-finding"][data-rule="schema"]');
    await onClick.waitFor();
    expect(await onClick.getByTestId('order-finding-interaction').textContent()).toMatch(
      /^On the clickthrough the service rejected: ev_\w+ \(page l-search\): the line it would have credited has no credit\.$/,
    );
    // the doubtful order's click still reads as the one its credit rests on
    const doubtRow = s.page.locator(
      `[data-testid="order-item"][data-event-id="${doubtful.eventId}"]`,
    );
    expect(await doubtRow.getByTestId('order-item-credit-lost').count()).toBe(0);
  });

  it('an order credited to a stale click folds the click’s findings under their cause, in the order and its visit, and counts how many follow', async () => {
    await sendStaleClickOrder(s.sandbox.url);
    const [stale] = (await (
      await fetch(`${s.sandbox.url}/_sandbox/orders?siteId=${STALE_SITE}`)
    ).json()) as OrderDto[];
    const follow = stale!.findings.filter((f) => f.causedBy !== undefined);
    expect(follow.length).toBeGreaterThanOrEqual(2);
    await s.ui.open(`#/orders/${stale!.eventId}`);
    const row = s.page.locator(`[data-testid="order-item"][data-event-id="${stale!.eventId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('order-item-findings').textContent()).toMatch(
      new RegExp(`\\(${follow.length} follow from another finding\\)$`),
    );
    const check = async (root: ReturnType<UiSession['ui']['testId']>) => {
      const list = root.getByTestId('order-findings');
      await list.waitFor();
      // one leads at the top of the list; the rest sit under it, folded, each saying what it follows from
      const top = list.locator(':scope > [data-testid="order-finding"]');
      expect(await top.evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')))).toEqual([
        'responseid-stale',
      ]);
      const folded = top.first().getByTestId('order-finding-consequences');
      expect(await folded.locator('summary').textContent()).toBe(
        `${follow.length} more findings follow from this one`,
      );
      const under = folded.locator('[data-testid="order-finding"]');
      expect(await under.evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')))).toEqual(
        follow.map((f) => f.rule),
      );
      await folded.locator('summary').click();
      expect(await under.first().getByTestId('order-finding-follows-from').textContent()).toBe(
        'follows from responseid-stale: fix that first',
      );
    };
    await check(s.page.locator(`[data-testid="order-detail"][data-event-id="${stale!.eventId}"]`));
    await s.ui.screenshot('orders-folded-1440');
    await s.ui.open(`#/visits/${encodeURIComponent(`${STALE_SITE}/${stale!.sessionId}`)}`);
    const visit = s.ui.testId('visit-detail');
    await visit.waitFor();
    await check(visit.getByTestId('visit-order'));
  });

  it('at 390 px, a deep link puts the order in view; finding titles wrap, not cut', async () => {
    await s.page.setViewportSize({ width: 390, height: 844 });
    // a fresh load of the address, as a link from a chat or a CI log opens it
    await s.page.goto('about:blank');
    await s.ui.open(`#/orders/${doubtful.eventId}`);
    const detail = s.page.locator(
      `[data-testid="order-detail"][data-event-id="${doubtful.eventId}"]`,
    );
    await detail.waitFor();
    await expect
      .poll(() =>
        s.page.evaluate<boolean>(
          inUpperHalf(`[data-testid="order-detail"][data-event-id="${doubtful.eventId}"]`),
        ),
      )
      .toBe(true);
    await s.ui.screenshot('orders-doubt-390');
    // no finding title or message is cut: each shows all of its text
    const cut = await s.page.evaluate<string[]>(cutText('[data-testid="order-finding"]'));
    expect(cut).toEqual([]);
    // a page with a long search URL and findings: its URL and its findings' titles wrap too
    const longUrl =
      'https://shop.example/search?q=waterproof%20hiking%20jacket%20for%20women&page=2&sort=price-asc';
    const res = await postBeacon(s.sandbox.url, `${ORDER_SITE}/search/clickthrough`, {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: longUrl,
        userId: 'u-long',
        sessionId: 's-long',
        pageLoadId: 'long-url',
        initiator: 'e2e',
        dev: true,
      },
      data: { responseId: 'r-long', results: [{ type: 'product', uid: 'A', parentId: 'A' }] },
    });
    expect(res.status).toBe(200);
    await s.ui.open(`#/timelines/${encodeURIComponent(`${ORDER_SITE}/long-url`)}`);
    await s.ui.finding('missing-render').waitFor();
    expect(await s.page.evaluate<string[]>(cutText('.page-view-head h2'))).toEqual([]);
    expect(
      await s.page.evaluate<string[]>(cutText('[data-testid="finding"] .finding-head')),
    ).toEqual([]);
    expect(await s.page.locator('.page-view-head h2').textContent()).toBe(
      'https://shop.example/search?q=waterproof hiking jacket for women&page=2&sort=price-asc',
    );
    await s.ui.screenshot('page-long-url-390');
  });
});
