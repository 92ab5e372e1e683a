// What a read sees of a page: judged exactly since its last change (or as if it has ended, as reports and
// check show it), its events read back from the store when it let them go, and let go again once it is
// quiet. Every read of the engine's pages goes through here, so which read came first changes nothing.
import type { Clock } from '../../clock';
import type {
  PageTimelineDto,
  PageTimelineSummaryDto,
  PageVerdictDto,
  Verdict,
} from '../../../shared/timeline';
import type { Finding } from '../finding';
import { keptFindings, pageDto, pageSummary, pageVerdictDto } from './dto';
import type { HeldPages } from './held-pages';
import type { IdleQueue } from './idle-queue';
import type { Judge } from './judge';
import type { Page } from './page';
import type { QuietPages } from './quiet-pages';
import type { VerdictIndex } from './verdict-index';

/** A page's verdict and its findings as kept (what its DTO would carry, no words written). */
export interface Judgement {
  verdict: Verdict;
  findings: readonly Finding[];
}

export interface PageReadsDeps {
  clock: Clock;
  pages: HeldPages;
  index: VerdictIndex | undefined;
  judge: Judge;
  quiet: QuietPages;
  /** pages waiting to count as idle (`no-impression`) */
  idle: IdleQueue;
}

export class PageReads {
  constructor(private readonly deps: PageReadsDeps) {}

  /**
   * Judge every page that changed since it was last judged exactly, one per step (a caller reading them
   * all gives the loop back between steps). After it, the index answers for every page.
   */
  *settle(): Generator<void> {
    const { index, pages, idle } = this.deps;
    // pages idle by the clock whose turn in the idle burst has not come yet are idle for this read
    yield* idle.dueNow();
    // an engine without the index judges every page when it is read: nothing else to settle
    if (!index) return;
    for (const page of index.stale) {
      if (pages.holds(page)) this.evaluate(page, true);
      else index.removed(page);
      yield;
    }
  }

  /**
   * The page's rules as an exact read needs them. A page the index knows to be judged exactly since its
   * last change is skipped: nothing its rules read has changed (a page rule reads only the page's own
   * tallies and the settings), so running them again would give the same findings.
   */
  exactly(page: Page): void {
    if (page.indexStale === false) return;
    this.evaluate(page, true);
  }

  /**
   * Re-run the rules of the page's dirty responses (all of them when `exact`) and its page rules. A quiet
   * page lets its events go (`pageRecords`); one that let them go reads them back while its responses'
   * rules run.
   */
  evaluate(page: Page, exact: boolean): void {
    const { judge, quiet } = this.deps;
    if (page.eventsLetGo && page.someDirty()) quiet.withEvents(page, () => judge.run(page, exact));
    else judge.run(page, exact);
    if (this.isQuiet(page)) quiet.letGo(page);
  }

  /**
   * No event for the idle time (`noImpressionIdleMs` since its last one's receipt): a page that could let
   * its events go. One still getting events keeps them, so a long page is not read back for every event.
   */
  isQuiet(page: Page): boolean {
    return page.idle || this.deps.clock.now() >= page.idleAt;
  }

  /** `read` of the page as if it has ended; `read` reads the page's events back itself if it needs them. */
  asFinished<T>(page: Page, read: (page: Page) => T): T {
    this.exactly(page);
    if (page.idle || page.awaitingImpression === 0) return read(page);
    // judged twice over (as ended, then as it is): its events are read back once for both
    return this.deps.quiet.withEvents(page, () => {
      this.evaluateAsFinished(page, true);
      const answer = read(page);
      this.evaluateAsFinished(page, false);
      return answer;
    });
  }

  private evaluateAsFinished(page: Page, on: boolean): void {
    page.asIfFinished(on);
    this.deps.judge.touchAll(page);
    this.evaluate(page, true);
  }

  /**
   * The page as if it has ended, as reports, expectClean and check judge it: a rule that waits for the
   * page to settle (no-impression) decides now, and the DTO says so; the live page stays pending.
   */
  finishedDto(page: Page): PageTimelineDto {
    return this.asFinished(page, (p) => this.dtoOf(p));
  }

  /** The verdict `finishedDto` would carry, without building the DTO (a report counts them first). */
  finishedVerdict(page: Page): Verdict {
    return this.asFinished(page, (p) => p.verdict);
  }

  /** The verdict and the findings (their rules and severities) `finishedDto` would carry, no DTO built. */
  finishedJudgement(page: Page): Judgement {
    return this.asFinished(page, (p) => ({ verdict: p.verdict, findings: keptFindings(p) }));
  }

  /** `finishedDto` without the events (what the JUnit report writes of a page). */
  finishedVerdictDto(page: Page): PageVerdictDto {
    return this.asFinished(page, pageVerdictDto);
  }

  /**
   * The page with its events and findings (read back from the store when it let them go), judged as it is
   * now: a list picks its pages first and builds their DTOs after, giving the loop back in between, and a
   * beacon applied meanwhile must not show in the events without its findings (a page listed with its
   * impression but still judged as clicked without it).
   */
  pageDto(page: Page): PageTimelineDto {
    this.exactly(page);
    return this.dtoOf(page);
  }

  /** The DTO of the page as it was last judged, its events read back if it let them go. */
  dtoOf(page: Page): PageTimelineDto {
    return this.deps.quiet.withEvents(page, () => pageDto(page));
  }

  /** The page's summary, judged as it is now (as `pageDto`). */
  summary(page: Page): PageTimelineSummaryDto {
    this.exactly(page);
    return pageSummary(page);
  }
}
