// `parentid-mismatch`: a product's parentId that does not belong to it in the search response. The provider's
// own Snap client sends parentId = uid (even for variants), or '' when the response gives no parentId: both fine.
// An error when the parentId is another result's; where the intent is ambiguous, a milder rule's.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { describeResponse } from './utils/provenance';
import { PARENT_ID_IS, parentIdOffenders } from './utils/parent-id';

const meta: RuleMeta<'response'> = {
  id: 'parentid-mismatch',
  judges: ['response'],
  title: 'parentId does not match the result',
  description:
    'A product whose parentId is another product of the response. parentId = uid = the result’s uid, as the Snap client sends it, is fine.',
  expects: 'parentId is the uid of the result the item belongs to.',
  ...judgedIn(RESPONSE_KINDS, ['search.items-served']),
  defaultSeverity: 'error',
  messages: {
    otherProduct: `{{count}} reported with responseId "{{responseId}}" ({{response}}) {{have}} a parentId of another product: {{offenders}}. ${PARENT_ID_IS}`,
  },
  fix: 'Set parentId to the uid of the result as returned.',
  fixes: { otherProduct: 'send the parentId of the result the uid belongs to.' },
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const parentIdMismatch = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(parentIdOffenders);
    if (!found || found.wrong.size === 0) return [];
    const { issued, wrong } = found;
    return [
      wrong.finding(meta, r.responseId, {
        messageId: 'otherProduct',
        noun: 'item',
        words: { response: describeResponse(issued), have: wrong.size === 1 ? 'has' : 'have' },
      }),
    ];
  },
});
