// `context-drift`: sessionId or userId changing between the events of one page load.
//
// The provider's client reads both ids once per page load and keeps them on its Beacon (B), and makes the
// pageLoadId per page load (B getPageLoadId): events of one pageLoadId that carry another userId and
// another sessionId, both, are another shopper's page load under the same pageLoadId (one rendered into a
// cached page, or passed on by hand), said once with that cause; a sessionId or a userId changing alone is
// the page reading (or passing) its ids again, said per id.
import type { Capped } from '../model';
import { finding, plural, quoted, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';

function drift(
  field: 'sessionId' | 'userId',
  values: Map<string, Capped> | null,
  baseline: string,
) {
  if (!values || values.size === 0) return null;
  const { ids, count } = tally(values);
  const data = {
    field,
    baseline,
    count: plural(count, 'event'),
    values: quoted([...values.keys()]),
  };
  // another visitor on the page load is two page loads sharing its pageLoadId; another session of the same
  // visitor is the page load reading its ids again (B reads them once and keeps them on the instance)
  return finding(meta, field, { messageId: 'drift', data }, ids, {
    eventCount: count,
    behaviour: field === 'userId' ? 'identity.page-load' : 'identity.ids-per-page-load',
  });
}

function tally(values: Map<string, Capped>): { ids: string[]; count: number } {
  const others = [...values.values()];
  return {
    ids: others.flatMap((c) => c.ids),
    count: others.reduce((n, c) => n + c.count, 0),
  };
}

/** The events of other sessionIds are those of other userIds (as far as their kept ids tell). */
function sameEvents(sessions: Map<string, Capped>, users: Map<string, Capped>): boolean {
  const a = tally(sessions);
  const b = tally(users);
  if (a.count !== b.count) return false;
  const kept = new Set(a.ids);
  return b.ids.length === a.ids.length && b.ids.every((id) => kept.has(id));
}

const meta: RuleMeta<'page'> = {
  id: 'context-drift',
  judges: ['page'],
  title: 'sessionId or userId changed inside a page',
  description:
    'Events of one pageLoadId with different context.sessionId or context.userId; another userId and sessionId both, on the same events, are another shopper under the same pageLoadId (said once).',
  expects: 'One page load has one shopper: the same userId and sessionId on all its events.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.page-load', 'identity.ids-per-page-load'],
  defaultSeverity: 'error',
  messages: {
    drift:
      'context.{{field}} changes inside this page: it started as "{{baseline}}", then {{count}} carried {{values}}. One page load has one shopper, so the spec expects the same {{field}} on all its events (the provider\'s client keeps it for the page).',
    otherShopper:
      '{{count}} of pageLoadId "{{pageLoadId}}" carried another shopper\'s ids: userId {{userIds}} and sessionId {{sessionIds}}, where the page began with userId "{{userId}}" and sessionId "{{sessionId}}". The provider\'s client makes a pageLoadId on every page load, so two shoppers share one only when it did not make it: a pageLoadId rendered into a page that a cache serves to everyone, or one passed on by hand. The provider merges both shoppers\' events into one page.',
  },
  fix: 'Create one Beacon per page load and let it manage ids; do not pass your own per call.',
  fixes: {
    drift:
      'create one Beacon per page load and let it manage {{field}}; do not pass your own per call or regenerate it.',
    otherShopper:
      'let the provider’s client make the pageLoadId on every page load: do not render it into the page’s HTML (a cached template serves it to every shopper) nor pass one in.',
  },
  listens: ['request'],
};

export const contextDrift = defineRule({
  meta,
  count: (page) => {
    const sessions = page.tallies.otherSessionIds;
    const users = page.tallies.otherUserIds;
    if (sessions?.size && users?.size && sameEvents(sessions, users)) return 1;
    return (sessions?.size ? 1 : 0) + (users?.size ? 1 : 0);
  },
  page(page) {
    const sessions = page.tallies.otherSessionIds;
    const users = page.tallies.otherUserIds;
    if (sessions?.size && users?.size && sameEvents(sessions, users)) {
      const { ids, count } = tally(users);
      const data = {
        count: plural(count, 'event'),
        pageLoadId: page.pageLoadId,
        userIds: quoted([...users.keys()]),
        sessionIds: quoted([...sessions.keys()]),
        userId: page.userId,
        sessionId: page.sessionId,
      };
      return [
        finding(meta, 'otherShopper', { messageId: 'otherShopper', data }, ids, {
          eventCount: count,
          behaviour: 'identity.page-load',
        }),
      ];
    }
    const out = [];
    const s = drift('sessionId', sessions, page.sessionId);
    if (s) out.push(s);
    const u = drift('userId', users, page.userId);
    if (u) out.push(u);
    return out;
  },
});
