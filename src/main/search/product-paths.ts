// The catalog's products by the path of their URL: the product page a storefront serves at a path is the
// product whose feed row links there. Read by `pageview-other-url` to tell which product a page shows.

/** The path of a URL as a product page is matched by: decoded, without a trailing slash; the site root,
 * a path-less or unparsable URL has none. */
export function urlPath(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url, 'http://catalog.invalid').pathname;
  } catch {
    return undefined;
  }
  try {
    path = decodeURI(path);
  } catch {
    // a malformed escape: compared as sent
  }
  if (path.endsWith('/')) path = path.slice(0, -1);
  return path === '' ? undefined : path;
}

/** A product's ids (its uid, and its variant group's parent id) by the path of its URL. */
export function idsByPath(
  products: Iterable<{ uid: string; parentId: string | null; url: string | null }>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of products) {
    const path = p.url === null ? undefined : urlPath(p.url);
    if (path === undefined) continue;
    let ids = out.get(path);
    if (!ids) out.set(path, (ids = new Set()));
    ids.add(p.uid);
    if (p.parentId !== null) ids.add(p.parentId);
  }
  return out;
}
