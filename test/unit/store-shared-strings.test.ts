// The store keeps strings that repeat across events once. Which string object holds a value cannot be seen
// from JavaScript, so what is tested is what can: every value stays exactly as it was, accepted events
// share one frozen empty `errors`, and the heap an imported event's copies took is given back.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { StringPool } from '../../src/main/store/shared-strings';
import { EventLog } from '../../src/main/store/event-log';
import type { EventDraft } from '../../src/main/store/types';
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
  it.each(['shareEvent', 'shareRead', 'shareEvent of a cloned event'] as const)(
    '%s leaves every value of the event as it was',
    (how) => {
      const pool = new StringPool();
      const share = (e: RecordedEvent) =>
        how === 'shareRead' ? pool.shareRead(e) : pool.shareEvent(e, how !== 'shareEvent');
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
      for (const e of events) share(e);
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

  // a structured clone makes a string of every value: the ten events of a page each had their own page id,
  // session id, responseId and item ids, however short
  const N = 20_000;
  /** page id, responseId, session id, user id and five short item ids, ~16 bytes each, on 9 events of 10 */
  const SHORT_COPIES = N * 0.9 * 9 * 12;
  const gc = (): void => {
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  };

  it('shares the short values of events copied from another thread (an import), which JSON.parse would have shared', () => {
    const heldBy = (cloned: boolean): number => {
      const pool = new StringPool();
      const events = Array.from({ length: N }, (_, i) =>
        structuredClone(recorded(Math.floor(i / 10))),
      );
      gc();
      const before = process.memoryUsage().heapUsed;
      for (const e of events) pool.shareEvent(e, cloned);
      gc();
      const freed = before - process.memoryUsage().heapUsed;
      expect(events.at(-1)!.body).toEqual(body(Math.floor((N - 1) / 10)));
      return freed;
    };
    const asIs = heldBy(false);
    const shared = heldBy(true);
    expect(shared - asIs).toBeGreaterThan(SHORT_COPIES);
  });

  it('the store shares them for the events an import appends (and only for those)', async () => {
    const held = async (importId: string | undefined): Promise<number> => {
      const log = new EventLog({ retention: N, hot: Infinity });
      const drafts = Array.from({ length: N }, (_, i) => {
        const { id: _id, seq: _seq, ...draft } = recorded(Math.floor(i / 10));
        return structuredClone(draft) as EventDraft;
      });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (const d of drafts) await log.append(d, importId);
      drafts.length = 0;
      gc();
      const grew = process.memoryUsage().heapUsed - before;
      expect(log.size()).toBe(N);
      return grew;
    };
    const beacons = await held(undefined);
    const imported = await held('import-1');
    expect(beacons - imported).toBeGreaterThan(SHORT_COPIES);
  });
});
