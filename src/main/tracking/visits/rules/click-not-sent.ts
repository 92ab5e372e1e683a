// `click-not-sent` (warning): a product page opened straight from a page that showed the product's tile,
// while no clickthrough of that page (or any other) reached the service: the click that brought the
// shopper here was lost, and with it the search's click credit and the order's.
//
// Why it is certain enough: the provider's client sends a tile's clickthrough at once, with `keepalive` in
// production, so it outlives the page the click leaves (B clickthrough: `sendEvents` at once, not queued,
// `keepalive: true`; SC `track.product.click` for a click inside the product's link). A storefront whose
// own handler posts the click without keepalive (or after the navigation began) loses it as the browser
// unloads the page. So when the page load just before a product page impressed that product, sent nothing
// after the product page began (the same tab went on to it), and the visit holds no click at all from the
// listing's start to the product page, the product page was reached some way the client tracks, and its
// click did not arrive.
//
// What it exempts, each a way to a product page that sends no click:
// - a listing page that went on sending after the product page began: the product opened in another tab
//   (a middle click or "open in new tab" fires no click event, so the client sends none). A tab opened so
//   while the listing sends nothing more (the shopper went to the new tab at once) looks like a lost click
//   on the wire: the message says so, and a test's clicks (Playwright's) are left clicks;
// - a product page more than CLICK_FOLLOW_MS after the listing's last event (the shopper typed a URL,
//   used a bookmark or another link after a while);
// - a page that redirected (a merchandising redirect to a product URL), whose last event is a render, or
//   whose impressions named one tile only (a search of one result goes straight to its product as soon as
//   it is rendered, SC afterStore). Not told apart: such a search whose queued render was lost with the
//   page, after a listing that had shown the product (an SPA's earlier search): the warning then names
//   a click that never was;
// - a product the visit had viewed before (back and forward through the history reach it again);
// - any click (tracked or rejected) in the visit within CLICK_FOLLOW_MS before the product page (and after
//   the listing began): that click is the way here, and pageview-not-clicked judges where it led;
// - a listing page the timelines no longer hold (its events gone with it): nothing to read.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { pageLoadBefore } from './utils/page-before';
import { productIds } from '../events';
import { CLICK_FOLLOW_MS as FOLLOW_MS } from './utils/click-follow';

/** how far a click's timestamp may trail the product page's first event (the two clocks of one browser) */
const CLICK_SLACK_MS = 1_000;
/** how many of the visit's pages before the listing are read for an earlier view of the product */
const HISTORY_PAGES = 20;

const meta: RuleMeta<'visit'> = {
  id: 'click-not-sent',
  judges: ['visit'],
  title: 'Product page reached from a tile whose click never arrived',
  description:
    'A product page opened within 10 s after the page load before it, which impressed that product among other tiles and sent nothing after the product page began, while no clickthrough of the visit arrived in the 10 s before the product page. Exempt: a listing that went on (another tab), a redirect, a single-tile listing, a product viewed before in the visit.',
  expects:
    'A click on a tile sends its clickthrough at once, with keepalive, so it reaches the service though the page navigates away.',
  appliesTo: ['product'],
  guards: ['search.clickthrough'],
  defaultSeverity: 'warning',
  messages: {
    lost: 'product/pageview {{eventId}} shows {{viewed}}, which the page before it ({{listingUrl}}) impressed; the shopper came here {{after}} s after that page’s last event, and no clickthrough reached the service. The provider’s client sends a tile’s click at once with keepalive, so it arrives though the page navigates: this one was lost as the page unloaded (a click posted without keepalive, or after the navigation began), and the search gets no click credit for it, nor the order it leads to. (A product opened with a middle click or “open in new tab” sends no click either, from the provider’s client too: if that is how this one was opened, and the listing sent nothing after, nothing is wrong.)',
  },
  fixes: {
    lost: 'send the tile’s clickthrough through the provider’s tracker, or post it with fetch(…, { keepalive: true }) or navigator.sendBeacon, before the page navigates.',
  },
  fix: 'Send the tile’s clickthrough through the provider’s tracker, or post it with fetch(…, { keepalive: true }) or navigator.sendBeacon, before the page navigates.',
  listens: ['product/pageview', 'clickthrough', 'impression'],
  needs: { visit: true },
};

export const clickNotSent = defineRule({
  meta,
  visit(page, ctx) {
    const { accepted, visit } = ctx;
    if (!visit) return [];
    const view = accepted.find((v) => v.endpoint === 'product/pageview');
    if (!view) return [];
    const viewed = view.items.flatMap(productIds);
    if (viewed.length === 0) return [];
    const here = visit.pages.get(page.key);
    if (!here) return [];
    // the page the shopper came from
    const came = pageLoadBefore(visit, page.key);
    if (!came) return [];
    const { key: beforeKey, entry: before } = came;
    // it went on after this page began: this page opened in another tab
    if (before.last > here.first) return [];
    if (here.first - before.last > FOLLOW_MS) return [];
    // a click that could have led here: within the client's 10 s before this page (what `check` keeps of
    // a visit's clicks too), and not before the page it came from began
    const from = Math.max(before.first, here.first - FOLLOW_MS);
    const clickBetween = (i: { event: string; time: number }) =>
      i.event === 'clickthrough' && i.time >= from && i.time <= here.first + CLICK_SLACK_MS;
    if (visit.interactions.some(clickBetween) || visit.lostInteractions?.some(clickBetween))
      return [];
    const shown = ctx.shown(beforeKey);
    if (!shown || shown.redirected || shown.tiles < 2) return [];
    if (!viewed.some((id) => shown.impressed(id))) return [];
    // reached again through the history: a product one of the visit's latest pages before viewed
    const earlier = [...visit.pages]
      .filter(([key, p]) => key !== page.key && key !== beforeKey && p.first < here.first)
      .sort((a, b) => b[1].first - a[1].first)
      .slice(0, HISTORY_PAGES);
    for (const [key] of earlier) {
      const seen = ctx.shown(key);
      if (seen && viewed.some((id) => seen.viewed(id))) return [];
    }
    return [
      finding(
        meta,
        view.base.id,
        {
          messageId: 'lost',
          data: {
            eventId: view.base.id,
            // the product as the page names it: its uid, and its parentId when it is another (not the sku)
            viewed: [...new Set(view.items.flatMap((i) => [i.uid, i.parentId]))]
              .filter((id) => id !== '')
              .map((id) => `"${id}"`)
              .join(' / '),
            listingUrl: shown.pageUrl || `page load "${before.pageLoadId}"`,
            after: Math.round((here.first - before.last) / 100) / 10,
          },
        },
        [view.base.id],
      ),
    ];
  },
});
