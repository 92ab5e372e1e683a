// GET /_sandbox/report?format=html as a reader opens it: a summary on top, the failing pages first, every
// page kind (search, product, cart, order) with its events table, and counts and page lines that read right.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { postBeacon, startSandbox } from '../helpers/sandbox';

let s: Sandbox;
let html: string;

const context = (pageLoadId: string, pageUrl: string, ms: number) => ({
  timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
  pageUrl,
  userId: 'u1',
  sessionId: 's1',
  pageLoadId,
  initiator: 'report-test',
  dev: true,
});

async function send(endpoint: string, body: unknown): Promise<void> {
  const res = await postBeacon(s.url, `demo42/${endpoint}`, body);
  expect(res.status, endpoint).toBe(200);
}

beforeAll(async () => {
  s = await startSandbox();
  const tile = { type: 'product', uid: 'P1', parentId: 'P1' };
  // in time order: a clean search page, a product page, a cart page, an order page, then a failing page
  await send('search/render', {
    context: context('search', 'https://shop.example/search?q=hat', 0),
    data: { responseId: 'r1' },
  });
  await send('search/impression', {
    context: context('search', 'https://shop.example/search?q=hat', 1500),
    data: { responseId: 'r1', results: [tile], banners: [] },
  });
  await send('product/pageview', {
    context: context('pdp', 'https://shop.example/p/P1', 4000),
    data: { result: { uid: 'P1', parentId: 'P1', sku: 'S1' } },
  });
  const line = { uid: 'P1', parentId: 'P1', sku: 'S1', qty: 2, price: 12.5 };
  await send('cart/add', {
    context: context('cart', 'https://shop.example/cart', 6000),
    data: { results: [line], cart: [line] },
  });
  await send('order/transaction', {
    context: context('thanks', 'https://shop.example/thanks', 9000),
    data: { orderId: 'O-1', transactionTotal: 25, total: 25, results: [line] },
  });
  await send('search/clickthrough', {
    context: context('broken', 'https://shop.example/search?q=cap', 12_000),
    data: { responseId: 'r9', results: [tile] },
  });
  html = await (await fetch(`${s.url}/_sandbox/report?format=html`)).text();
});
afterAll(() => s?.close());

const sectionOf = (pageLoadId: string) => {
  const at = html.indexOf(`<h2>page ${pageLoadId} `);
  expect(at, pageLoadId).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<section', at), html.indexOf('</section>', at));
};

it('opens with a summary: the verdicts and each rule with its pages', () => {
  const summary = html.slice(
    html.indexOf('<div class="summary">'),
    html.indexOf('</div>', html.indexOf('<div class="summary">')),
  );
  expect(summary).toContain('1 page fails; it is listed first.');
  expect(summary).toMatch(/<b>missing-render<\/b><\/td><td>1<\/td><td>1<\/td>/);
  expect(html.indexOf('<div class="summary">')).toBeLessThan(html.indexOf('<section'));
});

it('lists the failing page first, though it came last', () => {
  const verdicts = [...html.matchAll(/<section data-verdict="(\w+)">/g)].map((m) => m[1]);
  expect(verdicts[0]).toBe('fail');
  expect(verdicts.slice(1)).not.toContain('fail');
  expect(html.indexOf('<h2>page broken ')).toBeLessThan(html.indexOf('<h2>page search '));
});

it('shows every page kind with its events: product, cart and order pages too', () => {
  const pdp = sectionOf('pdp');
  expect(pdp).toContain('<span class="kind">product</span> events');
  expect(pdp).toMatch(/<td>product\/pageview<\/td>.*<td>product P1<\/td>/);
  expect(sectionOf('cart')).toMatch(/<td>cart\/add<\/td>.*2 × P1 at 12\.5; cart: 2 × P1 at 12\.5/);
  expect(sectionOf('thanks')).toMatch(
    /<td>order\/transaction<\/td>.*order O-1; transactionTotal 25, total 25; 2 × P1 at 12\.5/,
  );
});

it('reads right: "1 event", no dangling separator after a page kind', () => {
  expect(sectionOf('pdp')).toContain(
    'product page · site demo42 · session s1 · user u1 · 1 event · ',
  );
  expect(sectionOf('search')).toContain(
    'search · site demo42 · session s1 · user u1 · 2 events · ',
  );
  expect(html).not.toMatch(/\b1 events\b|, · |, ·/);
});
