// What a JUnit test case is called. CI dashboards (GitLab's test report, Jenkins' JUnit plugin, GitHub's
// test reporter actions) keep a test's history, and tell a new failure from a flaky one, by its classname
// and name: both must come out the same for the same journey, run after run. A page's ids (pageLoadId,
// sessionId) and the storefront's origin (a dev server's port) are new every run, so the case is named by
// the page's site and kind (classname) and its URL's path and query (name); the ids go in its body.
// - The name is the page's URL as baselines compare it (shared/page-location.ts, pageLocation): a parameter
//   or path segment that is one of the page's own ids reads by its name (`/thank-you?order={orderId}`),
//   as the order number of a real checkout is new every run; the parameters in the order of their names.
// - The kind is what the page's requests name by their endpoints, accepted or not: a page whose render the
//   service rejected (a regression) is still `demo42.search`, and its test turns red instead of vanishing
//   beside a new `demo42.other` one. (The timelines' pageKind counts accepted events only.)
import type { PageTimelineDto, PageVerdictDto } from '../../../shared/timeline';
import { VISIT_PAGE_KINDS, type VisitPageKind } from '../../../shared/visits';
import { addVolatile, pageLocation } from '../../../shared/page-location';
import { visitEndpointKind, type Page } from './page';

/** What names a page's test case beside its site: its kind and its URL, both the same run after run. */
export interface CaseIdentity {
  kind: VisitPageKind;
  /** the URL's path and query as baselines compare it; '(no pageUrl)' */
  location: string;
}

/** What of a page its case is named from: an engine's page and a page's DTO both tell it. */
interface NamingFacts {
  pageKind: VisitPageKind;
  pageUrl: string;
  sessionId: string;
  userId: string;
  pageLoadId: string;
  responses: Iterable<{ kind: string; responseId: string }>;
  visits: Iterable<{ endpoint: string; orderId?: string | null }>;
}

/** The weightiest kind the page's requests name, accepted or not; its timelines' kind at least. */
function requestedKind(f: NamingFacts): VisitPageKind {
  const named = new Set<string>([f.pageKind]);
  for (const r of f.responses) named.add(r.kind);
  for (const v of f.visits) named.add(visitEndpointKind(v.endpoint) ?? '');
  return VISIT_PAGE_KINDS.find((k) => named.has(k)) ?? 'other';
}

/** The page's URL as a baseline reads it, with the ids the page's events carried. */
function comparedLocation(f: NamingFacts): string {
  if (f.pageUrl === '') return '(no pageUrl)';
  const volatile = new Map<string, string>();
  addVolatile(volatile, f.sessionId, 'sessionId');
  addVolatile(volatile, f.userId, 'userId');
  addVolatile(volatile, f.pageLoadId, 'pageLoadId');
  for (const r of f.responses) addVolatile(volatile, r.responseId, 'responseId');
  for (const v of f.visits) addVolatile(volatile, v.orderId, 'orderId');
  return pageLocation(f.pageUrl, volatile);
}

function identity(f: NamingFacts): CaseIdentity {
  return { kind: requestedKind(f), location: comparedLocation(f) };
}

/** A page of the engine's (a live report, `check`): its responses and visit events, whatever was accepted. */
export function pageIdentity(page: Page): CaseIdentity {
  return identity({
    pageKind: page.pageKind,
    pageUrl: page.pageUrl,
    sessionId: page.sessionId,
    userId: page.userId,
    pageLoadId: page.pageLoadId,
    responses: page.responses.values(),
    visits: page.visitEvents,
  });
}

/**
 * A page's DTO: the whole page's (its visit events) names it as its engine's page does; a verdict alone has
 * none of them, so its order, product and cart events count as its timelines' kind says.
 */
export function dtoIdentity(p: PageVerdictDto): CaseIdentity {
  return identity({ ...p, visits: (p as Partial<PageTimelineDto>).visitEvents ?? [] });
}

/**
 * The names given so far in one report: a page whose classname and name an earlier page of the report had
 * (a search made twice in one run, two orders) gets ` (2)`, ` (3)`, … in the order the pages come, so every
 * case is its own test and the same journey names them alike.
 */
export class JunitNames {
  private readonly seen = new Map<string, number>();

  of(siteId: string, { kind, location }: CaseIdentity): { classname: string; name: string } {
    // `no siteId`, not a word a site could be named (`nosite` is a siteId the beacon path takes)
    const classname = `${siteId || 'no siteId'}.${kind}`;
    const key = `${classname}\u0000${location}`;
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    return { classname, name: n === 1 ? location : `${location} (${n})` };
  }
}

/** The page's own ids, new every run: the first line of its case's body. */
export function junitPageLine(p: PageVerdictDto): string {
  return `page ${p.pageLoadId || '(no pageLoadId)'} of session ${p.sessionId || '(none)'}: ${p.pageUrl || '(no pageUrl)'}`;
}
