// What the timeline rules and the visits read of a page URL (context.pageUrl: window.location.href, as the
// provider's client sends it): the origin it was created at, and the search query it shows.

/**
 * scheme://host[:port] of an absolute hierarchical URL, lower-cased; '' for anything else (no scheme, no
 * `//`, garbage). It compares the origins of two pages (two documents under one pageLoadId, a cart and an
 * order on two domains), so it keys every scheme a storefront runs under: a webview app's own scheme
 * (`capacitor://localhost`) and `file://`, whose origin URL's parser calls "null". Read as written, without
 * parsing: location.href never writes a default port or an upper-case host, so a port written is a port.
 */
export function originOf(url: string): string {
  // scheme: a letter, then letters, digits, + . - (RFC 3986); read by hand, as every event's page is
  // keyed by it: a regular expression's match made a list and two strings per page
  const first = url.charCodeAt(0) | 0x20;
  if (!(first >= 97 && first <= 122)) return '';
  let i = 1;
  let upper = url.charCodeAt(0) < 97;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    const lower = c | 0x20;
    if (lower >= 97 && lower <= 122) upper ||= c < 97;
    else if (!((c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45)) break;
  }
  if (url.charCodeAt(i) !== 58 || url.charCodeAt(i + 1) !== 47 || url.charCodeAt(i + 2) !== 47)
    return '';
  // the authority: up to the path, the query or the fragment
  let end = i + 3;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break;
    // an upper-case letter, or any beyond ASCII (what toLowerCase may change)
    if ((c >= 65 && c <= 90) || c >= 128) upper = true;
  }
  const origin = end === url.length ? url : url.slice(0, end);
  return upper ? origin.toLowerCase() : origin;
}

/** The search query of a page URL (`?q=`, else `?query=`) as written; undefined when it has none. */
export function urlQuery(pageUrl: string): string | undefined {
  // no `?`, no query: the answer URL's parser would give, without parsing
  if (!pageUrl.includes('?')) return undefined;
  let u: URL;
  try {
    u = new URL(pageUrl);
  } catch {
    return undefined;
  }
  return u.searchParams.get('q') ?? u.searchParams.get('query') ?? undefined;
}
