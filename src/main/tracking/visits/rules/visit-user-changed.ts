// `visit-user-changed`: a page of a visit carrying another userId than the visit's first page.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { openedWithFirst } from './utils/concurrent';
import { otherOrigin } from './utils/other-origin';

const meta: RuleMeta<'visit'> = {
  id: 'visit-user-changed',
  judges: ['visit'],
  title: 'Shopper identity changed inside the visit',
  description:
    'A page of a visit (one sessionId) carrying another userId than the visit’s first page: the order is no longer linked to the clicks that earned the search its credit, and personalization starts over. A login is not a finding (it sets shopperId, the userId stays).',
  expects:
    'One userId for the whole visit (18 months, in a cookie and localStorage of the storefront’s domain).',
  appliesTo: ['visit'],
  guards: ['identity.session', 'identity.cross-domain'],
  defaultSeverity: 'warning',
  messages: {
    changed:
      'This page of visit (sessionId) "{{sessionId}}" carries userId "{{userId}}", but the visit began with userId "{{firstUserId}}" ({{firstEvent}} on page {{firstPage}}). Credit goes to clicks by the order\'s own userId, so search\'s clicks before the change earn nothing, and personalization starts over. A login is not this: it sets shopperId and keeps the userId.',
  },
  fixes: {
    changed:
      "keep the tracker's userId across pages (a checkout on another domain must be given the userId and sessionId); never create a new identity per page.",
  },
  fix: 'Keep the tracker’s userId across pages (a checkout on another domain must be given the userId and sessionId); never create a new Beacon identity per page.',
  listens: ['request'],
  needs: { visit: true },
};

export const visitUserChanged = defineRule({
  meta,
  visit(page, { visit }) {
    if (page.accepted === 0 || !visit || visit.first.pageKey === page.key) return [];
    const first = visit.first;
    if (page.userId === first.userId || openedWithFirst(visit, page.key)) return [];
    return [
      finding(
        meta,
        '',
        {
          messageId: 'changed',
          data: {
            sessionId: page.sessionId,
            userId: page.userId,
            firstUserId: first.userId,
            firstEvent: first.eventId,
            firstPage: first.pageLoadId,
          },
        },
        [first.eventId],
        // a page on another origin than the visit's first was given the sessionId without the userId
        {
          behaviour: otherOrigin(page.pageUrl, first.pageUrl)
            ? 'identity.cross-domain'
            : 'identity.session',
        },
      ),
    ];
  },
});
