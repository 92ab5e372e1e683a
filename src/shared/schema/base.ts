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

/** An ISO 8601 instant, as the sandbox writes them. */
export const instant = (description?: string) =>
  Type.String(description === undefined ? {} : { description });

/** Any JSON value (a body as sent, a JSON Schema document). */
export const json = (description?: string) =>
  Type.Unknown(description === undefined ? {} : { description });

/**
 * The schema, typed as the DTO interface it describes: callers see the interface's name rather than a
 * deep inferred type (test/unit/admin-schemas.test.ts holds the schema's own type to the interface).
 */
export const dto = <T>(schema: TSchema): TUnsafe<T> => Type.Unsafe<T>(schema);
