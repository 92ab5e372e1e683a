// The judge dispatches from the rules' metas: a response's rules that listen to none of the events heard
// since they last ran do not run again and keep their findings; a change beyond the events (the page
// ending) runs them all.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RULES } from '../../src/main/tracking/timeline/rule-list';
import { judging } from '../../src/main/tracking/rule';
import { PageBuilder, engineAt } from './timeline-events';

afterEach(() => vi.restoreAllMocks());

const RESPONSE_RULES = judging(RULES, 'response');

const ruleListening = (events: string[]) =>
  RESPONSE_RULES.find(
    (r) =>
      r.meta.listens.length === events.length && events.every((e) => r.meta.listens.includes(e)),
  )!;

describe('dispatch from the declarations', () => {
  it('runs only the rules that listen to what changed, and keeps the others’ findings', () => {
    const onlyRedirects = ruleListening(['redirect']);
    const spy = vi.spyOn(onlyRedirects, 'response');
    // the clock just past the last event: the page is live throughout (gone idle, its next event would
    // wake it, and waking runs every rule)
    const { engine } = engineAt(5_000);
    const p = new PageBuilder();
    engine.apply(p.render('r1', { at: 0 }));
    const [page] = engine.list();
    engine.pageDto(page!);
    const first = spy.mock.calls.length;
    expect(first).toBe(1);
    // an impression: the redirect rule does not listen to it
    engine.apply(p.impression('r1', ['a'], { at: 1200 }));
    engine.pageDto(page!);
    expect(spy.mock.calls.length).toBe(first);
    // a click on a tile never impressed: its rule listens and reports, later events or not
    engine.apply(p.click('r1', 'b', { at: 3000 }));
    engine.apply(p.impression('r1', ['c'], { at: 4000 }));
    expect(engine.pageDto(page!).findings.map((f) => f.rule)).toEqual(['click-not-impressed']);
    expect(spy.mock.calls.length).toBe(first);
    // the page ends: every rule runs
    engine.finish();
    expect(spy.mock.calls.length).toBe(first + 1);
  });

  it('every response rule listens to at least one event', () => {
    for (const r of RESPONSE_RULES) expect(r.meta.listens.length, r.meta.id).toBeGreaterThan(0);
  });
});
