// The page's "Responses" section in real Chromium: what the companion recommend API served a widget (kind,
// tag, products), beside the finding that names a tile it never served; and a search the page load asked for
// but never rendered, beside its finding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBeacon } from '../helpers/sandbox';
import { SITE, indexCatalog, recommend, recommendAccounts } from '../api/recommend-helpers';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();

describe.skipIf(skip)('recommendations in the UI', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi({ accounts: recommendAccounts() });
    await indexCatalog(s.sandbox);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows what the widget was served, and names the planted tile', async () => {
    const { body } = await recommend(s.sandbox, {
      siteId: SITE,
      profiles: [{ tag: 'similar', limit: 3 }],
      products: ['P200'],
    });
    const responseId = body[0].responseId as string;
    let n = 0;
    const beacon = (data: Record<string, unknown>) => ({
      context: {
        timestamp: new Date(Date.now() + ++n).toISOString(),
        pageUrl: 'https://shop.example/products/P200',
        userId: 'user-1',
        sessionId: 'session-1',
        pageLoadId: 'rec-ui',
        initiator: 'search-sandbox/e2e',
      },
      data,
    });
    const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: uid });
    for (const [endpoint, data] of [
      ['recommendations/render', { tag: 'similar', responseId }],
      [
        'recommendations/impression',
        { tag: 'similar', responseId, results: [tile('P202'), tile('3007')], banners: [] },
      ],
    ] as const) {
      const res = await postBeacon(s.sandbox.url, `${SITE}/${endpoint}`, beacon(data));
      expect(res.status).toBe(200);
    }

    await s.ui.open('#/timelines');
    const view = await s.ui.openPage('rec-ui');
    await s.ui.finding('item-not-in-response').waitFor();
    const source = view.locator('[data-testid="response-source"][data-kind="recommendations"]');
    await source.waitFor();
    const text = await source.textContent();
    expect(text).toContain('recommendations widget "similar"');
    expect(text).toContain('3 products');
    expect(await source.getByTestId('served-products').textContent()).toBe('P202, P201, 3003');
    expect(text).toContain('issued by the sandbox');
    await s.ui.screenshot('recommendations-widget-response');
  });

  it('lists a search the page load asked for and never rendered, beside its finding', async () => {
    const search = async (q: string) => {
      const params = new URLSearchParams({
        siteId: SITE,
        q,
        beacon: 'true',
        userId: 'user-1',
        sessionId: 'session-1',
        pageLoadId: 'asked-ui',
        domain: `https://shop.example/search?q=${q}`,
      });
      const res = await fetch(`${s.sandbox.url}/api/search/search.json?${params}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { responseId: string }).responseId;
    };
    const never = await search('zzzz-nothing');
    // the shopper searches again 3 s later, and that search is rendered
    const clock = await fetch(`${s.sandbox.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT3S' }),
    });
    expect(clock.status).toBe(200);
    const shown = await search('P200');
    const render = await postBeacon(s.sandbox.url, `${SITE}/search/render`, {
      context: {
        timestamp: new Date(Date.now() + 3_000).toISOString(),
        pageUrl: 'https://shop.example/search?q=P200',
        userId: 'user-1',
        sessionId: 'session-1',
        pageLoadId: 'asked-ui',
        initiator: 'search-sandbox/e2e',
      },
      data: { responseId: shown },
    });
    expect(render.status).toBe(200);

    await s.ui.open('#/timelines');
    const view = await s.ui.openPage('asked-ui');
    await s.ui.finding('search-not-rendered').waitFor();
    const unnamed = view.locator('[data-testid="response-source"][data-named="false"]');
    await unnamed.waitFor();
    const text = await unnamed.textContent();
    expect(text).toContain('search "zzzz-nothing"');
    expect(text).toContain('asked by this page, never named');
    expect(await unnamed.locator('code').getAttribute('title')).toBe(never);
    const named = view.locator('[data-testid="response-source"][data-named="true"]');
    expect(await named.textContent()).toContain('search "P200"');
    await s.ui.screenshot('search-never-rendered');
  });
});
