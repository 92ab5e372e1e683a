// The committed beacon schemas are what the generator makes of the installed OAS, their compiled validators
// what ajv makes of them, and every example the provider publishes in that OAS passes the sandbox's validation.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  compileCommittedSchemas,
  VALIDATORS_PATH,
  VALIDATORS_TYPES,
} from '../../scripts/compile-beacon-validators';
import { beaconAjv } from '../../src/main/tracking/beacon-formats';
import { VALIDATORS } from '../../src/main/tracking/beacon-validators.generated.js';
import {
  ENDPOINTS_PATH,
  endpointsModule,
  generateFromInstalledPackage,
  OUTPUT_PATH,
  TIGHTENINGS,
} from '../../scripts/generate-beacon-schemas';
import {
  BEACON_ENDPOINTS,
  endpointExamples,
  endpointSchema,
  validateBeaconBody,
} from '../../src/main/tracking/schemas';
import { BEACON_V2_ENDPOINTS } from '../../src/shared/beacon-endpoints';
import { SEARCH_EVENTS } from '../../src/shared/events';

const committed = JSON.parse(readFileSync(OUTPUT_PATH, 'utf8'));

describe('generated beacon schemas', () => {
  it('are in sync with the installed OAS (run `npm run generate:schemas` after upgrading @athoscommerce/beacon)', () => {
    expect(generateFromInstalledPackage()).toEqual(committed);
  });

  it('cover the 38 beacon v2 endpoints of the OAS, the five search events among them', () => {
    expect(BEACON_ENDPOINTS).toHaveLength(38);
    for (const event of SEARCH_EVENTS) expect(BEACON_ENDPOINTS).toContain(`search/${event}`);
    for (const endpoint of [
      'autocomplete/render',
      'category/impression',
      'recommendations/clickthrough',
      'cart/add',
      'cart/remove',
      'order/transaction',
      'product/pageview',
      'shopper/login',
      'log/snap',
      'log/shopifypixel',
    ]) {
      expect(BEACON_ENDPOINTS).toContain(endpoint);
    }
  });

  it("write the endpoints the admin API's event filters take, on their own for the package's client (run `npm run generate:schemas`)", async () => {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(ENDPOINTS_PATH)) ?? {};
    expect(readFileSync(ENDPOINTS_PATH, 'utf8')).toBe(
      await prettier.format(endpointsModule(generateFromInstalledPackage()), {
        ...options,
        parser: 'typescript',
      }),
    );
    expect([...BEACON_V2_ENDPOINTS]).toEqual([...BEACON_ENDPOINTS]);
  });

  it('inline every $ref and drop OAS-only formats', () => {
    const text = JSON.stringify(committed.endpoints);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('"format":"float"');
    expect(text).not.toContain('"format":"integer"');
  });

  it('list each tightening once, in the file and in the generator', () => {
    expect(committed.tightenings).toEqual(TIGHTENINGS);
    expect(TIGHTENINGS.map((t) => t.split(' ')[0])).toEqual([
      'T1',
      'T2',
      'T3',
      'T4',
      'T5',
      'T6',
      'T7',
      'T8',
    ]);
  });

  it('close objects against unknown fields but leave the free-form log details open', () => {
    const render = endpointSchema('search/render') as {
      additionalProperties: boolean;
      properties: Record<string, { additionalProperties: boolean }>;
    };
    expect(render.additionalProperties).toBe(false);
    expect(render.properties.context!.additionalProperties).toBe(false);
    expect(render.properties.data!.additionalProperties).toBe(false);
    const snap = endpointSchema('log/snap') as {
      properties: { data: { properties: { details: Record<string, unknown> } } };
    };
    expect(snap.properties.data.properties.details.additionalProperties).toBeUndefined();
  });
});

describe('validators compiled at build time', () => {
  it('are what ajv makes of the committed schemas (run `npm run generate:schemas` after changing them)', () => {
    expect(readFileSync(VALIDATORS_PATH, 'utf8')).toBe(compileCommittedSchemas());
    expect(readFileSync(VALIDATORS_PATH.replace(/\.js$/, '.d.ts'), 'utf8')).toBe(VALIDATORS_TYPES);
    expect(Object.keys(VALIDATORS).sort()).toEqual([...BEACON_ENDPOINTS].sort());
  });

  it('judge every example, and bodies changed from it, as a validator compiled at run time does', () => {
    const ajv = beaconAjv(Ajv, { allErrors: false });
    type Body = Record<string, Record<string, unknown>>;
    // each example, then per key of context and data: without it, its value of another type, an unknown
    // key beside it, and timestamps and strings that only the format or a length decides
    const variants = (body: Body): unknown[] => {
      const out: unknown[] = [body];
      for (const part of ['context', 'data'] as const) {
        const values = body[part] ?? {};
        out.push({ ...body, [part]: { ...values, unknownField: 1 } });
        for (const key of Object.keys(values)) {
          const { [key]: value, ...without } = values;
          out.push({ ...body, [part]: without });
          out.push({ ...body, [part]: { ...values, [key]: typeof value === 'string' ? 7 : 'x' } });
        }
      }
      for (const timestamp of ['2026-02-29T10:00:00.000Z', '2024-02-29T10:00:00Z', 'yesterday'])
        out.push({ ...body, context: { ...body.context, timestamp } });
      for (const code of ['USD', 'US', '€€€', '😀😀😀'])
        out.push({ ...body, context: { ...body.context, currency: { code } } });
      return out;
    };
    const verdicts = { valid: 0, invalid: 0 };
    for (const endpoint of BEACON_ENDPOINTS) {
      const atRunTime = ajv.compile(endpointSchema(endpoint)!);
      for (const example of Object.values(endpointExamples(endpoint)))
        for (const body of variants(example as Body)) {
          const verdict = atRunTime(body);
          expect({ endpoint, body, valid: VALIDATORS[endpoint]!(body) }).toEqual({
            endpoint,
            body,
            valid: verdict,
          });
          verdicts[verdict ? 'valid' : 'invalid']++;
        }
    }
    expect(verdicts.valid).toBeGreaterThan(100);
    expect(verdicts.invalid).toBeGreaterThan(1000);
  });
});

describe('OAS examples', () => {
  it.each(SEARCH_EVENTS.map((event) => [event]))('every search/%s example is accepted', (event) => {
    const examples = Object.entries(endpointExamples(`search/${event}`));
    expect(examples.length).toBeGreaterThan(0);
    for (const [name, body] of examples)
      expect({ name, issues: validateBeaconBody(`search/${event}`, body) }).toEqual({
        name,
        issues: [],
      });
  });

  it('every example of every other endpoint is accepted too', () => {
    let count = 0;
    for (const endpoint of BEACON_ENDPOINTS) {
      for (const [name, body] of Object.entries(endpointExamples(endpoint))) {
        count++;
        expect({ endpoint, name, issues: validateBeaconBody(endpoint, body) }).toEqual({
          endpoint,
          name,
          issues: [],
        });
      }
    }
    expect(count).toBeGreaterThanOrEqual(BEACON_ENDPOINTS.length);
  });

  it('are handed out as copies, so a test mutating one cannot break another', () => {
    const first = endpointExamples('search/render')['render example'] as {
      data: { responseId: string };
    };
    first.data.responseId = 'changed';
    expect(
      (endpointExamples('search/render')['render example'] as { data: { responseId: string } }).data
        .responseId,
    ).not.toBe('changed');
  });
});
