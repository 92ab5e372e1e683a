// The options and arguments of the client's methods (a siteId, a feed, a clock move), checked before any
// request and refused in the method's words: the call as written, the option, the options the method takes
// and an example call. Options that become query parameters take their names and rules from the admin API's
// declaration (src/shared/admin-api.ts), so the client keeps no second list of them; a method's own options
// (expectClean's failOn, …) it checks itself.
import type { TSchema } from '@sinclair/typebox';
import { ADMIN_API, type AdminEndpointName } from '../../shared/admin-api.js';
import { decodeParam, EVENT_FILTERS, paramFits, paramRule } from '../../shared/admin-params.js';
import { eventNameProblem } from '../../shared/beacon-endpoints.js';
import { didYouMean } from '../../shared/nearest.js';
import { shown } from '../../shared/text.js';
import { SET_CLOCK_BODY } from '../../shared/admin-bodies.js';
import { calendarDurationProblem, parseInstant, parseIsoDuration } from '../durations.js';

/** An option's rule: its declared schema, or null for one the method checks itself. */
export type OptionRules = Record<string, TSchema | null>;

/** What a method takes: its name as called, each option's rule, and an example call. */
export interface MethodOptions {
  /** e.g. `sandbox.reset` */
  call: string;
  options: OptionRules;
  /** a call that works, e.g. `sandbox.reset({ what: 'all' })` */
  example: string;
  /** an option's rule in its own words, where the declaration's is the HTTP side's (a wait's cap) */
  words?: Record<string, string>;
}

/** The query parameters an endpoint declares, as options (but those the method sets itself). */
export function queryOptions(name: AdminEndpointName, except: string[] = []): OptionRules {
  const query = (ADMIN_API[name] as { query?: Record<string, TSchema> }).query ?? {};
  return Object.fromEntries(Object.entries(query).filter(([key]) => !except.includes(key)));
}

/** The values a declared list of values takes (`['events', 'all']`). */
export function valuesOf(schema: TSchema): string[] {
  return paramRule(schema)[1] ?? [];
}

/**
 * The options as given (undefined: none), or a TypeError in the method's words: an argument that is
 * not an options object, an option the method does not take, a value its rule refuses.
 */
export function checkOptions<T extends object>(spec: MethodOptions, given: T | undefined): T {
  if (given === undefined) return {} as T;
  const names = Object.keys(spec.options);
  const takes = `options: ${names.join(', ')}; e.g. ${spec.example}`;
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    throw new TypeError(
      `${spec.call}(${shown(given)}): takes an options object, not ${kindOf(given)}; ${takes}`,
    );
  for (const [key, value] of Object.entries(given)) {
    if (!Object.hasOwn(spec.options, key))
      throw new TypeError(
        `${spec.call}({ ${key}: ${shown(value)} }): unknown option "${key}"; ${didYouMean(key, names)}${takes}`,
      );
    const problem = valueProblem(key, value, spec);
    if (problem)
      throw new TypeError(
        `${spec.call}({ ${key}: ${shown(value)} }): ${key} ${problem}, got ${shown(value)}; e.g. ${spec.example}`,
      );
  }
  return given;
}

/**
 * The event filter's category (or kind) and event as beacon v2 names, or a TypeError in the method's words:
 * a typo would match nothing (a wait would time out as if the storefront had sent nothing). Any name is
 * taken with `accepted: false`: a rejected request is recorded under the path it was posted to.
 */
export function checkEventNames(
  spec: MethodOptions,
  given: { category?: unknown; kind?: unknown; event?: unknown; accepted?: unknown },
): void {
  const text = (v: unknown) => (v === undefined ? undefined : String(v as string));
  const accepted =
    given.accepted === undefined
      ? undefined
      : decodeParam(String(given.accepted as string), EVENT_FILTERS.accepted);
  const named = eventNameProblem(
    {
      category: text(given.category ?? given.kind),
      event: text(given.event),
      accepted: accepted === false ? false : undefined,
    },
    'accepted: false',
  );
  if (!named) return;
  const value = named.parameter === 'category' ? (given.category ?? given.kind) : given.event;
  const key =
    named.parameter === 'category' && given.category === undefined ? 'kind' : named.parameter;
  throw new TypeError(
    `${spec.call}({ ${key}: ${shown(value)} }): ${named.problem}; e.g. ${spec.example}`,
  );
}

