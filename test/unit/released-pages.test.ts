// The pages check let go, by site and pageLoadId: two sites' pages with one pageLoadId are two pages; the
// oldest go first, a shared pageLoadId with all its sites' pages.
import { describe, expect, it } from 'vitest';
import { ReleasedPages } from '../../src/main/tracking/timeline/released-pages';

/** released pages, each [siteId, pageLoadId], in order */
function released(...pages: Array<[string, string]>): ReleasedPages {
  const r = new ReleasedPages();
  for (const [siteId, pageLoadId] of pages) r.add(siteId, pageLoadId);
  return r;
}

describe('ReleasedPages', () => {
  it('knows a page by its site and pageLoadId', () => {
    const r = released(['a', 'p1'], ['b', 'p1'], ['a', 'p1'], ['c', 'p2']);
    expect(r.size).toBe(3);
    expect(r.has('a', 'p1')).toBe(true);
    expect(r.has('b', 'p1')).toBe(true);
    expect(r.has('c', 'p1')).toBe(false);
    expect(r.has('c', 'p2')).toBe(true);
    expect(r.has('a', 'p2')).toBe(false);
    r.add('c', 'p1');
    r.add('b', 'p1');
    expect(r.size).toBe(4);
    expect(r.has('c', 'p1')).toBe(true);
  });

  it('forgets the oldest beyond a ceiling, counting pages', () => {
    const r = released(['a', 'p1'], ['b', 'p1'], ['a', 'p2'], ['a', 'p3']);
    expect(r.forgetOldest(4)).toBe(0);
    // the first pageLoadId goes with both its pages
    expect(r.forgetOldest(3)).toBe(2);
    expect(r.size).toBe(2);
    expect(r.has('a', 'p1') || r.has('b', 'p1')).toBe(false);
    expect(r.has('a', 'p2')).toBe(true);
    expect(r.forgetOldest(1)).toBe(1);
    expect(r.has('a', 'p2')).toBe(false);
    expect(r.has('a', 'p3')).toBe(true);
  });
});
