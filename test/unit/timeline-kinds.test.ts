// Timelines of every kind a storefront tracks: category pages as search, autocomplete with its repeated-search
// render skip, recommendations and bundles per widget (tag), and responseIds crossing kinds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESPONSE_KINDS } from '../../src/shared/kinds';
import { RULE_IDS, ruleMeta } from '../../src/main/tracking/timeline/rule-list';

const ruleAppliesTo = (rule: string, kind: string) =>
  (ruleMeta(rule)?.appliesTo as readonly string[] | undefined)?.includes(kind) ?? false;
import { PageBuilder, engineAt, findingsOf, run } from './timeline-events';

const rules = (fs: Array<{ rule: string }>) => fs.map((f) => f.rule).sort();

describe('timelines of every kind', () => {
  it('keys a page’s responses by kind (and tag): one responseId under two tags is two widgets', () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/product/1' });
    const a = p.as('recommendations', 'similar');
    const b = p.as('recommendations', 'also-bought');
    const [page] = run([
      a.render('rec-1', { at: 0 }),
      b.render('rec-1', { at: 10 }),
      a.impression('rec-1', ['p1'], { at: 1500 }),
      b.impression('rec-1', ['p1'], { at: 1500 }),
    ]);
    expect(page!.responses.map((r) => [r.kind, r.tag, r.responseId])).toEqual([
      ['recommendations', 'similar', 'rec-1'],
      ['recommendations', 'also-bought', 'rec-1'],
    ]);
    expect(page!.responses[0]!.events[0]).toMatchObject({
      kind: 'recommendations',
      tag: 'similar',
    });
    // two widgets never render one responseId (the recommend API answers each tag with its own, and each
    // controller renders its own): the later render is one widget's id reused by the other
    expect(
      page!.findings
        .filter((f) => f.rule !== 'dev-flag')
        .map((f) => [f.rule, f.messageId, f.tag, f.eventIds.length]),
    ).toEqual([['responseid-cross-kind', 'sharedWidget', 'also-bought', 2]]);
  });

  it('category pages follow the search rules: a clean page passes, a click never impressed and events without render are named', () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/c/jackets' }).as('category');
    const clean = [
      p.render('cat-1', { at: 0 }),
      p.impression('cat-1', ['1', '2'], { at: 1500 }),
      p.click('cat-1', '2', { at: 3000 }),
      p.cart('cat-1', '1', { at: 3100 }),
    ];
    expect(findingsOf(clean)).toEqual([]);
    const faults = findingsOf([
      p.render('cat-1', { at: 0 }),
      p.impression('cat-1', ['1'], { at: 1500 }),
      p.click('cat-1', '9', { at: 2000 }),
      p.impression('cat-2', ['5'], { at: 2500 }),
      p.render('cat-3', { at: 2600 }),
    ]);
    expect(rules(faults)).toEqual([
      'click-not-impressed',
      'missing-render-backfill',
      'no-impression',
    ]);
    const missing = faults.find((f) => f.rule === 'missing-render-backfill')!;
    expect(missing).toMatchObject({ kind: 'category', severity: 'info' });
    expect(missing.message).toContain('category/render');
    expect(missing.id).toBe('missing-render-backfill:cat-2@category');
  });

  it('a category page’s merchandising redirect on search/redirect is no cross-kind finding; a category responseId on a search render is', () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/c/sale' });
    const redirect = p.as('category').redirect('cat-r', 'http://localhost:3000/sale', { at: 10 });
    expect(redirect.path).toBe('/beacon/v2/demo42/search/redirect');
    expect(findingsOf([redirect])).toEqual([]);
    // the category response seen first on the site (its render): the redirect is still not a crossing (the
    // render itself is one a redirected response never sends: redirect-with-render)
    const both = findingsOf([p.as('category').render('cat-r', { at: 0 }), redirect]);
    expect(rules(both)).toEqual(['no-impression', 'redirect-with-render']);
    const rendered = findingsOf([
      p.as('category').render('cat-x', { at: 0 }),
      p.render('cat-x', { at: 10 }),
    ]);
    expect(rules(rendered)).toEqual(['no-impression', 'responseid-cross-kind']);
    expect(rendered[0]!.message).toMatch(/category response's.*search\/render/);
  });

  it('autocomplete: a repeated search (same responseId as shown) is not rendered again, even after impressions', () => {
    const p = new PageBuilder().as('autocomplete');
    const repeated = findingsOf([
      p.render('ac-a', { at: 0 }),
      p.impression('ac-a', ['1'], { at: 1500 }),
      p.render('ac-a', { at: 3000 }),
    ]);
    expect(rules(repeated)).toEqual(['duplicate-render']);
    expect(repeated[0]!.fix).toContain('autocomplete/render');
    // typed on, then back: the controller renders the earlier response again, and re-impresses it
    expect(
      findingsOf([
        p.render('ac-a', { at: 0 }),
        p.impression('ac-a', ['1'], { at: 1500 }),
        p.render('ac-b', { at: 2000 }),
        p.render('ac-a', { at: 3000 }),
        p.impression('ac-a', ['1'], { at: 4500 }),
      ]),
    ).toEqual([]);
    // no impression between the two renders: a repeated search of a response without results renders again
    expect(findingsOf([p.render('ac-z', { at: 0 }), p.render('ac-z', { at: 800 })])).toEqual([]);
  });

  it('autocomplete: a render arriving late between two renders of one response clears the duplicate', () => {
    const p = new PageBuilder().as('autocomplete');
    const { engine } = engineAt();
    engine.apply(p.render('ac-a', { at: 0 }));
    engine.apply(p.impression('ac-a', ['1'], { at: 1500 }));
    engine.apply(p.render('ac-a', { at: 3000 }));
    expect(engine.pagesDto()[0]!.findings.map((f) => f.rule)).toContain('duplicate-render');
    engine.apply(p.render('ac-b', { at: 2000, recv: 3500 }));
    expect(engine.pagesDto()[0]!.findings.map((f) => f.rule)).not.toContain('duplicate-render');
  });

  it('autocomplete responses shown while typing need no impression; a search render does (info)', () => {
    const p = new PageBuilder();
    const found = findingsOf([
      p.as('autocomplete').render('ac-a', { at: 0 }),
      p.as('autocomplete').render('ac-b', { at: 300 }),
      p.render('s-1', { at: 2000 }),
    ]);
    expect(found.map((f) => [f.rule, f.responseId])).toEqual([['no-impression', 's-1']]);
  });

  it('autocomplete redirect: events after it are reported; a redirect without render is not', () => {
    const p = new PageBuilder().as('autocomplete');
    expect(findingsOf([p.redirect('ac-r', 'http://localhost:3000/gift', { at: 0 })])).toEqual([]);
    const after = findingsOf([
      p.render('ac-r', { at: 0 }),
      p.redirect('ac-r', 'http://localhost:3000/gift', { at: 500 }),
      p.impression('ac-r', ['1'], { at: 3000 }),
    ]);
    expect(rules(after)).toEqual(['after-redirect']);
  });

  it('an autocomplete responseId on search events is a cross-kind error naming both kinds', () => {
    const p = new PageBuilder();
    const found = findingsOf([
      p.as('autocomplete').render('ac-a', { at: 0 }),
      p.as('autocomplete').impression('ac-a', ['1'], { at: 1500 }),
      p.render('ac-a', { at: 3000 }),
      p.impression('ac-a', ['1'], { at: 4500 }),
    ]);
    expect(found.map((f) => [f.rule, f.severity, f.kind])).toEqual([
      ['responseid-cross-kind', 'error', 'search'],
    ]);
    expect(found[0]!.message).toContain('autocomplete response');
    expect(found[0]!.message).toContain('search/render');
  });

  it('a recommendations responseId on category events (another page) is a cross-kind error, not a reused one', () => {
    const product = new PageBuilder({ pageLoadId: 'pdp', pageUrl: 'http://localhost:3000/p/1' });
    const cat = new PageBuilder({ pageLoadId: 'plp', pageUrl: 'http://localhost:3000/c/1' });
    const rec = product.as('recommendations', 'similar');
    const found = findingsOf(
      [
        rec.render('rec-9', { at: 0 }),
        rec.impression('rec-9', ['1'], { at: 1500 }),
        cat.as('category').render('rec-9', { at: 5000 }),
        cat.as('category').impression('rec-9', ['1'], { at: 6500 }),
      ],
      {},
      'plp',
    );
    expect(rules(found)).toEqual(['responseid-cross-kind']);
    expect(found[0]!.message).toMatch(/recommendations response's .*page pdp/);
  });

  it('recommendations per widget: events carrying another widget’s tag miss their render, and the message names whose widget they are', () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/p/1' });
    const found = findingsOf([
      p.as('recommendations', 'similar').render('rec-1', { at: 0 }),
      p.as('recommendations', 'similar').impression('rec-1', ['1'], { at: 1500 }),
      p.as('recommendations', 'trending').click('rec-1', '1', { at: 3000 }),
    ]);
    const missing = found.find((f) => f.rule === 'missing-render')!;
    expect(missing).toMatchObject({ severity: 'error', kind: 'recommendations', tag: 'trending' });
    expect(missing.message).toContain('recommendations/render');
    expect(missing.message).toContain('that responseId is the "similar" widget\'s');
    // its tile was impressed, with its own tag: the click's wrong tag is the one finding
    expect(rules(found)).toEqual(['missing-render']);
  });

  it('bundles: a clean widget passes; a duplicate render of a widget is named', () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/p/1' }).as('bundles', 'bundle-1');
    expect(
      findingsOf([
        p.render('b-1', { at: 0 }),
        p.impression('b-1', ['1', '2'], { at: 1500 }),
        p.cart('b-1', '2', { at: 2500 }),
      ]),
    ).toEqual([]);
    const dup = findingsOf([p.render('b-1', { at: 0 }), p.render('b-1', { at: 100 })]);
    expect(rules(dup)).toEqual(['duplicate-render', 'no-impression']);
    expect(dup[0]!.id).toBe('duplicate-render:b-1@bundles:bundle-1');
  });

  it('filters pages by kind and lists the kinds of a page in its summary', () => {
    const { engine } = engineAt();
    const search = new PageBuilder({ pageLoadId: 'p-search' });
    const cat = new PageBuilder({ pageLoadId: 'p-cat' }).as('category');
    engine.apply(search.render('s1', { at: 0 }));
    engine.apply(search.as('autocomplete').render('a1', { at: 10 }));
    engine.apply(cat.render('c1', { at: 20 }));
    expect(engine.list({ kind: 'category' }).map((p) => p.pageLoadId)).toEqual(['p-cat']);
    expect(engine.list({ kind: 'autocomplete' }).map((p) => p.pageLoadId)).toEqual(['p-search']);
    expect(engine.list({ kind: 'bundles' })).toEqual([]);
  });
});

