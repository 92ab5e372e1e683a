// Findings about more than their page (a rule whose meta says `scope: 'session'` or `'site'`, such as
// production-mode traffic) are listed once per session or site in lists and text reports: a session of
// 40 pages sent without context.dev says so once, not 40 times. Each page's own detail keeps its finding,
// and its counts and verdict stay the page's. One instance per list or report, fed its pages in order.
import type { PageTimelineSummaryDto, PageVerdictDto } from '../../../shared/timeline';
import { widerScope } from './rule-list';

export class WiderScope {
  private readonly shown = new Set<string>();

  /** The key a rule's finding on this page is listed under, or undefined for a page-scope rule. */
  private key(rule: string, page: { siteId: string; sessionId: string }): string | undefined {
    const scope = widerScope(rule);
    if (scope === undefined) return undefined;
    return scope === 'site'
      ? `${rule}\0${page.siteId}`
      : `${rule}\0${page.siteId}\0${page.sessionId}`;
  }

  /** Whether the rule was listed already for this page's session or site (and note it as listed). */
  private repeated(rule: string, page: { siteId: string; sessionId: string }): boolean {
    const key = this.key(rule, page);
    if (key === undefined) return false;
    if (this.shown.has(key)) return true;
    this.shown.add(key);
    return false;
  }

  /** The page as a list or text report shows it: wider findings listed before are left out. */
  page<P extends PageVerdictDto>(p: P): P {
    return withoutRules(p, this.dropped(p.findings, p));
  }

  /**
   * The wider rules whose findings this page leaves out, listed for an earlier page of its session or
   * site (and note the rest as listed now); undefined when it leaves none out. A rule's findings on one
   * page go together: all of them are listed, or none.
   */
  dropped(
    findings: readonly { rule: string }[],
    page: { siteId: string; sessionId: string },
  ): readonly string[] | undefined {
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

/** The page without the findings of `rules` (a WiderScope's `dropped`), or the page itself when none. */
export function withoutRules<P extends PageVerdictDto>(
  p: P,
  rules: readonly string[] | undefined,
): P {
  if (rules === undefined) return p;
  return { ...p, findings: p.findings.filter((f) => !rules.includes(f.rule)) };
}
