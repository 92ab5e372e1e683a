// A scripted set of visits for the orders' findings and summary (API, UI and package tests alike):
//  A: search "jacket" → click P103 → product → cart → thank-you page A-1001 (jacket 1 × 80 credited to
//     search, socks 2 × 5 uncredited), then the account's order page sends A-1001 again (a second order
//     script: order-duplicate);
//  B: category "bags" → click BAG → thank-you page B-2002 (BAG 1 × 40 credited to category);
//  C: a thank-you page whose order has no orderId (HAT 1 × 15, uncredited).
import type { OrdersSummaryDto } from '../../src/shared/visits';
import { postBeacon } from './sandbox';

export const ORDER_SITE = 'demo42';

/** What GET /_sandbox/orders/summary?siteId=demo42 answers for the script. */
export const SCRIPTED_SUMMARY: OrdersSummaryDto = {
  orders: 4,
  lines: 6,
  revenue: 235,
  bySource: {
    search: { orders: 2, lines: 2, revenue: 160 },
    category: { orders: 1, lines: 1, revenue: 40 },
  },
  uncredited: { lines: 3, revenue: 35 },
  duplicates: { orders: 1, revenue: 90 },
  withErrors: { orders: 3, revenue: 195 },
  pricesInDoubt: { orders: 0, revenue: 0 },
};

export const THANKS_A = 'https://shop.example/checkout/thank-you?order=A-1001';
export const THANKS_B = 'https://shop.example/checkout/thank-you?order=B-2002';

async function send(base: string, endpoint: string, body: unknown): Promise<void> {
  const res = await postBeacon(base, `${ORDER_SITE}/${endpoint}`, body);
  if (res.status !== 200)
    throw new Error(`POST ${endpoint} answered ${res.status}: ${await res.text()}`);
}

function shopper(userId: string, sessionId: string, start: number) {
  return (pageLoadId: string, pageUrl: string, ms: number) => ({
    timestamp: new Date(start + ms).toISOString(),
    pageUrl,
    userId,
    sessionId,
    pageLoadId,
    initiator: 'search-sandbox/test',
    dev: true,
  });
}

/** render, impression and a click on one tile of a search or category page. */
async function clickOn(
  base: string,
  kind: 'search' | 'category',
  context: (ms: number) => Record<string, unknown>,
  responseId: string,
  uid: string,
): Promise<void> {
  const tile = { type: 'product', uid, parentId: uid };
  await send(base, `${kind}/render`, { context: context(0), data: { responseId } });
  await send(base, `${kind}/impression`, {
    context: context(1200),
    data: { responseId, results: [tile], banners: [] },
  });
  await send(base, `${kind}/clickthrough`, {
    context: context(3000),
    data: { responseId, results: [tile] },
  });
}

/** Sends the three visits; `start` is the time (ms) of the first event (default two minutes ago). */
export async function sendOrderVisits(base: string, start = Date.now() - 120_000): Promise<void> {
  const a = shopper('shopper-a', 'visit-a', start);
  await clickOn(
    base,
    'search',
    (ms) => a('a-search', 'https://shop.example/search?q=jacket', ms),
    'r-jacket',
    'P103',
  );
  await send(base, 'product/pageview', {
    context: a('a-pdp', 'https://shop.example/p/1030', 4000),
    data: { result: { uid: '1030', parentId: 'P103', sku: 'S-1030' } },
  });
  const jacket = { uid: '1030', parentId: 'P103', sku: 'S-1030', qty: 1, price: 80 };
  const socks = { uid: 'SOCK', parentId: 'SOCK', qty: 2, price: 5 };
  await send(base, 'cart/add', {
    context: a('a-cart', 'https://shop.example/cart', 9000),
    data: { results: [jacket, socks], cart: [jacket, socks] },
  });
  const orderA = { orderId: 'A-1001', transactionTotal: 90, total: 97.2, results: [jacket, socks] };
  await send(base, 'order/transaction', { context: a('a-thanks', THANKS_A, 20_000), data: orderA });
  // a minute later the account's order page carries an order script too: the same order again, from
  // another page (a reload of the thank-you page would be the client's own traffic: order-reloaded)
  await send(base, 'order/transaction', {
    context: a('a-thanks-2', 'https://shop.example/account/orders/A-1001', 80_000),
    data: orderA,
  });

  const b = shopper('shopper-b', 'visit-b', start + 5_000);
  await clickOn(
    base,
    'category',
    (ms) => b('b-bags', 'https://shop.example/c/bags', ms),
    'r-bags',
    'BAG',
  );
  const bag = { uid: 'BAG', parentId: 'BAG', qty: 1, price: 40 };
  await send(base, 'order/transaction', {
    context: b('b-thanks', THANKS_B, 30_000),
    data: { orderId: 'B-2002', transactionTotal: 40, total: 43.2, results: [bag] },
  });

  const c = shopper('shopper-c', 'visit-c', start + 10_000);
  const hat = { uid: 'HAT', parentId: 'HAT', qty: 1, price: 15 };
  await send(base, 'order/transaction', {
    context: c('c-thanks', 'https://shop.example/checkout/thank-you', 40_000),
    data: { orderId: '', transactionTotal: 15, total: 15, results: [hat] },
  });
}

export const THANKS_D = 'https://shop.example/checkout/thank-you?order=D-4004';

