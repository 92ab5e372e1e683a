// The one query parser of the admin API: each endpoint's parameters come from its declaration
// (src/shared/admin-api.ts). An unknown, repeated or invalid parameter is a 400 that names it, the value
// and what is allowed; nothing is clamped or guessed.
import type { Request, Response } from 'express';
import { Kind, type TSchema } from '@sinclair/typebox';
import { ADMIN_API, type AdminEndpointName, type QueryOf } from '../../shared/admin-api';
import { RULE_IDS } from '../tracking/timeline/rule-list';

export class BadQuery extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    /** the valid values or parameter names, when they are a list */
    readonly allowed?: readonly string[],
  ) {
    super(message);
  }
}

interface Bounds {
  /** a maximum that depends on the config (e.g. `limit` of events up to the retention) */
  maximum?: Record<string, number>;
}

/** One value read by its schema; throws BadQuery with the parameter's rule. */
function read(name: string, raw: string, schema: TSchema, bounds: Bounds): unknown {
  const got = `, got ${JSON.stringify(raw)}`;
  switch (schema[Kind]) {
    case 'Union': {
      const values = (schema.anyOf as Array<{ const: string }>).map((s) => s.const);
      if (!values.includes(raw))
        throw new BadQuery(
          name,
          `query parameter ${name} must be one of ${values.join(', ')}${got}`,
          values,
        );
      return raw;
    }
    case 'Integer': {
      const min = schema.minimum as number;
      const max = bounds.maximum?.[name] ?? (schema.maximum as number);
      const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max)
        throw new BadQuery(
          name,
          `query parameter ${name} must be a whole number from ${min} to ${max}${got}`,
        );
      return n;
    }
    case 'Boolean': {
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw new BadQuery(name, `query parameter ${name} must be true or false${got}`, [
        'true',
        'false',
      ]);
    }
    default: {
      if (schema['x-values'] === 'rule-ids' && !RULE_IDS.includes(raw))
        throw new BadQuery(
          name,
          `query parameter ${name} must be one of ${RULE_IDS.join(', ')}${got}`,
          RULE_IDS,
        );
      const pattern = schema.pattern as string | undefined;
      if (pattern !== undefined && !new RegExp(pattern).test(raw))
        throw new BadQuery(name, `query parameter ${name} ${String(schema['x-rule'])}${got}`);
      return raw;
    }
  }
}

/** The endpoint's query, typed by its declaration; BadQuery for anything else. */
export function parseAdminQuery<N extends AdminEndpointName>(
  name: N,
  query: Request['query'],
  bounds: Bounds = {},
): QueryOf<N> {
  const declared = ((ADMIN_API[name] as { query?: Record<string, TSchema> }).query ?? {}) as Record<
    string,
    TSchema
  >;
  const allowed = Object.keys(declared);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const schema = declared[key];
    if (!schema)
      throw new BadQuery(
        key,
        allowed.length
          ? `unknown query parameter ${key}; allowed: ${allowed.join(', ')}`
          : `unknown query parameter ${key}: ${ADMIN_API[name].path} takes none`,
        allowed,
      );
    if (typeof value !== 'string')
      throw new BadQuery(key, `query parameter ${key} was given more than once; give it once`);
    out[key] = read(key, value, schema, bounds);
  }
  return out as QueryOf<N>;
}

/** Answer a BadQuery as the admin API's 400; anything else is not ours to answer. */
export function answerBadQuery(res: Response, err: unknown): void {
  if (!(err instanceof BadQuery)) throw err;
  res.status(400).json({
    error: 'BadRequest',
    parameter: err.parameter,
    message: err.message,
    ...(err.allowed && { allowed: err.allowed }),
  });
}

/**
 * A handler whose query is parsed first: a bad one is answered 400 and the handler never runs.
 * `handle` gets the typed query.
 */
export function withQuery<N extends AdminEndpointName>(
  name: N,
  handle: (req: Request, res: Response, query: QueryOf<N>) => unknown,
  bounds?: (req: Request) => Bounds,
) {
  return async (req: Request, res: Response): Promise<void> => {
    let query: QueryOf<N>;
    try {
      query = parseAdminQuery(name, req.query, bounds?.(req));
    } catch (err) {
      answerBadQuery(res, err);
      return;
    }
    await handle(req, res, query);
  };
}

/**
 * Middleware for a handler that reads no query itself: an unknown or bad parameter is still a 400
 * (the declaration says what the endpoint takes).
 */
export function checkQuery(name: AdminEndpointName) {
  // generic in the route's params, so the handler after it keeps its typed req.params
  return <P>(req: Request<P>, res: Response, next: () => void): void => {
    try {
      parseAdminQuery(name, req.query);
    } catch (err) {
      answerBadQuery(res, err);
      return;
    }
    next();
  };
}
