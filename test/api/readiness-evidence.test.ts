// What readiness takes as evidence of a behaviour: traffic that does what the behaviour's title says, never
// the mere arrival of an endpoint every store sends. Each case is read three ways, which must agree: the
// live answer (GET /_sandbox/readiness, pages judged as finished), `check --readiness` of the same traffic,
// and the gate of `expectReady`.
import { afterEach, describe, expect, it } from 'vitest';
import { check, tempFile } from '../helpers/check';
import { SandboxClock } from '../../src/main/clock';
import { journey, run, sendRun, type Journey } from '../helpers/journey';
import { startSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';
import type { ReadinessDto, ReadinessRowDto } from '../../src/shared/readiness';
import { SandboxClient } from '../../src/main/api/client';
import { readFileSync } from 'node:fs';
import { builtPackage } from '../helpers/built-package';
import path from 'node:path';

const cleanups: Array<() => unknown> = [];
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  for (const c of cleanups.splice(0)) await c();
});

type Sites = { ready: boolean; sites: Array<ReadinessDto & { gaps: string[] }> };

const START = Date.parse('2026-11-21T04:00:00Z');
const ITEM = { uid: '102', parentId: '102', sku: 'sku-102', qty: 1, price: 100 };

/** The journey with a cart page (its cart globals: a cart/add) before the thank-you page. */
function withCart(): Journey {
  const j = journey();
  j[0]!.splice(2, 0, {
    path: '/cart',
    events: [{ category: 'cart', event: 'add', data: { results: [ITEM], cart: [ITEM] } }],
  });
  return j;
}

/**
 * The cart journey whose search page quick-adds another tile first: the cart page's globals then hold it
 * beside what the page adds (the stored cart already had it, so its cart/add names only the new item).
 */
function quickAddThenCart(): Journey {
  const j = withCart();
  const quick = { ...ITEM, uid: '101', parentId: '101', sku: 'sku-101' };
  j[0]![0]!.events.push({
    category: 'search',
    event: 'addtocart',
    data: { responseId: 'R1', results: [quick] },
  });
  j[0]![2]!.events[0]!.data = { results: [ITEM], cart: [quick, ITEM] };
  return j;
}

/** A run whose pages under `path` were at `origin` (a checkout on another domain, given the ids). */
function elsewhere(ndjson: string, path: string, origin: string): string {
  return ndjson
    .trim()
    .split('\n')
    .map((line) => {
      const rec = JSON.parse(line) as { body: { context: { pageUrl: string } } };
      const url = new URL(rec.body.context.pageUrl);
      if (url.pathname.startsWith(path)) rec.body.context.pageUrl = `${origin}${url.pathname}`;
      return JSON.stringify(rec);
    })
    .join('\n')
    .concat('\n');
}

/** Each of `ids` as live readiness, `check --readiness` and expectReady read the run. */
async function threeWays(ndjson: string, ids: readonly string[]) {
  const file = tempFile(cleanups, 'run.ndjson', ndjson);
  const offline = (JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites)
    .sites[0]!;
  sb = await startSandbox({}, { clock: new SandboxClock({ frozen: true, start: START }) });
  await sendRun(sb.url, ndjson);
  const live = (await (
    await fetch(`${sb.url}/_sandbox/readiness?siteId=demo42&finished=true`)
  ).json()) as ReadinessDto;
  const client = new SandboxClient(sb.url);
  const out: Record<string, { live: string; check: string; gate: boolean; checkGate: number }> = {};
  const said = (r: ReadinessRowDto | undefined) =>
    `${r?.status} ${r?.example?.pageLoadId ?? r?.worst?.rule ?? ''}`.trim();
  for (const id of ids) {
    const gate = await client.expectReady({ siteId: 'demo42', expect: [id] }).then(
      () => true,
      () => false,
    );
    out[id] = {
      live: said(live.behaviours.find((b) => b.id === id)),
      check: said(offline.behaviours.find((b) => b.id === id)),
      gate,
      checkGate: (await check(file, '--readiness', '--expect', id)).code,
    };
  }
  await sb.close();
  sb = undefined;
  return out;
}

