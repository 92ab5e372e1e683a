// The first page of each responseId, per site and kind, in one map keyed by the responseId itself: two
// sites or two kinds with the same responseId keep their own origins; forgetting and resets touch only
// what they name.
import { describe, expect, it } from 'vitest';
import { ResponseOrigins, SiteOrigin } from '../../src/main/tracking/timeline/response-origins';
import type { ResponseKind } from '../../src/shared/kinds';
import { pageKey } from '../../src/main/tracking/timeline/model';

// the pages are named by their pageLoadId: an origin's page key is made from its site and pageLoadId
const origin = (siteId: string, kind: ResponseKind, pageLoadId: string): SiteOrigin =>
  new SiteOrigin(
    siteId,
    pageLoadId,
    `https://shop.example/${pageLoadId}`,
    's-1',
    `ev-${pageLoadId}`,
    kind,
    'render',
    0,
    false,
  );

function noted(...list: Array<[string, string, ResponseKind, string]>): ResponseOrigins {
  const origins = new ResponseOrigins();
  for (const [siteId, id, kind, pageKey] of list)
    origins.note(siteId, id, kind, () => origin(siteId, kind, pageKey));
  return origins;
}

describe('ResponseOrigins', () => {
  it('keeps the first page per site and kind; the first of any kind per site', () => {
    const o = noted(
      ['a', 'r1', 'search', 'p1'],
      ['a', 'r1', 'search', 'p2'],
      ['a', 'r1', 'category', 'p3'],
      ['b', 'r1', 'category', 'p4'],
    );
    expect(o.ofKind('a', 'r1', 'search')?.pageLoadId).toBe('p1');
    expect(o.ofKind('a', 'r1', 'category')?.pageLoadId).toBe('p3');
    expect(o.ofKind('b', 'r1', 'category')?.pageLoadId).toBe('p4');
    expect(o.ofKind('b', 'r1', 'search')).toBeUndefined();
    expect(o.first('a', 'r1')?.pageLoadId).toBe('p1');
    expect(o.first('b', 'r1')?.pageLoadId).toBe('p4');
    expect(o.first('c', 'r1')).toBeUndefined();
    expect(o.first('a', 'r2')).toBeUndefined();
  });

  it("names its page by the page's key, made from the site and pageLoadId (what the engine keys pages by)", () => {
    const o = noted(['a', 'r1', 'search', 'p1'], ['b', 'r1', 'search', 'p1']);
    expect(o.first('a', 'r1')?.pageKey).toBe(pageKey('a', 'p1'));
    expect(o.first('b', 'r1')?.pageKey).toBe(pageKey('b', 'p1'));
    expect(o.first('a', 'r1')?.pageKey).not.toBe(o.first('b', 'r1')?.pageKey);
  });

  it('builds an origin only when it is kept', () => {
    const o = noted(['a', 'r1', 'search', 'p1']);
    let built = 0;
    o.note('a', 'r1', 'search', () => (built++, origin('a', 'search', 'p9')));
    expect(built).toBe(0);
    o.note('a', 'r1', 'autocomplete', () => (built++, origin('a', 'autocomplete', 'p9')));
    expect(built).toBe(1);
  });

  it('forgets the oldest responseIds beyond a ceiling, counting responseIds', () => {
    const o = noted(
      ['a', 'r1', 'search', 'p1'],
      ['b', 'r1', 'search', 'p2'],
      ['a', 'r2', 'search', 'p3'],
      ['a', 'r3', 'search', 'p4'],
    );
    expect(o.forgetOldest(3)).toBe(0);
    expect(o.forgetOldest(2)).toBe(1);
    expect(o.first('a', 'r1')).toBeUndefined();
    expect(o.first('b', 'r1')).toBeUndefined();
    expect(o.first('a', 'r2')?.pageLoadId).toBe('p3');
  });

  it("a site's reset leaves the other sites' origins of the same responseId", () => {
    const o = noted(
      ['a', 'r1', 'search', 'p1'],
      ['b', 'r1', 'search', 'p2'],
      ['a', 'r2', 'search', 'p3'],
    );
    o.reset('a');
    expect(o.first('a', 'r1')).toBeUndefined();
    expect(o.first('a', 'r2')).toBeUndefined();
    expect(o.first('b', 'r1')?.pageLoadId).toBe('p2');
    o.note('a', 'r1', 'search', () => origin('a', 'search', 'p5'));
    expect(o.ofKind('a', 'r1', 'search')?.pageLoadId).toBe('p5');
    expect(o.ofKind('b', 'r1', 'search')?.pageLoadId).toBe('p2');
    o.reset();
    expect(o.first('b', 'r1')).toBeUndefined();
  });
});
