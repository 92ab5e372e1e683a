// What the timeline rules and the visits read of a page URL (context.pageUrl: window.location.href, as the
// provider's client sends it): the origin it was created at, and the search query it shows.

const HIERARCHICAL = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i;

/**
 * scheme://host[:port] of an absolute hierarchical URL, lower-cased; '' for anything else (no scheme, no
 * `//`, garbage). It compares the origins of two pages (two documents under one pageLoadId, a cart and an
 * order on two domains), so it keys every scheme a storefront runs under: a webview app's own scheme
 * (`capacitor://localhost`) and `file://`, whose origin URL's parser calls "null". Read as written, without
 * parsing: location.href never writes a default port or an upper-case host, so a port written is a port.
 */
export function originOf(url: string): string {
  const m = HIERARCHICAL.exec(url);
  return m ? m[1]!.toLowerCase() : '';
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
