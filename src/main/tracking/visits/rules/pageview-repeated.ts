// `pageview-repeated` (warning): two product/pageview events of one page load naming the same product at
// the same URL within TWICE_MS: the product-view script is on the page twice (a template that includes it
// in two places, a theme and an app both adding it), so every view of the product counts double.
//
// Why it is certain: the provider's tracker reads the page's product scripts once (T constructor:
// DomTargeter, which marks each script it read), and sends one pageview per script; T.retarget() (for
// SPAs) reads only scripts rendered since. The same product twice in one pass is two scripts. What it
// exempts: pageviews more than TWICE_MS apart (a reload within 10 s keeps the pageLoadId, and a new
// document takes longer than that to load and read its scripts; an SPA route back to the same product
// with retarget()); pageviews of different products (an SPA's product routes, each read by retarget())
// or at different URLs (an SPA route).
// Two more shapes of a view script where the tracker should not find one: pageviews of different products
// within TWICE_MS at the same URL (a page that prints a view script per product it lists, a cart page's
// lines: the tracker reads every script in one pass, and a product page shows one product; an SPA's
// product routes change the URL), and one product viewed again as another variant at the same path, its
// query changed (a swatch handler calling the view again: the tracker reads a product page's script once
// per load; an SPA route to another product changes the path).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import type { VisitEvent } from '../events';
import { defineRule } from '../../rule';

/** two pageviews of one product closer than this were read from one page's scripts in one pass */
export const TWICE_MS = 1_000;

const meta: RuleMeta<'visit'> = {
  id: 'pageview-repeated',
  judges: ['visit'],
  title: 'Product page viewed twice in one load',
  description:
    'Two product/pageview events of one page load naming the same product at the same URL within 1 s: the product-view script is on the page twice.',
  expects: 'One product/pageview per product script read: a product page load sends its view once.',
  appliesTo: ['visit'],
  guards: ['product.pageview-per-load'],
  defaultSeverity: 'warning',
  messages: {
    severalProducts:
      '{{second}} views "{{product}}" {{after}} ms after {{first}} viewed "{{other}}", on the same page load and URL. The provider\'s tracker sends one pageview per product-view script it reads, all of them at once, so this page holds a view script per product it lists (a cart or list template that includes it per line): products the shopper never opened count as viewed, and recommendations read them as interest.',
    perVariant:
      '{{second}} views "{{product}}" {{after}} ms after {{first}} viewed "{{other}}", both of product "{{parent}}", on the same page load and path. The provider\'s tracker reads a product page\'s view script once per load, so a swatch or size change is viewed again by the storefront\'s own code: the provider counts a view of the product per variant picked.',
    twice:
      '{{second}} views "{{product}}" again {{after}} ms after {{first}}, on the same page load and URL. The provider\'s tracker reads each product script of the page once, so the page holds two product-view scripts: the provider counts two views of the product for one visit of its page (views, conversion rates and recommendations read from them).',
  },
  fixes: {
    severalProducts:
      'keep the product-view script on product pages only, once, for the product the page shows (not in list or cart templates).',
    perVariant:
      'send the product view once per product page load (the script the tracker reads at load); do not call it again when the shopper picks a variant.',
    twice:
      'keep one `athos/track/product/view` (or `searchspring/track/product/view`) script per product page: remove the copy the template or an app adds.',
  },
  fix: 'Keep one `athos/track/product/view` (or `searchspring/track/product/view`) script per product page: remove the copy the template or an app adds.',
  listens: ['product/pageview'],
};

/** what names the product a pageview shows: its ids as the tracker mapped them */
const productOf = (v: VisitEvent) => {
  const r = v.items[0];
  return r ? `${r.parentId}\u0000${r.uid}\u0000${r.sku ?? ''}` : '';
};

/** the product a pageview's item belongs to: its parentId, else its uid */
const parentOf = (v: VisitEvent) => v.items[0]?.parentId || v.items[0]?.uid || '';
/** a URL without its query and hash */
const pathOf = (url: string) => url.replace(/[?#].*$/, '');

/** Two consecutive pageviews of one page load that its tracker would not have sent so, if any. */
function otherShape(prev: VisitEvent, v: VisitEvent): 'severalProducts' | 'perVariant' | undefined {
  const a = parentOf(prev);
  const b = parentOf(v);
  if (a === '' || b === '') return undefined;
  if (a !== b)
    return v.base.time - prev.base.time < TWICE_MS && v.base.pageUrl === prev.base.pageUrl
      ? 'severalProducts'
      : undefined;
  const ua = prev.items[0]!.uid ?? '';
  const ub = v.items[0]!.uid ?? '';
  return ua !== '' && ub !== '' && ua !== ub && pathOf(v.base.pageUrl) === pathOf(prev.base.pageUrl)
    ? 'perVariant'
    : undefined;
}

export const pageviewRepeated = defineRule({
  meta,
  visit(_page, { accepted }) {
    let prev: VisitEvent | undefined;
    for (const v of accepted) {
      if (v.endpoint !== 'product/pageview') continue;
      const other = prev && otherShape(prev, v);
      if (prev && other)
        return [
          finding(
            meta,
            v.base.id,
            {
              messageId: other,
              data: {
                first: prev.base.id,
                second: v.base.id,
                product: v.items[0]!.uid || v.items[0]!.parentId,
                other: prev.items[0]!.uid || prev.items[0]!.parentId,
                parent: parentOf(v),
                after: v.base.time - prev.base.time,
              },
            },
            [prev.base.id, v.base.id],
          ),
        ];
      if (
        prev &&
        v.base.time - prev.base.time < TWICE_MS &&
        v.base.pageUrl === prev.base.pageUrl &&
        productOf(v) !== '' &&
        productOf(v) === productOf(prev)
      )
        return [
          finding(
            meta,
            v.base.id,
            {
              messageId: 'twice',
              data: {
                first: prev.base.id,
                second: v.base.id,
                product: v.items[0]!.uid || v.items[0]!.parentId,
                after: v.base.time - prev.base.time,
              },
            },
            [prev.base.id, v.base.id],
          ),
        ];
      prev = v;
    }
    return [];
  },
});
