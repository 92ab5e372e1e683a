// `visit-dev-mixed`: a page whose context.dev differs from the visit's first event's. When the visit began
// on this very page, its events disagree among themselves: one mode drives a page's whole client (Snap.tsx
// reads it once), so two trackers made in different modes sent them, and the fix is the page's, not the
// other pages'. What it exempts: pages after a page whose URL switched the mode (Snap.tsx: a `dev` query
// parameter sets development mode and keeps it in a session cookie for the pages after, `dev=false` or
// `dev=0` sets production and clears it), when the page is in the mode the latest switch before it set.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import type { DevSwitch } from '../book';

const meta: RuleMeta<'visit'> = {
  id: 'visit-dev-mixed',
  judges: ['visit'],
  title: 'Development and production traffic in one visit',
  description:
    'A visit whose pages disagree on context.dev: some of its events (an order, say) count in production reports while the rest are kept out as development traffic. Pages from one whose URL switched the client’s mode (`?dev`, `?dev=false`) on are in the mode it set.',
  expects:
    'Every page of a storefront built for development sends dev: true, every page of a live one none.',
  appliesTo: ['visit'],
  guards: ['mode.development'],
  defaultSeverity: 'error',
  messages: {
    afterSwitch:
      '{{count}} on this page {{differ}}, but the visit switched to {{mode}} mode at page {{switchPage}} ({{switchEvent}}: its URL’s `dev` parameter), which the provider’s client keeps for the pages after it (a session cookie): {{effect}} while the rest of the visit {{rest}}.',
    onePage:
      '{{count}} on this page {{differ}}, but its first event ({{firstEvent}}) was sent {{began}}: two trackers of this page were made in different modes (a widget or dropdown with its own Beacon, say), so {{effect}} while the rest of the page {{rest}}.',
    mixed:
      '{{count}} on this page {{differ}}, but the visit began {{began}} ({{firstEvent}} on page {{firstPage}}): {{effect}} while the rest of the visit {{rest}}.',
  },
  fixes: {
    afterSwitch:
      'let every page’s tracker take its mode as Snap does (the `dev` parameter and its session cookie), the checkout and thank-you pages included, not a mode of its own.',
    onePage:
      'make one tracker per page (Snap’s, or one Beacon shared by the page’s code), or give each the same mode.',
    mixed:
      'create the tracker with the same mode on every page, the checkout and thank-you pages included.',
  },
  fix: 'Create the tracker with the same mode on every page (the thank-you page and checkout included).',
  listens: ['request'],
  needs: { visit: true },
};

/** The latest switch of the client's mode at or before `time`. */
function switchBefore(
  switches: readonly DevSwitch[],
  time: number | undefined,
): DevSwitch | undefined {
  if (time === undefined) return undefined;
  let found: DevSwitch | undefined;
  for (const s of switches) if (s.time <= time) found = s;
  return found;
}

export const visitDevMixed = defineRule({
  meta,
  visit(page, { visit }) {
    if (page.accepted === 0 || !visit) return [];
    const first = visit.first;
    // a URL switched the client's mode at or before this page: the page is due the mode it set
    const switched =
      visit.devSwitches && switchBefore(visit.devSwitches, visit.loads.startOf(page.key));
    const expectDev = switched ? switched.dev : first.dev;
    const differing = expectDev ? page.notDev.count : page.accepted - page.notDev.count;
    if (differing <= 0) return [];
    const ids = expectDev ? page.notDev.ids : [];
    const effect = expectDev
      ? 'these events (an order, say) count in production reports'
      : 'these events are kept out of production reports';
    const common = {
      count: `${differing} event${differing === 1 ? '' : 's'}`,
      differ: `${expectDev ? 'lack' : 'carry'}${differing === 1 ? 's' : ''} context.dev: true`,
      effect,
      rest: expectDev ? 'is not' : 'counts',
    };
    if (switched)
      return [
        finding(
          meta,
          '',
          {
            messageId: 'afterSwitch',
            data: {
              ...common,
              mode: expectDev ? 'development' : 'production',
              switchEvent: switched.eventId,
              switchPage: switched.pageLoadId,
            },
          },
          [switched.eventId, ...ids],
        ),
      ];
    return [
      finding(
        meta,
        '',
        {
          messageId: first.pageLoadId === page.pageLoadId ? 'onePage' : 'mixed',
          data: {
            ...common,
            began: first.dev ? 'in development mode' : 'in production mode',
            firstEvent: first.eventId,
            firstPage: first.pageLoadId,
          },
        },
        [first.eventId, ...ids],
      ),
    ];
  },
});
