// The live engine's index of pages by verdict (all sites, and per site), by the rules of their findings and
// by the kinds of their responses, kept as pages are judged and get responses: a list of failing pages, of
// one rule's pages or of one kind's costs what it returns (and the pages changed since the last read), not
// every stored page. A page's verdict and rules change only when its rules run (page-reads.ts, evaluate); a page
// whose rules may give another answer when run exactly (it got an event, its facts changed, it went idle)
// is `stale` until they have. A page's kinds only grow (a response is never taken off its page).
import type { TimelineRuleId, Verdict } from '../../../shared/timeline';
import type { ResponseKind } from '../../../shared/kinds';
import { NO_ENTRIES } from './model';
import type { Page } from './page';
import { pageRules } from './dto';
import { ChunkedMap, ChunkedSet } from '../../chunked';

/**
 * Pages by their place in the engine's order (`page.order`). A list is picked by the places alone, read
 * from the maps' own tables: the pages themselves lie all over a heap of hundreds of MB, and reading a
 * field of 100,000 of them took ~10 ms a pass, where the index's answers are meant to cost a few.
 */
type Places = ChunkedMap<number, Page>;
/** a group of pages (all, a site's, a rule's, a kind's), by verdict */
type Group = Record<Verdict, Places>;
const VERDICTS: readonly Verdict[] = ['pass', 'warn', 'fail'];
const group = (): Group => ({
  pass: new ChunkedMap(),
  warn: new ChunkedMap(),
  fail: new ChunkedMap(),
});

/** What the index answers for: pages of a verdict, a site, a rule and a kind (each optional). */
export interface IndexFilter {
  verdict?: Verdict;
  siteId?: string;
  rule?: TimelineRuleId;
  kind?: ResponseKind;
}

export class VerdictIndex {
  private readonly all = group();
  private readonly bySite = new Map<string, Group>();
  private readonly byRule = new Map<TimelineRuleId, Group>();
  private readonly byKind = new Map<ResponseKind, Group>();
  private readonly ruleLists = new Map<string, readonly TimelineRuleId[]>();
  /** pages to judge exactly before the index answers for them */
  readonly stale = new ChunkedSet<Page>();

  /** A page was created, got an event or had its facts change: judge it before answering. */
  touched(page: Page): void {
    // on the page itself (no lookup on every event): its verdict and rules here, and stale?
    if (page.indexStale === true) return;
    page.indexStale = true;
    this.stale.addNew(page);
  }

  /**
   * The page's rules ran; `exact` when every rule ran (nothing of it is left stale). The index takes its
   * verdict and rules only then: a page judged in part stays stale, and `settle` judges it exactly before
   * the index answers for it (so the pages judged on every beacon move between groups only when read).
   */
  judged(page: Page, verdict: Verdict, exact: boolean): void {
    // judged as finished for a report: a moment's state, which the index does not take (the page is
    // judged again as it is right after, and stays stale until then)
    if (!exact || page.judgedAsFinished) return;
    const rules = this.rulesOf(page, page.indexRules);
    if (page.indexVerdict !== verdict || rules !== page.indexRules) {
      // out of each group it was in, into each it is in now (a verdict or a rule changes seldom)
      if (page.indexVerdict) this.leave(page, page.indexVerdict, page.indexRules);
      // (out of every group with this verdict now: it goes in without a search of the group's parts)
      for (const g of this.groups(page, rules, true)) g![verdict].setNew(page.order, page);
      page.indexVerdict = verdict;
      page.indexRules = rules;
    }
    if (page.indexStale === true) this.stale.delete(page);
    page.indexStale = false;
  }

  /**
   * The page got a new response (already on it) of `kind`. One not judged yet joins its kinds' groups when
   * it is; one that held a response of that kind is in its group.
   */
  kindAdded(page: Page, kind: ResponseKind): void {
    const verdict = page.indexVerdict;
    if (!verdict) return;
    let held = 0;
    for (const r of page.responses.values()) if (r.kind === kind && ++held > 1) return;
    this.of(this.byKind, kind)[verdict].setNew(page.order, page);
  }

  /** Every page was forgotten. */
  clear(): void {
    for (const g of [
      this.all,
      ...this.bySite.values(),
      ...this.byRule.values(),
      ...this.byKind.values(),
    ])
      for (const v of VERDICTS) g[v].clear();
    this.bySite.clear();
    this.byRule.clear();
    this.byKind.clear();
    this.ruleLists.clear();
    this.stale.clear();
  }

  /** The page was forgotten. */
  removed(page: Page): void {
    this.stale.delete(page);
    if (page.indexStale === undefined) return;
    if (page.indexVerdict) {
      this.leave(page, page.indexVerdict, page.indexRules);
      const site = this.bySite.get(page.siteId);
      if (site && VERDICTS.every((v) => site[v].size === 0)) this.bySite.delete(page.siteId);
    }
    page.indexVerdict = null;
    page.indexRules = NO_ENTRIES;
    page.indexStale = undefined;
  }

