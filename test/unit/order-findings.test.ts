// Which findings concern an order (read from its order page and, for the first of a repeated orderId,
// from its repeats' pages), the JSON an order is answered with, and the revenue summary's sums.
import { describe, expect, it } from 'vitest';
import type { OrderDto, OrderLineDto } from '../../src/shared/visits';
import type { OrderEntry } from '../../src/main/tracking/visits/order-book';
import {
  orderFindings,
  orderJson,
  type OrderPageFinding,
} from '../../src/main/tracking/visits/order-findings';
import { OrdersSummer, summarizeOrders } from '../../src/main/tracking/visits/order-summary';

function finding(
  rule: string,
  eventIds: string[],
  message = `${rule} happened.`,
  wholeVisit = false,
): OrderPageFinding {
  return {
    id: `${rule}:${eventIds.join(',')}`,
    rule,
    severity: 'error',
    message,
    messageId: 'happened',
    data: {},
    fix: 'do it.',
    eventIds,
    eventCount: eventIds.length,
    ...(wholeVisit && { wholeVisit }),
  } as OrderPageFinding;
}

function entry(over: Partial<OrderEntry> = {}): OrderEntry {
  return {
    json: JSON.stringify({ orderId: 'A', eventId: 'ev_2', lines: [] }),
    eventId: 'ev_2',
    pageKey: 'page-2',
    repeatPages: [],
    lineIds: ['1030', 'P103', 'S-1030'],
    pageOrders: [],
    credits: [],
    lost: [],
    ...over,
  };
}

describe('the findings that concern an order', () => {
  const onPage: Record<string, OrderPageFinding[]> = {
    'page-2': [
      finding('order-totals', ['ev_2']),
      finding('missing-render', ['ev_9']),
      // a rule that judges the whole visit (its meta's appliesTo is visit) names no event of the order
      finding('visit-user-changed', ['ev_0'], 'the userId changed. Fix: keep it.', true),
      finding(
        'item-not-in-catalog',
        ['ev_8'],
        '1 product id is not in the catalog: "P103". Fix: x.',
      ),
      finding('timestamp-skew', ['ev_7'], 'sku "S-10300" is late. Fix: y.'),
    ],
    'page-3': [finding('order-duplicate', ['ev_2', 'ev_3']), finding('order-totals', ['ev_3'])],
  };
  const pages = (key: string) => onPage[key];

  it('names its event, judges its whole page, or names one of its lines’ ids (quoted, whole)', () => {
    expect(orderFindings(entry(), pages).map((f) => f.rule)).toEqual([
      'order-totals',
      'visit-user-changed',
      'item-not-in-catalog',
    ]);
  });

  it('on a page that holds two orders (a reload within 10 s), another order’s findings stay its own', () => {
    const twice: Record<string, OrderPageFinding[]> = {
      'page-2': [
        finding('price-unit-mismatch', ['ev_2'], 'order "A" prices "1030" in cents.'),
        finding('price-unit-mismatch', ['ev_4'], 'order "A" prices "1030" in cents.'),
        finding('order-reloaded', ['ev_2', 'ev_4']),
        finding('cart-after-order', ['ev_5'], 'a cart/remove of "1030" after the order.'),
      ],
    };
    const first = entry({ pageOrders: ['ev_4'] });
    expect(orderFindings(first, (k) => twice[k]).map((f) => f.id)).toEqual([
      'price-unit-mismatch:ev_2',
      'order-reloaded:ev_2,ev_4',
      'cart-after-order:ev_5',
    ]);
    // without the other order known, its line's finding was counted here too
    expect(orderFindings(entry(), (k) => twice[k])).toHaveLength(4);
  });

  it('the first of a repeated orderId carries its repeats’ findings that name it, once each', () => {
    const first = entry({ repeatPages: ['page-3', 'page-3', 'page-2', 'gone'] });
    expect(orderFindings(first, pages).map((f) => f.rule)).toEqual([
      'order-totals',
      'visit-user-changed',
      'item-not-in-catalog',
      'order-duplicate',
    ]);
  });

  it('a page that is gone gives none; each finding has its fix', () => {
    expect(orderFindings(entry({ pageKey: 'gone' }), pages)).toEqual([]);
    expect(orderFindings(entry(), pages)[0]).toEqual({
      id: 'order-totals:ev_2',
      rule: 'order-totals',
      severity: 'error',
      message: 'order-totals happened.',
      fix: 'do it.',
    });
  });

  it('keeps what follows from what on the click’s page, by ids unique in the order', () => {
    const click = { event: 'clickthrough' as const, eventId: 'ev_5', pageLoadId: 'p-search' };
    const lead = finding('responseid-stale', ['ev_5']);
    // the same id as a finding of the order page: numbered, and what follows names the numbered one
    const clash = { ...finding('order-totals', ['ev_5']), id: 'order-totals:ev_2' };
    const followsLead = { ...finding('response-replaced', ['ev_5']), causedBy: lead.id };
    const followsClash = { ...finding('item-not-in-response', ['ev_5']), causedBy: clash.id };
    // a cause the order does not carry: the finding leads in the order
    const causeElsewhere = { ...finding('click-repeated', ['ev_5']), causedBy: 'missing-render:x' };
    const all: Record<string, OrderPageFinding[]> = {
      ...onPage,
      'page-s': [lead, followsLead, clash, followsClash, causeElsewhere],
    };
    const found = orderFindings(
      entry({ credits: [{ ...click, pageKey: 'page-s' }] }),
      (k) => all[k],
    );
    const ofClick = found.filter((f) => f.interaction);
    expect(ofClick.map((f) => [f.id, f.causedBy])).toEqual([
      ['responseid-stale:ev_5', undefined],
      ['response-replaced:ev_5', 'responseid-stale:ev_5'],
      ['order-totals:ev_2#2', undefined],
      ['item-not-in-response:ev_5', 'order-totals:ev_2#2'],
      ['click-repeated:ev_5', undefined],
    ]);
    expect(found[0]).toMatchObject({ id: 'order-totals:ev_2' });
    expect(found[0]).not.toHaveProperty('causedBy');
  });

  it('answers the cached JSON with findings and duplicateOf spliced in', () => {
    const dto = JSON.parse(orderJson(entry({ duplicateOf: 'ev_1' }), pages)) as OrderDto;
    expect(dto).toMatchObject({ orderId: 'A', eventId: 'ev_2', duplicateOf: 'ev_1' });
    expect(dto.findings).toHaveLength(3);
    expect(JSON.parse(orderJson(entry(), () => undefined))).toEqual({
      orderId: 'A',
      eventId: 'ev_2',
      lines: [],
      findings: [],
    });
  });
});

