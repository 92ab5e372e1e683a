// Pass-through pieces without HTTP: the config keys (off by default; `true` = the real hosts, as the provider's
// clients derive them; errors naming key, value and fix), what a forwarded search response is remembered as,
// and which upstream statuses are verdicts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSandboxAccounts } from '../../src/main/config';
import { issuedFromUpstream } from '../../src/main/search/upstream-issued';
import { REAL_BEACON_BASE } from '../../src/main/tracking/forward-config';
import { outcomeOf } from '../../src/main/tracking/forward';

const account = (extra: Record<string, unknown>) =>
  parseSandboxAccounts([{ siteId: 'abc123', secretKey: 'k', ...extra }], '.', 'cfg.json')[0]!;
const fails = (extra: Record<string, unknown>) => () => account(extra);

describe('pass-through config', () => {
  it('is off by default', () => {
    const a = account({});
    expect(a.search!.upstream).toBeNull();
    expect(a.tracking!.forward).toBeNull();
  });

  it('true means the real hosts exactly as the Snap client and beacon.js derive them', () => {
    const a = account({ search: { upstream: true }, tracking: { forward: true } });
    expect(a.search!.upstream).toBe('https://abc123.a.searchspring.io');
    expect(a.tracking!.forward).toBe('https://analytics.athoscommerce.net/beacon/v2');
    expect(REAL_BEACON_BASE).toBe(
      readFileSync(
        path.resolve(
          __dirname,
          '../../node_modules/@athoscommerce/beacon/dist/esm/src/client/runtime.js',
        ),
        'utf8',
      ).match(/BASE_PATH = '([^']+)'/)![1],
    );
  });

  it('takes an origin (and base path), without a trailing slash', () => {
    const a = account({
      search: { upstream: 'http://127.0.0.1:9000/', upstreamTimeoutMs: 2500 },
      tracking: {
        forward: 'http://127.0.0.1:9001/beacon/v2/',
        forwardTimeoutMs: 300,
        forwardQueue: 5,
      },
    });
    expect(a.search).toMatchObject({ upstream: 'http://127.0.0.1:9000', upstreamTimeoutMs: 2500 });
    expect(a.tracking).toEqual({
      forward: 'http://127.0.0.1:9001/beacon/v2',
      forwardTimeoutMs: 300,
      forwardQueue: 5,
    });
  });

  it('names the key, the value and the fix for bad values', () => {
    expect(fails({ search: { upstream: 'ftp://x' } })).toThrow(
      'cfg.json: accounts[0].search.upstream: "ftp://x" is not http or https: use a URL like "http://127.0.0.1:9000"',
    );
    expect(fails({ search: { upstream: 'localhost:9000?x' } })).toThrow(/is not http or https/);
    expect(fails({ search: { upstream: 'http://h/?q=1' } })).toThrow(
      /has a query, fragment or credentials/,
    );
    expect(fails({ search: { upstream: 1 } })).toThrow(
      /accounts\[0\]\.search\.upstream: 1 must be true \(the site's real search host, https:\/\/abc123\.a\.searchspring\.io\)/,
    );
    expect(fails({ search: { upstreamTimeoutMs: 10 } })).toThrow(
      'accounts[0].search.upstreamTimeoutMs: 10 must be a whole number of milliseconds from 100 to 120000',
    );
    expect(fails({ tracking: { forward: 'yes' } })).toThrow(
      'accounts[0].tracking.forward: "yes" is not a URL: use true or a URL like "http://127.0.0.1:9000/beacon/v2"',
    );
    expect(fails({ tracking: { forwardQueue: 0 } })).toThrow(
      'accounts[0].tracking.forwardQueue: 0 must be a whole number of requests from 1 to 100000',
    );
    expect(fails({ tracking: { forwrd: true } })).toThrow(
      'accounts[0].tracking.forwrd: unknown key; did you mean forward? allowed: forward, forwardTimeoutMs, forwardQueue',
    );
  });
});

describe('a forwarded search response, remembered', () => {
  const body = JSON.parse(
    readFileSync(
      path.resolve(__dirname, '../../fixtures/search/upstream-search-response.json'),
      'utf8',
    ),
  ) as Record<string, unknown>;
  const remember = (b: Record<string, unknown>, query = 'q=jacket&page=1') =>
    issuedFromUpstream({
      siteId: 'abc123',
      params: new URLSearchParams(query),
      body: b,
      upstream: 'http://127.0.0.1:9000',
      now: 1000,
    });

  it('keeps results with their variants, slot and inline banners by data-banner-id, and the origin', () => {
    expect(remember(body)).toEqual({
      responseId: 'f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0',
      siteId: 'abc123',
      query: 'jacket',
      page: 1,
      perPage: 24,
      issuedAt: 1000,
      results: [
        {
          uid: '8128',
          sku: 'RSJ-100',
          parentId: null,
          children: [
            { uid: '8128-s', sku: 'RSJ-100-S' },
            { uid: '8128-m', sku: 'RSJ-100-M' },
          ],
          // the price each result served (what its quick add sends: price-unit-mismatch compares them)
          price: 139,
        },
        { uid: '8131', sku: 'DP-200', parentId: null, children: [], price: 249 },
        { uid: '8140', sku: 'TS-300', parentId: null, children: [], price: 119 },
      ],
      inline: [{ uid: '91002', index: 1 }],
      slots: { header: ['91001'], banner: [], footer: [], left: [] },
      redirect: null,
      test: false,
      upstream: 'http://127.0.0.1:9000',
      // the search it answers: the parameters that chose its results
      asked: 'page=1&q=jacket',
    });
  });

  it('reads a redirect, numeric ids, an inline banner without an id, and test=true', () => {
    const r = remember(
      {
        responseId: 'r1',
        results: [{ uid: 42, parentId: 'P4' }, { name: 'no uid' }],
        merchandising: {
          redirect: 'https://shop.example/sale',
          content: { inline: [{ value: '<p>no id</p>', config: { position: { index: 3 } } }] },
        },
      },
      'q=sale&test=true',
    )!;
    expect(r.results).toEqual([{ uid: '42', sku: null, parentId: 'P4', children: [] }]);
    expect(r.inline).toEqual([{ uid: 'ss-ib-3', index: 3 }]);
    expect(r.redirect).toBe('https://shop.example/sale');
    expect([r.query, r.test]).toEqual(['sale', true]);
  });

  it('is nothing without a responseId (meta, or a request without beacon=true)', () => {
    expect(remember({ results: [] })).toBeNull();
  });
});

describe('upstream verdicts', () => {
  it('2xx accepts, 4xx rejects; 408, 429, 5xx and others are no verdict', () => {
    expect([200, 204, 400, 404, 413, 415].map(outcomeOf)).toEqual([
      'accepted',
      'accepted',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
    ]);
    expect([408, 429, 500, 503, 302, 101].map(outcomeOf)).toEqual(Array(6).fill('unavailable'));
  });
});
