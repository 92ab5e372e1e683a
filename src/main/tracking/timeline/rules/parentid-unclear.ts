// `parentid-unclear`: a product's parentId that names no result of the response, or a variant of its own
// result (uid and parentId swapped): the intent is ambiguous, so a warning rather than an error.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { describeResponse } from './utils/provenance';
import { PARENT_ID_IS, parentIdOffenders } from './utils/parent-id';

const meta: RuleMeta<'response'> = {
  id: 'parentid-unclear',
  judges: ['response'],
  title: 'parentId names no result',
  description:
    'A product whose parentId is not in the response, or is a variant of its own result (uid and parentId swapped). parentId = uid and an empty parentId (what the Snap client sends) are fine.',
  expects: 'parentId is the uid of the result the item belongs to.',
  ...judgedIn(RESPONSE_KINDS, ['search.items-served']),
  defaultSeverity: 'warning',
  messages: {
    noResult: `{{count}} reported with responseId "{{responseId}}" ({{response}}) {{have}} a parentId that does not name {{their}} result: {{offenders}}. ${PARENT_ID_IS}`,
  },
  fix: 'Set parentId to the uid of the result as returned.',
  fixes: { noResult: "set parentId to the result's uid." },
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const parentIdUnclear = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(parentIdOffenders);
    if (!found || found.unclear.size === 0) return [];
    const { issued, unclear } = found;
    return [
      unclear.finding(meta, r.responseId, {
        key: `${r.responseId}:ambiguous`,
        messageId: 'noResult',
        noun: 'item',
        words: {
          response: describeResponse(issued),
          have: unclear.size === 1 ? 'has' : 'have',
          their: unclear.size === 1 ? 'its' : 'their',
        },
      }),
    ];
  },
});
