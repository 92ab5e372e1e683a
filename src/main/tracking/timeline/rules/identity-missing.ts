// `identity-missing`: a page whose events carry an empty userId, sessionId or pageLoadId. The provider's
// client always sets all three (ids it keeps in cookies and localStorage, and one per page load), so an
// empty one is a storefront that passes its own identity and has none: every such shopper shares one
// identity, visits merge, and orders are credited to other shoppers' clicks. The page's identity is its
// first accepted event's; a change inside the page is context-drift's.
import { finding, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';

const meta: RuleMeta<'page'> = {
  id: 'identity-missing',
  judges: ['page'],
  title: 'Empty shopper or page identity',
  description:
    'A page whose events carry an empty context.userId, context.sessionId or context.pageLoadId: every shopper without one shares the same identity, so their visits merge and orders are credited to other shoppers’ clicks.',
  expects:
    'userId (18 months), sessionId (30 minutes of inactivity) and pageLoadId (one page load) are set on every event, as the provider’s client does.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.context'],
  defaultSeverity: 'error',
  messages: {
    empty:
      "This page's events carry an empty context.{{fields}}. The provider's client always sets them; every shopper sent without one shares the same {{names}}, so {{consequences}}and reports count them as one.",
  },
  fix: 'Let the beacon client manage userId, sessionId and pageLoadId; when passing your own, never pass an empty one.',
  listens: ['request'],
};

const FIELDS = ['userId', 'sessionId', 'pageLoadId'] as const;

export const identityMissing = defineRule({
  meta,
  count: (page) => (page.accepted > 0 && FIELDS.some((f) => page[f] === '') ? 1 : 0),
  page(page) {
    if (page.accepted === 0) return [];
    const empty = FIELDS.filter((f) => page[f] === '');
    if (empty.length === 0) return [];
    return [
      finding(
        meta,
        '',
        {
          messageId: 'empty',
          data: {
            fields: empty.join(', context.'),
            names: empty.join(' and '),
            consequences: `${empty.includes('pageLoadId') ? 'their pages merge into one timeline, ' : ''}${empty.includes('sessionId') ? 'their visits merge into one, ' : ''}${empty.includes('userId') ? "orders are credited to other shoppers' clicks, " : ''}`,
          },
        },
        [],
      ),
    ];
  },
});
