// The bulk indexing interface over real HTTP: auth, methods, statuses and bodies as documented,
// real multipart uploads of the sample feeds (good and broken), the 20 MB cap, HTTPS, no secrets in logs.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { ensureCertificate } from '../../src/main/http/https';
import { tempDir, testConfig } from '../helpers/sandbox';
import { zipOf } from '../helpers/zip';
import {
  admin,
  advance,
  AUTH,
  fixture,
  put,
  runToEnd,
  START,
  startFrozen,
  status,
  upload,
} from './indexing-helpers';

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startFrozen();
});
afterAll(async () => {
  await sb.close();
});
afterEach(async () => {
  // every test starts from the fixtures at the same sandbox time
  sb.core.clock.set(START);
  await sb.core.reset({ what: 'all' });
});

describe('GET /api/index/status', () => {
  it('lists every feed of the account in the real body shape', async () => {
    const res = await status(sb.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-now')).toBe('2026-11-21T04:36:00.000Z');
    const body = (await res.json()) as any;
    expect(body).toEqual({
      status: 'success',
      feeds: [
        {
          id: 42,
          lastIndexed: '2026-11-21T04:00:00+0000',
          nextIndexTime: '2026-11-22T04:00:00+0000',
          indexStatus: 'done',
        },
        {
          id: 43,
          lastIndexed: '2026-11-21T04:00:00+0000',
          nextIndexTime: '2026-11-22T04:00:00+0000',
          indexStatus: 'done',
        },
        {
          id: 44,
          lastIndexed: '2026-11-21T04:00:00+0000',
          nextIndexTime: null,
          indexStatus: 'done',
        },
      ],
    });
    for (const f of body.feeds) expect(f.lastIndexed).toMatch(STAMP);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405', async (method) => {
    const res = await fetch(`${sb.url}/api/index/status`, {
      method,
      headers: { authorization: AUTH },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect((await res.json()) as any).toEqual({
      status: 'error',
      message: `invalid request method: \`${method}\` - requires \`GET\``,
    });
  });
});

describe('authentication', () => {
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
  const cases: Array<[string, string | undefined, RegExp]> = [
    ['no credentials', undefined, /missing credentials/],
    ['a wrong secret key', basic('demo42:wrong-key'), /invalid credentials/],
    ['an unknown siteId', basic('zzz999:demo-secret-key'), /invalid credentials/],
    ['an empty password', basic('demo42:'), /invalid credentials/],
    ['no colon', basic('demo42'), /malformed basic auth/],
    ['a bearer token', 'Bearer demo-secret-key', /unsupported Authorization header/],
    ['Basic with what is not base64', 'Basic !!!notbase64', /^malformed basic auth .*not base64/],
    ['Basic with nothing after it', 'Basic', /^malformed basic auth .*not base64/],
  ];
  it.each(cases)(
    'refuses %s with 401 and WWW-Authenticate on both endpoints',
    async (_name, authorization, message) => {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const s = await fetch(`${sb.url}/api/index/status`, { headers });
      expect(s.status).toBe(401);
      expect(s.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect((await s.json()) as any).toEqual({
        status: 'error',
        message: expect.stringMatching(message),
      });
      const f = await fetch(`${sb.url}/api/index/feed?feedId=43`, { method: 'PUT', headers });
      expect(f.status).toBe(401);
      expect(f.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect((await f.json()) as any).toEqual({
        success: false,
        message: expect.stringMatching(message),
      });
    },
  );

  it('answers the UI-marked upload (X-Sandbox-No-Challenge) with the same 401 but no challenge; a plain one keeps it', async () => {
    const send = (extra: Record<string, string>) => {
      const form = new FormData();
      form.append('feedFile', new Blob(['id,name\n1,A\n'], { type: 'text/csv' }), 'p.csv');
      return fetch(`${sb.url}/api/index/feed?feedId=42`, {
        method: 'POST',
        headers: { authorization: basic('demo42:wrong'), ...extra },
        body: form,
      });
    };
    const plain = await send({});
    const marked = await send({ 'X-Sandbox-No-Challenge': '1' });
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(marked.status).toBe(401);
    expect(marked.headers.get('www-authenticate')).toBeNull();
    expect(await marked.json()).toEqual(await plain.json());
    const status = await fetch(`${sb.url}/api/index/status`, {
      headers: { 'x-sandbox-no-challenge': '1' },
    });
    expect(status.status).toBe(401);
    expect(status.headers.get('www-authenticate')).toBeNull();
  });

  it('never writes the secret key or the Authorization header to the logs', async () => {
    const written: string[] = [];
    const spies = [
      vi.spyOn(console, 'log').mockImplementation((...a) => void written.push(a.join(' '))),
      vi.spyOn(console, 'error').mockImplementation((...a) => void written.push(a.join(' '))),
      vi.spyOn(console, 'warn').mockImplementation((...a) => void written.push(a.join(' '))),
      vi.spyOn(console, 'info').mockImplementation((...a) => void written.push(a.join(' '))),
      vi.spyOn(process.stdout, 'write').mockImplementation((c) => (written.push(String(c)), true)),
      vi.spyOn(process.stderr, 'write').mockImplementation((c) => (written.push(String(c)), true)),
    ];
    try {
      await status(sb.url);
      await status(sb.url, `Basic ${Buffer.from('demo42:demo-secret-kez').toString('base64')}`);
      await put(sb.url, 'feedId=43&requestedBy=dev%40shop.example');
      await upload(sb.url, 'feedId=42', fixture('not-a-feed.png'), 'x.png');
      await upload(sb.url, 'feedId=42', 'x', 'x.csv', { field: 'other' });
      await runToEnd(sb, 42);
      await runToEnd(sb, 43);
      await fetch(`${sb.url}/api/index/feed?feedId=42`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nbroken',
      });
    } finally {
      for (const s of spies) s.mockRestore();
    }
    const all = written.join('\n');
    expect(all).not.toContain('demo-secret-key');
    expect(all).not.toContain(AUTH.slice(6));
    expect(all).not.toContain('demo-secret-kez');
  });
});

describe('PUT|POST /api/index/feed', () => {
  it.each(['GET', 'DELETE', 'PATCH'])('answers %s with 405', async (method) => {
    const res = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method,
      headers: { authorization: AUTH },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PUT, POST');
    expect((await res.json()) as any).toEqual({
      success: false,
      message: `invalid request method: \`${method}\` - requires \`PUT\` or \`POST\``,
    });
  });

  it.each([
    ['', 400, /missing feedId/],
    ['feedId=', 400, /missing feedId/],
    // a name in other capitals: parameter names are case-sensitive, and the answer says which was sent
    [
      'feedid=43',
      400,
      /^missing feedId: the URL names "feedid", and parameter names are case-sensitive: use \?feedId=<the feed id>$/,
    ],
    ['feedId=abc', 400, /feedId "abc" is not a feed id/],
    ['feedId=42&feedId=43', 400, /feedId is given more than once/],
    [
      'feedId=43&requestedBy=not-an-address',
      400,
      /requestedBy "not-an-address" is not an e-mail address/,
    ],
    ['feedId=43&requestedBy=a%40b', 400, /is not an e-mail address/],
    // a + sent as is reads as a space: the answer says why and how to send it
    [
      'feedId=43&requestedBy=a+b@example.com',
      400,
      /^requestedBy "a b@example\.com" is not an e-mail address: a \+ in a query string is a space: encode it as %2B \(requestedBy=a%2Bb@example\.com\)$/,
    ],
    // a space no + would mend is refused as any other non-address
    [
      'feedId=43&requestedBy=a+b',
      400,
      /^requestedBy "a b" is not an e-mail address: use one address, e\.g\. requestedBy=dev%40shop\.example, or leave it out$/,
    ],
    ['feedId=99', 404, /feed 99 does not exist for site demo42; its feeds are 42, 43, 44/],
    // as sent, not as the number it is read as (1e+23)
    ['feedId=99999999999999999999999', 404, /^feed 99999999999999999999999 does not exist/],
    ['feedId=44', 409, /interval "Never"/],
    ['feedId=42', 409, /takes uploaded files and none was uploaded yet/],
  ])('PUT ?%s → %i', async (query, code, message) => {
    const res = await put(sb.url, query);
    expect(res.status).toBe(code);
    expect((await res.json()) as any).toEqual({
      success: false,
      message: expect.stringMatching(message),
    });
  });

  it('queues PUT of the cart feed with {"success":true}', async () => {
    const res = await put(sb.url, 'feedId=43&requestedBy=dev%40shop.example');
    expect(res.status).toBe(200);
    expect((await res.json()) as any).toEqual({ success: true });
    const after = (await (await status(sb.url)).json()) as any;
    expect(after.feeds.find((f: any) => f.id === 43).indexStatus).toBe('regen_waiting');
  });

  it('refuses POST bodies that are not multipart, miss feedFile or use another field', async () => {
    const json = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'text/csv' },
      body: 'id\n1\n',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).message).toMatch(
      /POST takes multipart\/form-data with the feed file in field "feedFile", not text\/csv/,
    );
    const bare = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH },
    });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as any).message).toBe(
      'POST takes multipart/form-data with the feed file in field "feedFile", but the request has no Content-Type (use PUT to index the configured source)',
    );
    const form = new FormData();
    form.append('note', 'no file here');
    const missing = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH },
      body: form,
    });
    expect(missing.status).toBe(400);
    expect((await missing.json()) as any).toEqual({
      success: false,
      message: expect.stringMatching(/^missing feedFile/),
    });
    const asText = new FormData();
    asText.append('feedFile', 'hello');
    const text = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH },
      body: asText,
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as any).message).toBe(
      'feedFile was sent as a text field ("hello"), not as a file: send the file itself, e.g. curl -F feedFile=@products.csv (the @ makes curl send the file\'s contents)',
    );
    const other = await upload(sb.url, 'feedId=42', 'id\n1\n', 'a.csv', { field: 'file' });
    expect(other.status).toBe(400);
    expect(((await other.json()) as any).message).toMatch(/unexpected file field "file"/);
    const broken = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="feedFile"; filename="a.csv"\r\n\r\nid\n1',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).message).toMatch(/multipart body cannot be read/);
    const two = new FormData();
    two.append('feedFile', new Blob(['id\n1\n']), 'a.csv');
    two.append('feedFile', new Blob(['id\n2\n']), 'b.csv');
    const twice = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH },
      body: two,
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as any).message).toBe(
      'the form holds more than one file: send one, the feed, as form field "feedFile"',
    );
  });

  it('answers 413 for a 20.1 MB upload and one a few bytes over, and accepts a 19.9 MB one', async () => {
    const line = 'id,name,price,description\n';
    // rows of ~500 bytes, as a feed with descriptions has: the limit is on bytes, and 40,000 products
    // index in a fraction of the time 300,000 short rows took
    const about = 'a long description of the product as shops write them. '.repeat(8);
    const make = (mb: number) => {
      const size = Math.floor(mb * 1024 * 1024);
      const row = (i: number) =>
        `${i},product number ${i} with a longer name,${(i % 1000) / 10},${about}${i}\n`;
      const parts = [line];
      let n = line.length;
      for (let i = 1; n < size; i++) {
        const r = row(i);
        parts.push(r);
        n += r.length;
      }
      return Buffer.from(parts.join('')).subarray(0, size);
    };
    const big = await upload(sb.url, 'feedId=42', make(20.1), 'big.csv');
    expect(big.status).toBe(413);
    expect((await big.json()) as any).toEqual({
      success: false,
      message: expect.stringMatching(
        /^feed file must not be larger than 20 MB \(20,971,520 bytes\), and this one is larger \(the request's body, the file with the form around it, is 20\.1 MB: [\d,]+ bytes\): gzip it \(e\.g\. gzip -k products\.csv, then send products\.csv\.gz; a gzipped feed is read as such/,
      ),
    });
    // a few bytes over: the size is given as precisely as it takes to read as over the limit
    const over = await upload(sb.url, 'feedId=42', Buffer.alloc(20 * 1024 * 1024 + 100, 'a'));
    expect(over.status).toBe(413);
    const size =
      /the request's body, the file with the form around it, is ([\d.]+) MB: ([\d,]+) bytes\)/.exec(
        ((await over.json()) as any).message,
      );
    const bytes = Number(size![2]!.replace(/,/g, ''));
    // the body's size, told as the body's: the file with the form's framing around it
    expect(bytes).toBeGreaterThan(20 * 1024 * 1024 + 100);
    // a few hundred bytes over 20 MiB: 20.000 would read as the limit itself
    expect(bytes - 20 * 1024 * 1024).toBeLessThan(1000);
    expect(size![1]).toBe((bytes / 1024 / 1024).toFixed(4));
    expect(Number(size![1])).toBeGreaterThan(20);
    const ok = await upload(sb.url, 'feedId=42', make(19.9), 'ok.csv');
    expect(ok.status).toBe(200);
    expect((await ok.json()) as any).toEqual({ success: true });
    const done = await runToEnd(sb, 42);
    expect(done.state, JSON.stringify(done.lastRun)).toBe('done');
    expect(done.products).toBeGreaterThan(40_000);
    // the last row was cut by the size: reported, not fatal
    expect(done.lastRun?.rowErrorCount).toBeLessThanOrEqual(1);
  }, 60_000);

  it('keeps an uploaded file name as the client wrote it in UTF-8 (fetch and a raw multipart body)', async () => {
    const name = 'prodüits «été».csv';
    expect((await upload(sb.url, 'feedId=42', fixture('products.csv'), name)).status).toBe(200);
    const detail = () =>
      sb.core.indexing.feed('demo42', 42)!.history.findLast((h) => h.kind === 'request')!.detail;
    expect(detail()).toContain(`upload ${name} (`);
    await runToEnd(sb, 42);
    await advance(sb.url, 'PT2H');
    const raw = Buffer.concat([
      Buffer.from(
        `--xyz\r\nContent-Disposition: form-data; name="feedFile"; filename="${name}"\r\n\r\n`,
      ),
      fixture('products.csv'),
      Buffer.from('\r\n--xyz--\r\n'),
    ]);
    const res = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: raw,
    });
    expect(res.status).toBe(200);
    expect(detail()).toContain(`upload ${name} (`);
  }, 30_000);

  it('says in the history that a file sent with PUT was not read (PUT indexes the last upload: POST a file)', async () => {
    expect(
      (await upload(sb.url, 'feedId=42', fixture('products.csv'), 'products.csv')).status,
    ).toBe(200);
    const first = await runToEnd(sb, 42);
    expect(first.state).toBe('done');
    await advance(sb.url, 'PT2H');
    const form = new FormData();
    form.append('feedFile', new Blob(['id,name\n900,Other\n']), 'other.csv');
    const res = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'PUT',
      headers: { authorization: AUTH },
      body: form,
    });
    // the answer is the real service's: a PUT is accepted and re-indexes the last upload
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const request = sb.core.indexing
      .feed('demo42', 42)!
      .history.findLast((h) => h.kind === 'request')!;
    expect(request.detail).toMatch(
      /^PUT accepted: indexing the last upload\. The body sent with this PUT \(multipart\/form-data, \d+ bytes\) was not read: PUT indexes the last upload; to index a file, POST it as multipart form field "feedFile"$/,
    );
    const again = await runToEnd(sb, 42);
    expect(again.state).toBe('done');
    expect(again.lastRun?.products).toBe(first.lastRun?.products);
    // a PUT without a body says nothing of one
    await advance(sb.url, 'PT2H');
    expect((await put(sb.url, 'feedId=42')).status).toBe(200);
    const plain = sb.core.indexing
      .feed('demo42', 42)!
      .history.findLast((h) => h.kind === 'request')!;
    expect(plain.detail).toBe('PUT accepted: indexing the last upload');
  }, 30_000);

  it('answers a client still sending its upload (fetch) when it refuses it: the 413 of a 30 MB feed, the 401 of a wrong key, never a broken pipe', async () => {
    // answered with `Connection: close`, the socket was closed under a client still sending: fetch
    // rejected with EPIPE every time (10 of 10 of each here) and never saw what was wrong
    const feed = Buffer.alloc(30 * 1024 * 1024, 'a');
    for (let i = 0; i < 3; i++) {
      const big = await upload(sb.url, 'feedId=42', feed, 'catalog.csv');
      expect(big.status).toBe(413);
      expect(((await big.json()) as any).message).toMatch(/must not be larger than 20 MB/);
      const wrongKey = await upload(sb.url, 'feedId=42', feed.subarray(0, 5_000_000), 'a.csv', {
        auth: `Basic ${Buffer.from('demo42:not-the-key').toString('base64')}`,
      });
      expect(wrongKey.status).toBe(401);
      expect(wrongKey.headers.get('connection')).not.toBe('close');
    }
    expect((await status(sb.url)).status).toBe(200);
  }, 60_000);
});

