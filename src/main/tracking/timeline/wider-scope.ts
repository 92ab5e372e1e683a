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

  /**
   * The page as the text report shows it, and the wider warnings and errors it leaves out, each with the
   * page it was listed on: the report still names them on this page, in a line, so that a page's verdict
   * never stands without the findings that make it (an info finding never makes one: it stays out).
   */
  shown<P extends PageVerdictDto>(p: P): { page: P; elsewhere: ListedElsewhere[] } {
    const on = new Map<string, string | undefined>();
    for (const f of p.findings) if (!on.has(f.rule)) on.set(f.rule, this.listedBefore(f.rule, p));
    const dropped = [...on].filter(([, page]) => page !== undefined).map(([rule]) => rule);
    if (dropped.length === 0) return { page: p, elsewhere: [] };
    const elsewhere = p.findings
      .filter((f) => f.severity !== 'info' && dropped.includes(f.rule))
      .map((finding) => ({ finding, listedOn: on.get(finding.rule)! }));
    return { page: withoutRules(p, dropped), elsewhere };
  }

  /**
   * The wider rules whose findings this page leaves out, listed for an earlier page of its session or
   * site (and note the rest as listed now); undefined when it leaves none out. A rule's findings on one
   * page go together: all of them are listed, or none.
   */
  dropped(findings: readonly { rule: string }[], page: PagePlace): readonly string[] | undefined {
    let out: string[] | undefined;
    const decided = new Set<string>();
    for (const f of findings) {
      if (decided.has(f.rule)) continue;
      decided.add(f.rule);
      if (this.repeated(f.rule, page)) (out ??= []).push(f.rule);
    }
    return out;
  }

  /** A summary as a list shows it: a wider rule listed for an earlier page is left out of `rules`. */
  summary(s: PageTimelineSummaryDto): PageTimelineSummaryDto {
    const rules = s.rules.filter((r) => !this.repeated(r, s));
    return rules.length === s.rules.length ? s : { ...s, rules };
  }
}

/** A finding a page leaves out, and the page (its pageLoadId) it was listed on. */
export interface ListedElsewhere {
  finding: TimelineFindingDto;
  listedOn: string;
}

/** The page without the findings of `rules` (a WiderScope's `dropped`), or the page itself when none. */
export function withoutRules<P extends PageVerdictDto>(
  p: P,
  rules: readonly string[] | undefined,
): P {
  if (rules === undefined) return p;
  return { ...p, findings: p.findings.filter((f) => !rules.includes(f.rule)) };
}
