// `shopper-dropped` (warning): an event of a visit with no context.shopperId, created after an event of the
// same visit that carried one.
//
// Why it is certain: the provider's client stores the shopper id when it learns it (B setShopperId: a
// cookie for 18 months and localStorage) and reads it for every event it creates (B getContext:
// `this.shopperId || this.getShopperId()`, which reads the cookie or storage again while it holds none);
// setShopperId ignores an empty id and the client has no logout. A visit is one sessionId, which lives in
// the same browser storage, so every event created after one that carried a shopperId carries one too:
// search, category, widget and autocomplete events as much as product, cart and order events. What it
// exempts: events created up to SAME_MOMENT_MS after the first that carried it (the page on which the
// shopper logged in creates its events around the login, and an instant is all their order says).
import { finding } from '../../finding';
import { otherOrigin } from './utils/other-origin';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { duration } from './types';
import { SAME_MOMENT_MS } from './utils/same-moment';

const meta: RuleMeta<'visit'> = {
  id: 'shopper-dropped',
  judges: ['visit'],
  title: 'Shopper id dropped',
  description:
    'An event of a visit without context.shopperId, created after an event of the same visit that carried one: the provider’s client keeps the stored shopper id on every later event.',
  expects:
    'Once the shopper is known (shopper/login, or the id stored on an earlier visit), every later event carries context.shopperId.',
  appliesTo: ['visit'],
  guards: ['login.shopper', 'identity.cross-domain'],
  defaultSeverity: 'warning',
  messages: {
    dropped:
      '{{anonymous}} carries no shopperId, but {{first}}, created {{earlier}} earlier in the same visit, carried shopperId "{{shopperId}}". The provider\'s client stores the shopper id and puts it on every event it creates after that (it has no logout), so the merchant\'s shopper reports and personalization lose this shopper for the rest of the visit.',
  },
  fix: 'Keep the shopper id the client stored: do not clear its shopperId cookie or storage nor send an empty context.shopperId; a checkout on another domain that is given the userId and sessionId needs the shopperId too.',
  listens: ['request'],
  needs: { visit: true },
};

export const shopperDropped = defineRule({
  meta,
  visit(page, { visit }) {
    const first = visit?.identity?.firstShopper;
    const anon = visit?.pages.get(page.key)?.anonymous;
    if (!first || !anon || anon.time <= first.time + SAME_MOMENT_MS) return [];
    return [
      finding(
        meta,
        anon.eventId,
        {
          messageId: 'dropped',
          data: {
            anonymous: anon.eventId,
            first: first.eventId,
            earlier: duration(anon.time - first.time),
            shopperId: first.shopperId,
          },
        },
        [first.eventId, anon.eventId],
        // a page on another origin than the visit's first was given the ids without the shopperId
        {
          behaviour:
            visit && otherOrigin(page.pageUrl, visit.first.pageUrl)
              ? 'identity.cross-domain'
              : 'login.shopper',
        },
      ),
    ];
  },
});