describe('uploads of the sample feeds', () => {
  it.each([
    ['products.csv', 'csv', 'raw'],
    ['products.tsv', 'tsv', 'raw'],
    ['products.csv.gz', 'csv', 'gzip'],
    ['products.zip', 'csv', 'zip (entry products.csv)'],
    ['products.ndjson', 'ndjson', 'raw'],
    ['products.xml', 'xml', 'raw'],
  ])('indexes %s: done with 24 products and its catalog', async (name, format, encoding) => {
    const res = await upload(sb.url, 'feedId=42', fixture(name), name);
    expect(res.status).toBe(200);
    const done = await runToEnd(sb, 42);
    expect(done).toMatchObject({
      state: 'done',
      products: 24,
      lastRun: { format, encoding, products: 24, idField: 'id', rowErrorCount: 0, error: null },
    });
    const catalog = await admin(sb.url, 'GET', '/feeds/demo42/42/catalog?limit=2');
    expect(catalog.body).toMatchObject({
      total: 24,
      products: [
        { uid: '1000', sku: 'P100-RED', parentId: 'P100', name: 'Trail Runner, Red', price: 89.99 },
        { uid: '1001' },
      ],
    });
  });

  it('indexes a feed with bad rows: done, the good rows counted, each error with its line', async () => {
    await upload(
      sb.url,
      'feedId=42&requestedBy=dev%40shop.example',
      fixture('broken-rows.csv'),
      'broken-rows.csv',
    );
    const done = await runToEnd(sb, 42);
    expect(done).toMatchObject({ state: 'done', products: 6, lastRun: { rowErrorCount: 3 } });
    expect(done.lastRun!.rowErrors.map((e) => e.line)).toEqual([4, 6, 8]);
  });

  it.each([
    ['all-rows-broken.ndjson', /^all 3 rows are broken; first: line 1/],
    [
      'not-a-feed.png',
      /^the feed file is a PNG image, not a feed: a feed is CSV, TSV, ndJSON or XML text/,
    ],
    ['products-array.json', /JSON array/],
    ['two-entries.zip', /zip file holds 2 files/],
    ['gzip-bomb.csv.gz', /decodes to 110 MB, more than the 100 MB/],
    ['xml-entity-bomb.xml', /entity expansion is off/],
  ])('ends %s in error with the reason, keeping the previous catalog', async (name, reason) => {
    const before = sb.core.indexing.feed('demo42', 42)!;
    const res = await upload(sb.url, 'feedId=42', fixture(name), name);
    expect(res.status).toBe(200); // success means queued: the file is judged while indexing
    const ended = await runToEnd(sb, 42);
    expect(ended.state).toBe('error');
    expect(ended.lastRun?.error).toMatch(reason);
    expect(ended.lastIndexed).toBe(before.lastIndexed);
    expect(ended.history.at(-1)).toMatchObject({
      kind: 'transition',
      to: 'error',
      detail: expect.stringMatching(reason),
    });
  });
});

