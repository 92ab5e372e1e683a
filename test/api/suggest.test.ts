// Autocomplete's suggestions and trending terms over real HTTP, asked by the provider's own Snap client
// (@searchspring/snap-client): every suggestion and every trending term is a query that finds something
// (products, or a configured redirect), since the client searches it next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@searchspring/snap-client';
import type { Sandbox } from '../../src/main/sandbox';
import { SHOP, getJson, indexOutdoor, startShop } from './companion-site';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client's types come from a package it does not ship
type Any = any;

let sb: Sandbox;

/** Each block its own sandbox: what one block searched is not another's trending terms. */
function indexedShop(): void {
  beforeAll(async () => {
    sb = await startShop();
    await indexOutdoor(sb);
  });
  afterAll(async () => {
    await sb?.close();
  });
}

function snap(): Any {
  const origin = sb.url;
  return new Client({ siteId: SHOP }, {
    mode: 'development',
    search: { origin },
    meta: { origin },
    autocomplete: { origin },
    // trending terms come from the client's suggest requester, which has an origin of its own
    suggest: { origin },
  } as Any);
}

/** What autocomplete.json answers for a suggestion: how many results, and the redirect. */
async function searched(text: string): Promise<{ total: number; redirect: string }> {
  const q = encodeURIComponent(text);
  const { status, body } = await getJson(
    sb,
    `/api/search/autocomplete.json?siteId=${SHOP}&q=${q}&redirectResponse=full`,
  );
  expect(status, text).toBe(200);
  return { total: body.pagination.totalResults, redirect: body.merchandising.redirect };
}

async function suggestions(query: string): Promise<Any> {
  const q = encodeURIComponent(query);
  const { status, body } = await getJson(
    sb,
    `/api/suggest/query?siteId=${SHOP}&query=${q}&suggestionCount=10`,
  );
  expect(status, query).toBe(200);
  return body;
}

describe('suggestions', () => {
  indexedShop();

  it('complete to a configured campaign query, never to words that find nothing together', async () => {
    // "gift" is in no product: the redirect's query is what the shopper is typing
    const [, gift] = await snap().autocomplete({ search: { query: { string: 'gift ca' } } });
    expect(gift.autocomplete.suggested).toEqual({
      text: 'gift card',
      type: 'completed',
      source: 'merchandising',
    });
    expect(gift.merchandising.redirect).toBe('/pages/gift-cards');
    // nothing is called "sleeping": no suggestion, rather than "sleeping blue" that finds nothing
    expect(await suggestions('sleeping b')).toEqual({ query: 'sleeping b', alternatives: [] });
  });

  it('complete the last word with words of the products the earlier words find', async () => {
    const rain = await suggestions('rain s');
    expect(rain.suggested).toEqual({
      text: 'rain shell',
      type: 'completed',
      source: 'product-name',
    });
    for (const query of ['rain s', 'jacket b', 'trail r', 'hiking b', 'r', 'down p']) {
      const answer = await suggestions(query);
      const texts = [answer.suggested?.text, ...answer.alternatives.map((a: Any) => a.text)];
      expect(texts[0], query).toBeDefined();
      for (const text of texts) {
        const { total, redirect } = await searched(text);
        expect(total > 0 || redirect !== '', `${query} → ${text}`).toBe(true);
      }
    }
    // "jacket b": the jackets come in blue (two variants) and black (one), and none is a boot
    expect(await suggestions('jacket b')).toEqual({
      query: 'jacket b',
      suggested: { text: 'jacket blue', type: 'completed', source: 'product-name' },
      alternatives: [{ text: 'jacket black' }],
    });
  });
});

describe('trending terms (/api/suggest/trending)', () => {
  indexedShop();

  it('offers the catalog’s common words before anyone searched, then the searched queries that find something', async () => {
    const before = await snap().trending({ limit: 4 });
    expect(before.trending.queries).toHaveLength(4);
    for (const { searchQuery, popularity } of before.trending.queries) {
      expect(popularity).toBe(0);
      expect((await searched(searchQuery)).total, searchQuery).toBeGreaterThan(0);
    }
    // searches the sandbox answered (each one issues a responseId, as the Snap client asks)
    const client = snap();
    for (const q of ['boot', 'hiking boot', 'boot', 'gift card', 'zzzq'])
      await client.search({ search: { query: { string: q } } });
    const after = await client.trending({ limit: 3 });
    expect(after).toEqual({
      trending: {
        queries: [
          { searchQuery: 'boot', popularity: 2 },
          { searchQuery: 'gift card', popularity: 1 },
          { searchQuery: 'hiking boot', popularity: 1 },
        ],
      },
    });
    // "zzzq" found nothing: it is never offered, however many slots are left
    const all = await getJson(sb, `/api/suggest/trending?siteId=${SHOP}&limit=50`);
    expect(all.body.trending.queries.map((t: Any) => t.searchQuery)).not.toContain('zzzq');
  });

  it('answers a POSTed request, and names a bad limit', async () => {
    const posted = await fetch(`${sb.url}/api/suggest/trending`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ siteId: SHOP, limit: 1 }),
    });
    expect(posted.status).toBe(200);
    expect(((await posted.json()) as Any).trending.queries).toHaveLength(1);
    const bad = await getJson(sb, `/api/suggest/trending?siteId=${SHOP}&limit=100`);
    expect(bad).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'InvalidParameter',
        message: 'limit="100": use a whole number from 0 to 50',
      },
    });
  });
});
