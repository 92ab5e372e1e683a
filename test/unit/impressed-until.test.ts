// A click counts an impression timestamped up to the tolerance (1 s) after it: the client's visibility timer
// may fire just after a click on a page that stays. The clicks of a response are read in time order, each
// against what was impressed by its own time (one set grown click by click): each click gets its own.
import { describe, expect, it } from 'vitest';
import { findingsOf, PageBuilder } from './timeline-events';

describe('impressions by each click’s time', () => {
  it('counts an impression just after each click, not one later than the tolerance', () => {
    const p = new PageBuilder();
    const events = (lateBy: number) => [
      p.render('r1', { at: 0 }),
      p.impression('r1', ['b'], { at: 1_200 }),
      p.click('r1', 'b', { at: 1_500 }),
      // clicked, then impressed 900 ms later: the timer fired just after the click
      p.click('r1', 'a', { at: 2_000 }),
      p.impression('r1', ['a'], { at: 2_900 }),
      p.click('r1', 'c', { at: 3_000 }),
      p.impression('r1', ['c'], { at: 3_000 + lateBy }),
      p.render('r2', { at: 9_000 }),
    ];
    const rules = (list: ReturnType<typeof events>) =>
      findingsOf(list)
        .filter((f) => f.rule.startsWith('click-not-impressed'))
        .map((f) => f.eventIds);
    expect(rules(events(1_000))).toEqual([]);
    // c's impression 1.5 s after its click: sent because of the click; a's still counts
    const list = events(1_500);
    const late = rules(list);
    expect(late).toHaveLength(1);
    expect(late[0]).toContain(list[5]!.id);
    expect(late[0]).not.toContain(list[3]!.id);
  });
});
