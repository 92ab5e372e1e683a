// `shopper-without-login` (warning): an event whose shopperId appeared or changed in the visit with no
// shopper/login carrying it (product, cart and order events, and search-side events where their page's
// shopperId changes: the visit book's shopper marks).
//
// Why it is certain: the provider's client logs the page's shopper.id in on every page load (Snap.tsx), and
// when it differs from the one B stored, stores it before the login; every later event carries it. So within a
// visit a shopperId appears (or changes) only together with a login of that id. What it exempts: the
// visit's first events (a shopper logged in on an earlier visit keeps the stored id), a login created up
// to BATCH_MS after the event (the login waits in the 300 ms queue while cart events go at once), and a
// shopperId that goes away (the client never drops a stored one: shopper-dropped names that). A shopperId
// that comes back after another shopper's, with no login of it between (`shared`), is told as two browsers
// sending one visit's ids: one browser cannot go back to a shopper without the client logging it in again,
// so the userId and sessionId were made once and given to both (made on the server, printed into pages).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { markBefore, marksOfPage, marksWithin, type ShopperMark } from '../shopper-marks';

/** the login's queue delay and the constructor's order, with room for a slow page */
const BATCH_MS = 2_000;

const meta: RuleMeta<'visit'> = {
  id: 'shopper-without-login',
  judges: ['visit'],
  title: 'Shopper id without a login',
  description:
    'An event whose context.shopperId appeared or changed within the visit with no shopper/login carrying that id.',
  expects:
    'The provider’s client sends shopper/login on every page load whose shopper.id is set, storing the id first when it differs from the stored one; later events carry it.',
  appliesTo: ['visit'],
  guards: ['login.shopper'],
  defaultSeverity: 'warning',
  messages: {
    shared:
      "{{eventId}} carries shopperId \"{{shopperId}}\" again ({{firstId}} carried it), after the visit's events since carried {{prior}} ({{priorId}}), and no shopper/login with \"{{shopperId}}\" came between: two shoppers' browsers send this visit's userId and sessionId. The provider's client makes those ids in each browser (its cookies and localStorage) and logs the page's shopper in whenever it changes, so one browser cannot go back to a shopper without a login: the ids were made once and given to both, and their searches, carts and orders are merged into one visit.",
    noLogin:
      '{{eventId}} carries shopperId "{{shopperId}}", but the visit\'s event before it ({{priorId}}) carried {{prior}}, and no shopper/login with "{{shopperId}}" was sent. The provider\'s tracker sends shopper/login whenever the page\'s shopper id differs from the one it stored, so a shopperId never appears or changes without one: personalization and the merchant\'s shopper reports miss the login.',
  },
  fixes: {
    shared:
      'let the provider’s client create userId and sessionId in each browser: do not generate them on the server or print them into pages (or cached HTML).',
    noLogin:
      "give the tracker the shopper's id (shopper.id) on every page once they are logged in; it sends the login itself.",
  },
  fix: 'Give the tracker the shopper’s id (shopper.id) on every page once they are logged in; it sends shopper/login on each page load.',
  listens: ['request'],
  needs: { visit: true },
};

export const shopperWithoutLogin = defineRule({
  meta,
  visit(page, { visit }) {
    if (!visit) return [];
    const out = [];
    const reported = new Set<string>();
    for (const m of marksOfPage(visit, page.key)) {
      if (m.login || m.shopperId === '' || reported.has(m.shopperId)) continue;
      const prior = markBefore(visit.shoppers, m, BATCH_MS);
      if (!prior || prior.shopperId === m.shopperId) continue;
      if (loggedIn(visit.shoppers, m.shopperId, prior.time, m.time + BATCH_MS)) continue;
      reported.add(m.shopperId);
      // the same shopper seen before the other one: another browser, not this one changing its shopper
      const earlier = prior.shopperId
        ? visit.shoppers.find((x) => x.shopperId === m.shopperId && x.time < prior.time)
        : undefined;
      if (earlier) {
        out.push(
          finding(
            meta,
            m.eventId,
            {
              messageId: 'shared',
              data: {
                eventId: m.eventId,
                shopperId: m.shopperId,
                firstId: earlier.eventId,
                priorId: prior.eventId,
                prior: `shopperId "${prior.shopperId}"`,
              },
            },
            [earlier.eventId, prior.eventId, m.eventId],
          ),
        );
        continue;
      }
      out.push(
        finding(
          meta,
          m.eventId,
          {
            messageId: 'noLogin',
            data: {
              eventId: m.eventId,
              shopperId: m.shopperId,
              priorId: prior.eventId,
              prior: prior.shopperId ? `shopperId "${prior.shopperId}"` : 'none',
            },
          },
          [prior.eventId, m.eventId],
        ),
      );
    }
    return out;
  },
});

/** Was `shopperId` logged in after `after` and at or before `upTo`? */
function loggedIn(marks: readonly ShopperMark[], shopperId: string, after: number, upTo: number) {
  for (const x of marksWithin(marks, after, upTo))
    if (x.login && x.shopperId === shopperId) return true;
  return false;
}
