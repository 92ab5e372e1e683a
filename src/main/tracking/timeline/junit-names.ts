// What a JUnit test case is called. CI dashboards (GitLab's test report, Jenkins' JUnit plugin, GitHub's
// test reporter actions) keep a test's history, and tell a new failure from a flaky one, by its classname
// and name: both must come out the same for the same journey, run after run. A page's ids (pageLoadId,
// sessionId) and the storefront's origin (a dev server's port) are new every run, so the case is named by
// the page's site and kind (classname) and its URL's path and query (name); the ids go in its body.
import type { PageVerdictDto } from '../../../shared/timeline';

/** The page's URL without its origin: `/search?q=shoes` of `http://127.0.0.1:33917/search?q=shoes`. */
function pathAndQuery(pageUrl: string): string {
  if (pageUrl === '') return '(no pageUrl)';
  // as sent, not as a URL parser would encode it (`q=<b>`, `q=👟` stay readable)
  const rest = pageUrl.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '');
  return rest === '' ? '/' : rest;
}

/**
 * The names given so far in one report: a page whose classname and name an earlier page of the report had
 * (a search made twice in one run) gets ` (2)`, ` (3)`, … in the order the pages come, so every case is its
 * own test and the same journey names them alike.
 */
export class JunitNames {
  private readonly seen = new Map<string, number>();

  of(p: PageVerdictDto): { classname: string; name: string } {
    // `no siteId`, not a word a site could be named (`nosite` is a siteId the beacon path takes)
    const classname = `${p.siteId || 'no siteId'}.${p.pageKind}`;
    const base = pathAndQuery(p.pageUrl);
    const key = `${classname}\u0000${base}`;
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    return { classname, name: n === 1 ? base : `${base} (${n})` };
  }
}

/** The page's own ids, new every run: the first line of its case's body. */
export function junitPageLine(p: PageVerdictDto): string {
  return `page ${p.pageLoadId || '(no pageLoadId)'} of session ${p.sessionId || '(none)'}: ${p.pageUrl || '(no pageUrl)'}`;
}
