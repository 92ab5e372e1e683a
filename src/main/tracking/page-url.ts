// What the timeline rules and the visits read of a page URL (context.pageUrl: window.location.href, as the
// provider's client sends it): the origin it was created at.

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
