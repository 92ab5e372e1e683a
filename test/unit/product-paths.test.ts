// The catalog's product paths: read without a URL parser where that is safe, and always as the parser
// would read them.
import { describe, expect, it } from 'vitest';
import { idsByPath, urlPath } from '../../src/main/search/product-paths';

/** what the URL parser makes of it: the reference the fast reading must agree with */
function parsed(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url, 'http://catalog.invalid').pathname;
  } catch {
    return undefined;
  }
  try {
    path = decodeURI(path);
  } catch {
    // as sent
  }
  if (path.endsWith('/')) path = path.slice(0, -1);
  return path === '' ? undefined : path;
}

describe('urlPath', () => {
  it.each([
    'https://shop.example/products/jacket',
    'https://shop.example/products/jacket/?color=red#top',
    'https://shop.example',
    'https://shop.example?q=1',
    'http://user:pw@shop.example:8080/x/y?z',
    '/products/boot/',
    '/products/b%C3%A9ret',
    '/a%2Fb',
    'https://shop.example/%E0%A4%A',
    'http://a.b/c/../d',
    '/a/./b',
    'products/relative',
    '//cdn.example/y',
    'https://shop.example/p q',
    'https://shop.example/a\\b',
    'mailto:x@y',
    '',
  ])('reads %j as the URL parser does', (url) => {
    expect(urlPath(url)).toBe(parsed(url));
  });
});

describe('idsByPath', () => {
  it('groups a product and its variants under their shared path', () => {
    const paths = idsByPath([
      { uid: 'P1', parentId: 'P1', url: 'https://shop.example/p/jacket' },
      { uid: 'V1', parentId: 'P1', url: '/p/jacket?variant=V1' },
      { uid: 'P2', parentId: null, url: '/p/boot/' },
      { uid: 'P3', parentId: null, url: null },
      { uid: 'P4', parentId: null, url: 'https://shop.example/' },
    ]);
    expect([...paths.keys()]).toEqual(['/p/jacket', '/p/boot']);
    expect([...paths.get('/p/jacket')!]).toEqual(['P1', 'V1']);
  });
});
