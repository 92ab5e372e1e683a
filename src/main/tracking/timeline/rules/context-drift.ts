// `context-drift`: sessionId or userId changing between the events of one page load.
import type { Capped } from '../model';
import { finding, plural, quoted, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';

function drift(
  field: 'sessionId' | 'userId',
  values: Map<string, Capped> | null,
  baseline: string,
) {
  if (!values || values.size === 0) return null;
  const others = [...values.entries()];
  const ids = others.flatMap(([, c]) => c.ids);
  const count = others.reduce((n, [, c]) => n + c.count, 0);
  const data = {
    field,
    baseline,
    count: plural(count, 'event'),
    values: quoted(others.map(([v]) => v)),
  };
  // another visitor on the page load is two page loads sharing its pageLoadId; another session of the same
  // visitor is the page load reading its ids again (B reads them once and keeps them on the instance)
  return finding(meta, field, { messageId: 'drift', data }, ids, {
    eventCount: count,
    behaviour: field === 'userId' ? 'identity.page-load' : 'identity.ids-per-page-load',
  });
}

const meta: RuleMeta<'page'> = {
  id: 'context-drift',
  judges: ['page'],
  title: 'sessionId or userId changed inside a page',
  description: 'Events of one pageLoadId with different context.sessionId or context.userId.',
  expects: 'One page load has one shopper: the same userId and sessionId on all its events.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.page-load', 'identity.ids-per-page-load'],
  defaultSeverity: 'error',
  messages: {
    drift:
      'context.{{field}} changes inside this page: it started as "{{baseline}}", then {{count}} carried {{values}}. One page load has one shopper, so the spec expects the same {{field}} on all its events (the provider\'s client keeps it for the page).',
  },
  fix: 'Create one Beacon per page load and let it manage ids; do not pass your own per call.',
  fixes: {
    drift:
      'create one Beacon per page load and let it manage {{field}}; do not pass your own per call or regenerate it.',
  },
  listens: ['request'],
};

export const contextDrift = defineRule({
  meta,
  count: (page) =>
    (page.tallies.otherSessionIds?.size ? 1 : 0) + (page.tallies.otherUserIds?.size ? 1 : 0),
  page(page) {
    const out = [];
    const s = drift('sessionId', page.tallies.otherSessionIds, page.sessionId);
    if (s) out.push(s);
    const u = drift('userId', page.tallies.otherUserIds, page.userId);
    if (u) out.push(u);
    return out;
  },
});
