// `identity-missing`: a page whose events carry an empty userId, sessionId or pageLoadId. The provider's
// client always sets all three (ids it keeps in cookies and localStorage, and one per page load), so an
// empty one is a storefront that passes its own identity and has none: every such shopper shares one
// identity, visits merge, and orders are credited to other shoppers' clicks. The page's identity is its
// first accepted event's; a change inside the page is context-drift's. A placeholder word where an id
// belongs (`anonymous`, `undefined`, `null`, `0`: a template printing what it has for a shopper without one)
// is the same fault: the client makes each id at random (B generateId, a uuid), never a word.
import { finding, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';
import { isPlaceholderId } from '../../values';

const meta: RuleMeta<'page'> = {
  id: 'identity-missing',
  judges: ['page'],
  title: 'Empty shopper or page identity',
  description:
    'A page whose events carry an empty context.userId, context.sessionId or context.pageLoadId, or a placeholder word in one (anonymous, guest, undefined, null, 0): every shopper without one shares the same identity, so their visits merge and orders are credited to other shoppers’ clicks.',
  expects:
    'userId (18 months), sessionId (30 minutes of inactivity) and pageLoadId (one page load) are set on every event, as the provider’s client does.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.context'],
  defaultSeverity: 'error',
  messages: {
    placeholder:
      "This page's events carry {{values}}: a placeholder, not an id. The provider's client makes each of them at random (a uuid per browser, visit and page load); every shopper sent with the same placeholder shares the same {{names}}, so {{consequences}}and reports count them as one.",
    empty:
      "This page's events carry an empty context.{{fields}}. The provider's client always sets them; every shopper sent without one shares the same {{names}}, so {{consequences}}and reports count them as one.",
  },
  fix: 'Let the beacon client manage userId, sessionId and pageLoadId; when passing your own, never pass an empty one.',
  fixes: {
    empty:
      'let the beacon client manage userId, sessionId and pageLoadId; when passing your own, never pass an empty one.',
    placeholder:
      'let the beacon client make userId, sessionId and pageLoadId (it stores them itself); never pass a word your template prints for a shopper it has no id for.',
  },
  listens: ['request'],
};

const FIELDS = ['userId', 'sessionId', 'pageLoadId'] as const;
type Field = (typeof FIELDS)[number];

const consequences = (fields: readonly Field[]) =>
  `${fields.includes('pageLoadId') ? 'their pages merge into one timeline, ' : ''}${fields.includes('sessionId') ? 'their visits merge into one, ' : ''}${fields.includes('userId') ? "orders are credited to other shoppers' clicks, " : ''}`;

export const identityMissing = defineRule({
  meta,
  count: (page) =>
    page.accepted > 0 && FIELDS.some((f) => page[f] === '' || isPlaceholderId(page[f])) ? 1 : 0,
  page(page) {
    if (page.accepted === 0) return [];
    const empty = FIELDS.filter((f) => page[f] === '');
    if (empty.length > 0)
      return [
        finding(
          meta,
          '',
          {
            messageId: 'empty',
            data: {
              fields: empty.join(', context.'),
              names: empty.join(' and '),
              consequences: consequences(empty),
            },
          },
          [],
        ),
      ];
    const words = FIELDS.filter((f) => isPlaceholderId(page[f]));
    if (words.length === 0) return [];
    return [
      finding(
        meta,
        '',
        {
          messageId: 'placeholder',
          data: {
            values: words.map((f) => `context.${f} ${JSON.stringify(page[f])}`).join(' and '),
            names: words.join(' and '),
            consequences: consequences(words),
          },
        },
        [],
      ),
    ];
  },
});