describe("row errors in the sandbox's words", () => {
  it('counts one field, one product and one row in the singular', async () => {
    expect((await upload(sb.url, 'feedId=42', 'id,name\n1,Mug\n2\n', 'p.csv')).status).toBe(200);
    const done = await runToEnd(sb, 42);
    expect(done.lastRun?.rowErrors).toEqual([
      {
        line: 3,
        message: '1 field, but the header has 2: check for unquoted delimiters or missing values',
      },
    ]);
    expect(done.history.at(-1)?.detail).toBe('indexed 1 product, 1 row with errors');
  });

  it('names the line a quote opened on and never closed, and the fix', async () => {
    const csv = 'id,name\n1,Mug\n2,"Cup\n3,Bowl\n';
    expect((await upload(sb.url, 'feedId=42', csv, 'p.csv')).status).toBe(200);
    const done = await runToEnd(sb, 42);
    expect(done.lastRun?.rowErrors).toEqual([
      {
        line: 3,
        message:
          'a quote opened on line 3 is never closed, so the rest of the file was read as part of that field: close the quote, or quote the whole field and double every quote inside it ("")',
      },
    ]);
  });

  it('says where a stray quote is in the header', async () => {
    expect((await upload(sb.url, 'feedId=42', 'id,na"me\n1,a\n', 'p.csv')).status).toBe(200);
    const ended = await runToEnd(sb, 42);
    expect(ended.lastRun?.error).toBe(
      'the header (line 1) is not valid CSV: a quote in the middle of field 2 (na"me), which is not quoted: a field that holds a quote must be quoted whole, with each quote inside it doubled; write the field as "na""me"',
    );
  });

  it('costs one row for a stray quote in a quoted field, and indexes every row after it', async () => {
    const csv = [
      'id,name,price',
      '1,"12" Tent" Deluxe,5',
      '2,Good Two,6',
      '3,Good Three,7',
      '4,"Quoted, Four",8',
      '5,Good Five,9',
      '6,Good Six,10',
      '',
    ].join('\n');
    expect((await upload(sb.url, 'feedId=42', csv, 'q5.csv')).status).toBe(200);
    const done = await runToEnd(sb, 42);
    expect(done.state).toBe('done');
    expect(done.lastRun).toMatchObject({ indexed: 5, rowErrorCount: 1, error: null });
    expect(done.lastRun?.rowErrors).toEqual([
      {
        line: 2,
        message:
          'field 2 ("12" Tent" Deluxe) holds a quote that is not doubled, after "12: a quote inside a quoted field must be doubled; write the field as "12"" Tent"" Deluxe"',
      },
    ]);
    const catalog = await admin(sb.url, 'GET', '/feeds/demo42/42/catalog?limit=10');
    expect(
      (catalog.body as { products: { uid: string }[] }).products.map((p) => p.uid).sort(),
    ).toEqual(['2', '3', '4', '5', '6']);
  });
});

