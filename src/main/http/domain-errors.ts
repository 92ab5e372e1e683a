// The one table from the domain's refusals (error classes of indexing, search, …) to HTTP: each class's
// status, the `error` name the admin API answers with, and what else the answer carries. Routers look a
// caught error up here instead of each choosing statuses of its own; the domain knows no status.
import { SiteNotFound } from '../accounts/site-not-found';
import { FeedNotFound, FeedSettingRefused, HandMoveConflict } from '../indexing/admin';
import {
  BadIndexRequest,
  FeedAlreadyQueued,
  FeedNeverIndexed,
  NoUploadYet,
  ReindexTooSoon,
  UnknownFeed,
} from '../indexing/refusals';
import { TransitionRefused } from '../indexing/state-machine';
import { FeedMovesNotStored } from '../indexing/moves-not-stored';
import {
  InvalidBody,
  InvalidParameter,
  MissingParameter,
  NoCatalog,
  ProfileNotFound,
  UnknownSite,
} from '../search/errors';

export interface HttpRefusal {
  status: number;
  /** the admin API's `error` */
  error: string;
  /** fields the admin API's answer carries beside error and message */
  fields?: Record<string, unknown>;
  /** headers of the answer */
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor of an Error subclass
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;

interface Row<E extends Error> {
  type: ErrorClass<E>;
  status: number;
  error: string;
  fields?: (err: E) => Record<string, unknown>;
  headers?: (err: E) => Record<string, string>;
}

const row = <E extends Error>(r: Row<E>): Row<Error> => r as unknown as Row<Error>;

const TABLE: readonly Row<Error>[] = [
  // a siteId the admin API knows no site of (readiness, feeds): the parameter, and the sites to use
  row({
    type: SiteNotFound,
    status: 404,
    error: 'NotFound',
    fields: (err) => ({ parameter: 'siteId', allowed: [...err.configured] }),
  }),
  // bulk indexing requests (the real service's statuses)
  row({ type: BadIndexRequest, status: 400, error: 'BadRequest' }),
  row({ type: UnknownFeed, status: 404, error: 'NotFound' }),
  row({ type: FeedNeverIndexed, status: 409, error: 'Conflict' }),
  row({ type: FeedAlreadyQueued, status: 409, error: 'Conflict' }),
  row({ type: NoUploadYet, status: 409, error: 'Conflict' }),
  row({
    type: ReindexTooSoon,
    status: 429,
    error: 'TooManyRequests',
    headers: (err) => ({ 'Retry-After': String(err.retryAfterSeconds) }),
  }),
  // the admin's feed settings and hand moves
  row({ type: FeedNotFound, status: 404, error: 'NotFound' }),
  row({
    type: FeedSettingRefused,
    status: 400,
    error: 'BadRequest',
    // the admin API names a refused body field as its body's 400s do
    fields: (err) => ({ parameter: `body.${err.setting}` }),
  }),
  row({ type: HandMoveConflict, status: 409, error: 'Conflict' }),
  row({
    type: TransitionRefused,
    status: 409,
    error: 'TransitionRefused',
    fields: (err) => ({ from: err.from, to: err.to, allowed: err.allowed }),
  }),
  // a clock move whose feed steps the data directory refused: what moved, not stored
  row({
    type: FeedMovesNotStored,
    status: 503,
    error: 'StorageFailed',
    fields: (err) => ({ now: err.now, moved: err.moves }),
  }),
  // the companion search and recommend APIs (their body's `error` is the refusal's own code)
  row({ type: InvalidParameter, status: 400, error: 'InvalidParameter' }),
  row({ type: MissingParameter, status: 400, error: 'MissingParameter' }),
  row({ type: InvalidBody, status: 400, error: 'InvalidBody' }),
  row({ type: UnknownSite, status: 404, error: 'UnknownSite' }),
  row({ type: NoCatalog, status: 404, error: 'NoCatalog' }),
  row({ type: ProfileNotFound, status: 404, error: 'ProfileNotFound' }),
];

/** How HTTP answers a domain error; undefined for anything else (a bug: the app's last resort answers 500). */
export function httpRefusal(err: unknown): HttpRefusal | undefined {
  if (!(err instanceof Error)) return undefined;
  const found = TABLE.find((r) => err instanceof r.type);
  if (!found) return undefined;
  return {
    status: found.status,
    error: found.error,
    ...(found.fields && { fields: found.fields(err) }),
    ...(found.headers && { headers: found.headers(err) }),
  };
}
