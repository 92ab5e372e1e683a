// `login-repeated` (warning): a second shopper/login of the same shopperId on one page load and URL that
// neither a reload nor the client's queue explains: a second sender of logins (a tag manager or hand-written
// code calling the login per action or on a timer).
//
// What the client sends: Snap logs the page's shopper in on every page load whose context names a shopper
// (snap-preact Snap.tsx: `tracker.track.shopper.login({ id: context.shopper.id })` in its constructor), as
// does an `athos/track/shopper/login` script (T); B's events.shopper.login queues a login whenever the id is
// set (when it equals the stored one at once, otherwise after setShopperId stored it), and the 300 ms queue
// merges a page load's logins into one request (B processRequests: one batch per site, endpoint,
// pageLoadId and sessionId). So every page load of a logged-in shopper sends one login with the same id:
// correct traffic, never flagged.
// Why what it flags is certain: on one page load and URL, two login requests less than MERGED_MS apart
// were not merged by the queue, so they came from two senders; two more than RELOAD_MS apart are not a
// reload (B reuses a pageLoadId only for the same href within 10 s) and not an SPA route (T.retarget()
// reads a route's login script, but the route changed the URL). What it exempts: logins between MERGED_MS
// and RELOAD_MS apart (a reload within 10 s keeps the pageLoadId and logs in again), logins at another URL
// of the page load (an SPA route), and a login after another shopper's on the page load (a change).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import type { VisitEvent } from '../events';
import { defineRule } from '../../rule';

/** two logins of one page load closer than this would have left in one request (B's 300 ms queue) */
const MERGED_MS = 1_000;
/** B reuses a pageLoadId for the same href within 10 s; the login waits in the queue after the load */
const RELOAD_MS = 12_000;

const meta: RuleMeta<'visit'> = {
  id: 'login-repeated',
  judges: ['visit'],
  title: 'Login sent twice on one page load',
  description:
    'A second shopper/login of the same shopperId on one page load and URL, under 1 s or over 12 s after the first: the client sends one per page load (its queue merges a page’s logins), so a second sender logs the shopper in.',
  expects:
    'One shopper/login per page load of a logged-in shopper (Snap logs the page’s shopper.id in on every load); a reload within 10 s or an SPA route may send another.',
  appliesTo: ['login'],
  guards: ['login.shopper'],
  defaultSeverity: 'warning',
  messages: {
    merged:
      "shopper/login {{eventId}} logs in shopperId \"{{shopperId}}\" {{after}} ms after {{priorId}} did, on the same page load and URL. The provider's client queues a page's logins and sends them as one request, so two requests this close come from two senders: the merchant's reports count this shopper's login twice.",
    late: 'shopper/login {{eventId}} logs in shopperId "{{shopperId}}" again, {{after}} after {{priorId}} did, on the same page load and URL. The provider\'s client logs the shopper in once per page load (a reload reuses the page load only within 10 s, and an SPA route changes the URL), so code of the page sends the login per action or on a timer: the merchant\'s reports count logins that did not happen.',
  },
  fixes: {
    merged:
      'log the shopper in one way only: the tracker from shopper.id (Snap’s context or an athos/track/shopper/login script); remove the second call (a tag manager’s, or a Beacon of its own).',
    late: 'let the tracker send the login once per page load from shopper.id; do not call shopper/login on clicks, cart changes or a timer.',
  },
  fix: 'Let the tracker send the login once per page load from shopper.id; remove any other call of shopper/login.',
  listens: ['shopper/login'],
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export const loginRepeated = defineRule({
  meta,
  visit(_page, { accepted }) {
    const out = [];
    let prev: VisitEvent | undefined;
    for (const v of accepted) {
      if (v.endpoint !== 'shopper/login' || v.shopperId === '') continue;
      const after = prev ? v.base.time - prev.base.time : 0;
      if (
        prev &&
        prev.shopperId === v.shopperId &&
        prev.base.pageUrl === v.base.pageUrl &&
        (after < MERGED_MS || after > RELOAD_MS)
      ) {
        const late = after > RELOAD_MS;
        out.push(
          finding(
            meta,
            v.base.id,
            {
              messageId: late ? 'late' : 'merged',
              data: {
                eventId: v.base.id,
                shopperId: v.shopperId,
                priorId: prev.base.id,
                after: late ? seconds(after) : after,
              },
            },
            [prev.base.id, v.base.id],
          ),
        );
      }
      prev = v;
    }
    return out;
  },
});
