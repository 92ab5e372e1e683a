// The admin API's requests are judged by walking their declared schemas (src/shared/schema-fits.ts): a
// parameter by paramFits on both sides (the server's 400s and the package's option errors), a JSON body
// by the server before it loads a validator. The judge knows the few keywords the declaration uses; these
// tests walk every declared query and path parameter and every body, fail on a keyword it does not know,
// and judge a spread of values by it and by a JSON Schema validator (ajv), which must agree.
import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ADMIN_API } from '../../src/shared/admin-api';
import { decodeParam, paramFits } from '../../src/shared/admin-params';
import { isRuleIdSchema } from '../../src/shared/schema-base';
import { fits, KEYWORDS } from '../../src/shared/schema-fits';

/** every declared parameter: `endpoint query.name` or `endpoint path.name`, and its schema */
const PARAMS: Array<[string, TSchema]> = Object.entries(ADMIN_API).flatMap(([name, entry]) => {
  const { query = {}, params = {} } = entry as {
    query?: Record<string, TSchema>;
    params?: Record<string, TSchema>;
  };
  return [
    ...Object.entries(query).map(([key, s]): [string, TSchema] => [`${name} query.${key}`, s]),
    ...Object.entries(params).map(([key, s]): [string, TSchema] => [`${name} path.${key}`, s]),
  ];
});

/** every declared JSON body: `endpoint`, and its schema */
const BODIES: Array<[string, TSchema]> = Object.entries(ADMIN_API).flatMap(([name, entry]) => {
  const body = (entry as { body?: { media: string; schema?: TSchema } }).body;
  return body?.media === 'json' && body.schema ? [[name, body.schema] as [string, TSchema]] : [];
});

/** The keywords of a schema (of its anyOf members and properties too) that the judge does not know. */
function unknownKeywords(schema: TSchema): string[] {
  const own = Object.keys(schema).filter((k) => !KEYWORDS.has(k));
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as TSchema[]) : [];
  const properties = Object.values((schema.properties ?? {}) as Record<string, TSchema>);
  return [...own, ...[...members, ...properties].flatMap(unknownKeywords)];
}

/** Values a body's field may hold: each kind's edges, the field's own values, and objects of its fields. */
function fieldValues(schema: TSchema): unknown[] {
  const listed = Array.isArray(schema.anyOf)
    ? (schema.anyOf as Array<{ const: unknown }>).map((s) => s.const)
    : 'const' in schema
      ? [schema.const]
      : [];
  const inner = schema.type === 'object' ? bodiesFor(schema).slice(0, 40) : [];
  return [
    ...listed,
    ...inner,
    '',
    'a',
    '😀',
    'PT1M',
    '2026-11-22T04:00:00Z',
    0,
    1,
    1.5,
    -1,
    true,
    false,
    null,
    [],
    {},
    ['all'],
  ];
}

/** Bodies to judge: not objects, empty, each field alone with each value, two fields, unknown fields. */
function bodiesFor(schema: TSchema): unknown[] {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, TSchema>);
  const out: unknown[] = [null, [], 'all', 1, true, {}, { nope: 1 }, { __proto__: 1 }];
  for (const [key, field] of properties)
    for (const value of fieldValues(field)) {
      out.push({ [key]: value });
      out.push({ [key]: value, nope: true });
    }
  for (const [a, fa] of properties)
    for (const [b, fb] of properties)
      if (a < b) out.push({ [a]: fieldValues(fa)[0], [b]: fieldValues(fb)[0] });
  out.push(Object.fromEntries(properties.map(([key, field]) => [key, fieldValues(field)[0]])));
  return out;
}

/** Texts a query string may carry: each kind's edges, and each list's values. */
function textsFor(schema: TSchema): string[] {
  const values = Array.isArray(schema.anyOf)
    ? (schema.anyOf as Array<{ const: string }>).map((s) => s.const)
    : [];
  return [
    ...values,
    ...values.map((v) => v.toUpperCase()),
    '',
    ' ',
    'a',
    'demo42',
    'DEMO42',
    'demo4',
    'demo422',
    'démo42',
    '42',
    '0',
    '1',
    '-1',
    '1.5',
    '1e3',
    ' 1',
    '100000',
    '100001',
    '250000',
    '9007199254740991',
    '9007199254740992',
    '99999999999999999999',
    'true',
    'false',
    'yes',
    'ev_000000042',
    'ev_0000000000000042',
    '123456789012345',
    '1234567890123456',
    'missing-render',
    'null',
  ];
}

