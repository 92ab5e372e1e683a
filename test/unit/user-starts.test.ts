// A userId's visits by start time: `previous` answers what reading every visit of the userId answered
// (session-renewed's question), over random visits that join, leave and start earlier, with equal starts.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/random';
import { UserStarts } from '../../src/main/tracking/visits/user-starts';

type V = { id: number; startMs: number };

/** the reading before: of the set's visits, the latest begun at or before `visit`, the first of a tie */
function walk(all: ReadonlySet<V>, visit: V): V | undefined {
  let prev: V | undefined;
  for (const v of all)
    if (v !== visit && v.startMs <= visit.startMs && (!prev || v.startMs > prev.startMs)) prev = v;
  return prev;
}

describe('UserStarts', () => {
  it('finds the visit begun last before another as a walk over them all did', () => {
    for (let seed = 1; seed <= 12; seed++) {
      // each answer labelled with its step, compared once a seed (one expect, not 3,600: ~12 µs a call)
      const got: string[] = [];
      const want: string[] = [];
      const r = seededRandom(seed);
      const index = new UserStarts<V>();
      const all = new Set<V>();
      let id = 0;
      let clock = 0;
      for (let step = 0; step < 300; step++) {
        const what = r(10);
        if (what < 6 || all.size === 0) {
          // a new visit, mostly later than the last, sometimes at the same time
          clock += r(3) === 0 ? 0 : r(50);
          const v = { id: id++, startMs: clock - (r(5) === 0 ? r(200) : 0) };
          all.add(v);
          index.added('u', v, all);
        } else if (what < 8) {
          // an event from before a visit's start arrives late
          const v = [...all][r(all.size)]!;
          v.startMs -= 1 + r(100);
          index.restarted('u', v);
        } else {
          const v = [...all][r(all.size)]!;
          all.delete(v);
          index.removed('u', v, all.size);
        }
        const each = [...all];
        for (let k = 0; k < Math.min(12, each.length); k++) {
          const v = each[r(each.length)]!;
          // of two visits begun at one time, a start moved since may name either: the time is the same
          const at = `seed ${seed} step ${step} visit ${v.id}: previous starts at`;
          got.push(`${at} ${index.previous('u', v, all)?.startMs}`);
          want.push(`${at} ${walk(all, v)?.startMs}`);
        }
      }
      expect(got).toEqual(want);
    }
  });

  it('keeps no index for a userId of a few visits, and names the first of equal starts', () => {
    const index = new UserStarts<V>();
    const all = new Set<V>();
    const visits = Array.from({ length: 40 }, (_, i) => ({ id: i, startMs: Math.floor(i / 2) }));
    for (const v of visits) {
      all.add(v);
      index.added('u', v, all);
    }
    // 7 and 6 began at 3 ms, as 8 and 9 did at 4: the one before 8 is the first of 6 and 7
    expect(index.previous('u', visits[8]!, all)?.id).toBe(9);
    expect(index.previous('u', visits[10]!, all)?.id).toBe(11);
    expect(index.previous('u', visits[0]!, all)?.id).toBe(1);
    expect(index.previous('u', { id: 99, startMs: -1 }, all)).toBeUndefined();
  });
});
