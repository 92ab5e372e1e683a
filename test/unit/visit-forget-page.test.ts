// Forgetting a page takes its entries out of its visit's shopper marks and interactions (the login and
// credit rules read them), reading each list only until the page's counted entries are out: whatever the
// order pages came and go in, the lists are those of the pages kept, in their order.
import { describe, expect, it } from 'vitest';
import type { Visit } from '../../src/main/tracking/visits/book';
import { bookWithHolders } from '../helpers/visit-book';
import { readEvent } from '../../src/main/tracking/timeline/model';
import { PageBuilder } from './timeline-events';

const SITE = 'demo42';
const keyOf = (pageLoadId: string) => `${SITE}\u0000${pageLoadId}`;

/** A tiny deterministic generator (the sequences must repeat run to run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function visitBook() {
  const { book, holder } = bookWithHolders();
  let at = 0;
  /** a search-side event of the page; a new shopperId on the page marks it */
  const search = (id: string, shopperId: string) => {
    const ev = readEvent(new PageBuilder({ pageLoadId: id }).event('render', {}, { at: at++ }));
    return book.noteEvent(SITE, keyOf(id), holder(id), ev, { shopperId, attribution: '' });
  };
  /** a click made on the page: an interaction of the visit */
  const click = (visit: Visit, id: string) =>
    book.noteInteraction(visit, {
      source: {
        kind: 'search',
        tag: '',
        responseId: 'r',
        pageKey: keyOf(id),
        pageLoadId: id,
        pageUrl: '',
      },
      event: 'clickthrough',
      eventId: `click-${at}`,
      userId: 'user-1',
      time: at++,
      ids: 'A',
    });
  const forget = (id: string) => book.forgetPage(SITE, keyOf(id), holder(id));
  return { search, click, forget };
}

const pagesOf = (v: Visit) => ({
  marks: v.shoppers.map((m) => m.pageKey),
  interactions: v.interactions.map((i) => i.source.pageKey),
});

describe('a visit forgetting a page', () => {
  it('takes out every entry of the page and keeps the others in order, oldest or not', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const { search, click, forget } = visitBook();
      const live: string[] = [];
      let visit: Visit | undefined;
      for (let step = 0; step < 120; step++) {
        const r = next();
        if (r < 0.15 || live.length === 0) {
          const id = `p${step}`;
          live.push(id);
          visit = search(id, 'shopper-a');
        } else if (r < 0.75) {
          // an event of a page still open: a new shopperId marks it again; a click is an interaction
          const id = live[Math.floor(next() * live.length)]!;
          visit = search(id, next() < 0.5 ? 'shopper-a' : 'shopper-b');
          if (next() < 0.5) click(visit, id);
        } else {
          // retention forgets the oldest mostly, another page sometimes
          const at = next() < 0.7 ? 0 : Math.floor(next() * live.length);
          const [id] = live.splice(at, 1);
          if (live.length === 0) {
            visit = undefined;
            forget(id!);
            continue;
          }
          const before = pagesOf(visit!);
          forget(id!);
          const gone = keyOf(id!);
          expect(pagesOf(visit!), `seed ${seed}, step ${step}`).toEqual({
            marks: before.marks.filter((k) => k !== gone),
            interactions: before.interactions.filter((k) => k !== gone),
          });
        }
      }
    }
  });

  it("counts a userId's changes only while it has a visit: a book at its limit keeps no count per past shopper", () => {
    const { book, holder } = bookWithHolders();
    const orders = (book as unknown as { orders: { countedUsers(): number } }).orders;
    let at = 0;
    const page = (id: string, userId: string, sessionId: string) => {
      const ev = readEvent(
        new PageBuilder({ pageLoadId: id, userId, sessionId }).event('render', {}, { at: at++ }),
      );
      book.noteEvent(SITE, keyOf(id), holder(id), ev, { shopperId: '', attribution: '' });
    };
    const forget = (id: string) => book.forgetPage(SITE, keyOf(id), holder(id));
    // a userId with two visits: the first one's going changes its credit, and it is still counted
    page('a1', 'user-a', 's-a1');
    page('a2', 'user-a', 's-a2');
    forget('a1');
    expect(orders.countedUsers()).toBe(1);
    forget('a2');
    expect(orders.countedUsers()).toBe(0);
    // 500 shoppers, each a visit of one page, forgotten as retention forgets their pages
    for (let i = 0; i < 500; i++) {
      page(`p${i}`, `user-${i}`, `s-${i}`);
      if (i >= 10) forget(`p${i - 10}`);
    }
    expect(orders.countedUsers()).toBe(0);
  });
});