describe('XML that is not well-formed', () => {
  const notWellFormed = 'the XML is not well-formed: ';
  const bareAmpersand =
    'an & that starts no entity (an entity is a name ended by ";", as in &amp;): write a plain & as &amp;';
  // each error is in the first product: the format sniffer, which reads the first 64 KB to find the
  // product element, must say what is wrong there instead of "no product element found"
  const feed = (first: string, more = '') => `<products>${first}${more}</products>`;
  const ampersand: [string, string, string] = [
    'an entity without its ;',
    '<product><id>X1</id><name>A &amp B</name></product>',
    `1:39: "&amp B</nam…" is ${bareAmpersand}`,
  ];
  const inAttribute: [string, string, string] = [
    'a bare & in an attribute',
    '\n<product id="X1" brand="R&D"><name>A</name></product>\n',
    `2:26: "&D"><name>A…" is ${bareAmpersand}`,
  ];
  it.each([
    ampersand,
    inAttribute,
    [
      'an element never closed',
      '<product><id>X1</id><name>unclosed',
      '1:55: unexpected close tag.',
    ],
  ])('ends a feed with %s in its first product in error saying where', async (_, first, error) => {
    expect((await upload(sb.url, 'feedId=42', feed(first), 'products.xml')).status).toBe(200);
    const ended = await runToEnd(sb, 42);
    expect(ended.state).toBe('error');
    expect(ended.lastRun?.error).toBe(notWellFormed + error);
  });

  it.each([
    ampersand,
    inAttribute,
    [
      'an element never closed',
      '<product><id>X1</id><name>unclosed</product>',
      '1:54: unexpected close tag.',
    ],
  ])(
    'says the same of %s in the first product of a feed longer than the 64 KB sniffed',
    async (_, first, error) => {
      // 2,000 good products after the broken one: the sniffer sees only the head of the file
      const good = Array.from(
        { length: 2000 },
        (__, i) => `<product><id>G${i}</id><name>Good product ${i}</name></product>`,
      ).join('');
      const big = feed(first, good);
      expect(big.length).toBeGreaterThan(64 * 1024);
      expect((await upload(sb.url, 'feedId=42', big, 'products.xml')).status).toBe(200);
      const ended = await runToEnd(sb, 42);
      expect(ended.lastRun?.error).toBe(notWellFormed + error);
    },
  );

  it('says the same of a bare & in the third product (found while parsing, after the sniff)', async () => {
    const products = ['A', 'B', 'C &amp D', 'E'].map(
      (name, i) => `  <product><id>X${i}</id><name>${name}</name></product>`,
    );
    const xml = `<products>\n${products.join('\n')}\n</products>\n`;
    expect((await upload(sb.url, 'feedId=42', xml, 'products.xml')).status).toBe(200);
    const ended = await runToEnd(sb, 42);
    expect(ended.lastRun?.error).toBe(`${notWellFormed}4:31: "&amp D</nam…" is ${bareAmpersand}`);
  });

  it('indexes a feed whose entities and multi-byte characters straddle the 64 KB the sniffer reads', async () => {
    const products = Array.from(
      { length: 1500 },
      (_, i) => `<product><id>${i}</id><name>Gr\u00fcn &amp; Bl\u00e4u ${i}</name></product>\n`,
    );
    const xml = `<products>\n${products.join('')}</products>\n`;
    expect((await upload(sb.url, 'feedId=42', xml, 'products.xml')).status).toBe(200);
    const done = await runToEnd(sb, 42);
    expect(done).toMatchObject({ state: 'done', products: 1500, lastRun: { error: null } });
  });
});

