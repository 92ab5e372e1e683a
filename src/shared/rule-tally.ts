// Each rule's findings over many pages, as a summary of them says it: its worst severity, on how many pages,
// how many findings, and how many of them follow from another finding. One tally for the HTML report's
// table of rules and `expectClean`'s "by rule" line, so that both count and order the rules alike.
import { SEVERITY_RANK, type Severity } from './verdict';

export interface RuleTally {
  rule: string;
  /** the worst severity of its findings */
  severity: Severity;
  pages: number;
  findings: number;
  /** of its findings, those that follow from another finding (listed under their cause) */
  following: number;
}

/** What a tally reads of a finding. */
export interface TalliedFinding {
  rule: string;
  severity: Severity;
  causedBy?: string;
}

export class RuleTallies {
  private readonly rules = new Map<string, RuleTally>();

  /** One page's findings: each rule it names counts this page once. */
  add(findings: readonly TalliedFinding[]): void {
    const seen = new Set<string>();
    for (const f of findings) {
      let t = this.rules.get(f.rule);
      if (!t)
        this.rules.set(
          f.rule,
          (t = { rule: f.rule, severity: f.severity, pages: 0, findings: 0, following: 0 }),
        );
      t.findings++;
      if (f.causedBy !== undefined) t.following++;
      if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[t.severity]) t.severity = f.severity;
      if (!seen.has(f.rule)) {
        seen.add(f.rule);
        t.pages++;
      }
    }
  }

  /**
   * The tallies, worst severity first, then the rule on most pages (of equal pages, in the order the rules
   * first came), then by `then` when given.
   */
  sorted(then?: (a: RuleTally, b: RuleTally) => number): RuleTally[] {
    return [...this.rules.values()].sort(
      (a, b) =>
        SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
        b.pages - a.pages ||
        (then?.(a, b) ?? 0),
    );
  }
}
