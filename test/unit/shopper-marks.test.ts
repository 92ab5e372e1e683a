// A visit's shopper marks in time order: each reading answers what a walk over every mark in arrival order
// answered (the login rules' reading before), over random visits with marks out of order, of the same
// time, and of pages the visit does not hold.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/random';
import {
  addMark,
  markBefore,
  marksOfPage,
  marksWithin,
  type MarkedVisit,
  type ShopperMark,
} from '../../src/main/tracking/visits/shopper-marks';

/** the reading before: the latest mark more than `batchMs` before `m`, of equal times the later to arrive */
function walkBefore(arrived: readonly ShopperMark[], m: ShopperMark, batchMs: number) {
  let prior: ShopperMark | undefined;
  for (const x of arrived)
    if (x !== m && x.time < m.time - batchMs && (!prior || x.time >= prior.time)) prior = x;
  return prior;
}

function visitOf(seed: number, count: number) {
  const r = seededRandom(seed);
  const arrived: ShopperMark[] = [];
  const visit: MarkedVisit & { pages: Map<string, { first: number; last: number }> } = {
    shoppers: [],
    pages: new Map(),
  };
  let clock = 0;
  for (let i = 0; i < count; i++) {
    // mostly forward, sometimes late (out of order), sometimes at the same time as the one before
    clock += r(4) === 0 ? 0 : r(400);
    const time = r(6) === 0 ? clock - r(2_000) : clock;
    const pageKey = `p${r(Math.max(1, count / 4))}`;
    const m = {
      eventId: `e${i}`,
      pageKey,
      time,
      shopperId: ['', 'a', 'b'][r(3)]!,
      login: r(3) === 0,
    };
    arrived.push(m);
    addMark(visit.shoppers, m);
    const page = visit.pages.get(pageKey);
    if (!page) visit.pages.set(pageKey, { first: time, last: time });
    else {
      page.first = Math.min(page.first, time);
      page.last = Math.max(page.last, time);
    }
  }
  return { arrived, visit, r };
}

describe('shopper marks in time order', () => {
  it('keeps them sorted by time, marks of one time in arrival order', () => {
    const { arrived, visit } = visitOf(1, 500);
    const sorted = arrived
      .map((m, i) => ({ m, i }))
      .sort((a, b) => a.m.time - b.m.time || a.i - b.i)
      .map((x) => x.m);
    expect(visit.shoppers).toEqual(sorted);
  });

  it('finds the mark before, a page’s marks and the marks within a span as a walk over them all did', () => {
    for (let seed = 1; seed <= 40; seed++) {
      // each answer labelled, compared once a seed (one expect, not hundreds: ~12 µs a call); the mark
      // before is compared by identity, as toBe did
      const got: unknown[] = [];
      const want: unknown[] = [];
      const { arrived, visit, r } = visitOf(seed, 50 + seed * 10);
      for (const m of arrived) {
        const batch = [0, 1, 1_000][r(3)]!;
        const before = markBefore(visit.shoppers, m, batch);
        const walked = walkBefore(arrived, m, batch);
        const said = `seed ${seed} ${m.eventId}: the mark before (${before?.eventId}, walked ${walked?.eventId}) is the walk's`;
        got.push([said, before === walked]);
        want.push([said, true]);
        const after = m.time - r(3_000);
        const upTo = m.time + r(3_000);
        got.push([
          `seed ${seed} ${m.eventId}: within`,
          new Set(marksWithin(visit.shoppers, after, upTo)),
        ]);
        want.push([
          `seed ${seed} ${m.eventId}: within`,
          new Set(arrived.filter((x) => x.time > after && x.time <= upTo)),
        ]);
      }
      for (const pageKey of visit.pages.keys()) {
        const own = new Set(arrived.filter((x) => x.pageKey === pageKey));
        got.push([`seed ${seed} ${pageKey}`, new Set(marksOfPage(visit, pageKey))]);
        want.push([`seed ${seed} ${pageKey}`, own]);
        // a visit that took marks of pages it does not hold reads them all
        visit.uncounted = true;
        got.push([`seed ${seed} ${pageKey}, uncounted`, new Set(marksOfPage(visit, pageKey))]);
        want.push([`seed ${seed} ${pageKey}, uncounted`, own]);
        delete visit.uncounted;
      }
      expect(got).toEqual(want);
    }
  });

  it('reads a page’s marks from its span only: a page’s span that leaves out a mark misses it', () => {
    // the guard of the test above: the page's first and last event are what find its marks
    const { visit } = visitOf(7, 200);
    const [pageKey, span] = [...visit.pages].find(([, s]) => s.last > s.first)!;
    const all = [...marksOfPage(visit, pageKey)];
    visit.pages.set(pageKey, { first: span.last + 1, last: span.last + 1 });
    expect([...marksOfPage(visit, pageKey)].length).toBeLessThan(all.length);
  });
});
