// duplicate-render and duplicate-impression, including what is not a duplicate: merged batches,
// a cached response rendered again after another search (SPA), infinite scroll with new responseIds.
import { describe, expect, it } from 'vitest';
import { PageBuilder, findingsOf } from './timeline-events';

describe('duplicate-render', () => {
  it('flags a second render of a responseId before any impression of it', () => {
    const p = new PageBuilder();
    const a = p.render('r1', { at: 0 });
    const b = p.render('r1', { at: 30 });
    const found = findingsOf([a, b, p.impression('r1', ['x'], { at: 100 })]).filter(
      (f) => f.rule === 'duplicate-render',
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: 'warning',
      eventIds: [a.id, b.id],
      responseId: 'r1',
    });
  });

  it('accepts a cached response rendered again after impressions (coming back to a search)', () => {
    const p = new PageBuilder({ dev: false }); // the client caches in production only
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['x'], { at: 100 }),
      p.render('r2', { at: 2000 }),
      p.impression('r2', ['y'], { at: 2100 }),
      p.render('r1', { at: 4000 }),
      p.impression('r1', ['x'], { at: 4100 }),
    ];
    expect(findingsOf(events)).toEqual([]);
  });
});

describe('duplicate-impression', () => {
  it('flags the same uid impressed twice within one view of a response', () => {
    const p = new PageBuilder();
    const render = p.render('r1', { at: 0 });
    const i1 = p.impression('r1', ['a', 'b'], { at: 100 });
    const i2 = p.impression('r1', ['b', 'c'], { at: 900 });
    const found = findingsOf([render, i1, i2]).filter((f) => f.rule === 'duplicate-impression');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', eventIds: [i1.id, i2.id] });
    expect(found[0]!.message).toContain('uid "b"');
  });

  it('flags a uid listed twice inside one merged impression request', () => {
    const p = new PageBuilder();
    const i = p.impression('r1', ['a', 'a'], { at: 100 });
    const found = findingsOf([p.render('r1', { at: 0 }), i]).filter(
      (f) => f.rule === 'duplicate-impression',
    );
    expect(found.map((f) => f.eventIds)).toEqual([[i.id]]);
  });

  it('keeps results and banners apart and accepts each item once per response', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      // a tile and a banner of one id (a banner's uid is its data-banner-id's digits)
      p.impression('r1', ['7', 'b'], { at: 100 }, ['7']),
      p.impression('r1', ['c', 'd'], { at: 900 }),
      // infinite scroll: the next page is a new response, its items new
      p.render('r2', { at: 3000 }),
      p.impression('r2', ['e', 'f'], { at: 3100 }),
    ];
    expect(findingsOf(events)).toEqual([]);
  });
});
