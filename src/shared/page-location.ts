// A page's URL as baselines match and compare pages, and as JUnit names a page's test: scheme, host and
// port left out, the page's own ids (its orderId, sessionId, …) read by their names, the parameters in the
// order of their names. Baselines and reports both read it, so it sits below both.

/** What is told of each URL parameter read: whether the ignored ones were (`--ignore query.NAME`). */
export interface ParamUse {
  param(name: string, ignored: boolean): void;
}

/** The URL's path, query and fragment: what identifies a page whatever host served it. */
export function pagePath(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const rest = m ? url.slice(m[0].length) : url;
  return rest === '' ? '/' : rest;
}

/** The volatile values a page's events carried, each with its name (`orderId`, `sessionId`, …). */
export type VolatileValues = ReadonlyMap<string, string>;

/** The names a volatile value is known by: the page's own ids, and its orders' and responses' ids. */
const VOLATILE_NAMES = new Set(['sessionId', 'userId', 'pageLoadId', 'responseId', 'orderId']);

/**
 * Notes `value` as a volatile value named `name` (one of VOLATILE_NAMES), the first name a value came with
 * kept; true when it is new. Baselines and JUnit's test names read a page's URL with the same values.
 */
export function addVolatile(volatile: Map<string, string>, value: unknown, name: string): boolean {
  if (typeof value !== 'string' || value === '' || volatile.has(value)) return false;
  volatile.set(value, name);
  return true;
}

/** The name of the page's id a compared URL value stands for (`orderId` of `{orderId}`); undefined for a value. */
export function idNamed(value: string | undefined): string | undefined {
  const m = value === undefined ? null : /^\{(\w+)\}$/.exec(value);
  return m && VOLATILE_NAMES.has(m[1]!) ? m[1] : undefined;
}

/** A URL part as written, percent-decoded (`+` a space, as a query writes it); as it is when it cannot be. */
export function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The URL's path and query as pages are matched and compared: scheme, host and port left out, a parameter
 * whose value is one of the page's volatile values written `name={orderId}` (its value differs every run,
 * its name still counts), as is a path segment that is one (`/checkout/order-received/{orderId}/`, the
 * thank-you page of many shop platforms), the parameters `--ignore query.NAME` names left out, and the
 * rest in the order of their names: a page is its set of parameters, whatever order a link or a router
 * wrote them in (`?page=1&q=jacket` is `?q=jacket&page=1`); the values of a name given more than once keep
 * their order (`?color=red&color=blue` is not `?color=blue&color=red`). A baseline file written with the
 * parameters as recorded reads back the same way.
 */
export function pageLocation(
  url: string,
  volatile: VolatileValues,
  params: ReadonlySet<string> = new Set(),
  use?: ParamUse,
): string {
  const whole = pagePath(url);
  const end = whole.search(/[?#]/);
  const path =
    volatileSegments(end < 0 ? whole : whole.slice(0, end), volatile) +
    (end < 0 ? '' : whole.slice(end));
  const q = path.indexOf('?');
  if (q < 0) return path;
  const hash = path.indexOf('#', q);
  const query = path.slice(q + 1, hash < 0 ? undefined : hash);
  const kept: Array<{ name: string; text: string }> = [];
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const named = decoded(name);
    const ignored = params.has(named);
    if (use) use.param(named, ignored);
    if (ignored) continue;
    const value = eq < 0 ? '' : decoded(pair.slice(eq + 1));
    const what = value === '' ? undefined : volatile.get(value);
    kept.push({ name: named, text: what === undefined ? pair : `${name}={${what}}` });
  }
  // by name (a stable sort: a repeated name's values keep their order)
  kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const joined = kept.map((p) => p.text).join('&');
  const rest = `${kept.length ? `?${joined}` : ''}${hash < 0 ? '' : path.slice(hash)}`;
  return path.slice(0, q) + rest;
}

/** A URL path with each segment that is one of the page's volatile values written `{orderId}`, `{sessionId}`, … */
function volatileSegments(path: string, volatile: VolatileValues): string {
  if (volatile.size === 0) return path;
  let changed = false;
  const segments = path.split('/').map((segment) => {
    const what = segment === '' ? undefined : volatile.get(decoded(segment));
    if (what === undefined) return segment;
    changed = true;
    return `{${what}}`;
  });
  return changed ? segments.join('/') : path;
}
