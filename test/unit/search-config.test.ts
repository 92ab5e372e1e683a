// An account's `search` settings: defaults, campaigns, and errors that name the key and the fix.
import { describe, expect, it } from 'vitest';
import { parseSearchConfig, DEFAULT_SEARCH_CONFIG } from '../../src/main/search/config';
import { parseSandboxAccounts } from '../../src/main/config';
import { loadConfig, DEMO_CONFIG_PATH } from '../../src/main/config';

const parse = (raw: unknown) => parseSearchConfig(raw, 'accounts[0].search', 'cfg.json');

describe('search config', () => {
  it('defaults: not a companion site, catalog check on, 24 per page, facets detected, no campaigns', () => {
    expect(parse(undefined)).toEqual(DEFAULT_SEARCH_CONFIG);
    expect(
      parseSandboxAccounts([{ siteId: 'abc123', secretKey: 'k' }], '.', 'cfg.json')[0]!.search,
    ).toEqual(DEFAULT_SEARCH_CONFIG);
  });

  it('normalises campaign queries and gives campaigns and banners their defaults', () => {
    const c = parse({
      companion: true,
      campaigns: [{ queries: ['  Rain   JACKET '], banners: [{ id: 7, slot: 'footer' }] }],
    });
    expect(c.companion).toBe(true);
    expect(c.campaigns).toEqual([
      {
        id: 'campaign-1',
        title: 'campaign-1',
        queries: ['rain jacket'],
        redirect: null,
        banners: [
          {
            id: '7',
            slot: 'footer',
            position: null,
            html: '<div class="ss-banner">7</div>',
          },
        ],
      },
    ]);
  });

  it.each([
    [
      { nope: 1 },
      'accounts[0].search.nope: unknown key; allowed: companion, catalogCheck, resultsPerPage, facets, campaigns',
    ],
    [{ companion: 'yes' }, 'accounts[0].search.companion: must be true or false, got "yes"'],
    [
      { resultsPerPage: 0 },
      'accounts[0].search.resultsPerPage: 0 must be a whole number from 1 to 250',
    ],
    [{ facets: 'brand' }, 'accounts[0].search.facets: must be an array of catalog field names'],
    [
      { campaigns: [{ queries: [], redirect: '/x' }] },
      'accounts[0].search.campaigns[0].queries: must be a non-empty array',
    ],
    [
      { campaigns: [{ queries: ['a'] }] },
      'accounts[0].search.campaigns[0]: a campaign needs a "redirect" or at least one banner',
    ],
    [
      { campaigns: [{ queries: ['a'], redirect: 'http://[bad' }] },
      'accounts[0].search.campaigns[0].redirect: "http://[bad" is not a URL',
    ],
    [
      { campaigns: [{ queries: ['a'], banners: [{ id: 'rain-header', slot: 'header' }] }] },
      'accounts[0].search.campaigns[0].banners[0].id: "rain-header" is not a banner id: banner ids are numbers',
    ],
    [
      { campaigns: [{ queries: ['a'], banners: [{ id: '1', slot: 'top' }] }] },
      'accounts[0].search.campaigns[0].banners[0].slot: "top" is not a slot: use one of header, banner, footer, left, inline',
    ],
    [
      { campaigns: [{ queries: ['a'], banners: [{ id: '1', slot: 'inline' }] }] },
      'accounts[0].search.campaigns[0].banners[0].position: undefined: an inline banner needs "position"',
    ],
    [
      { campaigns: [{ queries: ['a'], banners: [{ id: '1', slot: 'left', position: 2 }] }] },
      'accounts[0].search.campaigns[0].banners[0].position: only inline banners have a position',
    ],
    [
      {
        campaigns: [
          { queries: ['a'], banners: [{ id: '1', slot: 'left' }] },
          { queries: ['b'], banners: [{ id: '1', slot: 'header' }] },
        ],
      },
      'accounts[0].search.campaigns[1].banners[0].id: banner id "1" is used twice',
    ],
  ])('rejects %j', (raw, message) => {
    expect(() => parse(raw)).toThrow(`cfg.json: ${message}`);
  });

  it('the demo config has a redirect keyword and banners in every slot', () => {
    const demo = loadConfig({ ephemeral: true, config: DEMO_CONFIG_PATH }, {}).accounts[0]!.search!;
    expect(demo.campaigns.some((c) => c.redirect !== null)).toBe(true);
    const slots = new Set(demo.campaigns.flatMap((c) => c.banners.map((b) => b.slot)));
    expect([...slots].sort()).toEqual(['banner', 'footer', 'header', 'inline', 'left']);
  });
});
