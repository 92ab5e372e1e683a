// Validation of beacon bodies: each kind of violation gives the real service's message with its path,
// every problem is reported at once, and ajv's branch noise never doubles a message.
import { describe, expect, it } from 'vitest';
import { validateBeaconBody } from '../../src/main/tracking/schemas';
import { pointerToPath } from '../../src/main/tracking/validation-messages';

const context = () => ({
  timestamp: '2026-11-21T04:00:00.123Z',
  pageUrl: 'http://localhost:3000/search?q=shirt',
  userId: 'u-1',
  sessionId: 's-1',
  pageLoadId: 'p-1',
  initiator: 'athos/beaconjs/1.3.0',
});
const product = (uid = '8128') => ({
  type: 'product',
  parentId: `${uid}-parent`,
  uid,
  sku: `sku-${uid}`,
});

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function messages(endpoint: string, body: unknown): string[] {
  return validateBeaconBody(endpoint, body).map((i) => i.message);
}

describe('valid bodies', () => {
  it('accepts every search event with just the required fields', () => {
    expect(
      validateBeaconBody('search/render', { context: context(), data: { responseId: 'r1' } }),
    ).toEqual([]);
    expect(
      validateBeaconBody('search/redirect', {
        context: context(),
        data: { responseId: 'r1', redirect: 'https://x.test/sale' },
      }),
    ).toEqual([]);
    expect(
      validateBeaconBody('search/impression', {
        context: context(),
        data: { responseId: 'r1', results: [product()], banners: [] },
      }),
    ).toEqual([]);
    expect(
      validateBeaconBody('search/clickthrough', {
        context: context(),
        data: { responseId: 'r1', results: [product()] },
      }),
    ).toEqual([]);
    expect(
      validateBeaconBody('search/clickthrough', {
        context: context(),
        data: { responseId: 'r1', banners: [{ uid: 'b1' }] },
      }),
    ).toEqual([]);
    expect(
      validateBeaconBody('search/addtocart', {
        context: context(),
        data: { responseId: 'r1', results: [{ parentId: 'p', uid: 'u', qty: 2, price: 9.5 }] },
      }),
    ).toEqual([]);
  });

  it('accepts every optional context field, inline banners among results and an empty shopperId (the client sends one)', () => {
    const body = {
      context: {
        ...context(),
        IP: '::1',
        userAgent: 'UA',
        shopperId: '',
        attribution: [{ type: 'email', id: 'c1' }],
        currency: { code: 'EUR' },
        dev: true,
      },
      data: {
        responseId: 'r1',
        results: [product(), { type: 'banner', uid: 'inline-1' }],
        banners: [{ uid: 'b1' }],
        quickView: false,
      },
    };
    expect(validateBeaconBody('search/impression', body)).toEqual([]);
  });

  it('accepts RFC 3339 timestamps with offsets and any fraction', () => {
    for (const timestamp of [
      '2026-11-21T04:00:00Z',
      '2026-11-21T05:00:00+01:00',
      '2024-06-11T17:47:04.075876Z',
    ]) {
      expect(
        messages('search/render', {
          context: { ...context(), timestamp },
          data: { responseId: 'r' },
        }),
      ).toEqual([]);
    }
  });
});

