// `redirect-routed` (warning): after a redirect (search/redirect or autocomplete/redirect), an event of the
// same page load created at the redirect's target URL: the storefront routed to the target inside its SPA
// instead of navigating, so the target page's events carry the redirecting page's pageLoadId.
//
// Why it is certain: the provider's controllers send the redirect and then navigate with the browser
// (SC afterSearch: window.location.replace(url); ACC: location.href = url), which loads a new document,
// and a new page load gets a new pageLoadId (B getPageLoadId reuses the stored one only for the same href
// within 10 s, and the stored href is the redirecting page's). So no event at the target can carry the
// redirecting page's pageLoadId. What it exempts: a redirect to the page it was sent from, or to the page
// load's first URL (a reload within 10 s keeps the pageLoadId), or to another fragment of it (no page
// loads); events at the target created more than ROUTED_MS after the redirect (a shopper who came back,
// the browser restoring the page with its pageLoadId from its back-forward cache, and went to the same
// URL again through the SPA's own links: the routed target's first events follow its redirect by the
// time a search takes).
import type { RecordedEvent } from '../../../../shared/events';
import type { Page } from '../page';
import { dataOf, pageUrlOf, resolveUrl, timeOf, withoutHash } from './utils/request-context';
import { duration } from '../../finding';
import { finding, type RuleMeta, defineRule } from './types';
import type { TallyMark } from '../model';
import { tallySlot } from './utils/tally-slot';

/** the time the routed target page's first events take after its redirect: a search and a render */
export const ROUTED_MS = 10_000;
/** redirects a page keeps (one page sends one, rarely two: a dropdown term, then a search) */
const MAX_REDIRECTS = 3;

const meta: RuleMeta<'page'> = {
  id: 'redirect-routed',
  judges: ['page'],
  title: 'Redirect routed inside the SPA',
  description:
    'An event created at a redirect’s target URL on the page load that sent the redirect: the storefront routed to the target in its SPA, where the provider’s client navigates to a new page.',
  expects:
    'A redirect is followed by a page load of its URL (window.location.replace or location.href), which has a pageLoadId of its own.',
  appliesTo: ['search', 'category', 'autocomplete'],
  guards: ['autocomplete.redirect-navigates', 'identity.page-load-one-page', 'search.redirect'],
  defaultSeverity: 'warning',
  messages: {
    routed:
      '{{redirectId}} redirected to "{{target}}", and {{eventId}} was created {{after}} later at that URL on the same page load "{{pageLoadId}}". The provider\'s client navigates to a redirect\'s URL (a new page load, a new pageLoadId); routing to it inside the SPA merges the target page\'s events into the page that redirected, so the provider sees neither page as it was.',
  },
  fix: 'Navigate to the redirect’s URL with the browser (window.location.replace or location.href), as the provider’s controllers do, not with the SPA’s router; or send the target page’s events with a new pageLoadId.',
  listens: ['request'],
};

interface RedirectTally {
  /** the page's first redirects (a page sends one or two): their targets resolved against their pageUrl */
  redirects: Redirect[];
  /** the first event created after a redirect at that redirect's target, and the redirect */
  routed?: { event: TallyMark; redirect: Redirect };
}

/** a redirect: where it sent the shopper, and which controller sent it (`search` for category pages too) */
interface Redirect extends TallyMark {
  target: string;
  kind: string;
}

/** the page's redirects and the first event at a redirect's target */
const redirectTally = tallySlot<RedirectTally>();

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted) return false;
  const t = redirectTally.of(page);
  // most pages send no redirect: their requests cost this rule a field read
  if (rec.event !== 'redirect' && (!t || t.routed)) return false;
  const url = pageUrlOf(rec);
  if (url === null) return false;
  if (rec.event === 'redirect') return noteRedirect(page, rec, url);
  if (!t) return false;
  const here = withoutHash(url);
  const time = timeOf(rec);
  for (const r of t.redirects)
    if (here === r.target && time > r.time && time - r.time <= ROUTED_MS) {
      t.routed = { event: { id: rec.id, time, value: url }, redirect: r };
      return true;
    }
  return false;
}

function noteRedirect(page: Page, rec: RecordedEvent, url: string): boolean {
  const to = dataOf(rec).redirect;
  if (typeof to !== 'string' || to === '') return false;
  const target = resolveUrl(to, url);
  if (target === '' || target === withoutHash(url) || target === withoutHash(page.pageUrl))
    return false;
  const t = redirectTally.make(page, () => ({ redirects: [] }));
  if (t.redirects.length >= MAX_REDIRECTS || t.redirects.some((r) => r.id === rec.id)) return false;
  t.redirects.push({ id: rec.id, time: timeOf(rec), value: url, target, kind: rec.category });
  return false;
}

export const redirectRouted = defineRule({
  meta,
  tally,
  count: (page) => (redirectTally.of(page)?.routed ? 1 : 0),
  page(page) {
    const routed = redirectTally.of(page)?.routed;
    if (!routed) return [];
    const { event, redirect } = routed;
    // the behaviour of the controller that redirected: a search (or category) page's merchandising redirect
    // is the search area's (SC afterSearch: search/redirect, then window.location.replace), not the
    // dropdown's, so readiness shows the finding where the storefront sent it
    const behaviour =
      redirect.kind === 'autocomplete' ? 'autocomplete.redirect-navigates' : 'search.redirect';
    return [
      finding(
        meta,
        'routed',
        {
          messageId: 'routed',
          data: {
            redirectId: redirect.id,
            target: redirect.target,
            eventId: event.id,
            after: duration(event.time - redirect.time),
            pageLoadId: page.pageLoadId,
          },
        },
        [redirect.id, event.id],
        { behaviour },
      ),
    ];
  },
});
