// The site-level index of each visit's latest cart by content: what an order on another origin is matched
// against, and that it stays bounded.
import { describe, expect, it } from 'vitest';
import {
  CART_TO_ORDER_MS,
  RecentCarts,
  cartContent,
  type RecentCart,
} from '../../src/main/tracking/visits/recent-carts';

const item = (uid: string, qty = 1) => ({ uid, parentId: uid, sku: `s-${uid}`, qty, price: 10 });

const entry = (visitKey: string, over: Partial<RecentCart> = {}): RecentCart => ({
  visitKey,
  sessionId: visitKey,
  userIds: [`u-${visitKey}`],
  userId: `u-${visitKey}`,
  origin: 'https://shop.example.com',
  userAgent: 'UA-1',
  time: 0,
  eventId: `ev-${visitKey}`,
  ...over,
});

const order = (time: number, over: Partial<Parameters<RecentCarts['elsewhere']>[0]> = {}) => ({
  siteId: 'site01',
  visitKey: 'pay',
  userId: 'u-pay',
  pageUrl: 'https://pay.example.com/thank-you',
  time,
  firstPage: true,
  userAgent: 'UA-1',
  ...over,
});

describe('recent carts', () => {
  it('a cart is its products and quantities, whatever the order of its lines', () => {
    expect(cartContent([item('a', 2), item('b')])).toBe(cartContent([item('b'), item('a', 2)]));
    expect(cartContent([item('a', 2)])).toBe(cartContent([item('a'), item('a')]));
    expect(cartContent([item('a', 2)])).not.toBe(cartContent([item('a')]));
    expect(cartContent([])).toBe('');
  });

  it('finds the latest visit with the same cart, on another origin, within a session’s life', () => {
    const carts = new RecentCarts();
    carts.note('site01', [item('a', 2), item('b')], entry('s1', { time: 1000 }));
    carts.note('site01', [item('a', 2), item('b')], entry('s2', { time: 5000 }));
    carts.note('site02', [item('a', 2), item('b')], entry('s3', { time: 6000 }));
    const lines = [item('b'), item('a', 2)];
    expect(carts.elsewhere(order(60_000), lines)?.visitKey).toBe('s2');
    expect(carts.elsewhere(order(60_000, { firstPage: false }), lines)).toBeUndefined();
    expect(carts.elsewhere(order(5000 + CART_TO_ORDER_MS), lines)?.visitKey).toBe('s2');
    expect(carts.elsewhere(order(5001 + CART_TO_ORDER_MS), lines)?.visitKey).toBeUndefined();
    expect(
      carts.elsewhere(order(60_000, { pageUrl: 'https://shop.example.com/thanks' }), lines),
    ).toBeUndefined();
    expect(carts.elsewhere(order(60_000, { userId: 'u-s2' }), lines)?.visitKey).toBe('s1');
  });

  it('the same browser’s carts: the order’s own origin and User-Agent, other userIds, within a session’s life', () => {
    const carts = new RecentCarts();
    carts.note('site01', [item('a')], entry('s1', { time: 1000 }));
    carts.note('site01', [item('a')], entry('s2', { time: 2000, userAgent: 'UA-2' }));
    carts.note('site01', [item('a')], entry('s3', { time: 3000, origin: 'https://b.example.com' }));
    carts.note('site01', [item('a')], entry('s4', { time: 4000, userAgent: '' }));
    const at = (time: number, over: Partial<Parameters<RecentCarts['sameBrowser']>[0]> = {}) =>
      [
        ...carts.sameBrowser(
          order(time, { pageUrl: 'https://shop.example.com/thank-you', ...over }),
          [item('a')],
        ),
      ].map((c) => c.visitKey);
    expect(at(60_000)).toEqual(['s1']);
    expect(at(60_000, { userAgent: 'UA-2' })).toEqual(['s2']);
    expect(at(60_000, { userAgent: '' })).toEqual([]);
    expect(at(60_000, { userId: 'u-s1' })).toEqual([]);
    expect(at(1000 + CART_TO_ORDER_MS)).toEqual(['s1']);
    expect(at(1001 + CART_TO_ORDER_MS)).toEqual([]);
    expect(at(500)).toEqual([]);
  });

  it('a visit’s cart is its latest: a changed or emptied cart, or a forgotten visit, is no longer found', () => {
    const carts = new RecentCarts();
    carts.note('site01', [item('a')], entry('s1'));
    carts.note('site01', [item('a'), item('b')], entry('s1'));
    expect(carts.elsewhere(order(1000), [item('a')])).toBeUndefined();
    expect(carts.elsewhere(order(1000), [item('a'), item('b')])?.visitKey).toBe('s1');
    carts.note('site01', [], entry('s1'));
    expect(carts.elsewhere(order(1000), [item('a'), item('b')])).toBeUndefined();
    carts.note('site01', [item('c')], entry('s2'));
    carts.forget('s2');
    expect(carts.elsewhere(order(1000), [item('c')])).toBeUndefined();
  });

  it('keeps at most its bound of visits, forgetting the one whose cart changed longest ago', () => {
    const carts = new RecentCarts(2);
    carts.note('site01', [item('a')], entry('s1'));
    carts.note('site01', [item('b')], entry('s2'));
    carts.note('site01', [item('a')], entry('s1'));
    carts.note('site01', [item('c')], entry('s3'));
    expect(carts.elsewhere(order(1000), [item('b')])).toBeUndefined();
    expect(carts.elsewhere(order(1000), [item('a')])?.visitKey).toBe('s1');
    expect(carts.elsewhere(order(1000), [item('c')])?.visitKey).toBe('s3');
  });
});
