// Who asked for a search response. The provider's Snap controllers put the tracker's context on every search,
// category and autocomplete request (SearchController and AutocompleteController `params.tracking`: userId,
// sessionId and pageLoadId from the tracker's getContext(), `domain` = window.location.href; the shopper
// under `personalization.shopper`), and snap-client sends them as the query parameters userId, sessionId,
// pageLoadId, domain and shopper. A responseId is bound to them: the timeline rules compare the beacons that
// name a response with the request that produced it. The recommend API's requests carry none of them.

/** The tracking context of the request that produced a response; each field only when the request sent it. */
export interface Requester {
  userId?: string;
  sessionId?: string;
  pageLoadId?: string;
  /** the request's `domain`: the page's href when the client searched */
  pageUrl?: string;
  /** the request's `shopper`: the logged-in shopper's id */
  shopperId?: string;
}

/** each field of a Requester and the query parameter it is read from */
const PARAMS: ReadonlyArray<readonly [keyof Requester, string]> = [
  ['userId', 'userId'],
  ['sessionId', 'sessionId'],
  ['pageLoadId', 'pageLoadId'],
  ['pageUrl', 'domain'],
  ['shopperId', 'shopper'],
];

/** the query parameters a requester is read from */
export const REQUESTER_PARAMS: readonly string[] = PARAMS.map(([, param]) => param);

/**
 * Longer values are not kept (a page URL is far shorter): the memory of issued responses holds thousands,
 * and a value that long identifies nothing the beacons could be compared with.
 */
export const MAX_REQUESTER_VALUE = 2048;

/**
 * The requester a search request names, or undefined when it names none (a request made by a server, a
 * test or another client: nothing binds its response to a shopper). Values are not validated: the real
 * service answers whatever they hold, and so does the sandbox.
 */
export function requesterOf(params: URLSearchParams): Requester | undefined {
  let out: Requester | undefined;
  for (const [field, param] of PARAMS) {
    const v = params.get(param);
    if (v === null || v === '' || v.length > MAX_REQUESTER_VALUE) continue;
    (out ??= {})[field] = v;
  }
  return out;
}

/** What is wrong with a recorded requester read back (a file, an export), or null when it is one. */
export function requesterProblem(v: unknown): string | null {
  if (v === undefined) return null;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'requester is not an object of strings';
  for (const [key, value] of Object.entries(v)) {
    if (!PARAMS.some(([field]) => field === key))
      return `requester.${key} is not a requester field (${PARAMS.map(([f]) => f).join(', ')})`;
    if (typeof value !== 'string') return `requester.${key} is not a string`;
  }
  return null;
}