describe('the revenue summary', () => {
  const line = (qty: number, price: number, kind?: 'search' | 'category'): OrderLineDto => ({
    uid: 'u',
    parentId: 'u',
    sku: '',
    qty,
    price,
    credit: kind
      ? { kind, responseId: 'r', event: 'clickthrough', eventId: 'ev_1', pageLoadId: 'p' }
      : null,
  });

  it('counts an order once per source, a repeat’s lines again, and sums without binary noise', () => {
    const sum = new OrdersSummer();
    sum.add({ lines: [line(1, 0.1, 'search'), line(1, 0.2, 'search'), line(2, 5)], findings: [] });
    sum.add({
      lines: [line(1, 0.1, 'search'), line(1, 0.2, 'category')],
      duplicateOf: 'ev_1',
      findings: [],
    });
    expect(sum.result()).toEqual({
      orders: 2,
      lines: 5,
      revenue: 10.6,
      bySource: {
        search: { orders: 2, lines: 3, revenue: 0.4 },
        category: { orders: 1, lines: 1, revenue: 0.2 },
      },
      uncredited: { lines: 1, revenue: 10 },
      duplicates: { orders: 1, revenue: 0.3 },
      withErrors: { orders: 0, revenue: 0 },
      pricesInDoubt: { orders: 0, revenue: 0 },
    });
  });

  it('gives the loop back between orders when asked, and sums nothing to zeros', async () => {
    let breaths = 0;
    const empty = await summarizeOrders([], () => void breaths++);
    expect(empty).toEqual({
      orders: 0,
      lines: 0,
      revenue: 0,
      bySource: {},
      uncredited: { lines: 0, revenue: 0 },
      duplicates: { orders: 0, revenue: 0 },
      withErrors: { orders: 0, revenue: 0 },
      pricesInDoubt: { orders: 0, revenue: 0 },
    });
    await summarizeOrders(
      [
        { lines: [], findings: [] },
        { lines: [], findings: [] },
      ],
      () => void breaths++,
    );
    expect(breaths).toBe(2);
  });
});