/**
 * One more visit, on its own (the script above stays as the README shows it): D clicks the boots of a
 * search response the page never rendered (missing-render, an error on the click that credits the line),
 * adds them to the cart at 60, and the thank-you page sends the line in cents (6000) against a total in
 * units (price-unit-mismatch and order-totals).
 */
export async function sendDoubtfulOrder(base: string, start = Date.now() - 60_000): Promise<void> {
  const d = shopper('shopper-d', 'visit-d', start);
  const boots = { uid: 'BOOT', parentId: 'BOOT', qty: 1, price: 60 };
  await send(base, 'search/clickthrough', {
    context: d('d-search', 'https://shop.example/search?q=boots', 0),
    data: { responseId: 'r-boots', results: [{ type: 'product', uid: 'BOOT', parentId: 'BOOT' }] },
  });
  await send(base, 'cart/add', {
    context: d('d-cart', 'https://shop.example/cart', 5000),
    data: { results: [boots], cart: [boots] },
  });
  await send(base, 'order/transaction', {
    context: d('d-thanks', THANKS_D, 20_000),
    data: {
      orderId: 'D-4004',
      transactionTotal: 60,
      total: 64.8,
      results: [{ ...boots, price: 6000 }],
    },
  });
}

/** The site of the order whose credit a rejected click cost (its own, so the scripted summary stays). */
export const LOST_SITE = 'lost01';

/**
 * L: search "lamp" → render, impression, a click the service rejects (the result's `type` left out) →
 * thank-you page L-1 (L1 1 × 30, no credit). Answers the rejected click's status.
 */
export async function sendLostCreditOrder(
  base: string,
  start = Date.now() - 60_000,
): Promise<number> {
  const l = shopper('shopper-l', 'visit-l', start);
  const search = (ms: number) => l('l-search', 'https://shop.example/search?q=lamp', ms);
  const post = async (endpoint: string, body: unknown) =>
    postBeacon(base, `${LOST_SITE}/${endpoint}`, body);
  const ok = async (endpoint: string, body: unknown) => {
    const res = await post(endpoint, body);
    if (res.status !== 200)
      throw new Error(`POST ${endpoint} answered ${res.status}: ${await res.text()}`);
  };
  await ok('search/render', { context: search(0), data: { responseId: 'r-lamp' } });
  await ok('search/impression', {
    context: search(1200),
    data: {
      responseId: 'r-lamp',
      results: [{ type: 'product', uid: 'L1', parentId: 'L1' }],
      banners: [],
    },
  });
  const click = await post('search/clickthrough', {
    context: search(3000),
    data: { responseId: 'r-lamp', results: [{ uid: 'L1', parentId: 'L1' }] },
  });
  await ok('order/transaction', {
    context: l('l-thanks', 'https://shop.example/thanks?order=L-1', 20_000),
    data: {
      orderId: 'L-1',
      transactionTotal: 30,
      total: 30,
      results: [{ uid: 'L1', parentId: 'L1', sku: 'S-L1', qty: 1, price: 30 }],
    },
  });
  return click.status;
}

/** The site of the order credited to a click with a stale responseId (its own, so the scripted summary stays). */
export const STALE_SITE = 'stale1';

/**
 * S: search "jacket" (r-jacket) → the same page searches "boot" (r-boot, a single-page app) → the boot's
 * tile is clicked with the jacket's responseId kept from before → product page → cart → thank-you page
 * S-1 (BOOT-42 of BOOT, credited to that click). One mistake, four findings on the search page, one of them
 * leading.
 */
export async function sendStaleClickOrder(
  base: string,
  start = Date.now() - 60_000,
): Promise<void> {
  const s = shopper('shopper-s', 'visit-s', start);
  const ok = async (endpoint: string, body: unknown) => {
    const res = await postBeacon(base, `${STALE_SITE}/${endpoint}`, body);
    if (res.status !== 200)
      throw new Error(`POST ${endpoint} answered ${res.status}: ${await res.text()}`);
  };
  const page = (q: string, ms: number) => s('s-search', `https://shop.example/search?q=${q}`, ms);
  const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: uid });
  await ok('search/render', { context: page('jacket', 0), data: { responseId: 'r-jacket' } });
  await ok('search/impression', {
    context: page('jacket', 1100),
    data: { responseId: 'r-jacket', results: [tile('JACKET')], banners: [] },
  });
  await ok('search/render', { context: page('boot', 2600), data: { responseId: 'r-boot' } });
  await ok('search/impression', {
    context: page('boot', 3700),
    data: { responseId: 'r-boot', results: [tile('BOOT')], banners: [] },
  });
  await ok('search/clickthrough', {
    context: page('boot', 5100),
    data: { responseId: 'r-jacket', results: [tile('BOOT')] },
  });
  const boot = { uid: 'BOOT-42', parentId: 'BOOT', sku: 'BOOT-BRN-42', qty: 1, price: 179 };
  await ok('product/pageview', {
    context: s('s-product', 'https://shop.example/products/boot', 5700),
    data: { result: { uid: 'BOOT', parentId: 'BOOT', sku: 'BOOT' } },
  });
  await ok('cart/add', {
    context: s('s-product', 'https://shop.example/products/boot', 7000),
    data: { results: [boot], cart: [boot] },
  });
  await ok('order/transaction', {
    context: s('s-thanks', 'https://shop.example/thank-you?order=S-1', 8300),
    data: { orderId: 'S-1', transactionTotal: 179, total: 179, results: [boot] },
  });
}
