// The provider's own RecommendationController (@searchspring/snap-controller 0.78, with the real Client,
// RecommendationStore and Tracker) mounted on a product page in Chromium, pointed at the sandbox: both widgets
// render from the sandbox's recommend API (one batched request), their beacons pass, an order line bought
// from a widget is credited to its tag; a tile the widget never served is named by item-not-in-response.
// Readiness of the same journey: every behaviour it exercises is ok, nothing it does not is, and the
// planted tile's behaviour has findings on its page.
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { TimelineReportDto } from '../../src/shared/timeline';
import type { OrderDto } from '../../src/shared/visits';
import type { RecordedEvent } from '../../src/shared/events';
import type { ReadinessDto } from '../../src/shared/readiness';
import { isWidgetKind } from '../../src/shared/kinds';
import { BEHAVIOURS } from '../../src/main/tracking/client-model';
import { startSandbox, tempDir } from '../helpers/sandbox';
import { SITE, indexCatalog, recommendAccounts } from '../api/recommend-helpers';
import { serveDir, type StaticServer } from './helpers/static-server';
import { fileBrowser, skipReason } from './helpers/ui';

const skip = skipReason();
const out = tempDir('search-sandbox-snap-widget-');
let sb: Sandbox;
let shop: StaticServer;
let chrome: Awaited<ReturnType<typeof fileBrowser>> | undefined;
let browser: Browser;

beforeAll(async () => {
  if (skip) return;
  await build({
    root: path.join(__dirname, 'snap-widget'),
    configFile: false,
    logLevel: 'silent',
    base: './',
    build: { outDir: out.dir, emptyOutDir: true, minify: false },
  });
  shop = await serveDir(out.dir);
  sb = await startSandbox({ accounts: recommendAccounts() });
  await indexCatalog(sb);
  chrome = await fileBrowser();
  browser = chrome.browser;
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await sb?.close();
  await shop?.close();
  out.cleanup();
});

interface Widget {
  responseId: string;
  uids: string[];
}

async function open(query: string) {
  const page = await browser.newPage();
  const recommends: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(sb.url) && !r.url().includes('/beacon/'))
      recommends.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await page.goto(`${shop.url}/index.html?sandbox=${encodeURIComponent(sb.url)}${query}`);
  await page.waitForFunction(
    () => {
      const w = (globalThis as unknown as { __widgets: { widgets: object; error: string | null } })
        .__widgets;
      return w.error !== null || Object.keys(w.widgets).length === 2;
    },
    undefined,
    { timeout: 20_000 },
  );
  const state = await page.evaluate(() => {
    const w = (
      globalThis as unknown as {
        __widgets: {
          widgets: Record<string, { responseId: string; uids: string[] }>;
          error: string | null;
        };
      }
    ).__widgets;
    return {
      error: w.error,
      widgets: Object.fromEntries(
        Object.entries(w.widgets).map(([tag, x]) => [
          tag,
          { responseId: x.responseId, uids: x.uids },
        ]),
      ) as Record<string, Widget>,
    };
  });
  expect(state.error).toBeNull();
  return { page, widgets: state.widgets, recommends };
}

async function readiness(): Promise<ReadinessDto> {
  return (await (
    await fetch(`${sb.url}/_sandbox/readiness?siteId=${SITE}`)
  ).json()) as ReadinessDto;
}

/**
 * What the journey exercised, read from the recorded traffic (not from readiness): each accepted event's
 * endpoint, with its widget tag; `*` once anything was accepted; `credit` when an order line was credited.
 */
async function exercised(): Promise<Set<string>> {
  const events = (await (
    await fetch(`${sb.url}/_sandbox/events?siteId=${SITE}&accepted=true&limit=10000`)
  ).json()) as { events: RecordedEvent[] };
  const out = new Set<string>();
  for (const e of events.events) {
    const tag = isWidgetKind(e.category)
      ? String((e.body as { data: { tag?: string } }).data.tag)
      : '';
    out.add(`${e.category}/${e.event} ${tag}`).add('* ');
  }
  const orders = (await (
    await fetch(`${sb.url}/_sandbox/orders?siteId=${SITE}`)
  ).json()) as OrderDto[];
  if (orders.some((o) => o.lines.some((l) => l.credit !== null))) out.add('credit ');
  return out;
}

async function report(): Promise<TimelineReportDto> {
  const res = await fetch(`${sb.url}/_sandbox/report?format=json&siteId=${SITE}`);
  return (await res.json()) as TimelineReportDto;
}

