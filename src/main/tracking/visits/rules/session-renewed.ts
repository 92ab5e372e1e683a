// `session-renewed` (warning): a visit (sessionId) of a userId that began while another visit of that
// userId was still alive: the provider's client would have kept the session.
//
// Why it is certain: the client keeps its sessionId in a cookie and localStorage of the storefront's
// domain, beside the userId, and every page of the domain reads them; it rolls the 30 minutes when a page
// load reads it (B getStoredId, once per page load: getContext keeps `this.sessionId`), not on every event.
// A new sessionId for the same userId within 30 minutes of the latest page load of its other visit (that
// began before it) means the storefront (or a checkout on another domain given only the userId) made its
// own. What it exempts: visits that began within CONCURRENT_START_MS of the first of their burst (tabs
// opened together, each finding no live session: a fresh browser, or one whose session expired; a chain of
// visits each a moment after the last, a sessionId per page clicked through quickly, is not one), and a
// visit that began more than the session lifetime after every page load of the userId's other visit began,
// however recent that visit's last event (a page used that long rolled the session at its load only).
import { finding } from '../../finding';
import { otherOrigin } from './utils/other-origin';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { SESSION_IDLE_MS } from '../book';
import { CONCURRENT_START_MS } from './utils/concurrent';

/** how many visits back a burst of tabs opened together is followed to its first */
const MAX_BURST = 16;

const meta: RuleMeta<'visit'> = {
  id: 'session-renewed',
  judges: ['visit'],
  title: 'A new session while the last one was alive',
  description:
    'A visit (sessionId) of a userId that began less than 30 minutes after the latest page load of that userId’s previous visit: the provider’s client keeps the sessionId for 30 minutes from each page load.',
  expects:
    'One sessionId while the shopper is active, kept in a cookie and localStorage; a new one only after 30 minutes without an event.',
  appliesTo: ['visit'],
  guards: ['identity.session', 'identity.user-per-browser', 'identity.cross-domain'],
  defaultSeverity: 'warning',
  messages: {
    renewed:
      'This page began visit (sessionId) "{{sessionId}}" of userId "{{userId}}" {{when}} that userId\'s visit "{{previous}}" (begun by {{previousFirst}}) {{state}}. The provider\'s client keeps a sessionId for 30 minutes of inactivity, so the shopper\'s one visit is split in two: sessions, conversion per session and the order\'s session no longer match.',
  },
  fixes: {
    renewed:
      "let the provider's beacon client keep the sessionId on every page (give a checkout on another domain the sessionId too, not only the userId).",
  },
  fix: 'Let the provider’s beacon client keep the sessionId on every page (give a checkout on another domain the sessionId too, not only the userId); never make one per page.',
  listens: ['request'],
  needs: { visit: true },
};

/**
 * What the new visit breaks: begun on another origin than the userId's visit before it, a checkout given the
 * userId without the sessionId; begun while that visit still sent events, a userId two sessions (browsers)
 * carry at once; begun after it, within the session's life, a sessionId the client would have kept.
 */
function renewedBehaviour(url: string, previousUrl: string, gap: number): string {
  if (otherOrigin(url, previousUrl)) return 'identity.cross-domain';
  return gap <= 0 ? 'identity.user-per-browser' : 'identity.session';
}

export const sessionRenewed = defineRule({
  meta,
  visit(page, { visit, book }) {
    if (!visit || visit.first.pageKey !== page.key) return [];
    const previous = book.previousVisitOf(visit);
    if (!previous) return [];
    const gap = visit.startMs - previous.endMs;
    if (gap > SESSION_IDLE_MS) return [];
    // the client rolled the session when the previous visit's latest page load before this one began
    const rolled = previous.loads.latestStartBy(visit.startMs);
    if (visit.startMs - rolled > SESSION_IDLE_MS) return [];
    if (Math.abs(visit.startMs - previous.startMs) <= CONCURRENT_START_MS) {
      // tabs opened together: every visit of the burst began within the window of its first, not a
      // chain of pages each a moment after the last (a sessionId per page, clicked through quickly)
      let first = previous;
      for (let n = 0; n < MAX_BURST; n++) {
        const before = book.previousVisitOf(first);
        if (!before || Math.abs(first.startMs - before.startMs) > CONCURRENT_START_MS) break;
        first = before;
      }
      if (visit.startMs - first.startMs <= CONCURRENT_START_MS) return [];
    }
    return [
      finding(
        meta,
        '',
        {
          messageId: 'renewed',
          data: {
            sessionId: visit.sessionId,
            userId: visit.first.userId,
            when: gap <= 0 ? 'while' : `${Math.round(gap / 1000)} s after`,
            previous: previous.sessionId,
            state: gap <= 0 ? 'was still sending events' : 'had its last event',
            previousFirst: previous.first.eventId,
          },
        },
        [visit.first.eventId],
        { behaviour: renewedBehaviour(visit.first.pageUrl, previous.first.pageUrl, gap) },
      ),
    ];
  },
});