/** Why a value breaks its option's rule (as the sandbox would read it), or undefined when it does not. */
function valueProblem(key: string, value: unknown, spec: MethodOptions): string | undefined {
  const schema = spec.options[key];
  if (!schema || value === undefined) return undefined;
  if (value === null || typeof value === 'object' || typeof value === 'function')
    return 'takes one value (a string, number or boolean): call once per value';
  if (paramFits(schema, decodeParam(String(value as string), schema))) return undefined;
  return spec.words?.[key] ?? paramRule(schema)[0];
}

/** A value's kind as a message names it: a string, a list, a Date, null, nothing. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a Date';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A method's argument that names something (an id, a siteId): a non-empty string, else a TypeError. */
export function checkId(call: string, name: string, value: unknown, example: string): void {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(
      `${call}: ${name} ${shown(value)} must be a non-empty string; e.g. ${example}`,
    );
}

/** A feed's id argument: a whole number (a feedId of the config), else a TypeError. */
export function checkFeedId(call: string, value: unknown, example: string): void {
  // a number, as the config writes it: '42' is text a caller meant as one, and is said so
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new TypeError(
      `${call}: feedId ${shown(value)} must be a whole number${typeof value === 'string' ? ' (a number, not text)' : ''}, a feed's id in the config; e.g. ${example}`,
    );
}

/** The siteId of a readiness call's options, or a TypeError naming the method. */
export function siteIdOf(method: string, options: { siteId?: unknown } | undefined): string {
  const siteId = options?.siteId;
  if (typeof siteId !== 'string' || siteId === '')
    throw new TypeError(
      `${method}: siteId ${JSON.stringify(siteId)} must be the site's siteId, e.g. ${method}({ siteId: 'demo42' })`,
    );
  return siteId;
}

/** What each clock move takes, and a call that works. */
const CLOCK_MOVES = {
  advance: {
    what: 'duration',
    parse: parseIsoDuration,
    example: "sandbox.clock.advance('PT61M')",
    // a number is most likely milliseconds: the same time as a duration
    fromNumber: (n: number) => `sandbox.clock.advance('PT${n / 1000}S') for ${n} ms`,
  },
  set: {
    what: 'instant',
    parse: parseInstant,
    example: "sandbox.clock.set('2026-11-22T04:00:00Z')",
    fromNumber: (n: number) =>
      `sandbox.clock.set(new Date(${n}).toISOString()), here '${new Date(n).toISOString()}'`,
  },
} as const;

/**
 * A clock move's argument as the sandbox takes it (an ISO 8601 duration or instant, a string), or a TypeError
 * naming the call, the value, the rule and a call that works; checked before the request.
 */
export function checkClockMove(move: keyof typeof CLOCK_MOVES, given: unknown): void {
  const { what, parse, example, fromNumber } = CLOCK_MOVES[move];
  const call = `sandbox.clock.${move}(${shown(given)})`;
  const rule = String((SET_CLOCK_BODY.properties[move] as { 'x-rule'?: unknown })['x-rule']);
  if (typeof given === 'string' && parse(given) !== null) return;
  const calendar =
    move === 'advance' && typeof given === 'string' && calendarDurationProblem(given);
  if (calendar) throw new TypeError(`${call}: ${what} ${shown(given)} ${calendar}`);
  if (typeof given === 'string')
    throw new TypeError(`${call}: ${what} ${shown(given)} ${rule}; e.g. ${example}`);
  const fix =
    typeof given === 'number' && Number.isFinite(given) && given >= 0
      ? `e.g. ${fromNumber(given)}`
      : `e.g. ${example}`;
  throw new TypeError(
    `${call}: the ${what} must be an ISO 8601 ${what}, a string, not ${kindOf(given)}; ${fix}`,
  );
}

/** A feed's siteId and feedId, or a TypeError naming the method. */
export function checkFeed(call: string, siteId: unknown, feedId: unknown, example: string): void {
  checkId(call, 'siteId', siteId, example);
  checkFeedId(call, feedId, example);
}
