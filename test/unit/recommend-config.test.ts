// `accounts[].search.recommendations`: the widget profiles the companion recommend API serves, with their
// defaults, and errors that name the key, the value, the rule and the fix.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, DEMO_CONFIG_PATH } from '../../src/main/config';
import { parseSearchConfig } from '../../src/main/search/config';
import { tempDir } from '../helpers/sandbox';

const parse = (recommendations: unknown) =>
  parseSearchConfig({ recommendations }, 'accounts[0].search', 'cfg.json').recommendations;

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe('search.recommendations', () => {
  it('defaults: none; a profile is a default widget of 8 products unless it says otherwise', () => {
    expect(parse(undefined)).toEqual([]);
    expect(
      parse([
        { tag: 'similar', strategy: 'similar' },
        { tag: 'bundle-pdp', type: 'bundle', strategy: 'also-bought', limit: 3 },
      ]),
    ).toEqual([
      { tag: 'similar', type: 'default', strategy: 'similar', limit: 8 },
      { tag: 'bundle-pdp', type: 'bundle', strategy: 'also-bought', limit: 3 },
    ]);
  });

  it('the demo config declares similar and trending for demo42', () => {
    const config = loadConfig(
      { ephemeral: true, port: 0, host: '127.0.0.1', config: DEMO_CONFIG_PATH },
      {},
    );
    const demo = config.accounts.find((a) => a.siteId === 'demo42')!;
    expect(demo.search!.recommendations.map((p) => [p.tag, p.strategy])).toEqual([
      ['similar', 'similar'],
      ['trending', 'trending'],
    ]);
  });

  it.each([
    [{ tag: 'x' }, 'accounts[0].search.recommendations', 'must be an array of profiles'],
    [
      [{ strategy: 'similar' }],
      'recommendations[0].tag: undefined is not a profile tag',
      'e.g. "similar"',
    ],
    [
      [{ tag: ' similar', strategy: 'similar' }],
      'recommendations[0].tag',
      'without surrounding spaces',
    ],
    [
      [{ tag: 's', strategy: 'popular' }],
      'recommendations[0].strategy: "popular" is not a strategy',
      '"similar", "also-bought", "trending", "recently-viewed"',
    ],
    [
      [{ tag: 's', strategy: 'similar', type: 'carousel' }],
      'recommendations[0].type: "carousel" is not a profile type',
      'bundle',
    ],
    [
      [{ tag: 's', strategy: 'similar', limit: 0 }],
      'recommendations[0].limit: 0 must be a whole number of products from 1 to 100',
      'default 8',
    ],
    [[{ tag: 's', strategy: 'similar', limit: 2.5 }], 'recommendations[0].limit', 'whole number'],
    [
      [{ tag: 's', strategy: 'similar', tags: ['a'] }],
      'recommendations[0].tags: unknown key',
      'allowed: tag, type, strategy, limit',
    ],
    [
      [
        { tag: 's', strategy: 'similar' },
        { tag: 's', strategy: 'trending' },
      ],
      'recommendations[1].tag',
      'declared twice',
    ],
  ])('refuses %j naming the key and the fix', (raw, where, fix) => {
    expect(() => parse(raw)).toThrow(where);
    expect(() => parse(raw)).toThrow(fix);
  });

  it('a config file with a bad profile fails to load with the file, the key and the fix', () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const file = path.join(dir.dir, 'bad.config.json');
    writeFileSync(
      file,
      JSON.stringify({
        accounts: [
          {
            siteId: 'abc123',
            secretKey: 'k',
            search: { recommendations: [{ tag: 'similar', strategy: 'nearby' }] },
          },
        ],
      }),
    );
    expect(() =>
      loadConfig({ ephemeral: true, port: 0, host: '127.0.0.1', config: file }, {}),
    ).toThrow(
      /bad\.config\.json: accounts\[0\]\.search\.recommendations\[0\]\.strategy: "nearby" is not a strategy/,
    );
  });
});
