// The catalog's products by the path of their URL: the product page a storefront serves at a path is the
// product whose feed row links there. Read by `pageview-other-url` to tell which product a page shows.

/** The path of a URL as a product page is matched by: decoded, without a trailing slash; the site root,
 * a path-less or unparsable URL has none. */
export function urlPath(url: string): string | undefined {
  let path = fastPath(url);
  if (path === undefined) {
    try {
      path = new URL(url, 'http://catalog.invalid').pathname;
    } catch {
      return undefined;
    }
  }
  if (path.includes('%'))
    try {
      path = decodeURI(path);
    } catch {
      // a malformed escape: compared as sent
    }
  if (path.endsWith('/')) path = path.slice(0, -1);
  return path === '' ? undefined : path;
}

/**
 * The path of an absolute http(s) URL or a root-relative one, read without a URL parser (a catalog of
 * 100,000 products is indexed in a few milliseconds, not a quarter of a second); undefined for anything
 * else (the URL parser decides).
 */
function fastPath(url: string): string | undefined {
  let start: number;
  if (url.startsWith('/') && !url.startsWith('//')) start = 0;
  else if (url.startsWith('https://') || url.startsWith('http://')) {
    start = url.indexOf('/', url.indexOf('//') + 2);
    if (start < 0) return '/';
  } else return undefined;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    // ? # and the characters a URL parser would rewrite (backslash, space, control characters)
    if (c === 63 || c === 35) {
      end = i;
      break;
    }
    if (c === 92 || c <= 32) return undefined;
  }
  const path = url.slice(start, end);
  return path.includes('/.') ? undefined : path;
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
