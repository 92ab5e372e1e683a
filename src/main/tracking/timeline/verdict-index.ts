// The live engine's index of pages by verdict (all sites, and per site), kept as pages are judged: a list
// of failing pages costs what it returns (and the pages changed since the last read), not every stored
// page. A page's verdict changes only when its rules run (engine.evaluate); a page whose rules may give
// another answer when run exactly (it got an event, its facts changed, it went idle) is `stale` until they
// have.
import type { Verdict } from '../../../shared/timeline';
import type { PageState } from './model';
import { ChunkedSet } from '../../chunked';

type BySet = Record<Verdict, ChunkedSet<PageState>>;
const VERDICTS: readonly Verdict[] = ['pass', 'warn', 'fail'];
const sets = (): BySet => ({
  pass: new ChunkedSet(),
  warn: new ChunkedSet(),
  fail: new ChunkedSet(),
});

export class VerdictIndex {
  private readonly all = sets();
  private readonly bySite = new Map<string, BySet>();
  /** pages to judge exactly before the index answers for them */
  readonly stale = new ChunkedSet<PageState>();

  /** A page was created, got an event or had its facts change: judge it before answering. */
  touched(page: PageState): void {
    // on the page itself (no lookup on every event): its verdict here, and stale?
    const entry = (page.indexed ??= { verdict: null, stale: false });
    if (entry.stale) return;
    entry.stale = true;
    this.stale.add(page);
  }

  /** The page's rules ran; `exact` when every rule ran (nothing of it is left stale). */
  judged(page: PageState, verdict: Verdict, exact: boolean): void {
    const entry = (page.indexed ??= { verdict: null, stale: false });
    if (entry.verdict !== verdict) {
      let site = this.bySite.get(page.siteId);
      if (!site) this.bySite.set(page.siteId, (site = sets()));
      if (entry.verdict) {
        this.all[entry.verdict].delete(page);
        site[entry.verdict].delete(page);
      }
      this.all[verdict].add(page);
      site[verdict].add(page);
      entry.verdict = verdict;
    }
    if (exact && entry.stale) {
      entry.stale = false;
      this.stale.delete(page);
    }
  }

  /** Every page was forgotten. */
  clear(): void {
    for (const v of VERDICTS) this.all[v].clear();
    this.bySite.clear();
    this.stale.clear();
  }

  /** The page was forgotten. */
  removed(page: PageState): void {
    this.stale.delete(page);
    const entry = page.indexed;
    if (!entry) return;
    if (entry.verdict) {
      this.all[entry.verdict].delete(page);
      const site = this.bySite.get(page.siteId);
      site?.[entry.verdict].delete(page);
      if (site && VERDICTS.every((v) => site[v].size === 0)) this.bySite.delete(page.siteId);
    }
    page.indexed = undefined;
  }

  /** Pages per verdict, of one site or all. */
  counts(siteId?: string): Record<Verdict, number> {
    const of = siteId === undefined ? this.all : this.bySite.get(siteId);
    return { pass: of?.pass.size ?? 0, warn: of?.warn.size ?? 0, fail: of?.fail.size ?? 0 };
  }

  /**
   * The newest `limit` pages of some verdicts (of one site or all) in the engine's page order (oldest
   * first, `page.order`), and how many there are.
   */
  newest(
    verdicts: readonly Verdict[],
    limit: number,
    siteId?: string,
  ): { pages: PageState[]; total: number } {
    const of = siteId === undefined ? this.all : this.bySite.get(siteId);
    const chosen = of ? verdicts.map((v) => of[v]) : [];
    const total = chosen.reduce((n, set) => n + set.size, 0);
    let cut = -1;
    if (total > limit) {
      // the place of the `limit`-th newest: one typed sort of the places (100,000 in a few ms)
      const places = new Float64Array(total);
      let i = 0;
      for (const set of chosen) set.forEach((page) => (places[i++] = page.order));
      places.sort();
      cut = places[total - limit]!;
    }
    const picked: PageState[] = [];
    for (const set of chosen) set.forEach((page) => page.order >= cut && picked.push(page));
    picked.sort((a, b) => a.order - b.order);
    return { pages: picked, total };
  }
}
