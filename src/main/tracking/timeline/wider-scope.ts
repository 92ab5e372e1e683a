// Findings about more than their page (a rule whose meta says `scope: 'session'` or `'site'`, such as
// production-mode traffic) are listed once per session or site in lists and text reports: a session of
// 40 pages sent without context.dev says so once, not 40 times. Each page's own detail keeps its finding,
// and its counts and verdict stay the page's. One instance per list or report, fed its pages in order.
import type {
  PageTimelineSummaryDto,
  PageVerdictDto,
  TimelineFindingDto,
} from '../../../shared/timeline';
import { widerScope } from './rule-list';

/** A page's place: which session and site its findings are about. */
interface PagePlace {
  siteId: string;
  sessionId: string;
  pageLoadId: string;
}

export class WiderScope {
  /** each wider rule's key (rule and session or site) and the page it was listed on */
  private readonly listedOn = new Map<string, string>();

  /** The key a rule's finding on this page is listed under, or undefined for a page-scope rule. */
  private key(rule: string, page: PagePlace): string | undefined {
    const scope = widerScope(rule);
    if (scope === undefined) return undefined;
    return scope === 'site'
      ? `${rule}\0${page.siteId}`
      : `${rule}\0${page.siteId}\0${page.sessionId}`;
  }

  /**
   * The page (its pageLoadId) the rule was listed on for this page's session or site, when that was an
   * earlier page; otherwise undefined, and the rule is noted as listed on this one.
   */
  private listedBefore(rule: string, page: PagePlace): string | undefined {
    const key = this.key(rule, page);
    if (key === undefined) return undefined;
    const on = this.listedOn.get(key);
    if (on !== undefined) return on;
    this.listedOn.set(key, page.pageLoadId);
    return undefined;
  }

  private repeated(rule: string, page: PagePlace): boolean {
    return this.listedBefore(rule, page) !== undefined;
  }

  /** The page as a list or text report shows it: wider findings listed before are left out. */
  page<P extends PageVerdictDto>(p: P): P {
    return withoutRules(p, this.dropped(p.findings, p));
  }

  /** The page as a text or HTML report shows it, and what it names in a line only (`shownPage`). */
  shown<P extends PageVerdictDto>(p: P): { page: P; elsewhere: ListedElsewhere[] } {
    return shownPage(p, this.dropped(p.findings, p));
  }

  /**
   * The wider rules whose findings this page leaves out, each with the page (its pageLoadId) it was listed
   * on for this page's session or site (and note the rest as listed now); undefined when it leaves none
   * out. A rule's findings on one page go together: all of them are listed, or none.
   */
  dropped(findings: readonly { rule: string }[], page: PagePlace): Dropped | undefined {
    let out: Map<string, string> | undefined;
    const decided = new Set<string>();
    for (const f of findings) {
      if (decided.has(f.rule)) continue;
      decided.add(f.rule);
      const on = this.listedBefore(f.rule, page);
      if (on !== undefined) (out ??= new Map()).set(f.rule, on);
    }
    return out;
  }

  /** A summary as a list shows it: a wider rule listed for an earlier page is left out of `rules`. */
  summary(s: PageTimelineSummaryDto): PageTimelineSummaryDto {
    const rules = s.rules.filter((r) => !this.repeated(r, s));
    return rules.length === s.rules.length ? s : { ...s, rules };
  }
}

/** The wider rules a page leaves out, each with the page (its pageLoadId) it was listed on. */
export type Dropped = ReadonlyMap<string, string>;

/** A finding a page leaves out, what it is about and the page it was told with, as reports name them. */
export interface ListedElsewhere {
  finding: TimelineFindingDto;
  /** what it is about: its rule's scope */
  scope: 'session' | 'site';
  /** the page it was told with: its pageLoadId, `(no pageLoadId)` for a page without one */
  page: string;
}

/** The findings without those of the `dropped` rules. */
export function findingsShown<F extends { rule: string }>(
  findings: readonly F[],
  dropped: Dropped,
): F[] {
  return findings.filter((f) => !dropped.has(f.rule));
}

/** The page without the findings of the `dropped` rules, or the page itself when none. */
export function withoutRules<P extends PageVerdictDto>(p: P, dropped: Dropped | undefined): P {
  if (dropped === undefined) return p;
  return { ...p, findings: findingsShown(p.findings, dropped) };
}

/**
 * The page without the findings of the `dropped` rules, and of those its warnings and errors, each with
 * the page it was listed on: a text or HTML report still names them on this page, in a line, so that a
 * page's verdict never stands without the findings that make it (an info finding never makes one).
 */
export function shownPage<P extends PageVerdictDto>(
  p: P,
  dropped: Dropped | undefined,
): { page: P; elsewhere: ListedElsewhere[] } {
  if (dropped === undefined) return { page: p, elsewhere: [] };
  const elsewhere: ListedElsewhere[] = [];
  for (const finding of p.findings) {
    const listedOn = dropped.get(finding.rule);
    if (listedOn !== undefined && finding.severity !== 'info')
      elsewhere.push({
        finding,
        scope: widerScope(finding.rule) ?? 'session',
        page: listedOn || '(no pageLoadId)',
      });
  }
  return { page: withoutRules(p, dropped), elsewhere };
}
