// What a page's responses of one kind heard of each other: the bits heard after a stamp, each event its own,
// any other event every bit (all the rules run).
import { describe, expect, it } from 'vitest';
import { ALL_HEARD, eventBit, SiblingLog } from '../../src/main/tracking/timeline/heard';

describe('SiblingLog', () => {
  it('answers the bits heard after a stamp, each event by its own bit', () => {
    const log = new SiblingLog();
    expect(log.since(0)).toBe(0);
    log.hear('render');
    const afterRender = log.stamp;
    log.hear('impression');
    log.hear('clickthrough');
    expect(log.since(0)).toBe(1 | 4 | 8);
    expect(log.since(afterRender)).toBe(4 | 8);
    expect(log.since(log.stamp)).toBe(0);
    log.hear('redirect');
    log.hear('addtocart');
    expect(log.since(afterRender + 2)).toBe(2 | 16);
  });

  it('answers every bit after an event of another name, and only after it', () => {
    const log = new SiblingLog();
    log.hear('impression');
    const before = log.stamp;
    log.hear('login');
    expect(log.since(0)).toBe(ALL_HEARD);
    expect(log.since(before)).toBe(ALL_HEARD);
    log.hear('render');
    expect(log.since(log.stamp - 1)).toBe(1);
  });

  it('keeps only the latest stamp of an event heard again', () => {
    const log = new SiblingLog();
    log.hear('impression');
    const first = log.stamp;
    log.hear('render');
    log.hear('impression');
    expect(log.since(first)).toBe(1 | 4);
    expect(log.since(first + 1)).toBe(4);
  });
});

describe('eventBit', () => {
  it('gives the five events their bits and any other name every bit, inherited names too', () => {
    expect(['render', 'redirect', 'impression', 'clickthrough', 'addtocart'].map(eventBit)).toEqual(
      [1, 2, 4, 8, 16],
    );
    expect(['login', 'constructor', 'toString', '__proto__', ''].map(eventBit)).toEqual([
      ALL_HEARD,
      ALL_HEARD,
      ALL_HEARD,
      ALL_HEARD,
      ALL_HEARD,
    ]);
    const log = new SiblingLog();
    log.hear('constructor');
    expect(log.since(0)).toBe(ALL_HEARD);
  });
});
