// Generates src/main/tracking/beacon-schemas.generated.json from the provider's OpenAPI description of
// beacon v2 (devDependency @athoscommerce/beacon): one resolved request JSON Schema plus the OAS examples
// per endpoint, tightened where the OAS is looser than the real service. Run: npm run generate:schemas
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface GeneratedEndpoint {
  operationId: string;
  summary: string;
  /** request body JSON Schema (draft 2020-12 subset that ajv 8 compiles), every $ref inlined */
  schema: JsonObject;
  /** the OAS examples of the request body, by example name */
  examples: Record<string, Json>;
}

export interface GeneratedSchemas {
  source: { package: string; packageVersion: string; oasTitle: string; oasVersion: string };
  /** where the sandbox is stricter (or differently shaped) than the OAS, one line each; docs/tracking.md lists them */
  tightenings: string[];
  /** keyed `category/event`, e.g. `search/render` */
  endpoints: Record<string, GeneratedEndpoint>;
}

/**
 * Each tightening is applied by one step below; keep this list and the steps in step.
 * The real service rejects what the OAS leaves open (unknown fields, non-RFC 3339 timestamps, ...),
 * so the sandbox must too, or storefronts would pass locally and fail in production.
 */
export const TIGHTENINGS = [
  'T1 unknown fields: every object that lists its properties gets additionalProperties:false (the free-form log `details` object stays open)',
  'T2 timestamps: every `timestamp` string must be an RFC 3339 date-time (format: date-time; the OAS only says so in prose)',
  'T3 context.currency.code: exactly 3 letters (ISO 4217; the OAS only says so in prose)',
  'T4 qty: an integer (the OAS has type number with format integer)',
  'T5 clickthrough results/banners: exactly one item (minItems/maxItems 1; the OAS puts minimum/maximum on the items, which JSON Schema ignores)',
  'T6 cart/add and cart/remove: data.results needs at least one item (the OAS writes minimum: 1 on the array, which JSON Schema ignores)',
  'T7 clickthrough data: one object with responseId (and tag) plus exactly one of results XOR banners, instead of a oneOf of two open objects; quickView is accepted with either',
  'T8 results items: a Banner Result ({type:"banner", uid}) when type is "banner", otherwise a Product Result ({type, parentId, uid, sku?}), instead of a oneOf that both shapes can match',
];

const OAS_REF_PREFIX = '#/components/schemas/';
const EXAMPLE_REF_PREFIX = '#/components/examples/';
/** OAS annotations and formats ajv does not know; types carry the meaning. */
const DROPPED_KEYS = new Set([
  'format',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
  'xml',
]);

const here = path.dirname(fileURLToPath(import.meta.url));
export const OUTPUT_PATH = path.resolve(here, '../src/main/tracking/beacon-schemas.generated.json');

export function findOas(): { oasPath: string; packageVersion: string } {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@athoscommerce/beacon/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string };
  return {
    oasPath: path.join(path.dirname(pkgPath), 'beacon.v2.snap.types.oas.yaml'),
    packageVersion: pkg.version,
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Inline every `$ref`, applying the shape-changing tightenings (T7, T8) on the way. */
class Resolver {
  constructor(private readonly components: JsonObject) {}

  resolve(node: Json, stack: string[] = []): Json {
    if (Array.isArray(node)) return node.map((item) => this.resolve(item, stack));
    if (!isObject(node)) return node;

    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      if (!ref.startsWith(OAS_REF_PREFIX)) throw new Error(`unsupported $ref ${ref}`);
      const name = ref.slice(OAS_REF_PREFIX.length);
      if (stack.includes(name)) throw new Error(`recursive $ref ${[...stack, name].join(' -> ')}`);
      const target = this.components[name];
      if (target === undefined) throw new Error(`dangling $ref ${ref}`);
      const { $ref: _ref, ...siblings } = node;
      // OAS 3.1 lets siblings sit next to $ref (title, type, minimum...): they refine the target.
      return this.resolve({ ...(target as JsonObject), ...siblings }, [...stack, name]);
    }

    const oneOf = node.oneOf;
    if (Array.isArray(oneOf) && oneOf.every((b) => isObject(b) && typeof b.$ref === 'string')) {
      const names = oneOf.map((b) => String((b as JsonObject).$ref).slice(OAS_REF_PREFIX.length));
      if (
        names.length === 2 &&
        names[0] === 'result.product' &&
        names[1] === 'result.resultBanner'
      ) {
        // T8: pick the shape by `type` so a bad product yields its own errors, not "matches no branch".
        const { oneOf: _oneOf, ...rest } = node;
        return this.resolve(
          {
            ...rest,
            type: 'object',
            if: { properties: { type: { const: 'banner' } }, required: ['type'] },
            then: { $ref: `${OAS_REF_PREFIX}result.resultBanner` },
            else: { $ref: `${OAS_REF_PREFIX}result.product` },
          },
          stack,
        );
      }
    }
    if (
      Array.isArray(oneOf) &&
      node.type === 'object' &&
      oneOf.every((b) => isObject(b) && !b.$ref && isObject(b.properties))
    ) {
      return this.resolve(mergeClickthroughBranches(node, oneOf as JsonObject[]), stack);
    }

    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isObject(value)) {
        out.properties = Object.fromEntries(
          Object.entries(value).map(([prop, schema]) => [prop, this.resolve(schema, stack)]),
        );
      } else {
        out[key] = this.resolve(value, stack);
      }
    }
    return out;
  }
}

