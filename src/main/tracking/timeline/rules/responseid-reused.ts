// `responseid-reused`: a responseId first seen on another page (different URL or session): a stale id.
import { finding, list, plural, type ResponseRule } from './types';

/**
 * The same page for a re-visit: same origin and path. The query is ignored on purpose: the provider's
 * client caches responses by search parameters, so `?q=shoes&utm_source=mail` and `?q=shoes` get the same
 * responseId; the fragment never reaches the server.
 */
export function samePage(a: string, b: string): boolean {
  return pageAddress(a) === pageAddress(b);
}

function pageAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split(/[?#]/)[0]!;
  }
}

export const responseIdReused: ResponseRule = {
  id: 'responseid-reused',
  scope: 'response',
  check(r, ctx) {
    if (r.responseId === '') return [];
    const origin = ctx.origin(r.responseId);
    if (!origin || origin.pageKey === ctx.page.key) return [];
    // The provider's client caches search responses for the session: coming back to the same page
    // (back button, reload after 10 s) re-renders the same responseId on a new pageLoadId. That is fine.
    if (origin.sessionId === r.sessionId && samePage(origin.pageUrl, r.pageUrl)) return [];
    const here = r.events.filter((e) => e.accepted);
    if (here.length === 0) return [];
    const where =
      origin.sessionId !== r.sessionId ? ` in another session ("${origin.sessionId}")` : '';
    const message =
      `responseId "${r.responseId}" belongs to page ${origin.pageLoadId} (${origin.pageUrl}, first seen in ${origin.eventId})${where}, ` +
      `yet this page (${r.pageUrl}) sends it again in ${plural(here.length, 'event')}: ${list(here.map((e) => e.id))}. ` +
      `The spec expects every event on a page to reuse the responseId of that page's own search response; an id carried over from another page is stale. ` +
      `Fix: take data.responseId from the search response shown on this page; do not store it and send it elsewhere.`;
    return [
      finding(
        'responseid-reused',
        'error',
        r.responseId,
        message,
        [origin.eventId, ...here.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
};