/** The pageLoadId of the run's page at `path`. */
function pageAt(ndjson: string, path: string): string {
  for (const line of ndjson.trim().split('\n')) {
    const { context } = (JSON.parse(line) as { body: { context: Record<string, string> } }).body;
    if (new URL(context.pageUrl!).pathname === path) return context.pageLoadId!;
  }
  throw new Error(`no page at ${path}`);
}

describe('readiness evidence', () => {
  it('a cart/add with no quick add before it leaves cart.quick-add-then-cart-add unseen; one after a quick add of the same shopper shows it', async () => {
    const id = 'cart.quick-add-then-cart-add';
    const plain = await threeWays(run(withCart()), [id]);
    expect(plain[id]).toEqual({ live: 'unseen', check: 'unseen', gate: false, checkGate: 1 });

    const quick = run(quickAddThenCart());
    const shown = await threeWays(quick, [id]);
    const cartPage = pageAt(quick, '/cart');
    expect(shown[id]).toEqual({
      live: `ok ${cartPage}`,
      check: `ok ${cartPage}`,
      gate: true,
      checkGate: 0,
    });
  });

  it('a quick add after the last cart/add shows nothing of what follows it: unseen', async () => {
    const id = 'cart.quick-add-then-cart-add';
    const j = withCart();
    // the quick add comes on the thank-you page, after the cart page's cart/add
    j[0]![3]!.events.unshift({
      category: 'recommendations',
      event: 'addtocart',
      data: { responseId: 'R2', tag: 'similar', results: [ITEM] },
    });
    const late = await threeWays(run(j), [id]);
    expect(late[id]).toMatchObject({ live: 'unseen', check: 'unseen', gate: false });
  });

  it('an order at the listings’ own origin leaves identity.cross-domain unseen; one at another origin with the same ids shows it', async () => {
    const id = 'identity.cross-domain';
    const same = await threeWays(run(withCart()), [id]);
    expect(same[id]).toEqual({ live: 'unseen', check: 'unseen', gate: false, checkGate: 1 });

    const moved = elsewhere(run(withCart()), '/checkout', 'https://checkout.example');
    const shown = await threeWays(moved, [id]);
    const thanks = pageAt(moved, '/checkout/thanks');
    expect(shown[id]).toEqual({
      live: `ok ${thanks}`,
      check: `ok ${thanks}`,
      gate: true,
      checkGate: 0,
    });
  });
});

