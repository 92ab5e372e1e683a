// One bug, one lead finding: where a rule's meta declares that its findings follow from another rule's
// (explainedBy), a page's findings carry causedBy and the cause leads, in the API, check and the reports.
import { describe, expect, it } from 'vitest';
import { textPage } from '../../src/main/tracking/timeline/report';
import { engineAt, PageBuilder, run } from './timeline-events';

describe('causedBy', () => {
  it('a click with the previous search’s responseId after an SPA re-search: the stale id leads', () => {
    const a = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=jacket' });
    const b = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=P200' });
    const [page] = run([
      a.render('r1', { at: 0 }),
      a.impression('r1', ['J1', 'J2'], { at: 1200 }),
      b.render('r2', { at: 5000 }),
      b.impression('r2', ['P200'], { at: 6200 }),
      b.click('r1', 'P200', { at: 7000 }),
    ]);
    const findings = page!.findings.map((f) => [f.rule, f.causedBy ?? null]);
    expect(findings).toEqual([
      ['responseid-stale', null],
      ['response-replaced', 'responseid-stale:r1'],
      ['click-under-other-response', 'responseid-stale:r1'],
    ]);
    // the finding names the behaviour of the client the traffic broke
    expect(page!.findings[0]!.behaviour).toBe('search.one-response-shown');
    // check's text folds the consequences under the cause
    const text = textPage(page!);
    expect(text).toMatch(/ {2}error {3}responseid-stale/);
    expect(text).toContain('↳ error   response-replaced');
    expect(text).toContain('follows from responseid-stale');
  });

  it('findings of unrelated events stay apart (no causedBy)', () => {
    const p = new PageBuilder();
    const [page] = run([p.impression('r1', ['a'], { at: 1200 }), p.render('r9', { at: 0 })]);
    expect(page!.findings.every((f) => f.causedBy === undefined)).toBe(true);
  });
});

/** Two searches of one page (an SPA): an engine read as the UI reads a live page, between events. */
function twoSearches() {
  const a = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=jacket' });
  const b = new PageBuilder({ pageUrl: 'http://localhost:3000/search?q=P200' });
  const { engine } = engineAt();
  const replaced = () =>
    engine
      .pagesDto()
      .flatMap((p) => p.findings)
      .filter((f) => f.rule === 'response-replaced')
      .map((f) => f.responseId);
  return { a, b, engine, replaced };
}

describe('what a page run shares', () => {
  it('is read again on the next run: a render that came since is seen', () => {
    // the controller's renders a run shares must not outlive it, or the second search's render goes unseen
    const { a, b, engine, replaced } = twoSearches();
    for (const e of [a.render('r1', { at: 0 }), a.impression('r1', ['J1'], { at: 1200 })])
      engine.apply(e);
    expect(replaced()).toEqual([]);
    for (const e of [b.render('r2', { at: 5000 }), b.impression('r2', ['P200'], { at: 6200 })])
      engine.apply(e);
    expect(replaced()).toEqual([]);
    engine.apply(a.impression('r1', ['J2'], { at: 7000 }));
    expect(replaced()).toEqual(['r1']);
  });
});

describe('what a response hears of its siblings', () => {
  it('a render of another response arriving late runs the rules of the response it replaced', () => {
    const { a, b, engine, replaced } = twoSearches();
    for (const e of [
      a.render('r1', { at: 0 }),
      a.impression('r1', ['J1'], { at: 1200 }),
      b.impression('r2', ['P200'], { at: 6200 }),
      a.impression('r1', ['J2'], { at: 7000 }),
    ])
      engine.apply(e);
    expect(replaced()).toEqual([]);
    // r2's render comes last, timestamped before r1's second impression: r1 (judged, clean) hears of it
    engine.apply(b.render('r2', { at: 5000 }));
    expect(replaced()).toEqual(['r1']);
  });
});
