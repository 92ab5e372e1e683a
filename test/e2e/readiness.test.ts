// The Readiness view in Chromium: reached from Connect ("What's left"), a table per area with status
// badges; a search-only storefront shows cart and order unseen with the call that sends them, a planted
// bug's behaviour links to its page; the rows turn ok live as the storefront sends the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUi, skipReason, type UiSession } from './helpers/ui';
import { postBeacon, testConfig } from '../helpers/sandbox';

const skip = skipReason();
const SITE = 'demo42';
let s: UiSession;

async function send(endpoint: string, body: unknown): Promise<void> {
  const res = await postBeacon(s.sandbox.url, `${SITE}/${endpoint}`, body);
  expect(res.status, await res.clone().text()).toBe(200);
}

const context = (
  pageLoadId: string,
  ms: number,
  pageUrl = 'https://shop.example/search?q=tent',
) => ({
  timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
  pageUrl,
  userId: 'ui-user',
  sessionId: 'ui-session',
  pageLoadId,
  initiator: 'search-sandbox/e2e',
  dev: true,
});

/** render, impression a second later, a click on an impressed tile (or, planted, on one never impressed first) */
async function searchPage(pageLoadId: string, planted = false): Promise<void> {
  const responseId = `r-${pageLoadId}`;
  const tiles = ['P101', 'P102'].map((uid) => ({ type: 'product', uid, parentId: uid }));
  await send('search/render', { context: context(pageLoadId, 0), data: { responseId } });
  await send('search/impression', {
    context: context(pageLoadId, 1_200),
    data: { responseId, results: tiles, banners: [] },
  });
  const clicks = planted
    ? [{ type: 'product', uid: 'P999', parentId: 'P999' }, tiles[0]]
    : [tiles[0]];
  for (const [i, tile] of clicks.entries())
    await send('search/clickthrough', {
      context: context(pageLoadId, 3_000 + i * 1_500),
      data: { responseId, results: [tile] },
    });
}

const row = (id: string, tag?: string) =>
  s.page.locator(
    `[data-testid="readiness-row"][data-id="${id}"]${tag ? `[data-tag="${tag}"]` : ''}`,
  );

