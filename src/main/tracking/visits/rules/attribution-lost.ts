// `attribution-lost` (warning): an event of a visit without context.attribution, created after an event of
// the same visit that carried one.
//
// Why it is certain: the provider's client reads the attribution from the landing URL's
// `athos_attribution` (or `ss_attribution`) parameter, stores it (a cookie renewed for 30 minutes and
// localStorage) and takes it from storage for every later event (B getAttribution, getContext); it only
// adds entries, never removes one, and forgets it only with the session (getStoredId). A visit is one
// sessionId in the same browser storage, so every event of the visit created after the first attributed
// one carries it. What it exempts: events created up to SAME_MOMENT_MS after that one (shopper-dropped's
// instant), and a visit whose events never carried one (nothing says the session landed from a link).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { duration } from './types';
import { SAME_MOMENT_MS } from './utils/same-moment';

const meta: RuleMeta<'visit'> = {
  id: 'attribution-lost',
  judges: ['visit'],
  title: 'Attribution lost within the session',
  description:
    'An event of a visit without context.attribution, created after an event of the same visit that carried one: the provider’s client keeps the attribution of the landing link for the whole session.',
  expects:
    'context.attribution from the landing URL’s athos_attribution parameter on every event of the session after it.',
  appliesTo: ['visit'],
  guards: ['identity.attribution'],
  defaultSeverity: 'warning',
  messages: {
    lost: "{{lost}} carries no context.attribution, but {{first}}, created {{earlier}} earlier in the same visit, carried [{{attribution}}]. The provider's client stores the attribution of the landing link and sends it on every later event of the session, so what this visit bought after it is no longer credited to the e-mail or campaign that brought the shopper.",
  },
  fix: 'Let the client keep the attribution it stored: do not build context.attribution from the current URL or clear its cookie and storage; pass it on with the userId and sessionId to a checkout on another domain.',
  listens: ['request'],
  needs: { visit: true },
};

export const attributionLost = defineRule({
  meta,
  visit(page, { visit }) {
    const first = visit?.identity?.firstAttributed;
    const lost = visit?.pages.get(page.key)?.unattributed;
    if (!first || !lost || lost.time <= first.time + SAME_MOMENT_MS) return [];
    return [
      finding(
        meta,
        lost.eventId,
        {
          messageId: 'lost',
          data: {
            lost: lost.eventId,
            first: first.eventId,
            earlier: duration(lost.time - first.time),
            attribution: first.attribution,
          },
        },
        [first.eventId, lost.eventId],
      ),
    ];
  },
});
