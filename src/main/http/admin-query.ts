// The admin API's routes, mounted from its one declaration (src/shared/admin-api.ts): the method and path
// come from the endpoint's entry, its query is parsed and each parameter judged by its declared schema
// (paramFits, the judge the package's client uses too: nothing to compile, so a sandbox's first admin
// requests wait for no validator), its body is read as the entry declares it (admin-body.ts) before the
// handler runs, and the handler's answer is typed by the entry's answers. An unknown, repeated or invalid
// parameter is a 400 that names it, the value and what is allowed; nothing is clamped or guessed. A domain
// error the handler throws is answered by its row in domain-errors.ts.
import type { Request, Response, Router } from 'express';
import type { Static, TSchema } from '@sinclair/typebox';
import { ADMIN_API, type AdminEndpointName, type QueryOf } from '../../shared/admin-api';
import {
  decodeParam,
  isSiteIdSchema,
  paramFits,
  paramRule,
  requiredWhy,
} from '../../shared/admin-params';
import { didYouMean } from '../../shared/nearest';
import type { ErrorSchema } from '../../shared/schema-admin';
import { isRuleIdSchema } from '../../shared/schema-base';
import { RULE_IDS } from '../tracking/timeline/rule-list';
import { ruleIdProblem } from '../../shared/rule-levels';
import { readAdminBody, type AdminBody } from './admin-body';
import { BadQuery, BodyRefused } from './admin-refusal';
import { closesAfterRefusal } from './body-reader';
import { httpRefusal } from './domain-errors';
import { clipped, shown } from '../../shared/text';

export { BadQuery };

export interface Bounds {
  /** a maximum that depends on the config (e.g. `limit` of events up to the retention) */
  maximum?: Record<string, number>;
  /** the config's siteIds, in config order: a siteId parameter's refusal names them */
  sites?: readonly string[];
}

function declaredQuery(name: AdminEndpointName): Record<string, TSchema> {
  return (ADMIN_API[name] as { query?: Record<string, TSchema> }).query ?? {};
}

/** A declared parameter's schema (own keys only: `?constructor=1` is an unknown parameter). */
function declaredParam(name: AdminEndpointName, key: string): TSchema | undefined {
  const declared = declaredQuery(name);
  return Object.hasOwn(declared, key) ? declared[key] : undefined;
}

/**
 * Whether a declared parameter's value keeps its rule: its schema with the config's maximum in place of the
 * declared one (`limit` of events up to the retention), and a rule id one of the rules' ids.
 */
function keepsRule(schema: TSchema, value: unknown, maximum?: number): boolean {
  if (isRuleIdSchema(schema)) return typeof value === 'string' && RULE_IDS.includes(value);
  return paramFits(schema, value, maximum);
}

function declaredPathParams(name: AdminEndpointName): Record<string, TSchema> {
  return (ADMIN_API[name] as { params?: Record<string, TSchema> }).params ?? {};
}

/**
 * The path's declared parameters as their types take them (a feed's number as a number); a BadQuery
 * naming the first that breaks its rule, with the path it belongs in.
 */
function parseAdminParams(
  name: AdminEndpointName,
  params: Record<string, string | string[]>,
): Record<string, unknown> {
  const declared = declaredPathParams(name);
  const value: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(declared)) {
    const raw = String(params[key] ?? '');
    value[key] = decodeParam(raw, schema);
    if (keepsRule(schema, value[key])) continue;
    const [text] = paramRule(schema);
    throw new BadQuery(
      key,
      `path parameter ${key} ${text}, got ${shown(raw)}: the path is ${ADMIN_API[name].path}`,
    );
  }
  return value;
}