describe('files that are no feed', () => {
  const csv = 'id,name\n1,Shoe\n';
  const formats =
    'a feed is CSV, TSV, ndJSON or XML text, sent raw or as a gzip or a zip of one such file';
  it.each([
    [
      'an Excel workbook',
      'products.xlsx',
      zipOf([
        ['[Content_Types].xml', '<Types/>'],
        ['_rels/.rels', '<Relationships/>'],
        ['xl/workbook.xml', '<workbook/>'],
      ]),
      `the file is an Excel workbook (.xlsx: a zip holding [Content_Types].xml and xl/…), not a feed: ${formats}. In Excel, save the sheet as "CSV UTF-8" (File › Save As) and upload that`,
    ],
    [
      'a zip inside a gzip',
      'products.zip.gz',
      zlib.gzipSync(zipOf([['products.csv', csv]])),
      `the file inside the gzip is itself a zip file (a zip inside a gzip): the sandbox opens one level of compression; ${formats}. Unpack the inner zip and upload it, or compress the feed file once`,
    ],
    [
      'a gzip inside a zip',
      'products.zip',
      zipOf([['products.csv.gz', zlib.gzipSync(csv)]]),
      `the zip entry products.csv.gz is itself a gzip file (a gzip inside a zip): the sandbox opens one level of compression; ${formats}. Unpack the inner gzip and upload it, or compress the feed file once`,
    ],
    [
      'a PDF',
      'products.pdf',
      '%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n',
      `the feed file is a PDF document, not a feed: ${formats}; export the products as CSV (or TSV, ndJSON, XML) and upload that`,
    ],
    [
      'a YAML document',
      'products.yaml',
      '---\nproducts:\n  - id: 1\n',
      `the feed file is a YAML document (it starts with ---), not a feed: ${formats}; export the products as CSV (or TSV, ndJSON, XML) and upload that`,
    ],
    [
      'a YAML document without ---',
      'products.yml',
      'products:\n  - id: 1\n',
      `the file looks like YAML (its first line is "products:"), not a feed: ${formats}; export the products as CSV and upload that`,
    ],
    [
      'an HTML login page',
      'products.xml',
      '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<title>Sign in · Shop admin</title></head>\n<body><form><input name=user></form></body></html>\n',
      `the feed file is an HTML page titled "Sign in · Shop admin" (it starts with <!DOCTYPE html), not a feed: ${formats}; a login or error page saved in place of the feed? export the products as CSV (or TSV, ndJSON, XML) and upload that`,
    ],
    [
      'an HTML error page without a doctype',
      'feed.csv',
      '\r\n<html>\r\n<head><title>404 Not Found</title></head>\r\n<body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body>\r\n</html>\r\n',
      `the feed file is an HTML page titled "404 Not Found" (it starts with <html), not a feed: ${formats}; a login or error page saved in place of the feed? export the products as CSV (or TSV, ndJSON, XML) and upload that`,
    ],
    [
      'an XHTML page after an XML declaration and a comment',
      'products.xml',
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- served by shop -->\n<!doctype HTML PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
      `the feed file is an HTML page (it starts with <!doctype HTML), not a feed: ${formats}; a login or error page saved in place of the feed? export the products as CSV (or TSV, ndJSON, XML) and upload that`,
    ],
    [
      'a gzipped HTML page',
      'products.xml.gz',
      zlib.gzipSync('<html><body>Please log in</body></html>'),
      `the file inside the gzip is an HTML page (it starts with <html), not a feed: ${formats}; a login or error page saved in place of the feed? export the products as CSV (or TSV, ndJSON, XML) and upload that`,
    ],
  ])('ends %s in error saying what it is and what a feed may be', async (_, name, data, reason) => {
    const res = await upload(sb.url, 'feedId=42', data, name);
    expect(res.status).toBe(200);
    const ended = await runToEnd(sb, 42);
    expect(ended.state).toBe('error');
    expect(ended.lastRun?.error).toBe(reason);
    expect(ended.lastRun?.fileRead).toBe(true);
    // a page is looked at whole (up to 64 KB) to tell it is one: all its bytes were read
    if (reason.includes('an HTML page') && !name.endsWith('.gz'))
      expect(ended.lastRun?.bytes, name).toBe(Buffer.from(data).length);
  });

  it('still reads an XML feed whose root element only starts like html', async () => {
    const xml =
      '<!-- export -->\n<htmlfeed><product><id>1</id><name>Shoe</name></product></htmlfeed>\n';
    expect((await upload(sb.url, 'feedId=42', xml, 'products.xml')).status).toBe(200);
    const ended = await runToEnd(sb, 42);
    expect(ended).toMatchObject({ state: 'done', lastRun: { format: 'xml', products: 1 } });
  });

  it('names the cart source whose URL answers with an HTML page, and the fix', async () => {
    // a shop's feed URL behind a login: it answers 200 with the login page, as text/html
    const shop = http.createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><head><title>Log in</title></head><body></body></html>'),
    );
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/feeds/products.csv`;
    const demo = testConfig().accounts[0]!;
    const feed = {
      ...demo.feeds[1]!,
      id: 45,
      regeneration: false,
      source: { kind: 'cart' as const, url },
    };
    const s = await startFrozen({ accounts: [{ ...demo, feeds: [...demo.feeds, feed] }] });
    try {
      expect((await put(s.url, 'feedId=45')).status).toBe(200);
      const ended = await runToEnd(s, 45);
      expect(ended.state).toBe('error');
      expect(ended.lastRun?.error).toBe(
        `the answer of the cart source ${url} is an HTML page titled "Log in" (it starts with <!doctype html), not a feed: ${formats}; the URL answered with a web page (a login or error page?) instead of the feed: make ${url} serve the feed file itself`,
      );
    } finally {
      await s.close();
      await new Promise((resolve) => shop.close(resolve));
    }
  });
});

describe('HTTPS (--https-port)', () => {
  function call(method: string, url: string, ca: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      https
        .request(url, { method, ca, headers: { authorization: AUTH } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        })
        .on('error', reject)
        .end();
    });
  }
  const lastFlags = (s: Sandbox, feedId: number) => {
    const last = s.core.indexing
      .feed('demo42', feedId)!
      .history.findLast((h) => h.kind === 'request');
    return last?.kind === 'request' ? last.scorecard.findings.map((f) => f.flag) : null;
  };

  it('serves the same app over HTTPS with a certificate for localhost; only plain HTTP is flagged', async () => {
    const secure = await startFrozen({ httpsPort: 0 });
    try {
      expect(secure.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const { cert } = await ensureCertificate(null);
      expect(await call('GET', `${secure.httpsUrl}/api/index/status`, cert)).toMatchObject({
        status: 200,
        body: { status: 'success' },
      });
      expect(await call('PUT', `${secure.httpsUrl}/api/index/feed?feedId=43`, cert)).toEqual({
        status: 200,
        body: { success: true },
      });
      expect(lastFlags(secure, 43)).toEqual([]);
      await put(secure.url, 'feedId=44');
      expect(lastFlags(secure, 44)).toEqual(['plain-http']);
      expect((await call('GET', `${secure.httpsUrl}/_sandbox/health`, cert)).status).toBe(200);
    } finally {
      await secure.close();
    }
  });

  it('generates the certificate into the data directory once and reuses it', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const first = await ensureCertificate(dir);
      expect(first.certPath).toBe(`${dir}/tls/cert.pem`);
      const again = await ensureCertificate(dir);
      expect(again.cert).toBe(first.cert);
      expect(first.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
      // the key is the owner's alone, and no temp file is left beside the pair
      expect(statSync(`${dir}/tls/key.pem`).mode & 0o777).toBe(0o600);
      expect(readdirSync(`${dir}/tls`).sort()).toEqual(['cert.pem', 'key.pem']);
    } finally {
      cleanup();
    }
  });
});

describe('clock-driven statuses over HTTP', () => {
  it('reports running while the index runs and the new lastIndexed afterwards', async () => {
    await upload(sb.url, 'feedId=42', fixture('products.csv'), 'products.csv');
    await advance(sb.url, 'PT30S');
    const running = (await (await status(sb.url)).json()) as any;
    expect(running.feeds[0]).toMatchObject({ id: 42, indexStatus: 'running' });
    const done = await runToEnd(sb, 42);
    const after = (await (await status(sb.url)).json()) as any;
    const stamp = (iso: string | null) => iso!.replace(/\.\d{3}Z$/, '+0000');
    expect(after.feeds[0]).toEqual({
      id: 42,
      lastIndexed: stamp(done.lastIndexed),
      nextIndexTime: stamp(done.nextIndexTime),
      indexStatus: 'done',
    });
  });
});
