// `login-repeated` (warning): a shopper/login whose shopperId the visit already carried.
//
// Why it is certain: the provider's tracker sends shopper/login only when the page's shopper.id differs
// from the one it stored, and stores it then; so a login with the id the shopper's latest earlier event
// carried cannot come from it. What it exempts: events within BATCH_MS before the login (they were created
// together on the login's page and went out before the queued login), and a login after an event with no
// shopperId or another one (a logout or another shopper in between).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { markBefore, marksOfPage } from '../shopper-marks';

const BATCH_MS = 2_000;

const meta: RuleMeta<'visit'> = {
  id: 'login-repeated',
  judges: ['visit'],
  title: 'Login of the shopper already logged in',
  description:
    'A shopper/login whose shopperId the visit’s latest earlier event already carried: the provider’s tracker logs a shopper in only when the id changes.',
  expects: 'One shopper/login when the page’s shopper id first differs from the stored one.',
  appliesTo: ['login'],
  guards: ['login.shopper'],
  defaultSeverity: 'warning',
  messages: {
    repeated:
      "shopper/login {{eventId}} logs in shopperId \"{{shopperId}}\", which the visit already carried ({{priorId}}{{priorLogin}}). The provider's tracker sends a login only when the page's shopper id differs from the one it stored, so the merchant's reports count this shopper's login twice.",
  },
  fixes: {
    repeated:
      'let the tracker send the login (it compares shopper.id with the stored one); do not send shopper/login on every page.',
  },
  fix: 'Let the tracker send the login (it compares shopper.id with the stored one); do not send shopper/login on every page.',
  listens: ['shopper/login'],
  needs: { visit: true },
};

export const loginRepeated = defineRule({
  meta,
  visit(page, { visit }) {
    if (!visit) return [];
    const out = [];
    for (const m of marksOfPage(visit, page.key)) {
      if (!m.login || m.shopperId === '') continue;
      const prior = markBefore(visit.shoppers, m, BATCH_MS);
      if (!prior || prior.shopperId !== m.shopperId) continue;
      out.push(
        finding(
          meta,
          m.eventId,
          {
            messageId: 'repeated',
            data: {
              eventId: m.eventId,
              shopperId: m.shopperId,
              priorId: prior.eventId,
              priorLogin: prior.login ? ', itself a login' : '',
            },
          },
          [prior.eventId, m.eventId],
        ),
      );
    }
    return out;
  },
});