/** The BadQuery of a parameter: unknown, repeated, or its value breaking its rule. */
function problem(name: AdminEndpointName, key: string, raw: unknown, bounds: Bounds): BadQuery {
  const allowed = Object.keys(declaredQuery(name));
  const schema = declaredParam(name, key);
  if (!schema) {
    // a name the sender made up is quoted as any value is: clipped
    const unknown = clipped(key);
    return new BadQuery(
      unknown,
      allowed.length
        ? `unknown query parameter ${unknown}; allowed: ${allowed.join(', ')}`
        : `unknown query parameter ${unknown}: ${ADMIN_API[name].path} takes none`,
      allowed,
    );
  }
  if (raw !== undefined && typeof raw !== 'string')
    return new BadQuery(key, `query parameter ${key} was given more than once; give it once`);
  const fix = isSiteIdSchema(schema) ? `; ${siteFix(name, key, raw, bounds.sites)}` : '';
  const why = requiredWhy(schema);
  if (raw === undefined || (raw === '' && why !== undefined))
    return new BadQuery(key, `query parameter ${key} is required: ${why}${fix}`);
  // a misspelt rule id is said as everywhere a rule id is typed (the nearest ids, then all of them)
  if (isRuleIdSchema(schema))
    return new BadQuery(key, `query parameter ${key} ${ruleIdProblem(raw, RULE_IDS)}`, [
      ...RULE_IDS,
    ]);
  // the parameter's own rule says it better than the keyword that failed
  const [text, values] = paramRule(schema, bounds.maximum?.[key]);
  return new BadQuery(key, `query parameter ${key} ${text}, got ${shown(raw)}${fix}`, values);
}

/**
 * What to send for a siteId instead: a configured site's (the nearest to the one sent first), with a
 * request that works.
 */
function siteFix(
  name: AdminEndpointName,
  key: string,
  raw: string | undefined,
  sites: readonly string[] | undefined,
): string {
  if (!sites) return "use a configured site's siteId (GET /_sandbox/health lists them)";
  if (sites.length === 0)
    return 'the config has no accounts: add one (accounts in the config file, or --config FILE)';
  return `${raw ? didYouMean(raw, sites) : ''}use a configured site's siteId (${sites.join(', ')}), e.g. GET ${ADMIN_API[name].path}?${key}=${sites[0]}`;
}

/** The endpoint's query, typed by its declaration; BadQuery (the first problem, in the request's order). */
function parseAdminQuery<N extends AdminEndpointName>(
  name: N,
  query: Request['query'],
  bounds: Bounds = {},
): QueryOf<N> {
  // a null prototype: a `__proto__` parameter is a key like any other (and unknown)
  const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // the first parameter in the request's order that is unknown, repeated or breaks its rule is answered
  for (const [key, raw] of Object.entries(query)) {
    const schema = declaredParam(name, key);
    if (!schema || typeof raw !== 'string') throw problem(name, key, raw, bounds);
    value[key] = decodeParam(raw, schema);
    if (!keepsRule(schema, value[key], bounds.maximum?.[key]))
      throw problem(name, key, raw, bounds);
  }
  // a parameter the endpoint cannot answer without, not sent or sent empty
  for (const [key, schema] of Object.entries(declaredQuery(name)))
    if (requiredWhy(schema) !== undefined && (value[key] === undefined || value[key] === ''))
      throw problem(name, key, value[key], bounds);
  return value as QueryOf<N>;
}

/**
 * Answer a BadQuery as the admin API's 400, and a domain error with the status and fields of its row in
 * domain-errors.ts; anything else is not ours to answer.
 */
function answerRefusal(res: Response, err: unknown): void {
  if (err instanceof BodyRefused) {
    // the rest of the body is being dropped (body-reader.ts); the connection ends with this answer only
    // when the body announced more than is dropped
    if (closesAfterRefusal(res.req)) res.setHeader('Connection', 'close');
    res.status(err.status).json({
      error: err.error,
      parameter: err.parameter,
      message: err.message,
      limit: err.limit,
    });
    return;
  }
  if (err instanceof BadQuery) {
    res.status(400).json({
      error: 'BadRequest',
      ...(err.parameter && { parameter: err.parameter }),
      message: err.message,
      ...(err.allowed && { allowed: err.allowed }),
    });
    return;
  }
  const refused = httpRefusal(err);
  if (!refused) throw err;
  for (const [name, value] of Object.entries(refused.headers ?? {})) res.setHeader(name, value);
  res
    .status(refused.status)
    .json({ error: refused.error, message: (err as Error).message, ...refused.fields });
}