describe('readiness of a broken behaviour', () => {
  // a storefront that searched "jacket", then "boot" on the same page (an SPA), and sent the click on a
  // boot tile with the jacket response's responseId; the order of that product is credited to the click
  const STALE = path.join(__dirname, '../../fixtures/readiness/stale-click.export.json');
  const CLICK_PAGE = '1b1a7427-a19e-43c3-a332-aa09fe56d786';
  const ids = ['search.clickthrough', 'order.credit'];

  it('a click its own rules flag is not an ok click, and an order credited to it is not an ok credit: live, check of the export and expectReady agree', async () => {
    const json = await check(
      STALE,
      '--readiness',
      '--format',
      'json',
      '--fail-on',
      'warning',
      ...ids.flatMap((id) => ['--expect', id]),
    );
    const offline = (JSON.parse(json.out) as Sites).sites.find((s) => s.siteId === 'shop01')!;
    sb = await startSandbox();
    const imported = await fetch(`${sb.url}/_sandbox/import`, {
      method: 'POST',
      body: readFileSync(STALE, 'utf8'),
    });
    expect(imported.status).toBe(200);
    const live = (await (
      await fetch(`${sb.url}/_sandbox/readiness?siteId=shop01&finished=true`)
    ).json()) as ReadinessDto;
    const rows = (r: ReadinessDto) =>
      ids.map((id) => {
        const b = r.behaviours.find((x) => x.id === id)!;
        return `${id} ${b.status} ${b.worst?.rule ?? ''} ${b.worst?.pageLoadId ?? b.example?.pageLoadId}`;
      });
    expect(rows(live)).toEqual([
      `search.clickthrough findings item-not-in-response ${CLICK_PAGE}`,
      `order.credit findings responseid-stale ${CLICK_PAGE}`,
    ]);
    expect(rows(offline)).toEqual(rows(live));
    const credit = live.behaviours.find((b) => b.id === 'order.credit')!.worst!;
    expect(credit.message).toMatch(
      /^order "12345" is credited to clickthrough ev_\d+, whose finding puts the credit in doubt: /,
    );
    expect(offline.gaps).toEqual([
      expect.stringMatching(/^search\.clickthrough has findings: error item-not-in-response/),
      expect.stringMatching(/^order\.credit has findings: error responseid-stale/),
    ]);
    const text = await check(STALE, '--readiness', '--expect', ids[0]!, '--expect', ids[1]!);
    expect(text.code).toBe(1);
    const client = new SandboxClient(sb.url);
    await expect(
      client.expectReady({ siteId: 'shop01', expect: ids, failOn: 'warning' }),
    ).rejects.toThrow(/order\.credit has findings: error responseid-stale/);
    // the Orders view marks the same order: its credit is in doubt
    const orders = (await (await fetch(`${sb.url}/_sandbox/orders?siteId=shop01`)).json()) as {
      orders?: Array<{ findings: Array<{ interaction?: unknown }> }>;
    };
    const list = Array.isArray(orders) ? orders : (orders.orders ?? []);
    expect(
      list[0]!.findings.some((f: { interaction?: unknown }) => f.interaction !== undefined),
    ).toBe(true);
  });
});

