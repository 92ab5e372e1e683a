// The admin API's query parameters and filters, declared once: each filter set (events, timelines,
// visits) is one group of parameters that every endpoint taking it spreads into its query, and whose
// TypeScript type the package and the UI derive (`TimelineFilterQuery`, …). The rule each parameter
// follows is said in its 400 when a value breaks it (src/main/http/admin-query.ts).
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { RESPONSE_KINDS } from './kinds';
import { VERDICTS } from './verdict';
import { literals, ruleIdSchema } from './schema-base';
import { SITE_ID_PATTERN } from './site-id';
import { fits } from './schema-fits';

/** Free text (an id, a siteId): any value. */
export const text = (description: string) => Type.String({ description });

/** Text that must say something: where an empty value would act on nothing and still answer success. */
export const nonEmpty = (description: string) =>
  Type.String({ minLength: 1, description, 'x-rule': 'must not be empty' });

/** One of a few values; the 400 lists them. */
export const oneOf = <const T extends readonly string[]>(values: T, description: string) =>
  literals(values, description);

/** A rule id (the server fills in the ids: ruleIdSchema). */
export const ruleId = (description: string) =>
  ruleIdSchema({ description, 'x-rule': 'must be a rule id' });

/**
 * A siteId, as the beacon path takes one (six lowercase letters or digits: no beacon can be sent for another,
 * and no account can have another). The server names the config's sites in its refusals (`x-values`), with
 * the nearest first: a typo reads as one, not as a site that sent nothing.
 */
export const siteIdParam = (description: string) =>
  Type.String({
    pattern: SITE_ID_PATTERN.source,
    description,
    'x-rule': `must be six lowercase letters or digits (${SITE_ID_PATTERN.source}, the rule of the beacon path's siteId: no beacon can be sent for another)`,
    'x-values': 'site-ids',
  });

/** Whether a parameter's schema is a siteId's (siteIdParam), whose refusals name the configured sites. */
export function isSiteIdSchema(schema: TSchema): boolean {
  return schema['x-values'] === 'site-ids';
}

declare const REQUIRED: unique symbol;
/** A parameter an endpoint cannot answer without: QueryOf types it as given. */
export type RequiredParam<T extends TSchema> = T & { readonly [REQUIRED]: true };

/**
 * A parameter the endpoint cannot answer without, given and not empty; `why` ends its 400 (`query parameter
 * siteId is required: readiness is per site`), and openapi.json marks it required.
 */
export const required = <T extends TSchema>(schema: T, why: string): RequiredParam<T> =>
  ({ ...schema, 'x-required': why }) as unknown as RequiredParam<T>;

/** Why a required parameter is (required's `why`), or undefined for an optional one. */
export function requiredWhy(schema: TSchema): string | undefined {
  const why: unknown = schema['x-required'];
  return typeof why === 'string' ? why : undefined;
}

/** A whole number in a range, sent as digits. */
export const whole = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description });

/** true/false (1/0 accepted). */
export const flag = (description: string) => Type.Boolean({ description });

/** A seq (`42`) or an event id (`ev_000000042`). */
const seqOrId = (description: string) =>
  Type.String({
    // at most 15 digits: a larger number is no seq this journal can reach (nor one a number keeps exactly)
    pattern: '^(?:ev_)?\\d{1,15}$',
    description,
    'x-rule': 'must be a seq (e.g. 42) or an event id (e.g. ev_000000042), of at most 15 digits',
  });

export const MAX_EVENT_LIMIT = 100_000;
export const MAX_TIMELINE_LIMIT = 100_000;
/** a long-poll longer than this ties up a socket for nothing: a longer wait is capped, and the answer says so */
export const MAX_WAIT_MS = 120_000;

export const EVENT_FILTERS = {
  siteId: text('events of this siteId'),
  category: text(
    'beacon v2 category (search, product, cart, order, log, …); another name only with accepted=false (a rejected request is recorded under the path it was posted to)',
  ),
  kind: oneOf(RESPONSE_KINDS, 'the timelines’ word for the categories they hold'),
  event: text(
    'event within the category (render, impression, …); another name only with accepted=false, as for category',
  ),
  accepted: flag('only accepted (true) or only rejected (false) events'),
  responseId: text('events carrying this data.responseId'),
  pageLoadId: text('events of this context.pageLoadId'),
  sessionId: text('events of this context.sessionId'),
  since: seqOrId('events after this one (tailing)'),
  before: seqOrId('events before this one (paging back)'),
} satisfies TProperties;

export const TIMELINE_FILTERS = {
  siteId: text('pages of this siteId'),
  verdict: oneOf(VERDICTS, 'pages with this verdict'),
  sessionId: text('pages of this session'),
  pageLoadId: text('one page load'),
  q: text('free text: page URL, ids, responseIds, rule ids, the uids its events reported'),
  kind: oneOf(RESPONSE_KINDS, 'pages holding a response of this kind'),
  event: text('pages holding an event of this type (render, impression, pageview, …)'),
  rule: ruleId('pages with a finding of this rule (at the severity it has; none when it is off)'),
} satisfies TProperties;

export const VISIT_FILTERS = {
  siteId: text('visits of this siteId'),
  sessionId: text('one session'),
  userId: text('visits of this userId'),
} satisfies TProperties;

export const ORDER_FILTERS = {
  ...VISIT_FILTERS,
  orderId: text('one order id'),
} satisfies TProperties;

/** A filter's parsed values: each parameter's own type, all optional. */
export type FilterOf<P extends TProperties> = Partial<Static<TObject<P>>>;
export type TimelineFilterQuery = FilterOf<typeof TIMELINE_FILTERS>;
export type VisitFilterQuery = FilterOf<typeof VISIT_FILTERS>;
export type OrderFilterQuery = FilterOf<typeof ORDER_FILTERS>;

/**
 * A query string's text as the value its declared type takes (digits → number, true/1 → true); text that
 * does not read as that type is left as sent, for the schema to refuse.
 */
export function decodeParam(raw: string, schema: TSchema | undefined): unknown {
  if (schema?.type === 'integer') return /^\d+$/.test(raw) ? Number(raw) : raw;
  if (schema?.type === 'boolean')
    return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
  return raw;
}

/**
 * What a declared parameter takes, as a refusal says it, and its values when they are a list: the server's
 * 400 and the package's option errors word a rule alike. A rule id's schema lists no ids here (the
 * server's rules declare them).
 */
export function paramRule(schema: TSchema, maximum?: number): [string, string[]?] {
  if (Array.isArray(schema.anyOf)) {
    const values = (schema.anyOf as Array<{ const: string }>).map((s) => s.const);
    return [`must be one of ${values.join(', ')}`, values];
  }
  if (schema.type === 'integer') {
    const top = maximum ?? (schema.maximum as number);
    return [
      top >= Number.MAX_SAFE_INTEGER
        ? `must be a whole number, ${schema.minimum} or more`
        : `must be a whole number from ${schema.minimum} to ${top}`,
    ];
  }
  if (schema.type === 'boolean') return ['must be true or false', ['true', 'false']];
  return [String(schema['x-rule'])];
}

/**
 * Whether a parameter's value, read as decodeParam reads it, keeps its declared schema (`maximum`: the
 * config's in place of the declared one). The one judge of a parameter: the server's 400s and the package's
 * option errors. A rule id's schema is any text here: the server's rules say which ids there are.
 */
export function paramFits(schema: TSchema, value: unknown, maximum?: number): boolean {
  return fits(maximum === undefined ? schema : { ...schema, maximum }, value);
}
