// `visit-user-changed`: a page of a visit carrying another userId than the visit's first page.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import type { Visit } from '../book';
import type { VisitRule } from './types';

/**
 * A second tab opened together with the visit's first page is exempt: tabs opened at once on a fresh
 * browser each create a userId before either has stored one (the provider's client does this; the
 * corpus's two-tabs journey records it). Exempt is only the page that began within this long of the
 * visit's start with no other page of the visit begun before it but the first; every later page must
 * carry the stored userId.
 */
export const CONCURRENT_START_MS = 2_000;

function openedWithFirst(visit: Visit, pageKey: string): boolean {
  const started = visit.pages.get(pageKey)?.first ?? Infinity;
  if (started - visit.first.time > CONCURRENT_START_MS) return false;
  for (const [key, p] of visit.pages)
    if (key !== pageKey && key !== visit.first.pageKey && p.first <= started) return false;
  return true;
}

const meta: RuleMeta = {
  id: 'visit-user-changed',
  title: 'Shopper identity changed inside the visit',
  description:
    'A page of a visit (one sessionId) carrying another userId than the visit’s first page: the order is no longer linked to the clicks that earned the search its credit, and personalization starts over. A login is not a finding (it sets shopperId, the userId stays).',
  expects:
    'One userId for the whole visit (18 months, in a cookie and localStorage of the storefront’s domain).',
  appliesTo: ['visit'],
  guards: ['identity.session'],
  defaultSeverity: 'warning',
  fix: 'Keep the tracker’s userId across pages (a checkout on another domain must be given the userId and sessionId); never create a new Beacon identity per page.',
  listens: ['request'],
  needs: { visit: true },
};

export const visitUserChanged: VisitRule = {
  meta,
  judges: 'visit',
  check(page, { visit }) {
    if (page.accepted === 0 || !visit || visit.first.pageKey === page.key) return [];
    const first = visit.first;
    if (page.userId === first.userId || openedWithFirst(visit, page.key)) return [];
    return [
      finding(
        meta,
        '',
        `This page of visit (sessionId) "${page.sessionId}" carries userId "${page.userId}", but the visit began with userId "${first.userId}" (${first.eventId} on page ${first.pageLoadId}). ` +
          `Credit goes to clicks by the order's own userId, so search's clicks before the change earn nothing, and personalization starts over. A login is not this: it sets shopperId and keeps the userId. ` +
          `Fix: keep the tracker's userId across pages (a checkout on another domain must be given the userId and sessionId); never create a new identity per page.`,
        [first.eventId],
      ),
    ];
  },
};
