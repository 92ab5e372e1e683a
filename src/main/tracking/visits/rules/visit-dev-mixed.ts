// `visit-dev-mixed`: a page whose context.dev differs from the visit's first event's. When the visit began
// on this very page, its events disagree among themselves: one mode drives a page's whole client (Snap.tsx
// reads it once), so two trackers made in different modes sent them, and the fix is the page's, not the
// other pages'.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'visit-dev-mixed',
  judges: ['visit'],
  title: 'Development and production traffic in one visit',
  description:
    'A visit whose pages disagree on context.dev: some of its events (an order, say) count in production reports while the rest are kept out as development traffic.',
  expects:
    'Every page of a storefront built for development sends dev: true, every page of a live one none.',
  appliesTo: ['visit'],
  guards: ['mode.development'],
  defaultSeverity: 'error',
  messages: {
    onePage:
      '{{count}} on this page {{differ}}, but its first event ({{firstEvent}}) was sent {{began}}: two trackers of this page were made in different modes (a widget or dropdown with its own Beacon, say), so {{effect}} while the rest of the page {{rest}}.',
    mixed:
      '{{count}} on this page {{differ}}, but the visit began {{began}} ({{firstEvent}} on page {{firstPage}}): {{effect}} while the rest of the visit {{rest}}.',
  },
  fixes: {
    onePage:
      'make one tracker per page (Snap’s, or one Beacon shared by the page’s code), or give each the same mode.',
    mixed:
      'create the tracker with the same mode on every page, the checkout and thank-you pages included.',
  },
  fix: 'Create the tracker with the same mode on every page (the thank-you page and checkout included).',
  listens: ['request'],
  needs: { visit: true },
};

export const visitDevMixed = defineRule({
  meta,
  visit(page, { visit }) {
    if (page.accepted === 0 || !visit) return [];
    const first = visit.first;
    const differing = first.dev ? page.notDev.count : page.accepted - page.notDev.count;
    if (differing <= 0) return [];
    const ids = first.dev ? page.notDev.ids : [];
    return [
      finding(
        meta,
        '',
        {
          messageId: first.pageLoadId === page.pageLoadId ? 'onePage' : 'mixed',
          data: {
            count: `${differing} event${differing === 1 ? '' : 's'}`,
            differ: first.dev ? 'lack context.dev: true' : 'carry context.dev: true',
            began: first.dev ? 'in development mode' : 'in production mode',
            firstEvent: first.eventId,
            firstPage: first.pageLoadId,
            effect: first.dev
              ? 'these events (an order, say) count in production reports'
              : 'these events are kept out of production reports',
            rest: first.dev ? 'is not' : 'counts',
          },
        },
        [first.eventId, ...ids],
      ),
    ];
  },
});