describe('the judge of an admin parameter', () => {
  it('finds parameters to judge: query and path, of every kind', () => {
    expect(PARAMS.length).toBeGreaterThan(50);
    expect(PARAMS.some(([at]) => at.includes(' path.'))).toBe(true);
    const kinds = new Set(PARAMS.map(([, s]) => (s.anyOf ? 'list' : String(s.type))));
    expect([...kinds].sort()).toEqual(['boolean', 'integer', 'list', 'string']);
  });

  it('knows every keyword of every declared parameter and body', () => {
    expect(BODIES.map(([name]) => name).sort()).toEqual([
      'patchFeed',
      'reset',
      'setClock',
      'transition',
    ]);
    const unknown = [...PARAMS, ...BODIES].flatMap(([at, s]) =>
      unknownKeywords(s).map((k) => `${at}: ${k}`),
    );
    expect(unknown, 'teach schema-fits.ts the keyword first, then list it in KEYWORDS').toEqual([]);
    for (const [at, s] of PARAMS)
      expect(['string', 'integer', 'boolean'].includes(String(s.type)) || !!s.anyOf, at).toBe(true);
  });

  it('judges every value as a JSON Schema validator does, with the declared maximum or another', () => {
    const ajv = new Ajv({ strict: false });
    let judged = 0;
    for (const [at, declared] of PARAMS) {
      // a rule id's schema is any text to both (the server checks the ids themselves)
      const schema = isRuleIdSchema(declared) ? { type: 'string' } : declared;
      const maxima = declared.type === 'integer' ? [undefined, 250_000, 10] : [undefined];
      for (const maximum of maxima) {
        const validate = ajv.compile(
          JSON.parse(
            JSON.stringify(maximum === undefined ? schema : { ...schema, maximum }),
          ) as object,
        );
        for (const text of textsFor(declared)) {
          const value = decodeParam(text, declared);
          const fits = paramFits(declared as TSchema, value, maximum);
          expect(fits, `${at} = ${JSON.stringify(text)} (maximum ${maximum})`).toBe(
            validate(value),
          );
          judged += 1;
        }
      }
    }
    expect(judged).toBeGreaterThan(2_000);
  });

  it('judges every body as a JSON Schema validator does: the ones it keeps and the ones it refuses', () => {
    const ajv = new Ajv({ strict: false });
    const verdicts = { kept: 0, refused: 0 };
    for (const [name, schema] of BODIES) {
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema)) as object);
      for (const body of bodiesFor(schema)) {
        const kept = fits(schema, body);
        expect(kept, `${name} ${JSON.stringify(body)}`).toBe(validate(body));
        verdicts[kept ? 'kept' : 'refused'] += 1;
      }
    }
    expect(verdicts.kept).toBeGreaterThan(20);
    expect(verdicts.refused).toBeGreaterThan(200);
  });

  it('refuses what each kind refuses, and takes what it takes (both sides of each edge)', () => {
    const whole = ADMIN_API.events.query.limit;
    expect(paramFits(whole, 100_000)).toBe(true);
    expect(paramFits(whole, 100_001)).toBe(false);
    expect(paramFits(whole, 100_001, 250_000)).toBe(true);
    expect(paramFits(whole, 250_001, 250_000)).toBe(false);
    expect(paramFits(whole, -1)).toBe(false);
    expect(paramFits(whole, '5')).toBe(false);
    const site = ADMIN_API.readiness.query.siteId;
    expect(paramFits(site, 'demo42')).toBe(true);
    expect(paramFits(site, 'demo4')).toBe(false);
    expect(paramFits(site, 42)).toBe(false);
  });
});
