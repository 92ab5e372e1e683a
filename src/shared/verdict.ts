// A page's verdict and a finding's severity: what the timelines and the visits both say of a page, in a
// module of their own so neither DTO module needs the other to name them.
export const VERDICTS = ['pass', 'warn', 'fail'] as const;
export type Verdict = (typeof VERDICTS)[number];
/** weightiest first */
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
