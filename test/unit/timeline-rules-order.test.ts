// missing-render, order, after-redirect: what the spec's event order asks, and what the provider's
// client legitimately does (queued render arriving after an immediate click, redirect without render).
import { describe, expect, it } from 'vitest';
import { PageBuilder, findingsOf } from './timeline-events';

const rules = (events: Parameters<typeof findingsOf>[0]) =>
  findingsOf(events).map((f) => `${f.rule}/${f.severity}:${f.eventIds.join(',')}`);

describe('missing-render', () => {
  it('flags events of a responseId the page never rendered', () => {
    const p = new PageBuilder();
    const imp = p.impression('r1', ['a'], { at: 0 });
    const click = p.click('r1', 'a', { at: 500 });
    const found = findingsOf([imp, click]).filter((f) => f.rule === 'missing-render');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: 'error',
      responseId: 'r1',
      eventIds: [imp.id, click.id],
    });
    expect(found[0]!.fix).toContain('search/render with data.responseId "r1"');
  });

  it('is satisfied by a render that arrives after the click (queued behind the debounce)', () => {
    const p = new PageBuilder();
    const imp = p.impression('r1', ['a'], { at: 100, recv: 700 });
    const click = p.click('r1', 'a', { at: 400, recv: 420 });
    const render = p.render('r1', { at: 0, recv: 690 });
    expect(rules([click, render, imp])).toEqual([]);
  });

  it('does not ask for a render when the response redirected', () => {
    const p = new PageBuilder();
    expect(rules([p.redirect('r1', 'http://shop/sale', { at: 0 })])).toEqual([]);
  });

  it('is info only when the page rendered other responses (infinite-scroll backfill)', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 10 }),
      p.impression('r2', ['b'], { at: 20 }),
    ];
    const found = findingsOf(events).filter((f) => f.rule.startsWith('missing-render'));
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['missing-render-backfill', 'info']]);
  });

  it('leaves a rejected render to the schema rule', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0, accepted: false }),
      p.impression('r1', ['a'], { at: 10 }),
    ];
    expect(findingsOf(events).map((f) => f.rule)).toEqual(['schema']);
  });
});

describe('order', () => {
  it('flags an impression timestamped before its render beyond the tolerance', () => {
    const p = new PageBuilder();
    const imp = p.impression('r1', ['a'], { at: 0 });
    const render = p.render('r1', { at: 2500 });
    const found = findingsOf([render, imp]).filter((f) => f.rule === 'order');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', eventIds: [render.id, imp.id] });
    expect(found[0]!.message).toContain('2.5 s early');
  });

  it('tolerates clock jitter within orderToleranceMs when the arrival order disagrees with the timestamps', () => {
    const p = new PageBuilder();
    // timestamped 800 ms early but arrived after the render: jitter or batching, not a finding
    const render = p.render('r1', { at: 800, recv: 900 });
    const imp = p.impression('r1', ['a'], { at: 0, recv: 950 });
    expect(rules([render, imp])).toEqual([]);
    expect(findingsOf([render, imp], { orderToleranceMs: 100 }).map((f) => f.rule)).toEqual([
      'order',
    ]);
  });

  it('reports a gap under the tolerance when the arrival order says the same as the timestamps', () => {
    const p = new PageBuilder();
    const imp = p.impression('r1', ['a'], { at: 0, recv: 10 });
    const render = p.render('r1', { at: 800, recv: 900 });
    const found = findingsOf([imp, render]);
    expect(found.map((f) => f.rule)).toEqual(['order']);
    expect(found[0]!.message).toMatch(
      /within the tolerance of 1\.0 s, but it also arrived before the render/,
    );
  });

  it('compares with the first render when a cached response is rendered again', () => {
    const p = new PageBuilder({ dev: false }); // the client caches in production only
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 100 }),
      p.render('r2', { at: 5000 }),
      p.impression('r2', ['b'], { at: 5100 }),
      p.render('r1', { at: 9000 }),
      p.impression('r1', ['a'], { at: 9100 }),
    ];
    expect(rules(events)).toEqual([]);
  });
});

describe('after-redirect', () => {
  it('flags a render or impression timestamped after the redirect', () => {
    const p = new PageBuilder();
    const redirect = p.redirect('r1', 'http://shop/sale', { at: 0 });
    const render = p.render('r1', { at: 3000 });
    const imp = p.impression('r1', ['a'], { at: 3100 });
    const found = findingsOf([redirect, render, imp]).filter((f) => f.rule === 'after-redirect');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: 'warning',
      eventIds: [redirect.id, render.id, imp.id],
    });
    expect(found[0]!.message).toContain('http://shop/sale');
  });

  it('accepts an addtocart that arrives after the redirect with an older timestamp', () => {
    // the dropdown: rendered and impressed, a quick add, then a term submitted (a search's redirect has no render)
    const p = new PageBuilder().as('autocomplete');
    const render = p.render('r1', { at: 0, recv: 900 });
    const imp = p.impression('r1', ['a'], { at: 100, recv: 900 });
    const cart = p.cart('r1', 'a', { at: 200, recv: 910 });
    const redirect = p.redirect('r1', 'http://shop/sale', { at: 600, recv: 620 });
    expect(rules([redirect, render, imp, cart])).toEqual([]);
  });
});