/** T7: `data: {oneOf: [{required:[responseId, results]}, {required:[responseId, banners]}]}` → one closed object + XOR. */
function mergeClickthroughBranches(node: JsonObject, branches: JsonObject[]): JsonObject {
  const properties: JsonObject = {};
  const requiredSets = branches.map((b) => new Set((b.required as string[] | undefined) ?? []));
  for (const branch of branches) Object.assign(properties, branch.properties as JsonObject);
  const common = [...(requiredSets[0] ?? [])].filter((key) =>
    requiredSets.every((set) => set.has(key)),
  );
  const exclusive = requiredSets.map((set) => [...set].filter((key) => !common.includes(key)));
  if (exclusive.some((keys) => keys.length !== 1))
    throw new Error('clickthrough oneOf branches must differ by exactly one required key');
  const { oneOf: _oneOf, ...rest } = node;
  return {
    ...rest,
    required: common,
    properties,
    oneOf: exclusive.map((keys) => ({ required: keys })),
  };
}

/** T1–T6 and clean-up, applied bottom-up on a resolved schema. */
function tighten(node: Json, propName?: string): Json {
  if (Array.isArray(node)) return node.map((item) => tighten(item));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([prop, schema]) => [prop, tighten(schema, prop)]),
      );
    } else if (key === 'if') {
      out.if = value; // a condition only looks at `type`: closing it would send every item to `else`
    } else if (
      key === 'items' ||
      key === 'then' ||
      key === 'else' ||
      key === 'oneOf' ||
      key === 'anyOf' ||
      key === 'allOf'
    ) {
      out[key] = tighten(value);
    } else {
      out[key] = value;
    }
  }

  const isArray = out.type === 'array';
  const isNumber = out.type === 'number' || out.type === 'integer';
  // T5: `minimum`/`maximum` on the items of an array mean the array's length (read before the items dropped them).
  if (isArray && isObject(node.items)) {
    if (typeof node.items.minimum === 'number') out.minItems = node.items.minimum;
    if (typeof node.items.maximum === 'number') out.maxItems = node.items.maximum;
  }
  if (isArray && typeof out.minimum === 'number') {
    out.minItems = out.minimum; // T6
    delete out.minimum;
  }
  if (!isNumber) {
    delete out.minimum;
    delete out.maximum;
  }
  if (isObject(out.properties) && out.additionalProperties === undefined)
    out.additionalProperties = false; // T1
  if (propName === 'timestamp' && out.type === 'string') out.format = 'date-time'; // T2
  if (
    propName === 'code' &&
    out.type === 'string' &&
    typeof out.description === 'string' &&
    out.description.includes('ISO 4217')
  ) {
    Object.assign(out, { minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$' }); // T3
  }
  if (propName === 'qty' && out.type === 'number') out.type = 'integer'; // T4
  return out;
}

function resolveExample(examples: JsonObject, entry: Json): Json {
  if (isObject(entry) && typeof entry.$ref === 'string') {
    const name = entry.$ref.slice(EXAMPLE_REF_PREFIX.length);
    const target = examples[name];
    if (!isObject(target)) throw new Error(`dangling example $ref ${entry.$ref}`);
    return target.value ?? null;
  }
  return isObject(entry) ? (entry.value ?? null) : null;
}

export function generateBeaconSchemas(oasText: string, packageVersion: string): GeneratedSchemas {
  const oas = parse(oasText) as JsonObject;
  const components = (oas.components ?? {}) as JsonObject;
  const resolver = new Resolver((components.schemas ?? {}) as JsonObject);
  const exampleDefs = (components.examples ?? {}) as JsonObject;
  const info = (oas.info ?? {}) as JsonObject;
  const endpoints: Record<string, GeneratedEndpoint> = {};

  for (const [route, item] of Object.entries((oas.paths ?? {}) as JsonObject)) {
    const match = /^\/\{siteId\}\/([a-z]+)\/([a-z]+)$/.exec(route);
    const post = isObject(item) ? item.post : undefined;
    if (!match || !isObject(post)) throw new Error(`unexpected OAS path ${route}`);
    const content = ((post.requestBody as JsonObject | undefined)?.content ?? {}) as JsonObject;
    // text/plain and application/json carry the same schema; the service accepts both.
    const media = (content['application/json'] ?? content['text/plain']) as JsonObject | undefined;
    if (!media) throw new Error(`no request body schema for ${route}`);
    const schema = tighten(resolver.resolve(media.schema ?? {})) as JsonObject;
    const examples: Record<string, Json> = {};
    for (const [name, entry] of Object.entries((media.examples ?? {}) as JsonObject)) {
      examples[name] = resolveExample(exampleDefs, entry);
    }
    endpoints[`${match[1]}/${match[2]}`] = {
      operationId: String(post.operationId ?? ''),
      summary: String(post.summary ?? ''),
      schema,
      examples,
    };
  }

  return {
    source: {
      package: '@athoscommerce/beacon',
      packageVersion,
      oasTitle: String(info.title ?? ''),
      oasVersion: String(info.version ?? ''),
    },
    tightenings: TIGHTENINGS,
    endpoints,
  };
}

export function generateFromInstalledPackage(): GeneratedSchemas {
  const { oasPath, packageVersion } = findOas();
  return generateBeaconSchemas(readFileSync(oasPath, 'utf8'), packageVersion);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const generated = generateFromInstalledPackage();
  // Written as `npm run format` would leave it, so formatting the repo never touches it.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(OUTPUT_PATH)) ?? {};
  writeFileSync(
    OUTPUT_PATH,
    await prettier.format(JSON.stringify(generated), { ...options, parser: 'json' }),
  );
  console.log(
    `wrote ${Object.keys(generated.endpoints).length} endpoints to ${path.relative(process.cwd(), OUTPUT_PATH)}`,
  );
}
