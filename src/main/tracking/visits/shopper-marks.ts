// A visit's shopper marks: what each of its events said of the shopper (its shopperId, a login), kept in
// the order of the client's time. The login rules read, for each mark of the page they judge, the mark
// before it and the logins between: each was a walk over every mark of the visit, once per page judged, so
// a long visit cost its length squared (a session of 20,000 pages took `check` 27 s where the same pages
// in 3,000 sessions took 7). In time order each is a binary search, and a page's own marks lie between
// its first and last event.
import { countBelow, insertInOrder } from '../../sorted';

/** What a visit event said of the shopper: its shopperId ('' when none) and whether it was a login. */
export interface ShopperMark {
  eventId: string;
  pageKey: string;
  time: number;
  shopperId: string;
  login: boolean;
}

/** The marks' place in a visit, with what says where a page's marks are. */
export interface MarkedVisit {
  /** in time order; marks of the same time in arrival order */
  shoppers: ShopperMark[];
  /** each page's first and last event time in the visit */
  pages: ReadonlyMap<string, { first: number; last: number }>;
  /** a mark whose page the visit did not hold went into `shoppers`: read them all */
  uncounted?: true;
}

const timeOf = (m: ShopperMark) => m.time;

/** Put `m` in its place: after every mark of its time or earlier (events arrive mostly in time order). */
export function addMark(marks: ShopperMark[], m: ShopperMark): void {
  insertInOrder(marks, m, timeOf);
}

/**
 * The latest of `marks` timestamped more than `batchMs` before `m` (events created together with it, on
 * its page, may have gone out before a queued login): what the shopper was before `m`. Of marks of the same
 * time, the one that arrived last.
 */
export function markBefore(
  marks: readonly ShopperMark[],
  m: ShopperMark,
  batchMs: number,
): ShopperMark | undefined {
  return marks[countBelow(marks, m.time - batchMs, timeOf) - 1];
}

/** The marks timestamped after `after` and at or before `upTo`, in time order. */
export function* marksWithin(
  marks: readonly ShopperMark[],
  after: number,
  upTo: number,
): Generator<ShopperMark> {
  for (let i = countBelow(marks, after, timeOf); i < marks.length && marks[i]!.time <= upTo; i++)
    if (marks[i]!.time > after) yield marks[i]!;
}

/** The marks of the page `pageKey`, in time order: those between its first and last event in the visit. */
export function* marksOfPage(visit: MarkedVisit, pageKey: string): Generator<ShopperMark> {
  const page = visit.pages.get(pageKey);
  const marks = visit.shoppers;
  const [from, to] =
    page && !visit.uncounted ? [countBelow(marks, page.first, timeOf), page.last] : [0, Infinity];
  for (let i = from; i < marks.length && marks[i]!.time <= to; i++)
    if (marks[i]!.pageKey === pageKey) yield marks[i]!;
}
