import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError, DEFAULT_PORT, FLAG_NAMES } from '../../src/main/config';
import { tempDir } from '../helpers/sandbox';

// every directory a test made goes (a test may make several: one variable kept only the last)
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function dirWithConfig(config: unknown): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  writeFileSync(
    path.join(t.dir, 'search-sandbox.config.json'),
    typeof config === 'string' ? config : JSON.stringify(config),
  );
  return t.dir;
}

describe('loadConfig', () => {
  it('uses the demo fixtures and defaults when there is no config file', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = loadConfig({}, {}, t.dir);
    expect(config.port).toBe(DEFAULT_PORT);
    expect(config.host).toBe('127.0.0.1');
    expect(config.configSource).toBe('demo fixtures');
    expect(config.dataDir).toBe(path.join(t.dir, '.search-sandbox'));
    expect(config.accounts.map((a) => a.siteId)).toEqual(['demo42']);
    expect(config.accounts[0]!.feeds.map((f) => [f.id, f.interval])).toEqual([
      [42, 86_400_000],
      [43, 86_400_000],
      [44, 'Never'],
    ]);
  });

  it('applies defaults < config file < environment < flags', () => {
    const dir = dirWithConfig({ port: 5000, host: '127.0.0.1' });
    expect(loadConfig({}, {}, dir).port).toBe(5000);
    expect(loadConfig({}, { SEARCH_SANDBOX_PORT: '5001' }, dir).port).toBe(5001);
    expect(loadConfig({ port: '5002' }, { SEARCH_SANDBOX_PORT: '5001' }, dir).port).toBe(5002);
  });

  it('--ephemeral keeps data in memory; --data resolves against the working directory', () => {
    const dir = dirWithConfig({});
    expect(loadConfig({ ephemeral: true }, {}, dir).dataDir).toBeNull();
    expect(loadConfig({ data: 'here' }, {}, dir).dataDir).toBe(path.join(dir, 'here'));
    expect(() => loadConfig({ ephemeral: true, data: 'x' }, {}, dir)).toThrow(/exclude each other/);
    // a flag wins over the environment, whichever of the two each says
    const ephemeralEnv = { SEARCH_SANDBOX_EPHEMERAL: 'true' };
    expect(loadConfig({ data: 'here' }, ephemeralEnv, dir).dataDir).toBe(path.join(dir, 'here'));
    expect(loadConfig({ ephemeral: true }, { SEARCH_SANDBOX_DATA: 'x' }, dir).dataDir).toBeNull();
    expect(loadConfig({}, ephemeralEnv, dir).dataDir).toBeNull();
  });

  it('names the key, the value and the fix for a bad value', () => {
    const dir = dirWithConfig({ port: 'eighty' });
    expect(() => loadConfig({}, {}, dir)).toThrow(ConfigError);
    expect(() => loadConfig({}, {}, dir)).toThrow(
      /search-sandbox\.config\.json: port: "eighty" is not a port: use a whole number from 0 to 65535/,
    );
    expect(() => loadConfig({ port: '70000' }, {}, dirWithConfig({}))).toThrow(
      /^--port: "70000" is not a port/,
    );
  });

  it('names an override as whoever gave it writes it: a flag by default, else the names given', () => {
    const names = { ...FLAG_NAMES, port: 'startSandbox({ port })', host: 'startSandbox({ host })' };
    expect(() => loadConfig({ port: 70000, names }, {}, dirWithConfig({}))).toThrow(
      /^startSandbox\(\{ port \}\): 70000 is not a port/,
    );
    expect(() => loadConfig({ host: '', names }, {}, dirWithConfig({}))).toThrow(
      /^startSandbox\(\{ host \}\): is empty/,
    );
    expect(() => loadConfig({ host: '' }, {}, dirWithConfig({}))).toThrow(/^--host: is empty/);
    // a value from the file or the environment is named where it came from, whoever started the sandbox
    expect(() => loadConfig({ names }, { SEARCH_SANDBOX_PORT: 'x' }, dirWithConfig({}))).toThrow(
      /^environment: SEARCH_SANDBOX_PORT: "x" is not a port/,
    );
  });

  it('rejects unknown keys, broken JSON and unreadable files with the file name', () => {
    expect(() => loadConfig({}, {}, dirWithConfig({ prot: 1 }))).toThrow(
      /prot: unknown key; did you mean port\? allowed keys are port/,
    );
    expect(() => loadConfig({}, {}, dirWithConfig('{"port": 1,'))).toThrow(
      /not valid JSON: it ends before its last \} \(cut off\?\)/,
    );
    // a comma after the last entry, before the file's last }: no cut-off, the comma named where it is
    expect(() =>
      loadConfig({}, {}, dirWithConfig('{\n  "port": 4545,\n  "host": "127.0.0.1",\n}\n')),
    ).toThrow(
      /not valid JSON at line 3, column 22: a comma after the last entry \(JSON allows none before a \} or \]\); delete it$/,
    );
    const inside =
      '{\n  "accounts": [\n    { "siteId": "abc123", "feeds": [] },\n  ],\n  "port": 1\n}';
    expect(() => loadConfig({}, {}, dirWithConfig(inside))).toThrow(
      /not valid JSON at line 3, column 40: a comma after the last entry/,
    );
    // a comma missing at the end of line 3: the error points at where the next key starts
    const text = '{\n  "port": 4545,\n  "host": "127.0.0.1"\n  "accounts": []\n}';
    expect(() => loadConfig({}, {}, dirWithConfig(text))).toThrow(
      /not valid JSON at line 4, column 3 \(.+\): a missing comma or quote/,
    );
    expect(() => loadConfig({ config: '/nonexistent/x.json' }, {}, '/')).toThrow(
      /\/nonexistent\/x\.json: cannot read config file \(ENOENT\)/,
    );
    expect(() => loadConfig({}, {}, dirWithConfig('[1]'))).toThrow(/must hold a JSON object/);
  });

  it('validates accounts and feeds, naming the nested key', () => {
    const bad = (accounts: unknown) => () => loadConfig({}, {}, dirWithConfig({ accounts }));
    expect(bad([{ siteId: 'ABC', secretKey: 'k' }])).toThrow(
      /accounts\[0\]\.siteId: "ABC" is not a siteId/,
    );
    expect(
      bad([{ siteId: 'abc123', secretKey: 'k', feeds: [{ id: 1, interval: 'weekly' }] }]),
    ).toThrow(
      /accounts\[0\]\.feeds\[0\]\.interval: "weekly" is not an interval: use "Never" or a duration like "24h"/,
    );
    expect(
      bad([
        {
          siteId: 'abc123',
          secretKey: 'k',
          feeds: [{ id: 1, source: { kind: 'cart', url: 'http://example.com/x.csv' } }],
        },
      ]),
    ).toThrow(/not on loopback/);
  });

  it('says every problem of a file at once: unknown keys, each account, each feed, each area and entry', () => {
    const dir = dirWithConfig({
      prot: 4545,
      retention: { events: 0 },
      accounts: [
        {
          siteId: 'shop01',
          secretKey: 'k',
          feeds: [{ id: 7, intervall: '24h' }, { id: 8 }, { id: 8 }],
          readiness: { expect: ['serch', 'cart.ledgr'] },
        },
        { siteId: 'SHOP02', secretKey: 'k' },
      ],
    });
    let thrown: unknown;
    try {
      loadConfig({ ephemeral: true }, {}, dir);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const lines = (thrown as Error).message.split('\n');
    expect(lines[0]).toBe('7 problems:');
    const file = path.join(dir, 'search-sandbox.config.json');
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^  ${file}: prot: unknown key; did you mean port\\?`)),
      `  ${file}: retention.events: 0 must be a whole number >= 1`,
      `  ${file}: accounts[0].feeds[0].intervall: unknown key; did you mean interval? allowed: id, name, interval, source, regeneration, autopilot, idField`,
      `  ${file}: accounts[0].feeds[2].id: feed id 8 appears twice in this account`,
      expect.stringMatching(
        /^ {2}.*accounts\[0\]\.readiness\.expect\[0\]: "serch" is neither .*did you mean search\?/,
      ),
      expect.stringMatching(
        /^ {2}.*accounts\[0\]\.readiness\.expect\[1\]: "cart\.ledgr" is neither .*did you mean cart\.ledger\?/,
      ),
      `  ${file}: accounts[1].siteId: "SHOP02" is not a siteId: use 6 lowercase letters or digits, e.g. "abc123"`,
    ]);
    // one problem reads as it always did
    expect(() => loadConfig({}, {}, dirWithConfig({ prot: 1 }))).toThrow(
      /search-sandbox\.config\.json: prot: unknown key/,
    );
  });

  it('refuses empty values of the file, the environment and the options instead of using a default', () => {
    expect(() => loadConfig({}, {}, dirWithConfig({ port: '' }))).toThrow(/port: "" is not a port/);
    expect(() => loadConfig({}, {}, dirWithConfig({ host: '' }))).toThrow(
      /host: "" is not a host name/,
    );
    expect(() => loadConfig({}, { SEARCH_SANDBOX_DATA: '' }, dirWithConfig({}))).toThrow(
      /^environment: SEARCH_SANDBOX_DATA: is set but empty: set it to a directory, or unset it/,
    );
    expect(() => loadConfig({ data: '' }, {}, dirWithConfig({}))).toThrow(/^--data: is empty/);
    expect(() => loadConfig({ config: '' }, {}, dirWithConfig({}))).toThrow(/^--config: is empty/);
  });

  it('rejects a bad boolean in the environment', () => {
    expect(() => loadConfig({}, { SEARCH_SANDBOX_EPHEMERAL: 'maybe' }, dirWithConfig({}))).toThrow(
      /SEARCH_SANDBOX_EPHEMERAL: "maybe" is not a boolean: use true or false \(1\/0, yes\/no and on\/off are read too\)/,
    );
  });
});

describe('accounts[].readiness', () => {
  const account = (readiness: unknown) =>
    dirWithConfig({ accounts: [{ siteId: 'abc123', secretKey: 'k', readiness }] });

  it('takes behaviour ids and areas of the client model', () => {
    const config = loadConfig(
      { ephemeral: true },
      {},
      account({ expect: ['search', 'cart.ledger'] }),
    );
    expect(config.accounts[0]!.readiness.expect).toEqual(['search', 'cart.ledger']);
    expect(loadConfig({ ephemeral: true }, {}, account(undefined)).accounts[0]!.readiness).toEqual({
      expect: [],
    });
  });

  it('names the key, the value, the rule and the fix of a bad entry', () => {
    expect(() => loadConfig({ ephemeral: true }, {}, account({ expect: ['cart.ledgr'] }))).toThrow(
      /accounts\[0\]\.readiness\.expect\[0\]: "cart\.ledgr" is neither a behaviour id nor an area .*did you mean cart\.ledger\? areas: search, category.*ids of that area: cart\.ledger, cart\.quick-add-then-cart-add, cart\.items/,
    );
    expect(() => loadConfig({ ephemeral: true }, {}, account({ expect: 'cart' }))).toThrow(
      /accounts\[0\]\.readiness\.expect: "cart" must be a list of behaviour ids or areas/,
    );
    expect(() => loadConfig({ ephemeral: true }, {}, account({ expects: ['cart'] }))).toThrow(
      /accounts\[0\]\.readiness\.expects: unknown key; did you mean expect\? allowed: expect/,
    );
  });
});