describe('each violation kind', () => {
  it('missing required key → missing required key-value', () => {
    const body: Body = { context: context(), data: { responseId: 'r' } };
    delete body.context.timestamp;
    expect(validateBeaconBody('search/render', body)).toEqual([
      { message: 'missing required key-value: context.timestamp', path: 'context.timestamp' },
    ]);
    for (const key of ['pageUrl', 'userId', 'sessionId', 'pageLoadId', 'initiator']) {
      const b: Body = { context: context(), data: { responseId: 'r' } };
      delete b.context[key];
      expect(messages('search/render', b)).toEqual([`missing required key-value: context.${key}`]);
    }
    expect(messages('search/render', { context: context() })).toEqual([
      'missing required key-value: data',
    ]);
    expect(messages('search/render', { context: context(), data: {} })).toEqual([
      'missing required key-value: data.responseId',
    ]);
  });

  it('wrong type → invalid data type passed for key', () => {
    expect(
      validateBeaconBody('search/render', {
        context: { ...context(), dev: 'true' },
        data: { responseId: 'r' },
      }),
    ).toEqual([{ message: 'invalid data type passed for key: context.dev', path: 'context.dev' }]);
    expect(messages('search/render', { context: context(), data: { responseId: 42 } })).toEqual([
      'invalid data type passed for key: data.responseId',
    ]);
    expect(messages('search/render', [])).toEqual([
      'invalid data type passed for key: request body',
    ]);
  });

  it('unknown field → request body contains unknown field, at any depth', () => {
    expect(
      validateBeaconBody('search/render', {
        context: context(),
        data: { responseId: 'r' },
        seed: 1,
      }),
    ).toEqual([{ message: 'request body contains unknown field: "seed"', path: 'seed' }]);
    expect(
      validateBeaconBody('search/render', {
        context: { ...context(), locale: 'en' },
        data: { responseId: 'r' },
      }),
    ).toEqual([
      { message: 'request body contains unknown field: "locale"', path: 'context.locale' },
    ]);
    const withExtra = {
      context: context(),
      data: { responseId: 'r', results: [{ ...product(), price: 3 }], banners: [] },
    };
    expect(validateBeaconBody('search/impression', withExtra)).toEqual([
      { message: 'request body contains unknown field: "price"', path: 'data.results[0].price' },
    ]);
  });

  it('timestamp not RFC 3339 → invalid format', () => {
    for (const timestamp of [
      '2026-11-21 04:00:00',
      '2026-11-21T04:00:00',
      'yesterday',
      '1763697600000',
    ]) {
      expect(
        messages('search/render', {
          context: { ...context(), timestamp },
          data: { responseId: 'r' },
        }),
      ).toEqual(['invalid context.timestamp format: expected RFC3339']);
    }
  });

  it('currency code not 3 letters → length or pattern message', () => {
    const withCode = (code: string) => ({
      context: { ...context(), currency: { code } },
      data: { responseId: 'r' },
    });
    expect(messages('search/render', withCode('US'))).toEqual([
      'invalid minimum value passed for key `context.currency.code` - expected length `3`',
    ]);
    expect(messages('search/render', withCode('USDX'))).toEqual([
      'invalid maximum value passed for key `context.currency.code` - expected length `3`',
    ]);
    expect(messages('search/render', withCode('U$D'))).toEqual([
      'invalid value received for key `context.currency.code` - expected pattern `^[A-Za-z]{3}$`',
    ]);
  });

  it('Product Result vs Banner Result is chosen by type', () => {
    const impression = (results: unknown[]) => ({
      context: context(),
      data: { responseId: 'r', results, banners: [] },
    });
    expect(
      validateBeaconBody('search/impression', impression([{ type: 'product', uid: 'u' }])),
    ).toEqual([
      {
        message: 'missing required key-value: data.results[0].parentId',
        path: 'data.results[0].parentId',
      },
    ]);
    expect(
      validateBeaconBody(
        'search/impression',
        impression([{ type: 'banner', uid: 'b', parentId: 'p' }]),
      ),
    ).toEqual([
      {
        message: 'request body contains unknown field: "parentId"',
        path: 'data.results[0].parentId',
      },
    ]);
    expect(
      messages('search/impression', impression([{ type: 'tile', uid: 'u', parentId: 'p' }])),
    ).toEqual([
      'invalid value received for required key `data.results[0].type` - accepts `product,banner`',
    ]);
    expect(messages('search/impression', impression([{ uid: 'u', parentId: 'p' }]))).toEqual([
      'missing required key-value: data.results[0].type',
    ]);
    expect(messages('search/impression', impression(['u1']))).toEqual([
      'invalid data type passed for key: data.results[0]',
    ]);
  });

  it('Merchandising Banner is {uid} only', () => {
    const impression = (banners: unknown[]) => ({
      context: context(),
      data: { responseId: 'r', results: [], banners },
    });
    expect(messages('search/impression', impression([{}]))).toEqual([
      'missing required key-value: data.banners[0].uid',
    ]);
    expect(messages('search/impression', impression([{ uid: 'b', type: 'banner' }]))).toEqual([
      'request body contains unknown field: "type"',
    ]);
    expect(messages('search/impression', impression([{ uid: 7 }]))).toEqual([
      'invalid data type passed for key: data.banners[0].uid',
    ]);
  });

  it('Added Product is {parentId, uid, sku?, qty, price} without type, qty an integer', () => {
    const add = (results: unknown[]) => ({
      context: context(),
      data: { responseId: 'r', results },
    });
    expect(
      messages(
        'search/addtocart',
        add([{ parentId: 'p', uid: 'u', qty: 1, price: 2, type: 'product' }]),
      ),
    ).toEqual(['request body contains unknown field: "type"']);
    expect(messages('search/addtocart', add([{ parentId: 'p', uid: 'u' }]))).toEqual([
      'missing required key-value: data.results[0].qty',
      'missing required key-value: data.results[0].price',
    ]);
    expect(
      messages('search/addtocart', add([{ parentId: 'p', uid: 'u', qty: 1.5, price: '2' }])),
    ).toEqual([
      'invalid data type passed for key: data.results[0].qty',
      'invalid data type passed for key: data.results[0].price',
    ]);
  });

  it('clickthrough carries exactly one item in results XOR banners', () => {
    const click = (data: Body) => ({ context: context(), data: { responseId: 'r', ...data } });
    expect(validateBeaconBody('search/clickthrough', click({}))).toEqual([
      {
        message:
          'missing required key-value: data.results or data.banners (a clickthrough carries exactly one item in one of them)',
        path: 'data',
      },
    ]);
    expect(
      messages('search/clickthrough', click({ results: [product()], banners: [{ uid: 'b' }] })),
    ).toEqual([
      'request body contains both data.results and data.banners: send exactly one item in data.results or in data.banners, not both',
    ]);
    expect(
      messages('search/clickthrough', click({ results: [product('1'), product('2')] })),
    ).toEqual(['invalid maximum value passed for key `data.results` - expected length `1`']);
    expect(messages('search/clickthrough', click({ banners: [] }))).toEqual([
      'invalid minimum value passed for key `data.banners` - expected length `1`',
    ]);
    expect(messages('search/clickthrough', { context: context(), data: 'r' })).toEqual([
      'invalid data type passed for key: data',
    ]);
  });
});