  /** Pages per verdict. */
  counts(): Record<Verdict, number> {
    return { pass: this.all.pass.size, warn: this.all.warn.size, fail: this.all.fail.size };
  }

  /**
   * The newest `limit` pages the filter keeps, in the engine's page order (oldest first), how many it
   * keeps, and the verdict totals of the pages it keeps but for the verdict (a UI shows the three verdicts'
   * tabs at once). Every page must have been judged exactly (`engine.settle`) before.
   */
  select(
    filter: IndexFilter,
    limit: number,
  ): { pages: Page[]; total: number; verdicts: Record<Verdict, number> } {
    const { verdict, siteId, rule, kind } = filter;
    const chosen: Array<Group | undefined> = [];
    if (siteId !== undefined) chosen.push(this.bySite.get(siteId));
    if (rule !== undefined) chosen.push(this.byRule.get(rule));
    if (kind !== undefined) chosen.push(this.byKind.get(kind));
    const verdicts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0 };
    if (chosen.length === 0) chosen.push(this.all);
    else if (chosen.includes(undefined)) return { pages: [], total: 0, verdicts };
    const groups = (chosen as Group[]).sort((a, b) => size(a) - size(b));
    // the smallest group is read; a page of it is kept when the others hold its place too (one that
    // holds every page of the verdict, as the one site of most sandboxes does, need not be asked)
    const [base, ...rest] = groups;
    const asked = {} as Record<Verdict, Places[]>;
    for (const v of VERDICTS)
      asked[v] = rest.map((g) => g[v]).filter((places) => places.size < this.all[v].size);
    const keeps = (v: Verdict, place: number) => asked[v].every((places) => places.has(place));
    for (const v of VERDICTS) {
      if (asked[v].length === 0) verdicts[v] = base![v].size;
      else base![v].forEach((_, place) => keeps(v, place) && verdicts[v]++);
    }
    const wanted = verdict === undefined ? VERDICTS : [verdict];
    const total = wanted.reduce((n, v) => n + verdicts[v], 0);
    // the place of the `limit`-th newest, selected among the places: far cheaper than sorting them all
    let cut = -1;
    if (total > limit) {
      const places = new Float64Array(total);
      let i = 0;
      for (const v of wanted)
        base![v].forEach((_, place) => {
          if (keeps(v, place)) places[i++] = place;
        });
      cut = kthSmallest(places, total - limit);
    }
    const picked: Array<[number, Page]> = [];
    for (const v of wanted)
      base![v].forEach((page, place) => {
        if (place >= cut && keeps(v, place)) picked.push([place, page]);
      });
    picked.sort((a, b) => a[0] - b[0]);
    return { pages: picked.map(([, page]) => page), total, verdicts };
  }

  /** Out of the groups the page was in with this verdict and these rules. */
  private leave(page: Page, verdict: Verdict, rules: readonly TimelineRuleId[]): void {
    for (const g of this.groups(page, rules, false)) g?.[verdict].delete(page.order);
  }

  /** Every group the page is in: all, its site's, its rules', its kinds' (made when `make`). */
  private groups(
    page: Page,
    rules: readonly TimelineRuleId[],
    make: boolean,
  ): Array<Group | undefined> {
    const get = <K>(map: Map<K, Group>, key: K) => (make ? this.of(map, key) : map.get(key));
    const out = [this.all, get(this.bySite, page.siteId)];
    for (const rule of rules) out.push(get(this.byRule, rule));
    const kinds = new Set<ResponseKind>();
    for (const r of page.responses.values()) kinds.add(r.kind);
    for (const kind of kinds) out.push(get(this.byKind, kind));
    return out;
  }

  private of<K>(map: Map<K, Group>, key: K): Group {
    let g = map.get(key);
    if (!g) map.set(key, (g = group()));
    return g;
  }

  /** The rules of the page's findings now: `before` when they are the same. */
  private rulesOf(page: Page, before: readonly TimelineRuleId[]): readonly TimelineRuleId[] {
    const now = pageRules(page);
    if (now.size === before.length && before.every((rule) => now.has(rule))) return before;
    if (now.size === 0) return NO_ENTRIES;
    // one frozen list per set of rules, shared by the pages that have it (few sets differ)
    const ids = [...now].sort();
    const key = ids.join(' ');
    let held = this.ruleLists.get(key);
    if (!held) this.ruleLists.set(key, (held = Object.freeze(ids)));
    return held;
  }
}

const size = (g: Group) => g.pass.size + g.warn.size + g.fail.size;

/**
 * The `k`-th smallest (0-based) of `values`, which it reorders: Hoare's selection, linear on average. The
 * pivot is the median of the first, middle and last values, so places already in order (the usual case)
 * stay linear too.
 */
export function kthSmallest(values: Float64Array, k: number): number {
  if (!(k >= 0 && k < values.length))
    throw new RangeError(`k ${k} is outside 0..${values.length - 1}`);
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const a = values[lo]!;
    const b = values[(lo + hi) >>> 1]!;
    const c = values[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    // [lo, j] ≤ pivot ≤ [i, hi]; between them (j < x < i) every value is the pivot
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}
