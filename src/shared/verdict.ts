// A page's verdict and a finding's severity: what the timelines and the visits both say of a page, in a
// module of their own so neither DTO module needs the other to name them.
export type Verdict = 'pass' | 'warn' | 'fail';
export type Severity = 'error' | 'warning' | 'info';
