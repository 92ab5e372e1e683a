// `pageview-not-clicked` (warning): the product page a shopper reached by clicking a product tile names
// another product than the one clicked.
//
// Why it is certain enough: a product clickthrough is sent at once and the page navigates to that product,
// whose page sends product/pageview with its ids (a variant's page: the variant's uid, the clicked product
// as parentId). So the first product page the visit opens within FOLLOW_MS after a click names one of the
// clicked item's ids. What it exempts: clicks on an item with a single id that the client did not type a
// product (a banner: SC/T send a product tile as {type: 'product', uid, parentId, sku}, an inline banner as
// {type: 'banner', uid}, a slot banner under `banners`; an untyped lone id may be either), product pages
// opened later than FOLLOW_MS after the click, any product page after the first, and a product page whose
// product another click of the FOLLOW_MS before it named (the client sends a clickthrough for a ctrl-click
// too, with no modifier test: SC track.product.click; tabs opened by several clicks load in any order, so
// the latest click is not always the one that led to the page). On the click's own page load (an SPA routes
// to the product: the route calls track.product.view), only the first product view after the click, at
// another URL than the page its response was shown on (a quick view at the same URL is exempt), and only
// when no later click of the page came before it. A product whose ids are one (uid = parentId = sku, as the
// beacon package advises for a product without variants) is judged like any other.
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { productIds, type VisitEvent } from '../events';
import type { Visit } from '../book';
import { CLICK_FOLLOW_MS as FOLLOW_MS } from './utils/click-follow';

const meta: RuleMeta<'visit'> = {
  id: 'pageview-not-clicked',
  judges: ['visit'],
  title: 'Product page of another product than the one clicked',
  description:
    'The first product page opened within 10 s of a clickthrough on a product tile (or, in an SPA, the first product view of the click’s own page load at another URL) sends product/pageview for a product that shares no id (uid, parentId, sku) with the clicked item. A clicked item with a single id counts only when the click types it a product (type "product"): a banner’s is a lone id too.',
  expects:
    'A product page names the product at its URL: after a click, the product clicked (or its variant).',
  appliesTo: ['product'],
  guards: ['product.pageview'],
  defaultSeverity: 'warning',
  messages: {
    otherProduct:
      'product/pageview {{eventId}} names {{viewed}}, but the shopper reached this page {{after}} s after clicking {{clicked}} ({{clickId}}, {{kind}} responseId "{{responseId}}"). A product page names the product it shows, so the product view (and the personalization and recommendations read from it) is credited to the wrong product.',
  },
  fixes: {
    otherProduct:
      "render the product page's tracking script with the ids of the product the page shows (check the template's product variable).",
  },
  fix: 'Render the product page’s tracking script with the ids of the product the page shows (check the template’s product variable).',
  listens: ['product/pageview', 'clickthrough'],
  needs: { visit: true },
};

type Click = Visit['interactions'][number];

const idsOf = (click: Click): readonly string[] =>
  typeof click.ids === 'string' ? [click.ids] : click.ids;

export const pageviewNotClicked = defineRule({
  meta,
  visit(page, { accepted, visit }) {
    if (!visit) return [];
    const views = accepted.filter((v) => v.endpoint === 'product/pageview');
    const view = views[0];
    if (!view) return [];
    const out = [];
    // the latest product click before this page's view, on another page load of the visit; none when any
    // click of those FOLLOW_MS names the viewed product (tabs opened by ctrl-clicks load in any order)
    let click: Click | undefined;
    let named = false;
    const viewedIds = new Set(view.items.flatMap(productIds));
    for (const i of visit.interactions)
      if (
        i.event === 'clickthrough' &&
        i.source.pageKey !== page.key &&
        i.time <= view.base.time &&
        view.base.time - i.time <= FOLLOW_MS
      ) {
        if (!click || i.time > click.time) click = i;
        if (idsOf(i).some((id) => viewedIds.has(id))) named = true;
      }
    if (click && !named) out.push(...judged(view, click));
    // An SPA routes to the product on the click's own page load: the first product view after a click of
    // this page load, at another URL than the page the click's response was shown on, names the product the
    // route shows (the client's track.product.view, called by the route).
    for (const i of visit.interactions) {
      if (i.event !== 'clickthrough' || i.source.pageKey !== page.key) continue;
      const next = views.find((v) => v.base.time >= i.time && v.base.time - i.time <= FOLLOW_MS);
      if (!next || next.base.pageUrl === i.source.pageUrl || (next === view && click)) continue;
      // a later click of the page before that view is the one that led to it
      const later = visit.interactions.some(
        (o) =>
          o !== i &&
          o.event === 'clickthrough' &&
          o.source.pageKey === page.key &&
          o.time > i.time &&
          o.time <= next.base.time,
      );
      if (!later) out.push(...judged(next, i));
    }
    return out;

    function judged(view: VisitEvent, click: Click) {
      const viewed = new Set(view.items.flatMap(productIds));
      if (viewed.size === 0) return [];
      const clicked = idsOf(click);
      // a lone id is a banner's as much as a product's, unless the client typed the item a product
      if (clicked.length === 0 || (clicked.length < 2 && !click.product)) return [];
      // only the first product page after the click
      for (const [key, p] of visit!.pages)
        if (key !== page.key && p.first > click.time && p.first < view.base.time) return [];
      if (clicked.some((id) => viewed.has(id))) return [];
      return [
        finding(
          meta,
          view.base.id,
          {
            messageId: 'otherProduct',
            data: {
              eventId: view.base.id,
              viewed: [...viewed].map((id) => `"${id}"`).join(', '),
              after: Math.round((view.base.time - click.time) / 100) / 10,
              clicked: clicked.map((id) => `"${id}"`).join(' / '),
              clickId: click.eventId,
              kind: click.source.kind,
              responseId: click.source.responseId,
            },
          },
          [click.eventId, view.base.id],
        ),
      ];
    }
  },
});