describe('a category page’s redirect (sent to search/redirect)', () => {
  it('reports category events after it, whichever arrives first; none before it', () => {
    const p = new PageBuilder({ pageUrl: 'http://localhost:3000/c/sale' });
    const cat = p.as('category');
    const redirect = cat.redirect('cat-r', 'http://localhost:3000/sale', { at: 2000 });
    const late = cat.impression('cat-r', ['1'], { at: 4000 });
    // the render before the redirect is redirect-with-render's, whatever comes after
    expect(rules(findingsOf([cat.render('cat-r', { at: 0 }), redirect, late]))).toEqual([
      'after-redirect',
      'redirect-with-render',
    ]);
    expect(rules(findingsOf([cat.render('cat-r', { at: 0 }), late, redirect]))).toEqual([
      'after-redirect',
      'redirect-with-render',
    ]);
    const early = cat.impression('cat-r', ['1'], { at: 1100 });
    expect(rules(findingsOf([cat.render('cat-r', { at: 0 }), early, redirect]))).toEqual([
      'redirect-with-render',
    ]);
  });
});

describe('the rule catalogue per kind (docs/timelines.md)', () => {
  it('marks exactly the kinds a rule does not hold for with —, as the engine skips them', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../docs/timelines.md'), 'utf8');
    const head = doc.split('\n').find((l) => /^\| rule +\| search +\| category/.test(l))!;
    const kinds = head
      .split('|')
      .slice(2, -1)
      .map((c) => c.trim());
    expect(kinds).toEqual([...RESPONSE_KINDS]);
    const after = doc.slice(doc.indexOf(head)).split('\n').slice(2);
    // the table ends at its first line that is not a row (later tables hold other things)
    const end = after.findIndex((l) => !l.startsWith('|'));
    const rows = after.slice(0, end < 0 ? after.length : end).filter((l) => l.startsWith('| `'));
    const seen = new Set<string>();
    for (const row of rows) {
      const cells = row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const rule = cells[0]!.replace(/`/g, '');
      seen.add(rule);
      expect(RULE_IDS, rule).toContain(rule);
      kinds.forEach((kind, i) => {
        expect(cells[i + 1]!.startsWith('—'), `${rule} × ${kind}`).toBe(!ruleAppliesTo(rule, kind));
      });
    }
    for (const rule of RULE_IDS.filter((id) => ruleMeta(id)?.notJudged))
      expect(seen, rule).toContain(rule);
  });
});
