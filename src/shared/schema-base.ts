// The building blocks of the admin API's answer schemas (TypeBox): a closed object (an undeclared field
// fails validation), a union of string values, a nullable value. Each schema's TypeScript type is held to
// the DTO interface it describes by test/unit/admin-schemas.test.ts.
import { Type, type TProperties, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** An object whose fields are all declared: anything else is an error. */
export const closed = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, {
    additionalProperties: false,
    ...(description !== undefined && { description }),
  });

/** One of a few string values. */
export function literals<const T extends readonly string[]>(values: T, description?: string) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    description === undefined ? {} : { description },
  ) as unknown as ReturnType<typeof Type.Unsafe<T[number]>>;
}

/** The value, or null. */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Any JSON value (a body as sent, a JSON Schema document). */
export const json = (description?: string) =>
  Type.Unknown(description === undefined ? {} : { description });

/**
 * The schema, typed as the DTO interface it describes: callers see the interface's name rather than a
 * deep inferred type (test/unit/admin-schemas.test.ts holds the schema's own type to the interface).
 */
export const dto = <T>(schema: TSchema): TUnsafe<T> => Type.Unsafe<T>(schema);

/**
 * How a body's 400s are worded (`x-messages` on the body's schema, or on an object inside it):
 * `{field}`, `{fields}`, `{value}` and `{rule}` (the field's `x-rule`) are filled in.
 */
export interface BodyMessages {
  /** the body (or this object) is not a JSON object */
  notObject: string;
  /** a field it does not declare: `{field}` */
  unknown: string;
  /** a field's value breaks its rule: `{field}`, `{value}`, `{rule}` */
  invalid: string;
  /** a field it needs is not there: `{field}`, `{rule}` (else `invalid` words it) */
  missing?: string;
  /** more fields than it takes at once (maxProperties): `{fields}` */
  together?: string;
  /** none of the fields it needs one of (minProperties) */
  empty?: string;
  /** the 400 names the field as `parameter` (`body.what`) */
  named?: boolean;
}

/** A field of a body, with the rule a refusal quotes. */
export const ruled = <T extends TSchema>(schema: T, rule: string): T =>
  ({ ...schema, 'x-rule': rule }) as T;

/** A body: a closed object whose refusals are worded by `messages`. */
export const bodyOf = <P extends TProperties>(
  description: string,
  properties: P,
  messages: BodyMessages,
  limits: { minProperties?: number; maxProperties?: number } = {},
) =>
  Type.Object(properties, {
    description,
    additionalProperties: false,
    'x-messages': messages,
    ...limits,
  });

/**
 * A rule id. The rules declare their ids in their own modules (the server's), so a schema only marks the
 * place (`x-values`) and the server fills in the ids: a query's 400 lists them, openapi.json its enum.
 */
export const ruleIdSchema = (options: Record<string, unknown> = {}) =>
  Type.String({ ...options, 'x-values': 'rule-ids' });

/** Whether a schema (or a plain JSON copy of one) is a rule id's. */
export function isRuleIdSchema(schema: unknown): boolean {
  return (
    schema !== null &&
    typeof schema === 'object' &&
    (schema as Record<string, unknown>)['x-values'] === 'rule-ids'
  );
}
