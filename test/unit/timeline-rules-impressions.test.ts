// click-not-impressed, cart-not-impressed and no-impression (idle on the sandbox clock).
import { describe, expect, it } from 'vitest';
import { PageBuilder, engineAt, findingsOf, T0 } from './timeline-events';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';

describe('click-not-impressed', () => {
  it('flags a click of a uid no impression of that response reported', () => {
    const p = new PageBuilder();
    // a second after the render (a tile could have been impressed), and the shopper stayed on the page
    const click = p.click('r1', '8128', { at: 1_500 });
    const later = p.impression('r1', ['3'], { at: 1_900 });
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['1', '2'], { at: 100 }),
      click,
      later,
    ];
    const found = findingsOf(events).filter((f) => f.rule === 'click-not-impressed');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', eventIds: [click.id], responseId: 'r1' });
    expect(found[0]!.message).toContain('"8128"');
    expect(found[0]!.message).toContain('scrolls into view');
  });

  it('is info when the click ended the page (the client never impresses a tile clicked within 1.3 s), a warning once the page goes on', () => {
    const { engine } = engineAt();
    const p = new PageBuilder();
    engine.apply(p.render('r1', { at: 0 }));
    engine.apply(p.impression('r1', ['1', '2'], { at: 100 }));
    // 1.1 s after the render: within the client's 1.3 s, but past the 1 s a tile needs in view
    engine.apply(p.click('r1', '3', { at: 1_100 }));
    const found = () =>
      engine.pagesDto()[0]!.findings.find((f) => f.rule.startsWith('click-not-impressed'))!;
    expect([found().rule, found().severity]).toEqual(['click-not-impressed-at-exit', 'info']);
    expect(found().message).toContain('the click was the last event of the page');
    expect(engine.pagesDto()[0]!.verdict).toBe('pass');
    // a later event on another response of the page: the page did not end with the click
    engine.apply(p.render('r2', { at: 2000 }));
    expect(engine.pagesDto()[0]!.verdict).toBe('warn');
    expect([found().rule, found().severity]).toEqual(['click-not-impressed', 'warning']);
    expect(found().message).not.toContain('last event of the page');
  });

  it('accepts a click whose impression is still queued and arrives later', () => {
    const p = new PageBuilder();
    const click = p.click('r1', 'a', { at: 500, recv: 510 });
    const render = p.render('r1', { at: 0, recv: 800 });
    const imp = p.impression('r1', ['a'], { at: 450, recv: 800 });
    expect(findingsOf([click, render, imp])).toEqual([]);
  });

  it('matches banner clicks against banner impressions', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', [], { at: 100 }, ['81001']),
      p.bannerClick('r1', '81001', { at: 300 }),
    ];
    expect(findingsOf(events)).toEqual([]);
  });

  it('does not count an impression of another responseId (the tile is click-under-other-response’s)', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 100 }),
      p.render('r2', { at: 1000 }),
      p.impression('r2', ['b'], { at: 1100 }),
      p.click('r2', 'a', { at: 1500 }),
    ];
    expect(findingsOf(events).map((f) => f.rule)).toEqual(['click-under-other-response']);
  });
});

describe('cart-not-impressed', () => {
  it('flags a quick add of an item never impressed', () => {
    const p = new PageBuilder();
    const cart = p.cart('r1', 'zz', { at: 500 });
    const events = [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 100 }), cart];
    const found = findingsOf(events).filter((f) => f.rule === 'cart-not-impressed');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', eventIds: [cart.id] });
  });

  it('matches a variant added to the cart to its impressed parent', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 100 }),
      p.cart('r1', 'a-red-m', { at: 500 }, 'a'),
    ];
    expect(findingsOf(events)).toEqual([]);
  });
});

describe('no-impression', () => {
  it('appears once the page has been idle for noImpressionIdleMs on the sandbox clock, and goes on activity', async () => {
    const { clock, engine } = engineAt(0, { noImpressionIdleMs: 30_000 });
    const p = new PageBuilder();
    const render = p.render('r1', { at: 0, recv: 0 });
    engine.apply(render);
    const rules = () =>
      engine
        .pagesDto()
        .flatMap((pg) => pg.findings.map((f) => f.rule))
        .filter((r) => r !== 'dev-flag');
    expect(rules()).toEqual([]);
    clock.advance(29_000);
    expect(rules()).toEqual([]);
    clock.advance(1_000);
    expect(rules()).toEqual(['no-impression']);
    const f = engine.pagesDto()[0]!.findings.find((x) => x.rule === 'no-impression')!;
    expect(f).toMatchObject({ severity: 'info', eventIds: [render.id] });
    expect(engine.pagesDto()[0]!.verdict).toBe('pass');
    clock.set(T0 + 31_000);
    engine.apply(p.impression('r1', ['a'], { at: 31_000, recv: 31_000 }));
    expect(rules()).toEqual([]);
  });

  it('is not raised for a redirected response or one with impressions', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['a'], { at: 10 }),
      p.redirect('r2', 'http://x/sale', { at: 20 }),
    ];
    expect(findingsOf(events)).toEqual([]);
  });

  it('is decided at the end of offline input', () => {
    const p = new PageBuilder();
    expect(findingsOf([p.render('r1', { at: 0 })]).map((f) => f.rule)).toEqual(['no-impression']);
  });
});

describe('no-impression for many pages at once', () => {
  it('judges a burst of pages going idle together in slices, each page once, none forgotten', async () => {
    const seen = new Map<string, number>();
    const { clock, engine: base } = engineAt(0, { noImpressionIdleMs: 30_000 });
    const engine = new TimelineEngine({
      clock,
      settings: base.settings,
      onChange: (s) => {
        if (s.rules.includes('no-impression'))
          seen.set(s.pageLoadId, (seen.get(s.pageLoadId) ?? 0) + 1);
      },
    });
    const PAGES = 5000;
    for (let n = 0; n < PAGES; n++)
      engine.apply(new PageBuilder({ pageLoadId: `p-${n}` }).render(`r-${n}`, { at: 0, recv: 0 }));
    // the clock moves on an hour: every page comes due at once
    clock.advance(3_600_000);
    // far more than one slice of work: the loop was given back before all were judged
    expect(seen.size).toBeLessThan(PAGES);
    while (seen.size < PAGES) await new Promise((r) => setImmediate(r));
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(engine.pagesDto().every((p) => p.findings.some((f) => f.rule === 'no-impression'))).toBe(
      true,
    );
    engine.dispose();
  });
});
