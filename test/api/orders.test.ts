// Orders you can trust at a glance, over real HTTP and the package's client: each order carries the
// findings that concern it with their fix, a repeat names the order it repeats, one order is read by its
// eventId, and the summary says what search earned and what the duplicate added.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../src/shared/visits';
import type { PageTimelineDto } from '../../src/shared/timeline';
import type { Sandbox } from '../../src/main/sandbox';
import { connectSandbox } from '../../src/main/api';
import { postBeacon, startSandbox } from '../helpers/sandbox';
import {
  ORDER_SITE,
  SCRIPTED_SUMMARY,
  sendDoubtfulOrder,
  sendOrderVisits,
  LOST_SITE,
  sendLostCreditOrder,
  STALE_SITE,
  sendStaleClickOrder,
} from '../helpers/order-visits';

let s: Sandbox;
let orders: OrderDto[];

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${s.url}${path}`);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  s = await startSandbox();
  await sendOrderVisits(s.url);
  orders = (await get(`/_sandbox/orders?siteId=${ORDER_SITE}`)).body as OrderDto[];
});
afterAll(async () => {
  await s?.close();
});

const byId = (orderId: string) => orders.filter((o) => o.orderId === orderId);

describe('order entries carry their findings and duplicateOf', () => {
  it('the repeated order names the first, and both say it is counted twice, with the fix', () => {
    expect(orders.map((o) => o.orderId)).toEqual(['A-1001', 'B-2002', '', 'A-1001']);
    const [first, again] = byId('A-1001');
    expect(first!.duplicateOf).toBeUndefined();
    expect(again!.duplicateOf).toBe(first!.eventId);
    for (const o of [first!, again!]) {
      expect(o.findings.map((f) => f.rule)).toEqual(['order-duplicate']);
      expect(o.findings[0]).toMatchObject({ severity: 'error' });
      expect(o.findings[0]!.message).toMatch(/counted twice/);
      expect(o.findings[0]!.fix).toMatch(/^send the order from the thank-you page only/);
      // the fix is the finding's own, filled with its data; the message says what happened only
      expect(o.findings[0]!.message).not.toMatch(/\bFix\b/);
    }
    // lines of a duplicate keep their credit: a report would count them again
    expect(again!.lines.map((l) => l.credit?.kind ?? null)).toEqual(['search', null]);
  });

  it('an order without an id carries order-id-missing; a clean order has none', () => {
    const [blank] = byId('');
    expect(blank!.duplicateOf).toBeUndefined();
    expect(blank!.findings.map((f) => f.rule)).toEqual(['order-id-missing']);
    expect(blank!.findings[0]!.fix).toMatch(/^set order\.id/);
    expect(byId('B-2002')[0]!.findings).toEqual([]);
  });

  it('an order sent with its page’s own sessionId names no drifted one', () => {
    for (const o of orders) expect(o).not.toHaveProperty('driftedSessionId');
  });
});

describe('GET /_sandbox/orders/{eventId}', () => {
  it('answers the one entry the list has, findings included', async () => {
    for (const o of orders) {
      const one = await get(`/_sandbox/orders/${o.eventId}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(o);
    }
  });

  it('answers 404 JSON for an unknown eventId, and says an orderId is not one', async () => {
    const res = await get('/_sandbox/orders/A-1001');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'NotFound' });
    expect((res.body as { message: string }).message).toMatch(
      /eventId "A-1001".*not by its orderId/,
    );
    const query = await get(`/_sandbox/orders/${orders[0]!.eventId}?site=x`);
    expect(query.status).toBe(400);
  });
});

