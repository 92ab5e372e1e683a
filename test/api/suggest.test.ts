// Autocomplete's suggestions over real HTTP, asked by the provider's own Snap client
// (@searchspring/snap-client): every suggestion is a query that finds something (products, or a configured
// redirect), since the client searches it next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@searchspring/snap-client';
import type { Sandbox } from '../../src/main/sandbox';
import { SHOP, getJson, indexOutdoor, startShop } from './companion-site';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client's types come from a package it does not ship
type Any = any;

let sb: Sandbox;

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
