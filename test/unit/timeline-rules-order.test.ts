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
    expect(found[0]!.message).toContain('search/render with data.responseId "r1"');
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
    const found = findingsOf(events).filter((f) => f.rule === 'missing-render');
    expect(found.map((f) => f.severity)).toEqual(['info']);
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

  it('tolerates clock jitter within orderToleranceMs and ignores arrival order', () => {
    const p = new PageBuilder();
    const imp = p.impression('r1', ['a'], { at: 0, recv: 10 });
    const render = p.render('r1', { at: 800, recv: 900 });
    expect(rules([imp, render])).toEqual([]);
    expect(findingsOf([imp, render], { orderToleranceMs: 100 }).map((f) => f.rule)).toEqual([
      'order',
    ]);
  });

  it('compares with the first render when a cached response is rendered again', () => {
    const p = new PageBuilder();
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
    const p = new PageBuilder();
    const render = p.render('r1', { at: 0, recv: 900 });
    const imp = p.impression('r1', ['a'], { at: 100, recv: 900 });
    const cart = p.cart('r1', 'a', { at: 200, recv: 910 });
    const redirect = p.redirect('r1', 'http://shop/sale', { at: 600, recv: 620 });
    expect(rules([redirect, render, imp, cart])).toEqual([]);
  });
});