describe('GET /_sandbox/orders/summary', () => {
  it('says what each source earned, what no interaction earned and what the duplicate added', async () => {
    const res = await get(`/_sandbox/orders/summary?siteId=${ORDER_SITE}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SCRIPTED_SUMMARY);
  });

  it('is what the README shows for these visits', () => {
    const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Orders you can trust at a glance'));
    const json = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    expect(JSON.parse(json)).toEqual(SCRIPTED_SUMMARY);
  });

  it('takes the visit filters: one session, one userId, nothing matching', async () => {
    expect((await get('/_sandbox/orders/summary?sessionId=visit-b')).body).toEqual({
      orders: 1,
      lines: 1,
      revenue: 40,
      bySource: { category: { orders: 1, lines: 1, revenue: 40 } },
      uncredited: { lines: 0, revenue: 0 },
      duplicates: { orders: 0, revenue: 0 },
      withErrors: { orders: 0, revenue: 0 },
      pricesInDoubt: { orders: 0, revenue: 0 },
    });
    const a = (await get(`/_sandbox/orders/summary?siteId=${ORDER_SITE}&userId=shopper-a`))
      .body as { revenue: number; duplicates: unknown };
    expect(a).toMatchObject({ revenue: 180, duplicates: { orders: 1, revenue: 90 } });
    expect((await get('/_sandbox/orders/summary?siteId=nobody')).body).toMatchObject({
      orders: 0,
      revenue: 0,
      bySource: {},
    });
    const bad = await get('/_sandbox/orders/summary?orderId=A-1001');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/orderId/);
  });
});

describe('the package client', () => {
  it('order(eventId) and ordersSummary(filter) answer what the API does; an unknown order rejects', async () => {
    const client = connectSandbox(s.url);
    expect(await client.order(orders[3]!.eventId)).toEqual(orders[3]);
    expect(await client.ordersSummary({ siteId: ORDER_SITE })).toEqual(SCRIPTED_SUMMARY);
    await expect(client.order('ev_999999999')).rejects.toThrow(/404|no order\/transaction/);
  });
});

describe('an order sent twice on the same page load (two order scripts, no reload)', () => {
  it('both entries carry the one order-duplicate finding once, the repeat names the first', async () => {
    const own = await startSandbox();
    try {
      const context = (ms: number) => ({
        timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
        pageUrl: 'https://shop.example/thanks',
        userId: 'u-same',
        sessionId: 's-same',
        pageLoadId: 'p-same',
        initiator: 'orders-test',
        dev: true,
      });
      const data = {
        orderId: 'S-1',
        transactionTotal: 5,
        total: 5,
        results: [{ uid: 'A', parentId: 'A', qty: 1, price: 5 }],
      };
      // sent twice 40 ms apart on one page load: a second order script, no reload
      for (const ms of [0, 40]) {
        const res = await fetch(`${own.url}/beacon/v2/${ORDER_SITE}/order/transaction`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ context: context(ms), data }),
        });
        expect(res.status).toBe(200);
      }
      const [first, again] = await connectSandbox(own.url).orders({ sessionId: 's-same' });
      expect(again!.duplicateOf).toBe(first!.eventId);
      for (const o of [first!, again!])
        expect(o.findings.map((f) => f.rule)).toEqual(['order-duplicate']);
      expect(await connectSandbox(own.url).ordersSummary({ sessionId: 's-same' })).toMatchObject({
        orders: 2,
        revenue: 10,
        duplicates: { orders: 1, revenue: 5 },
      });
    } finally {
      await own.close();
    }
  });
});

describe('an orderId sent by another shopper from the same thank-you page (a hard-coded order id)', () => {
  it('is order-duplicate with the two shoppers named, not a reload; the same shopper reloading is', async () => {
    const own = await startSandbox();
    try {
      const send = async (ms: number, userId: string, sessionId: string, pageLoadId: string) => {
        const res = await fetch(`${own.url}/beacon/v2/${ORDER_SITE}/order/transaction`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({
            context: {
              timestamp: new Date(Date.now() - 120_000 + ms).toISOString(),
              pageUrl: 'https://shop.example/thanks',
              userId,
              sessionId,
              pageLoadId,
              initiator: 'orders-test',
              dev: true,
            },
            data: {
              orderId: '5001',
              transactionTotal: 5,
              total: 5,
              results: [{ uid: 'A', parentId: 'A', qty: 1, price: 5 }],
            },
          }),
        });
        expect(res.status).toBe(200);
      };
      await send(0, 'u-a', 's-a', 'p-a');
      await send(45_000, 'u-b', 's-b', 'p-b');
      // shopper a reloads the thank-you page a minute later: the client's own traffic
      await send(60_000, 'u-a', 's-a', 'p-a2');
      const all = await connectSandbox(own.url).orders({ orderId: '5001' });
      const rules = (pageLoadId: string) =>
        all.find((o) => o.pageLoadId === pageLoadId)!.findings.map((f) => [f.rule, f.severity]);
      expect(rules('p-b')).toContainEqual(['order-duplicate', 'error']);
      expect(rules('p-b')).not.toContainEqual(['order-reloaded', 'info']);
      const other = all.find((o) => o.pageLoadId === 'p-b')!.findings[0]!;
      expect(other.message).toContain('by another shopper: userId "u-b" and sessionId "s-b"');
      expect(rules('p-a2')).toContainEqual(['order-reloaded', 'info']);
      expect(rules('p-a2')).not.toContainEqual(['order-duplicate', 'error']);
      const page = (await (
        await fetch(`${own.url}/_sandbox/timelines?siteId=${ORDER_SITE}&pageLoadId=p-b`)
      ).json()) as { pages: Array<{ verdict: string }> };
      expect(page.pages[0]!.verdict).toBe('fail');
    } finally {
      await own.close();
    }
  });
});

describe('an order whose credit rests on a click with errors, priced in cents', () => {
  let d: Sandbox;
  beforeAll(async () => {
    d = await startSandbox();
    await sendOrderVisits(d.url);
    await sendDoubtfulOrder(d.url);
  });
  afterAll(() => d?.close());

  it("carries the click's findings, each naming the click, beside its own", async () => {
    const list = (await (
      await fetch(`${d.url}/_sandbox/orders?siteId=${ORDER_SITE}`)
    ).json()) as OrderDto[];
    const order = list.find((o) => o.orderId === 'D-4004')!;
    expect(order.lines[0]!.credit).toMatchObject({ event: 'clickthrough', pageLoadId: 'd-search' });
    const clickId = order.lines[0]!.credit!.eventId;
    const ofClick = order.findings.filter((f) => f.interaction);
    expect(ofClick.map((f) => f.rule)).toContain('missing-render');
    for (const f of ofClick)
      expect(f.interaction).toEqual({
        event: 'clickthrough',
        eventId: clickId,
        pageLoadId: 'd-search',
      });
    expect(ofClick.find((f) => f.rule === 'missing-render')).toMatchObject({ severity: 'error' });
    const own = order.findings.filter((f) => !f.interaction).map((f) => f.rule);
    expect(own).toEqual(expect.arrayContaining(['price-unit-mismatch', 'order-totals']));
    // one order read by its eventId says the same
    const one = (await (
      await fetch(`${d.url}/_sandbox/orders/${order.eventId}`)
    ).json()) as OrderDto;
    expect(one.findings).toEqual(order.findings);
  });

  it('its line in cents against totals in units: one bug, named first by price-unit-mismatch, order-totals following from it, both fixing the line prices', async () => {
    const list = (await (
      await fetch(`${d.url}/_sandbox/orders?siteId=${ORDER_SITE}`)
    ).json()) as OrderDto[];
    const order = list.find((o) => o.orderId === 'D-4004')!;
    const own = order.findings.filter((f) => !f.interaction);
    expect(own.map((f) => f.rule)).toEqual(['price-unit-mismatch', 'order-totals']);
    for (const f of own) {
      expect(f.fix, f.rule).toMatch(/divide cents by 100 in the order script/);
      // the totals (60, 64.80) are right: no fix of this order turns them into cents
      expect(f.fix, f.rule).not.toMatch(/pass order\.transactionTotal and order\.total/);
    }
    expect(own[1]!.message).toContain(
      'its lines add up to 6000, about 100× its transactionTotal 60 and about 93× its total 64.80',
    );
    const page = (await (
      await fetch(`${d.url}/_sandbox/timelines/d-thanks?siteId=${ORDER_SITE}`)
    ).json()) as PageTimelineDto;
    const cause = page.findings.findIndex((f) => f.rule === 'price-unit-mismatch');
    const totals = page.findings.findIndex((f) => f.rule === 'order-totals');
    expect(cause).toBeGreaterThanOrEqual(0);
    expect(totals).toBe(cause + 1);
    expect(page.findings[totals]!.causedBy).toBe(page.findings[cause]!.id);
  });

  it('the summary says how much revenue sits on orders with errors, and on prices in doubt', async () => {
    const res = await fetch(`${d.url}/_sandbox/orders/summary?siteId=${ORDER_SITE}`);
    const summary = (await res.json()) as typeof SCRIPTED_SUMMARY;
    expect(summary.revenue).toBe(SCRIPTED_SUMMARY.revenue + 6000);
    expect(summary.withErrors).toEqual({
      orders: SCRIPTED_SUMMARY.withErrors.orders + 1,
      revenue: SCRIPTED_SUMMARY.withErrors.revenue + 6000,
    });
    expect(summary.pricesInDoubt).toEqual({ orders: 1, revenue: 6000 });
  });
});

describe('an order whose credit a rejected click cost', () => {
  it('is not clean: its line names the rejected click, and the order carries the schema finding', async () => {
    // the storefront's click leaves out the result's type: the service rejects it
    expect(await sendLostCreditOrder(s.url)).toBe(400);
    const [order] = (await get(`/_sandbox/orders?siteId=${LOST_SITE}`)).body as OrderDto[];
    const clickId = order!.findings.find((f) => f.rule === 'schema')?.interaction?.eventId;
    expect(clickId, JSON.stringify(order)).toMatch(/^ev_/);
    expect(order!.lines[0]!.credit).toBeNull();
    expect(order!.lines[0]!.noCreditReason).toBe(
      `the clickthrough of "L1" by userId "shopper-l" (${clickId}) was rejected by the service (missing required key-value: data.results[0].type), so it earns no credit: fix that clickthrough (the schema finding on its page) and the line is credited to it`,
    );
    expect(order!.findings.find((f) => f.rule === 'schema')).toMatchObject({
      severity: 'error',
      interaction: { event: 'clickthrough', eventId: clickId, pageLoadId: 'l-search' },
    });
    // the summary counts it among the orders with errors
    const summary = (await get(`/_sandbox/orders/summary?siteId=${LOST_SITE}`)).body as {
      withErrors: { orders: number; revenue: number };
    };
    expect(summary.withErrors).toEqual({ orders: 1, revenue: 30 });
  });
});

describe('an order credited to a click that kept an earlier search’s responseId', () => {
  it('lists the one mistake as the page does: the cause leads, the rest carry causedBy, in the orders list, one order and the visit’s orders', async () => {
    const own = await startSandbox();
    try {
      await sendStaleClickOrder(own.url);
      const read = async <T>(path: string) =>
        (await (await fetch(`${own.url}${path}`)).json()) as T;
      const [order] = await read<OrderDto[]>(`/_sandbox/orders?siteId=${STALE_SITE}`);
      expect(order!.lines[0]!.credit).toMatchObject({ responseId: 'r-jacket' });
      const page = await read<PageTimelineDto>(`/_sandbox/timelines/s-search?siteId=${STALE_SITE}`);
      const lead = page.findings.find((f) => f.rule === 'responseid-stale')!;
      const follow = page.findings.filter((f) => f.causedBy === lead.id).map((f) => f.rule);
      expect(follow.length).toBeGreaterThanOrEqual(2);
      // the order lists the page's findings of the click in the page's order, with the same links
      const cause = order!.findings.find((f) => f.rule === 'responseid-stale')!;
      expect(cause.causedBy).toBeUndefined();
      expect(order!.findings.filter((f) => f.causedBy === cause.id).map((f) => f.rule)).toEqual(
        follow,
      );
      const ids = order!.findings.map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      // one order by its eventId, and the visit's orders (the Visits view's query), say the same
      expect((await read<OrderDto>(`/_sandbox/orders/${order!.eventId}`)).findings).toEqual(
        order!.findings,
      );
      const [visit] = await read<Array<{ sessionId: string }>>(
        `/_sandbox/visits?siteId=${STALE_SITE}`,
      );
      const [ofVisit] = await read<OrderDto[]>(
        `/_sandbox/orders?siteId=${STALE_SITE}&sessionId=${visit!.sessionId}`,
      );
      expect(ofVisit!.findings).toEqual(order!.findings);
    } finally {
      await own.close();
    }
  });
});

describe('an order sent with a sessionId that drifted midway on its page', () => {
  it('is listed under its page’s visit with that visit’s sessionId, and names the one it was sent with', async () => {
    const own = await startSandbox();
    try {
      const context = (sessionId: string, ms: number) => ({
        timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
        pageUrl: 'https://shop.example/thanks',
        userId: 'u-drift',
        sessionId,
        pageLoadId: 'p-drift',
        initiator: 'orders-test',
        dev: true,
      });
      const line = { uid: 'A', parentId: 'A', sku: 'S-A', qty: 1, price: 5 };
      const sent = [
        ['product/pageview', context('s-first', 0), { result: { uid: 'A', parentId: 'A' } }],
        [
          'order/transaction',
          context('s-drifted', 1000),
          { orderId: 'DR-1', transactionTotal: 5, total: 5, results: [line] },
        ],
      ] as const;
      for (const [endpoint, ctx, data] of sent)
        expect(
          (await postBeacon(own.url, `${ORDER_SITE}/${endpoint}`, { context: ctx, data })).status,
        ).toBe(200);
      const client = connectSandbox(own.url);
      const [visit] = await client.visits({ siteId: ORDER_SITE });
      expect(visit).toMatchObject({ sessionId: 's-first', orders: ['DR-1'] });
      const [order] = await client.orders({ siteId: ORDER_SITE, sessionId: 's-first' });
      // the visit it is listed in is the one its sessionId names, so a filter or a link by it finds it
      expect(order).toMatchObject({ sessionId: 's-first', driftedSessionId: 's-drifted' });
      expect(order!.findings.map((f) => f.rule)).toEqual(['context-drift']);
      expect(await client.orders({ siteId: ORDER_SITE, sessionId: 's-drifted' })).toEqual([]);
      expect(await client.order(order!.eventId)).toEqual(order);
      // the recorded event keeps what was sent
      const recorded = await (await fetch(`${own.url}/_sandbox/events/${order!.eventId}`)).json();
      expect(recorded).toMatchObject({ body: { context: { sessionId: 's-drifted' } } });
    } finally {
      await own.close();
    }
  });
});
