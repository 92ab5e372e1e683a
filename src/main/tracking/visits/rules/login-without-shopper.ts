// `login-without-shopper` (warning): a shopper/login whose context.shopperId is empty.
//
// Why it is certain: the beacon sends a login only with the id it logs in (B events.shopper.login queues the
// request only `if (event.data?.id)`, and puts it in context.shopperId), and Snap and the tracker call it
// only when the page's shopper.id is set (Snap.tsx, T). So a login that names no shopper was built by
// hand. A login of a placeholder word (`guest`, `0`, `null`) is a template that prints one for a shopper
// who is not logged in: Snap logs in whatever truthy shopper.id the page gives (Snap.tsx), so every
// anonymous visitor is logged in as one customer. What it exempts: nothing; a login with any other
// non-empty id is login-repeated's and shopper-without-login's to judge.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { isPlaceholderId } from '../../values';

const meta: RuleMeta<'visit'> = {
  id: 'login-without-shopper',
  judges: ['visit'],
  title: 'Login that names no shopper',
  description:
    'A shopper/login with an empty context.shopperId (the provider’s beacon sends a login only with the id it logs in), or with a placeholder word (guest, 0, null) a template printed for a shopper who is not logged in.',
  expects: 'shopper/login carries the shopperId it logs in.',
  appliesTo: ['login'],
  guards: ['login.shopper'],
  defaultSeverity: 'warning',
  messages: {
    placeholder:
      'shopper/login {{eventId}} logs in shopperId "{{shopperId}}": a placeholder, not a customer\'s id. Snap logs in whatever shopper.id the page gives, so a template that prints this for a shopper who is not logged in logs every anonymous visitor in as one customer: their views, carts and orders merge under it, and personalization reads them as one shopper.',
    noShopper:
      "shopper/login {{eventId}} carries no shopperId. The provider's beacon sends a login only with the id it logs in (the page's shopper.id), so this login was built by hand: the merchant's reports count a login of nobody, and no later event is tied to the shopper.",
  },
  fixes: {
    placeholder:
      'leave shopper.id unset (or empty) for a shopper who is not logged in; set it only to the logged-in customer’s own id.',
    noShopper:
      'give the tracker the logged-in shopper (shopper.id on the page, or tracker.track.shopper.login({ id })) instead of sending shopper/login yourself.',
  },
  fix: 'Give the tracker the logged-in shopper’s id instead of sending shopper/login yourself.',
  listens: ['shopper/login'],
};

export const loginWithoutShopper = defineRule({
  meta,
  visit(_page, { accepted }) {
    return accepted
      .filter(
        (v) =>
          v.endpoint === 'shopper/login' && (v.shopperId === '' || isPlaceholderId(v.shopperId)),
      )
      .map((v) =>
        finding(
          meta,
          v.base.id,
          {
            messageId: v.shopperId === '' ? 'noShopper' : 'placeholder',
            data: { eventId: v.base.id, shopperId: v.shopperId },
          },
          [v.base.id],
        ),
      );
  },
});