beforeAll(async () => {
  if (skip) return;
  const accounts = testConfig().accounts.map((a) =>
    a.siteId === SITE ? { ...a, readiness: { expect: ['search', 'cart'] } } : a,
  );
  s = await openUi({ accounts }, { viewport: { width: 1440, height: 900 } });
  await searchPage('ui-search');
  await searchPage('ui-bug', true);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe.skipIf(skip)('the Readiness view', () => {
  it('is what is left, from Connect: search ok, cart and order unseen with their next step', async () => {
    await s.ui.open('#/connect');
    await s.ui.testId('connect-readiness').click();
    await s.ui.testId('readiness-view').waitFor();
    expect(s.page.url()).toContain(`#/readiness/${SITE}`);
    await row('search.render').waitFor();
    expect(await row('search.render').getAttribute('data-status')).toBe('ok');
    for (const id of ['cart.ledger', 'order.transaction', 'product.pageview']) {
      expect(await row(id).getAttribute('data-status'), id).toBe('unseen');
      expect(await row(id).getByTestId('readiness-next').textContent(), id).toMatch(
        /^Send it with /,
      );
    }
    expect(await row('cart.ledger').textContent()).toContain('cart globals');
    // each declared widget has its row
    expect(await row('recommendations.widget', 'similar').getAttribute('data-status')).toBe(
      'unseen',
    );
    expect(await row('bundles.widget').getAttribute('data-status')).toBe('not-applicable');
    // what the site expects is shown, and marked on its rows
    expect(await s.ui.testId('readiness-expect').textContent()).toContain('search, cart');
    const cartArea = s.page.locator('[data-testid="readiness-area"][data-area="cart"] h2');
    expect(await cartArea.textContent()).toContain('expected');
    // and the gate it is held to, as expectReady and check --readiness hold it: cart is unseen
    const verdict = s.ui.testId('readiness-verdict');
    expect(await verdict.textContent()).toMatch(/^not ready for 1 thing of what it expects/);
    expect(await verdict.textContent()).toContain('area cart is unseen: nothing of it was sent');
    // and how to start over once a bug is fixed
    expect(await s.ui.testId('readiness-view').textContent()).toContain(
      'A row keeps the findings of the pages already sent',
    );
    // one table per area
    const areas = await s.ui
      .testId('readiness-area')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-area')));
    expect(areas.slice(0, 3)).toEqual(['search', 'category', 'autocomplete']);
    await s.ui.screenshot('readiness-1440');
  });

  it('a planted bug: its behaviour has findings, the worst linked to its page', async () => {
    const clicks = row('search.clickthrough');
    expect(await clicks.getAttribute('data-status')).toBe('findings');
    expect(await clicks.textContent()).toMatch(/warning\s*click-not-impressed/);
    // what the finding says and its fix, in the row: no click through needed to learn what to do
    expect(await clicks.getByTestId('readiness-message').textContent()).toContain('P999');
    expect(await clicks.getByTestId('readiness-fix').textContent()).toMatch(/^Fix: \S/);
    await clicks.getByTestId('readiness-page-link').click();
    const view = s.page.locator('[data-testid="page-view"][data-page-load-id="ui-bug"]');
    await view.waitFor();
    await s.ui.finding('click-not-impressed').first().waitFor();
  });

  it('an ok no rule could check is badged unverified, with the rules and what would check them', async () => {
    await s.ui.open(`#/readiness/${SITE}`);
    // the storefront's search is not the sandbox's, and demo42 checks no catalog: the items its pages
    // name were seen, never checked
    const items = row('search.items-served');
    await items.waitFor();
    expect(await items.getAttribute('data-status')).toBe('ok');
    expect(await items.getAttribute('data-unverified')).toBe('');
    const why = items.getByTestId('readiness-unverified');
    expect(await why.textContent()).toContain('no rule could check it');
    const lacks = await why
      .locator('li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-lacks')));
    expect(lacks).toEqual(['issued', 'catalog']);
    expect(await why.locator('li[data-lacks="catalog"]').textContent()).toContain(
      'item-not-in-catalog',
    );
    // a row a rule checked is plain ok
    expect(await row('search.render').getAttribute('data-unverified')).toBeNull();
    expect(await s.ui.testId('readiness-unverified-count').textContent()).toMatch(
      /^\d+ of them unverified$/,
    );
  });

  it('turns a row ok as the storefront sends it, without a reload', async () => {
    await s.ui.open(`#/readiness/${SITE}`);
    await row('cart.ledger').waitFor();
    const item = { uid: 'P101', parentId: 'P101', sku: 'S-101', qty: 1, price: 80 };
    await send('cart/add', {
      context: context('ui-cart', 6_000, 'https://shop.example/cart'),
      data: { results: [item], cart: [item] },
    });
    await s.page
      .locator('[data-testid="readiness-row"][data-id="cart.ledger"][data-status="ok"]')
      .waitFor();
    await s.page.setViewportSize({ width: 390, height: 844 });
    await row('search.clickthrough').scrollIntoViewIfNeeded();
    await s.ui.screenshot('readiness-390');
  });

  it('shows a widget’s events sent with a misspelt tag on its own tag’s row, saying the tag is wrong', async () => {
    await s.page.setViewportSize({ width: 1440, height: 900 });
    await s.ui.open(`#/readiness/${SITE}`);
    await row('search.render').waitFor();
    const pdp = 'https://shop.example/products/p101';
    await send('recommendations/render', {
      context: context('ui-pdp', 0, pdp),
      data: { responseId: 'w-typo', tag: 'similar' },
    });
    await send('recommendations/impression', {
      context: context('ui-pdp', 1_200, pdp),
      data: {
        responseId: 'w-typo',
        tag: 'similiar',
        results: [{ type: 'product', uid: 'P102', parentId: 'P102' }],
        banners: [],
      },
    });
    const events = s.page.locator(
      '[data-testid="readiness-row"][data-id="recommendations.events"][data-tag="similar"][data-status="findings"]',
    );
    await events.waitFor();
    expect(await events.getByTestId('readiness-wrong-tags').textContent()).toBe(
      'Its events were sent with tag "similiar": send them with data.tag "similar".',
    );
    expect(await row('recommendations.widget', 'similar').getAttribute('data-status')).toBe('ok');
    expect(await row('recommendations.events', 'similiar').count()).toBe(0);
  });

  it('names a finding on requests without a pageLoadId by its request, not a blank page', async () => {
    await s.page.setViewportSize({ width: 1440, height: 900 });
    await s.ui.open(`#/readiness/${SITE}`);
    await row('search.render').waitFor();
    // a browser's CORS preflight, refused: it carries no body, so no pageLoadId
    const preflight = await fetch(`${s.sandbox.url}/beacon/v2/${SITE}/search/render`, {
      method: 'OPTIONS',
    });
    expect(preflight.status).toBe(405);
    const render = s.page.locator(
      '[data-testid="readiness-row"][data-id="search.render"][data-status="findings"]',
    );
    await render.waitFor();
    expect(await render.getByTestId('readiness-page-link').textContent()).toBe('(no pageLoadId)');
    expect(await render.getByTestId('readiness-request').textContent()).toMatch(
      /^: ev_\d+, a refused CORS preflight to \/beacon\/v2\/demo42\/search\/render$/,
    );
  });

  it('tells pages whose ids share their start apart: a page link shows the end of its id', async () => {
    await s.page.setViewportSize({ width: 1440, height: 900 });
    await s.ui.open(`#/readiness/${SITE}`);
    // a render without its userId: the schema refuses it, on the identity context's row
    const { userId: _dropped, ...noUser } = context('pl-1796085764123-nouser', 0);
    const res = await postBeacon(s.sandbox.url, `${SITE}/search/render`, {
      context: noUser,
      data: { responseId: 'r-nouser' },
    });
    expect(res.status).toBe(400);
    const ids = s.page.locator(
      '[data-testid="readiness-row"][data-id="identity.context"][data-status="findings"]',
    );
    await ids.waitFor();
    expect(await ids.getByTestId('readiness-page-link').textContent()).toBe('…64123-nouser');
    expect(await ids.getByTestId('readiness-message').textContent()).toContain('userId');
  });
});