/** The names of a path's `{parameters}`. */
type PathParamsOf<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? K | PathParamsOf<Rest>
  : never;

/** An endpoint's declared path parameters, each its schema's type. */
type DeclaredParams<E> = E extends { params: infer P extends Record<string, TSchema> }
  ? { [K in keyof P]: Static<P[K]> }
  : Record<never, never>;

/**
 * The request of an endpoint: its path parameters named by its declared path, text unless the declaration
 * gives one a type (checked and converted by mount before the handler runs).
 */
export type AdminRequest<N extends AdminEndpointName> = Request<
  Omit<
    Record<PathParamsOf<(typeof ADMIN_API)[N]['path']>, string>,
    keyof DeclaredParams<(typeof ADMIN_API)[N]>
  > &
    DeclaredParams<(typeof ADMIN_API)[N]>
>;

type Entry<N extends AdminEndpointName> = (typeof ADMIN_API)[N];
/** A declared answer's body: a schema's type, or the text of a body that is not JSON. */
type BodyOfAnswer<A> = A extends TSchema ? Static<A> : string;
type ViewAnswer<E> = E extends { views: { answers: infer V } } ? V[keyof V] : never;
type ErrorAnswer<E> = E extends { errors: infer X } ? X[keyof X] : never;

/**
 * Every body an endpoint may answer with, by its declaration: its 200 (each view's), each declared error,
 * and the admin API's error shape (400 and the body's 413/415).
 */
export type AdminAnswer<N extends AdminEndpointName> =
  | BodyOfAnswer<Entry<N>['response']>
  | BodyOfAnswer<ViewAnswer<Entry<N>>>
  | BodyOfAnswer<ErrorAnswer<Entry<N>>>
  | Static<typeof ErrorSchema>;

/** The response of an endpoint: `res.json` and `res.send` take only what the declaration answers. */
export type AdminResponse<N extends AdminEndpointName> = Response<AdminAnswer<N>>;

export type AdminHandler<N extends AdminEndpointName> = (
  req: AdminRequest<N>,
  res: AdminResponse<N>,
  query: QueryOf<N>,
  /** the body as declared (admin-body.ts, AdminBody): read and validated before the handler runs */
  body: AdminBody<N>,
) => unknown;

/**
 * JSON already written as text (kept from an earlier answer, or built in pieces), sent as it is: its
 * shape is the declared one by construction, checked by the answers test (test/api/admin-answers.test.ts).
 */
export function sendJsonText(res: Response, text: string): void {
  res.type('application/json').send(text);
}

export interface MountOptions<N extends AdminEndpointName> {
  /** maxima that depend on the config, per request */
  bounds?: (req: AdminRequest<N>) => Bounds;
}

/**
 * Mount one declared endpoint on a router that is used under `/_sandbox`: its method and path are the
 * declaration's, its declared path parameters are checked and typed, then its query is parsed and its body read as declared (a bad one is answered 400, 413
 * or 415 and the handler never runs), and a BadQuery or domain error the handler throws (a parameter that
 * contradicts another, an unknown feed) is answered the same way.
 */
export function mount<N extends AdminEndpointName>(
  router: Router,
  name: N,
  handle: AdminHandler<N>,
  options: MountOptions<N> = {},
): void {
  const endpoint = ADMIN_API[name];
  const path = endpoint.path.slice('/_sandbox'.length).replace(/\{(\w+)\}/g, ':$1');
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
  router[method](path, async (req: Request, res: Response): Promise<void> => {
    try {
      Object.assign(req.params, parseAdminParams(name, req.params));
      const typed = req as unknown as AdminRequest<N>;
      const query = parseAdminQuery(name, req.query, options.bounds?.(typed));
      const body = await readAdminBody(name, req);
      await handle(typed, res, query, body);
    } catch (err) {
      answerRefusal(res, err);
    }
  });
}
