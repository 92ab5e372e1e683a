// A page's verdict and a finding's severity: what the timelines and the visits both say of a page, in a
// module of their own so neither DTO module needs the other to name them.
export const VERDICTS = ['pass', 'warn', 'fail'] as const;
export type Verdict = (typeof VERDICTS)[number];
/** weightiest first */
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** a severity's weight: the weightier, the larger */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };
