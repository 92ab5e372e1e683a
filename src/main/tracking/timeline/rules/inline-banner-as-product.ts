// `inline-banner-as-product`: an inline banner of the response (merchandising.content.inline) reported in
// data.results as a product rather than as {type: "banner", uid}. The item was on screen, so a warning.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { Offenders, issuedFor, unreturnedItems } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'inline-banner-as-product',
  judges: ['response'],
  title: 'Inline banner reported as a product',
  description:
    'An impression, clickthrough or addtocart reporting an inline banner of its response (merchandising.content.inline) as a product result, without type "banner".',
  expects: 'Inline banners sit among the results: data.results with {type: "banner", uid}.',
  ...judgedIn(RESPONSE_KINDS, ['search.banners']),
  defaultSeverity: 'warning',
  messages: {
    asProduct:
      '{{count}} of responseId "{{responseId}}" {{were}} reported as a product: {{offenders}}. Inline banners sit among the results and go in data.results as {type: "banner", uid}.',
  },
  fix: 'Send type "banner" (and no parentId) for inline banner tiles.',
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const inlineBannerAsProduct = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued) return [];
    const asProduct = new Offenders();
    for (const { e, uid, banner } of unreturnedItems(r, issued))
      if (banner) asProduct.add(uid, e.id, `inline banner at position ${banner.index}`);
    if (asProduct.size === 0) return [];
    return [
      asProduct.finding(meta, r.responseId, {
        key: `${r.responseId}:type`,
        messageId: 'asProduct',
        noun: 'inline banner',
        words: { were: asProduct.size === 1 ? 'was' : 'were' },
      }),
    ];
  },
});
