// The live engine's index of pages by verdict, kept as pages are judged: a list of failing pages costs
// what it returns (and the pages changed since the last read), not every stored page. A page's verdict
// changes only when its rules run (engine.evaluate); a page whose rules may give another answer when run
// exactly (it got an event, its facts changed, it went idle) is `stale` until they have.
import type { Verdict } from '../../../shared/timeline';
import type { PageState } from './model';

export class VerdictIndex {
  private readonly sets: Record<Verdict, Set<PageState>> = {
    pass: new Set(),
    warn: new Set(),
    fail: new Set(),
  };
  private next = 0;
  /** pages to judge exactly before the index answers for them */
  readonly stale = new Set<PageState>();

  /** A page was created, got an event or had its facts change: judge it before answering. */
  touched(page: PageState): void {
    // on the page itself (no lookup on every event): its verdict here, its place in page order, stale?
    const entry = (page.indexed ??= { verdict: null, n: this.next++, stale: false });
    if (entry.stale) return;
    entry.stale = true;
    this.stale.add(page);
  }

  /** The page's rules ran; `exact` when every rule ran (nothing of it is left stale). */
  judged(page: PageState, verdict: Verdict, exact: boolean): void {
    const entry = (page.indexed ??= { verdict: null, n: this.next++, stale: false });
    if (entry.verdict !== verdict) {
      if (entry.verdict) this.sets[entry.verdict].delete(page);
      this.sets[verdict].add(page);
      entry.verdict = verdict;
    }
    if (exact && entry.stale) {
      entry.stale = false;
      this.stale.delete(page);
    }
  }

  /** The page was forgotten. */
  removed(page: PageState): void {
    this.stale.delete(page);
    const entry = page.indexed;
    if (!entry) return;
    if (entry.verdict) this.sets[entry.verdict].delete(page);
    page.indexed = undefined;
  }

  counts(): Record<Verdict, number> {
    return { pass: this.sets.pass.size, warn: this.sets.warn.size, fail: this.sets.fail.size };
  }

  /**
   * The newest `limit` pages of a verdict in the engine's page order (oldest first), and how many have it.
   * A page's place is given when it is first touched, which the engine does as it creates the page.
   */
  newest(verdict: Verdict, limit: number): { pages: PageState[]; total: number } {
    const set = this.sets[verdict];
    let cut = -1;
    if (set.size > limit) {
      // the place of the `limit`-th newest: one typed sort of the places (100,000 in a few ms)
      const places = new Float64Array(set.size);
      let i = 0;
      for (const page of set) places[i++] = page.indexed!.n;
      places.sort();
      cut = places[set.size - limit]!;
    }
    const picked: Array<{ page: PageState; n: number }> = [];
    for (const page of set) {
      const n = page.indexed!.n;
      if (n >= cut) picked.push({ page, n });
    }
    picked.sort((a, b) => a.n - b.n);
    return { pages: picked.map((p) => p.page), total: set.size };
  }
}
