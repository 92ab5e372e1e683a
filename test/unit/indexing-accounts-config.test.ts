// Accounts and feeds from the config: the demo fixtures, defaults, and errors that name the key and the fix.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSandboxAccounts } from '../../src/main/config';
import { loadConfig, DEMO_CONFIG_PATH } from '../../src/main/config';

const BASE = path.resolve(__dirname, '../../fixtures');
const parse = (raw: unknown) => parseSandboxAccounts(raw, BASE, 'test.json');
const account = (feeds: unknown[]) => [{ siteId: 'abc123', secretKey: 'secret', feeds }];

describe('accounts config', () => {
  it('reads the demo fixtures: demo42 with feeds 42 (upload, 24h), 43 (cart file, regeneration), 44 (Never)', () => {
    const [demo] = loadConfig({ config: DEMO_CONFIG_PATH }, {}).accounts;
    expect(demo).toMatchObject({ siteId: 'demo42', secretKey: 'demo-secret-key' });
    expect(demo!.feeds).toEqual([
      {
        id: 42,
        name: 'Custom CSV feed',
        interval: 86_400_000,
        source: { kind: 'upload' },
        regeneration: false,
        autopilot: true,
        idField: null,
      },
      {
        id: 43,
        name: 'Cart integration feed',
        interval: 86_400_000,
        source: { kind: 'cart', file: path.join(BASE, 'feeds/cart-products.csv') },
        regeneration: true,
        autopilot: true,
        idField: null,
      },
      {
        id: 44,
        name: 'Manual-only feed',
        interval: 'Never',
        source: { kind: 'upload' },
        regeneration: false,
        autopilot: true,
        idField: null,
      },
    ]);
  });

  it('fills defaults and accepts every interval notation', () => {
    const [a] = parse(
      account([
        { id: 1 },
        { id: 2, interval: '30m' },
        { id: 3, interval: 'PT6H' },
        { id: 4, interval: 'P1D' },
        { id: 5, interval: '90s', autopilot: false, idField: 'sku' },
      ]),
    );
    expect(a!.name).toBe('abc123');
    expect(a!.feeds.map((f) => f.interval)).toEqual([
      86_400_000, 1_800_000, 21_600_000, 86_400_000, 90_000,
    ]);
    expect(a!.feeds[0]).toMatchObject({
      name: 'Feed 1',
      source: { kind: 'upload' },
      regeneration: false,
      autopilot: true,
      idField: null,
    });
    expect(a!.feeds[4]).toMatchObject({ autopilot: false, idField: 'sku' });
    expect(
      parse(
        account([{ id: 7, source: { kind: 'cart', url: 'http://127.0.0.1:8080/feed.csv' } }]),
      )[0]!.feeds[0]!.source,
    ).toEqual({ kind: 'cart', url: 'http://127.0.0.1:8080/feed.csv' });
  });

  it.each([
    [{}, /^test\.json: accounts: must be an array/],
    [[{ siteId: 'abc123' }], /accounts\[0\]\.secretKey: is missing: give it a non-empty string/],
    [
      [{ siteId: 'abc123', secretKey: '' }],
      /accounts\[0\]\.secretKey: must be a non-empty string, got ""/,
    ],
    [[{ siteId: 'abc123', secretKey: 'k', colour: 'red' }], /accounts\[0\]\.colour: unknown key/],
    [
      [
        { siteId: 'abc123', secretKey: 'k' },
        { siteId: 'abc123', secretKey: 'j' },
      ],
      /accounts\[1\]\.siteId: abc123 appears twice/,
    ],
    [account('nope' as unknown as unknown[]), /accounts\[0\]\.feeds: must be an array/],
    [account([{ id: 0 }]), /accounts\[0\]\.feeds\[0\]\.id: 0 must be a whole number >= 1/],
    [
      account([{ id: '42' }]),
      /accounts\[0\]\.feeds\[0\]\.id: "42" is a string: write it as a JSON number, without quotes/,
    ],
    [account([{ id: 1 }, { id: 1 }]), /accounts\[0\]\.feeds\[1\]\.id: feed id 1 appears twice/],
    [
      account([{ id: 1, interval: 'daily' }]),
      /accounts\[0\]\.feeds\[0\]\.interval: "daily" is not an interval/,
    ],
    [account([{ id: 1, interval: '0h' }]), /feeds\[0\]\.interval: "0h" is shorter than a minute/],
    [account([{ id: 1, interval: 'PT0S' }]), /interval: "PT0S" is shorter than a minute/],
    [account([{ id: 1, interval: '59s' }]), /interval: "59s" is shorter than a minute/],
    [
      account([{ id: 1, source: 'ftp' }]),
      /feeds\[0\]\.source: "ftp" is not a source: use "upload" .* or \{"kind": "cart"/,
    ],
    [
      account([{ id: 1, source: 'uplaod' }]),
      /feeds\[0\]\.source: "uplaod" is not a source: did you mean upload\? use "upload"/,
    ],
    [account([{ id: 1, source: 7 }]), /feeds\[0\]\.source: must be an object, got 7/],
    [
      account([{ id: 1, source: { kind: 'sftp' } }]),
      /feeds\[0\]\.source\.kind: "sftp" is not a source kind: use "upload"/,
    ],
    [
      account([{ id: 1, source: { kind: 'crat', file: 'x' } }]),
      /source\.kind: "crat" is not a source kind: did you mean cart\? use/,
    ],
    [
      account([{ id: 1, source: { kind: 'upload', file: 'feed.csv' } }]),
      /feeds\[0\]\.source\.file: an "upload" source indexes the file POSTed to it and reads no file: remove it, or make the source \{"kind": "cart", …\}/,
    ],
    [
      account([{ id: 1, source: { kind: 'upload', url: 'http://127.0.0.1:9/c.csv' } }]),
      /feeds\[0\]\.source\.url: an "upload" source .* reads no url/,
    ],
    [
      account([
        { id: 1, source: { kind: 'cart', file: 'feed.csv', url: 'http://127.0.0.1:9/c.csv' } },
      ]),
      /feeds\[0\]\.source: a "cart" source reads "file" or "url", not both/,
    ],
    [
      account([{ id: 1, source: { kind: 'cart' } }]),
      /feeds\[0\]\.source: a "cart" source needs "file"/,
    ],
    [
      account([{ id: 1, source: { kind: 'cart', file: 'feeds/missing.csv' } }]),
      /feeds\[0\]\.source\.file: .*feeds\/missing\.csv is not a file: the path is relative to the config file's folder/,
    ],
    [
      account([{ id: 1, source: { kind: 'cart', url: 'https://shop.example/feed.csv' } }]),
      /feeds\[0\]\.source\.url: .* is not on loopback/,
    ],
    [
      account([{ id: 1, source: { kind: 'cart', url: 'not a url' } }]),
      /feeds\[0\]\.source\.url: "not a url" is not a URL/,
    ],
    [account([{ id: 1, regeneration: 'yes' }]), /feeds\[0\]\.regeneration: must be true or false/],
    [account([{ id: 1, idField: '' }]), /feeds\[0\]\.idField: must be a non-empty string/],
  ])('refuses %j naming the key', (raw, message) => {
    expect(() => parse(raw)).toThrow(message);
  });
});