describe('what readiness says is left', () => {
  /** A run whose pages under `path` carried another userId (a thank-you page that lost the shopper). */
  function otherUser(ndjson: string, path: string): string {
    return ndjson
      .trim()
      .split('\n')
      .map((line) => {
        const rec = JSON.parse(line) as { body: { context: { pageUrl: string; userId: string } } };
        if (new URL(rec.body.context.pageUrl).pathname.startsWith(path))
          rec.body.context.userId = 'u-checkout';
        return JSON.stringify(rec);
      })
      .join('\n')
      .concat('\n');
  }

  /** order.credit's next step, live and from `check --readiness` of the same run. */
  async function creditNext(ndjson: string): Promise<{ live?: string; check?: string }> {
    const file = tempFile(cleanups, 'run.ndjson', ndjson);
    const offline = (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!;
    sb = await startSandbox({}, { clock: new SandboxClock({ frozen: true, start: START }) });
    await sendRun(sb.url, ndjson);
    const live = (await (
      await fetch(`${sb.url}/_sandbox/readiness?siteId=demo42&finished=true`)
    ).json()) as ReadinessDto;
    await sb.close();
    sb = undefined;
    const next = (r: ReadinessDto) => r.behaviours.find((b) => b.id === 'order.credit')?.next;
    return { live: next(live), check: next(offline) };
  }

  it('order.credit unseen says what the traffic lacked: an order whose userId matches no clicker, or no click at all', async () => {
    const lost = await creditNext(otherUser(run(journey()), '/checkout'));
    expect(lost.live).toMatch(
      /^an order by the userId that clicked: the orders' userId \("u-checkout"\) matches no clicker's \("[0-9a-f-]+"\)/,
    );
    expect(lost.check).toEqual(lost.live);

    const j = journey();
    j[0]![0]!.events = j[0]![0]!.events.filter((e) => e.event !== 'clickthrough');
    const unclicked = await creditNext(run(j));
    expect(unclicked.live).toBe(
      'clicks and adds tracked on listings before the order: its orders came after none',
    );
    expect(unclicked.check).toEqual(unclicked.live);

    // no order at all: the model's own next step
    const noOrder = journey();
    noOrder[0]!.pop();
    expect((await creditNext(run(noOrder))).live).toBe(
      'clicks and adds tracked on listings, then an order by the same userId',
    );
  });

  it('expectReady of the built package resolves with what it checked, and rejects the stale click', async () => {
    const sandbox = await (await builtPackage()).startSandbox();
    cleanups.push(() => sandbox.close());
    await sendRun(sandbox.url, run(journey()));
    const checked = await sandbox.expectReady({ siteId: 'demo42', expect: ['search.render'] });
    expect(checked.expect).toEqual(['search.render']);
    expect(checked.behaviours.find((b) => b.id === 'search.render')?.status).toBe('ok');
    const stale = path.join(__dirname, '../../fixtures/readiness/stale-click.export.json');
    const imported = await fetch(`${sandbox.url}/_sandbox/import`, {
      method: 'POST',
      body: readFileSync(stale, 'utf8'),
    });
    expect(imported.status).toBe(200);
    await expect(
      sandbox.expectReady({
        siteId: 'shop01',
        expect: ['search.clickthrough', 'order.credit'],
        failOn: 'warning',
      }),
    ).rejects.toThrow(/not ready \(2 gaps in what it expects\)/);
  });
});

describe('readiness of a HAR', () => {
  const ids = { userId: 'u-har', sessionId: 's-har', pageLoadId: 'pl-har' };
  const PAGE = 'https://shop.example/search?q=jacket';

  /** A HAR of one search page: its search.json request (with `query`) and the render of its answer. */
  function har(query: Record<string, string>): string {
    const context = {
      ...ids,
      pageUrl: PAGE,
      timestamp: '2026-11-21T04:00:01.000Z',
      initiator: 'athos/beaconjs/1.3.0',
      dev: true,
    };
    const url = `http://127.0.0.1:4545/api/search/search.json?${new URLSearchParams({ siteId: 'demo42', q: 'jacket', ...query })}`;
    const entries = [
      {
        startedDateTime: '2026-11-21T04:00:00.500Z',
        request: { method: 'GET', url, headers: [] },
        response: { status: 200, content: { text: JSON.stringify({ responseId: 'r-har' }) } },
      },
      {
        startedDateTime: '2026-11-21T04:00:01.000Z',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:4545/beacon/v2/demo42/search/render',
          headers: [{ name: 'Content-Type', value: 'text/plain' }],
          postData: {
            mimeType: 'text/plain',
            text: JSON.stringify({ context, data: { responseId: 'r-har' } }),
          },
        },
        response: { status: 200, content: { text: '{"success":true}' } },
      },
    ];
    return JSON.stringify({ log: { version: '1.2', entries } });
  }

  const row = async (file: string) =>
    (
      JSON.parse((await check(file, '--readiness', '--format', 'json')).out) as Sites
    ).sites[0]!.behaviours.find((b) => b.id === 'search.request-context')!;

  it('a search request the HAR holds with the tracker’s context shows search.request-context, unverified for want of the issued responses; one without the context leaves it unseen', async () => {
    const asked = await row(tempFile(cleanups, 'asked.har', har(ids)));
    expect(asked.status).toBe('ok');
    expect(asked.example).toEqual({ pageLoadId: 'pl-har' });
    expect(asked.unverified?.map((u) => u.lacks)).toEqual(['issued']);
    const expected = tempFile(cleanups, 'asked-expect.har', har(ids));
    const gate = await check(expected, '--readiness', '--expect', 'search.request-context');
    expect(gate.out).toContain('search.request-context was seen but not verified');

    const bare = await row(tempFile(cleanups, 'bare.har', har({})));
    expect(bare.status).toBe('unseen');
  });
});