describe('after-redirect within the tolerance', () => {
  it('reports an event timestamped after the redirect that also arrived after it; not one that arrived before', () => {
    const p = new PageBuilder();
    const redirect = p.redirect('r1', 'https://shop.example/sale', { at: 1000, recv: 1010 });
    const after = p.impression('r1', ['a'], { at: 1200, recv: 1300 });
    expect(findingsOf([redirect, after]).map((f) => f.rule)).toEqual(['after-redirect']);
    const q = new PageBuilder({ pageLoadId: 'page-2' });
    const arrivedFirst = q.impression('r2', ['a'], { at: 1200, recv: 1000 });
    const redirect2 = q.redirect('r2', 'https://shop.example/sale', { at: 1000, recv: 1010 });
    expect(findingsOf([arrivedFirst, redirect2]).map((f) => f.rule)).not.toContain(
      'after-redirect',
    );
  });
});

describe('click-not-impressed: impressions after the click, banners', () => {
  it('does not count an impression timestamped beyond the tolerance after the click', () => {
    const late = new PageBuilder({ pageLoadId: 'late' });
    const found = findingsOf([
      late.render('r1', { at: 0 }),
      late.impression('r1', ['a'], { at: 1200 }),
      late.click('r1', 'b', { at: 2000 }),
      late.impression('r1', ['b'], { at: 3100 }),
    ]).filter((f) => f.rule === 'click-not-impressed');
    expect(found.map((f) => f.severity)).toEqual(['warning']);
    expect(found[0]!.message).toMatch(/timestamped more than 1\.0 s after the click/);
    const timer = new PageBuilder({ pageLoadId: 'timer' });
    expect(
      findingsOf([
        timer.render('r1', { at: 0 }),
        timer.impression('r1', ['a'], { at: 1200 }),
        timer.click('r1', 'b', { at: 2000 }),
        // the 1 s visibility timer fired just after the click (the page stayed: an SPA)
        timer.impression('r1', ['b'], { at: 2900 }),
      ]).map((f) => f.rule),
    ).not.toContain('click-not-impressed');
  });

  it('a banner clicked long after its render is a warning even when the click ended the page', () => {
    const slow = new PageBuilder({ pageLoadId: 'slow' });
    const found = findingsOf([
      slow.render('r1', { at: 0 }),
      slow.impression('r1', ['a'], { at: 1200 }),
      slow.bannerClick('r1', '77', { at: 6000 }),
    ]).filter((f) => f.rule.startsWith('click-not-impressed'));
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['click-not-impressed', 'warning']]);
    const fast = new PageBuilder({ pageLoadId: 'fast' });
    const quick = findingsOf([
      fast.render('r1', { at: 0 }),
      fast.bannerClick('r1', '77', { at: 1000 }),
    ]).filter((f) => f.rule.startsWith('click-not-impressed'));
    expect(quick.map((f) => [f.rule, f.severity])).toEqual([
      ['click-not-impressed-at-exit', 'info'],
    ]);
  });
});

describe('responseid-stale: an SPA re-search that keeps the previous responseId', () => {
  const at = (url: string) => ({ context: { pageUrl: url } });
  const SHIRT = 'http://localhost:3000/search?q=shirt';
  const BOOTS = 'http://localhost:3000/search?q=boots';

  it('flags events of the first search sent while the page shows another query', () => {
    const p = new PageBuilder({ pageUrl: SHIRT });
    const found = findingsOf([
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 1200 }),
      // the shopper searched "boots": the storefront renders, impresses and clicks with r1 again
      p.render('r1', { at: 5000, ...at(BOOTS) }),
      p.impression('r1', ['b'], { at: 6200, ...at(BOOTS) }),
      p.click('r1', 'b', { at: 7000, ...at(BOOTS) }),
    ]);
    const stale = found.filter((f) => f.rule === 'responseid-stale');
    expect(stale.map((f) => [f.severity, f.eventCount])).toEqual([['error', 3]]);
    expect(stale[0]!.message).toMatch(
      /the response for "shirt".*sent while the page showed "boots"/,
    );
  });

  it('makes the new response’s missing render an error when a stale render stood in for it', () => {
    const p = new PageBuilder({ pageUrl: SHIRT });
    const found = findingsOf([
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 1200 }),
      p.render('r1', { at: 5000, ...at(BOOTS) }),
      p.impression('r2', ['b'], { at: 6200, ...at(BOOTS) }),
      p.click('r2', 'b', { at: 7000, ...at(BOOTS) }),
    ]);
    expect(found.filter((f) => f.rule === 'missing-render').map((f) => f.severity)).toEqual([
      'error',
    ]);
    expect(found.map((f) => f.rule)).toContain('responseid-stale');
  });

  it('is silent for a cached response rendered again under its own query, infinite scroll and URLs without a query', () => {
    const p = new PageBuilder({ pageUrl: SHIRT });
    expect(
      findingsOf([
        p.render('r1', { at: 0 }),
        p.impression('r1', ['a'], { at: 1200 }),
        p.render('r2', { at: 5000, ...at(BOOTS) }),
        p.impression('r2', ['b'], { at: 6200, ...at(BOOTS) }),
        // back to "shirt": the client renders its cached response again
        p.render('r1', { at: 9000, ...at(`${SHIRT}&page=1`) }),
        p.impression('r1', ['a'], { at: 10_200, ...at(SHIRT) }),
        // infinite scroll: page 2 of "shirt", the URL keeps the query
        p.render('r3', { at: 12_000, ...at(`${SHIRT}&page=2`) }),
        p.impression('r3', ['c'], { at: 13_200, ...at(`${SHIRT}&page=2`) }),
      ]).map((f) => f.rule),
    ).not.toContain('responseid-stale');
    const noQuery = new PageBuilder({ pageUrl: 'http://localhost:3000/shop' });
    expect(
      findingsOf([
        noQuery.render('r1', { at: 0 }),
        noQuery.impression('r1', ['a'], { at: 1200, ...at('http://localhost:3000/shop#boots') }),
      ]).map((f) => f.rule),
    ).not.toContain('responseid-stale');
  });
});