describe('every problem at once, one message each', () => {
  it('a body with five problems yields exactly five messages with their paths', () => {
    const body: Body = {
      context: { ...context(), dev: 'yes', currency: { code: 'US' } },
      data: { responseId: 'r', results: [{ type: 'product', parentId: 'p', uid: 5 }] },
      seed: 42,
    };
    delete body.context.timestamp;
    expect(validateBeaconBody('search/clickthrough', body)).toEqual(
      expect.arrayContaining([
        { message: 'request body contains unknown field: "seed"', path: 'seed' },
        { message: 'missing required key-value: context.timestamp', path: 'context.timestamp' },
        { message: 'invalid data type passed for key: context.dev', path: 'context.dev' },
        {
          message:
            'invalid minimum value passed for key `context.currency.code` - expected length `3`',
          path: 'context.currency.code',
        },
        {
          message: 'invalid data type passed for key: data.results[0].uid',
          path: 'data.results[0].uid',
        },
      ]),
    );
    expect(validateBeaconBody('search/clickthrough', body)).toHaveLength(5);
  });

  it('a bad banner inside results gives one message, not one per oneOf branch', () => {
    const body = {
      context: context(),
      data: { responseId: 'r', results: [{ type: 'banner' }], banners: [] },
    };
    expect(messages('search/impression', body)).toEqual([
      'missing required key-value: data.results[0].uid',
    ]);
  });
});

describe('pointerToPath', () => {
  it('turns JSON pointers into dotted paths with indexes', () => {
    expect(pointerToPath('')).toBe('');
    expect(pointerToPath('/context/dev')).toBe('context.dev');
    expect(pointerToPath('/data/results/0/uid')).toBe('data.results[0].uid');
    expect(pointerToPath('/a~1b/c~0d')).toBe('a/b.c~d');
  });
});
