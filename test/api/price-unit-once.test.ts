// Cart globals priced in cents and an order script handing over the same cents are one unit mistake:
// `check` of an NDJSON recording, with the site's feed, names the cart's prices as the bug and the order's
// as a repeat of it with the same fix (in the order script too), counted on the cart's behaviour. An order
// in cents after a cart in the currency unit, or with no cart before it, is still the order's own finding.
// The live sandbox, sent the same visit as beacons on a site that checks its catalog, says the same.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineListDto, TimelineReportDto } from '../../src/shared/timeline';
import { check, tempFile } from '../helpers/check';
import { postBeacon, testConfig } from '../helpers/sandbox';
import { visitPage } from '../rules/kit';
import { runToEnd, startFrozen, upload } from './indexing-helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

// the demo feed (fixtures/search) prices P200 (the rain shell jacket) at 149.00
const FEED = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/search/outdoor-products.csv',
);
const at = (price: number) => ({ uid: 'P200', sku: 'P200', price });

/** A visit (its own session): a cart page when `cart` prices the jacket, then the thank-you page. */
function visit(session: string, cart: number | undefined, order: number) {
  const page = (id: string) => visitPage(`${session}-${id}`, { sessionId: session });
  return [
    ...(cart === undefined ? [] : [page('cart').cartAdd([at(cart)], [at(cart)], { at: 0 })]),
    page('thanks').order(`${session}-o`, [at(order)], { at: 30_000 }),
  ];
}

describe('check: prices in cents in the cart globals and the order script', () => {
  it('reads as one mistake: the cart named, the order named as its repeat with the same fix', async () => {
    const events = [
      ...visit('cents-both', 14900, 14900),
      ...visit('cents-order', 149, 14900),
      ...visit('order-only', undefined, 14900),
    ];
    const file = tempFile(
      cleanups,
      'visits.ndjson',
      events.map((e) => JSON.stringify(e)).join('\n') + '\n',
    );
    const res = await check(file, '--catalog', `demo42=${FEED}`, '--format', 'json');
    expect(res.err).toBe('');
    expect(res.code).toBe(1);
    const pages = new Map(
      (JSON.parse(res.out) as TimelineReportDto).pages.map((p) => [p.pageLoadId, p]),
    );
    const unit = (id: string) =>
      pages
        .get(id)!
        .findings.filter((f) => f.rule === 'price-unit-mismatch')
        .map((f) => [f.messageId, f.behaviour]);

    expect(unit('cents-both-cart')).toEqual([['catalogOtherUnit', 'cart.items']]);
    // the order repeats the cart's unit: named as that mistake, on the cart's behaviour, with its fix
    expect(unit('cents-both-thanks')).toEqual([['cartUnitRepeated', 'cart.items']]);
    const repeat = pages.get('cents-both-thanks')!.findings[0]!;
    const cartEvent = pages.get('cents-both-cart')!.findings[0]!.eventIds[0]!;
    expect(repeat.message).toContain(
      `The same unit mistake as the visit's cart (${cartEvent} carried these prices`,
    );
    expect(repeat.fix).toMatch(
      new RegExp(`^the cart’s fix \\(${cartEvent}\\), in the order script`),
    );

    // an order in cents after a cart in the currency unit, or with no cart: the order's own bug
    expect(unit('cents-order-cart')).toEqual([]);
    expect(unit('cents-order-thanks')).toEqual([['otherUnit', 'order.totals']]);
    expect(unit('order-only-thanks')).toEqual([['catalogOtherUnit', 'order.totals']]);
  });
});

describe('the live sandbox: the same visit sent as beacons to a site that checks its catalog', () => {
  it('names the order as the cart’s repeat, on the thank-you page’s timeline', async () => {
    const base = testConfig();
    const s = await startFrozen({
      accounts: base.accounts.map((a) => ({ ...a, search: { ...a.search!, catalogCheck: true } })),
    });
    try {
      expect(
        (await upload(s.url, 'feedId=42', readFileSync(FEED), 'outdoor-products.csv')).status,
      ).toBe(200);
      expect((await runToEnd(s, 42)).state).toBe('done');
      const send = async (pageLoadId: string, endpoint: string, data: unknown, after: number) => {
        const context = {
          timestamp: new Date(s.core.clock.now() + after).toISOString(),
          pageUrl: `https://shop.example/${pageLoadId}`,
          userId: 'u-cents',
          sessionId: 's-cents',
          pageLoadId,
          initiator: 'search-sandbox/test',
          dev: true,
        };
        const res = await postBeacon(s.url, `demo42/${endpoint}`, { context, data });
        expect(res.status, await res.text()).toBe(200);
      };
      const line = { uid: 'P200', parentId: 'P200', sku: 'P200', qty: 1, price: 14900 };
      await send('cart', 'cart/add', { results: [line], cart: [line] }, 0);
      await send(
        'thanks',
        'order/transaction',
        { orderId: 'o-cents', transactionTotal: 14900, total: 14900, results: [line] },
        30_000,
      );
      const res = await fetch(`${s.url}/_sandbox/timelines?siteId=demo42&finished=true`);
      const pages = ((await res.json()) as TimelineListDto).pages;
      const unit = (id: string) =>
        pages
          .find((p) => p.pageLoadId === id)!
          .findings.filter((f) => f.rule === 'price-unit-mismatch')
          .map((f) => [f.messageId, f.behaviour, f.fix]);
      expect(unit('cart')).toEqual([
        ['catalogOtherUnit', 'cart.items', expect.stringContaining('unit of the feed')],
      ]);
      expect(unit('thanks')).toEqual([
        ['cartUnitRepeated', 'cart.items', expect.stringMatching(/^the cart’s fix \(ev_/)],
      ]);
    } finally {
      await s.close();
    }
  });
});
