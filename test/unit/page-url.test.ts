// What the timeline rules and the visits read of a page URL: the origin two pages are compared by, and the
// search query it shows.
import { describe, expect, it } from 'vitest';
import { originOf, urlQuery } from '../../src/main/tracking/page-url';

describe('originOf', () => {
  it('is scheme, host and port, lower-cased, without path, query or fragment', () => {
    expect(originOf('https://pay.example.com/thank-you?x=1')).toBe('https://pay.example.com');
    expect(originOf('HTTPS://Shop.Example.COM/Cart#top')).toBe('https://shop.example.com');
    expect(originOf('http://localhost:3000?q=boots')).toBe('http://localhost:3000');
    expect(originOf('http://[::1]:8080/')).toBe('http://[::1]:8080');
  });

  it('keeps a port as written: another port is another origin, and so is a default port written out', () => {
    expect(originOf('http://localhost:3001/search')).not.toBe(originOf('http://localhost:3000/'));
    expect(originOf('https://shop.example.com:443/cart')).toBe('https://shop.example.com:443');
    expect(originOf('http://shop.example.com:80/')).toBe('http://shop.example.com:80');
  });

  it('keys every hierarchical scheme a storefront runs under, file: included', () => {
    expect(originOf('file:///home/me/shop/index.html')).toBe('file://');
    expect(originOf('file:///C:/shop/cart.html')).toBe(originOf('file:///home/me/thanks.html'));
    expect(originOf('capacitor://localhost/search?q=boots')).toBe('capacitor://localhost');
  });

  it('is empty for a URL without a scheme and authority, and for garbage', () => {
    expect(originOf('shop.example.com/search?q=boots')).toBe('');
    expect(originOf('//shop.example.com/search')).toBe('');
    expect(originOf('/search?q=boots')).toBe('');
    expect(originOf('about:blank')).toBe('');
    expect(originOf('mailto:me@example.com')).toBe('');
    expect(originOf('not a url')).toBe('');
    expect(originOf('')).toBe('');
    expect(originOf(' https://shop.example.com/')).toBe('');
  });
});

describe('originOf, read by hand', () => {
  it('gives what the regular expression it replaced gave, over generated URLs', () => {
    const byRegex = (url: string) => {
      const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url);
      return m ? m[1]!.toLowerCase() : '';
    };
    // a scheme, what follows it, an authority and the rest, each among good and broken pieces
    const schemes = [
      'https',
      'HTTP',
      'h',
      'x+y.z-1',
      'capacitor',
      '1http',
      '',
      ' http',
      'ht tp',
      'é',
    ];
    const seps = ['://', ':/', ':', '//', ':///', '://'];
    const hosts = [
      'Shop.Example.COM',
      'localhost:3000',
      '[::1]:8080',
      'ÉXAMPLE.com',
      'a@B',
      '',
      'x?y',
      'ß.de',
    ];
    const rests = ['', '/', '/Cart?q=A#B', '?Q=1', '#/X', '/path/Ä'];
    let found = 0;
    for (const a of schemes)
      for (const b of seps)
        for (const c of hosts)
          for (const d of rests) {
            const url = a + b + c + d;
            expect(originOf(url), JSON.stringify(url)).toBe(byRegex(url));
            if (originOf(url)) found++;
          }
    expect(found).toBeGreaterThan(500);
  });
});

describe('urlQuery', () => {
  it('is `q`, else `query`, decoded and as written (a credit shows it; the rules normalise it to compare)', () => {
    expect(urlQuery('https://shop.example.com/search?q=Red+Shoes%21&page=2')).toBe('Red Shoes!');
    expect(urlQuery('https://shop.example.com/search?query=%20boots%20')).toBe(' boots ');
    expect(urlQuery('https://shop.example.com/search?query=b&q=a')).toBe('a');
    expect(urlQuery('https://shop.example.com/search?q=')).toBe('');
  });

  it('is undefined without one, and for what is no URL', () => {
    expect(urlQuery('https://shop.example.com/search')).toBeUndefined();
    expect(urlQuery('https://shop.example.com/search#/q:boots')).toBeUndefined();
    expect(urlQuery('https://shop.example.com/search?sort=price')).toBeUndefined();
    expect(urlQuery('/search?q=boots')).toBeUndefined();
    expect(urlQuery('not a url?q=boots')).toBeUndefined();
  });
});