describe.skipIf(skip)("Snap's RecommendationController against the sandbox, in Chromium", () => {
  it('renders both widgets from one batched request, tracks them cleanly, credits the order line to the widget', async () => {
    const { page, widgets, recommends } = await open('');
    expect(recommends.filter((r) => r === 'POST /v1/recommend')).toHaveLength(1);
    expect(widgets.similar!.uids).toEqual(['P202', 'P201', '3003', '3004']);
    // the tracker's lastViewed (the product page's own view) is what recently-viewed serves
    expect(widgets['recently-viewed']!.uids).toEqual(['P200']);
    const issued = (await (
      await fetch(`${sb.url}/_sandbox/search/responses/${widgets.similar!.responseId}`)
    ).json()) as { kind: string; tag: string };
    expect([issued.kind, issued.tag]).toEqual(['recommendations', 'similar']);

    const waited = await sb.core.events.waitFor(
      { siteId: SITE, category: 'recommendations', event: 'impression' },
      2,
      10_000,
    );
    expect(waited.done).toBe(true);
    await page.evaluate(() =>
      (
        globalThis as unknown as {
          __widgets: { widgets: Record<string, { click(uid: string): void }> };
        }
      ).__widgets.widgets.similar!.click('P201'),
    );
    expect(
      (await sb.core.events.waitFor({ siteId: SITE, event: 'clickthrough' }, 1, 10_000)).done,
    ).toBe(true);
    await page.evaluate(() =>
      (globalThis as unknown as { __order(items: object[]): void }).__order([
        { uid: '2011', parentId: 'P201', sku: 'P201-BLU-S', qty: 1, price: 229 },
      ]),
    );
    expect(
      (await sb.core.events.waitFor({ siteId: SITE, event: 'transaction' }, 1, 10_000)).done,
    ).toBe(true);

    const r = await report();
    const findings = r.pages.flatMap((p) => p.findings.filter((f) => f.severity !== 'info'));
    expect(findings).toEqual([]);
    const orders = (await (
      await fetch(`${sb.url}/_sandbox/orders?siteId=${SITE}`)
    ).json()) as OrderDto[];
    expect(orders[0]!.lines[0]!.credit).toMatchObject({
      kind: 'recommendations',
      tag: 'similar',
      responseId: widgets.similar!.responseId,
    });

    // readiness: a behaviour is ok exactly when the journey sent what exercises it
    const sent = await exercised();
    const ready = await readiness();
    for (const row of ready.behaviours) {
      if (row.status === 'not-applicable') continue;
      const model = BEHAVIOURS.find((b) => b.id === row.id)!;
      // a credited order line shows the credit; an SPA route (none in this journey) an SPA's pageLoadId; an
      // order on another origin than the listings (none here: one storefront) a checkout on another domain
      const shows =
        row.id === 'order.credit'
          ? ['credit']
          : row.id === 'identity.page-load-spa'
            ? ['route']
            : row.id === 'identity.cross-domain'
              ? ['another origin']
              : model.seenBy;
      const did = shows.some((e) => sent.has(`${e} ${e === '*' ? '' : (row.tag ?? '')}`));
      expect([row.id, row.tag, row.status], JSON.stringify(row)).toEqual([
        row.id,
        row.tag,
        did ? 'ok' : 'unseen',
      ]);
    }
    const status = (id: string, tag?: string) =>
      ready.behaviours.find((b) => b.id === id && b.tag === tag)?.status;
    // both widgets, the product page, the order and its credit; no search, no cart
    expect(status('recommendations.widget', 'similar')).toBe('ok');
    expect(status('recommendations.events', 'similar')).toBe('ok');
    expect(status('recommendations.widget', 'recently-viewed')).toBe('ok');
    expect(status('order.transaction')).toBe('ok');
    expect(status('order.credit')).toBe('ok');
    expect(status('search.render')).toBe('unseen');
    expect(status('cart.ledger')).toBe('unseen');
    await page.close();
  });

  it('a tile the widget never served, impressed through the controller, is named by item-not-in-response', async () => {
    await fetch(`${sb.url}/_sandbox/reset?siteId=${SITE}`, { method: 'POST' });
    const { page, widgets } = await open('&plant=1');
    expect(widgets.similar!.uids).toContain('3007');
    const waited = await sb.core.events.waitFor(
      { siteId: SITE, category: 'recommendations', event: 'impression' },
      2,
      10_000,
    );
    expect(waited.done).toBe(true);
    const found = (await report()).pages.flatMap((p) => p.findings);
    const notServed = found.find((f) => f.rule === 'item-not-in-response');
    expect(notServed, JSON.stringify(found)).toMatchObject({ severity: 'error', tag: 'similar' });
    expect(notServed!.message).toContain('uid "3007"');
    // readiness shows the behaviour the finding names as broken, linked to the widget's page
    const named = notServed!.behaviour!;
    const area = BEHAVIOURS.find((b) => b.id === named)!.area;
    const row = (await readiness()).behaviours.find(
      (b) => b.id === named && b.tag === (isWidgetKind(area) ? 'similar' : undefined),
    );
    const page0 = (await report()).pages.find((p) =>
      p.findings.some((f) => f.rule === 'item-not-in-response'),
    )!;
    expect(row).toMatchObject({
      status: 'findings',
      worst: { rule: 'item-not-in-response', severity: 'error', pageLoadId: page0.pageLoadId },
    });
    await page.close();
  });
});
