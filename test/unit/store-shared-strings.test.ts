// The store keeps strings that repeat across events once. Which string object holds a value cannot be seen
// from JavaScript, so what is tested is what can: every value stays exactly as it was, and accepted events
// share one frozen empty `errors`.
import { describe, expect, it } from 'vitest';
import { StringPool } from '../../src/main/store/shared-strings';
import type { RecordedEvent } from '../../src/shared/events';
import { searchDraft } from '../helpers/drafts';

const body = (n: number) => ({
  context: {
    timestamp: '2026-11-20T10:00:00.000Z',
    pageUrl: 'https://shop.example/search?q=shoes',
    userId: 'u-1',
    sessionId: 's-1',
    pageLoadId: `p-${n}`,
    shopperId: '',
    initiator: 'athos/beaconjs/1.3.0',
    currency: { code: 'EUR' },
  },
  data: {
    responseId: `r-${n}`,
    results: [
      { type: 'product', uid: 'a1', parentId: 'a1', sku: 'a1-red' },
      { type: 'banner', uid: 'b2', parentId: 'b', sku: 'b2' },
      // ids longer than JSON.parse shares by itself: shared here, each with its own value
      {
        type: 'product',
        uid: `gid://shopify/Product/${n % 3}`,
        parentId: 'gid://shopify/Product/0',
        sku: 'SHIRT-RED-XL-2026',
      },
      {
        type: 'product',
        uid: 'gid://shopify/Product/1',
        parentId: 'gid://shopify/Product/1',
        sku: 42,
      },
      { type: 'product', uid: 'gid://shopify/Product/2' },
      'not an item',
      null,
    ],
    items: [{ uid: 'c3', parentId: 'c3', qty: 1, price: 9.5 }],
  },
});

function recorded(n: number, over: Partial<RecordedEvent> = {}): RecordedEvent {
  return {
    id: `ev_${n}`,
    seq: n,
    ...searchDraft('impression', body(n)),
    userAgent: 'Mozilla/5.0',
    origin: 'https://shop.example',
    contentType: 'application/json',
    ...over,
  } as RecordedEvent;
}

describe('StringPool.shareEvent', () => {
  it.each(['shareEvent', 'shareRead'] as const)(
    '%s leaves every value of the event as it was',
    (how) => {
      const pool = new StringPool();
      const events = [
        recorded(1),
        recorded(2),
        recorded(3, { accepted: false, status: 400, body: '{"context": broken' }),
        recorded(4, { body: null }),
        recorded(5, { body: { context: 'not an object', data: [1, 2] } }),
        recorded(6, {
          accepted: false,
          status: 400,
          errors: [{ path: 'data.responseId', message: 'must be a string' }],
        }),
      ];
      const before = structuredClone(events);
      for (const e of events) pool[how](e);
      expect(events).toEqual(before);
    },
  );

  it('gives accepted events one frozen empty errors; errors that say something stay their own', () => {
    const pool = new StringPool();
    const a = recorded(1);
    const b = recorded(2);
    const issue = { path: '/data', message: 'must be object', keyword: 'type' };
    const c = recorded(3, {
      accepted: false,
      status: 400,
      errors: [issue],
    } as Partial<RecordedEvent>);
    const cErrors = c.errors;
    for (const e of [a, b, c]) pool.shareEvent(e);
    expect(a.errors).toBe(b.errors);
    expect(Object.isFrozen(a.errors)).toBe(true);
    expect(c.errors).toBe(cErrors);
    expect(c.errors).toEqual([issue]);
  });

  it('keeps working past its size: a pool that filled up starts again', () => {
    const pool = new StringPool();
    for (let i = 0; i < 25_000; i++) expect(pool.share(`value-${i}`)).toBe(`value-${i}`);
    const e = recorded(25_001);
    pool.shareEvent(e);
    expect(e.body).toEqual(body(25_001));
  });
});
