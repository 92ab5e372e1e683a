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
    twice:
      '{{second}} views "{{product}}" again {{after}} ms after {{first}}, on the same page load and URL. The provider\'s tracker reads each product script of the page once, so the page holds two product-view scripts: the provider counts two views of the product for one visit of its page (views, conversion rates and recommendations read from them).',
  },
  fix: 'Keep one `athos/track/product/view` (or `searchspring/track/product/view`) script per product page: remove the copy the template or an app adds.',
  listens: ['product/pageview'],
};

/** what names the product a pageview shows: its ids as the tracker mapped them */
const productOf = (v: VisitEvent) => {
  const r = v.items[0];
  return r ? `${r.parentId}\u0000${r.uid}\u0000${r.sku ?? ''}` : '';
};

export const pageviewRepeated = defineRule({
  meta,
  visit(_page, { accepted }) {
    let prev: VisitEvent | undefined;
    for (const v of accepted) {
      if (v.endpoint !== 'product/pageview') continue;
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
