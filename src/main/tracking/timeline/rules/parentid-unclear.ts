// `parentid-unclear`: a product's parentId that names no result of the response, or a variant of its own
// result (uid and parentId swapped): the intent is ambiguous, so a warning rather than an error.
import { finding, plural, type ResponseRule, type RuleMeta } from './types';
import { describeResponse } from './provenance';
import { PARENT_ID_IS, parentIdOffenders } from './parentid-mismatch';

const meta: RuleMeta = {
  id: 'parentid-unclear',
  title: 'parentId names no result',
  description:
    'A product whose parentId is not in the response, or is a variant of its own result (uid and parentId swapped). parentId = uid and an empty parentId (what the Snap client sends) are fine.',
  expects: 'parentId is the uid of the result the item belongs to.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['search.items-served'],
  defaultSeverity: 'warning',
  fix: 'Set parentId to the uid of the result as returned.',
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
};

export const parentIdUnclear: ResponseRule = {
  meta,
  judges: 'response',
  check(r, ctx) {
    const found = ctx.once(parentIdOffenders);
    if (!found || found.unclear.size === 0) return [];
    const { issued, unclear } = found;
    return [
      finding(
        meta,
        `${r.responseId}:ambiguous`,
        `${plural(unclear.size, 'item')} reported with responseId "${r.responseId}" (${describeResponse(issued)}) ${unclear.size === 1 ? 'has' : 'have'} a parentId that does not name ${unclear.size === 1 ? 'its' : 'their'} result: ${unclear.describe()}. ${PARENT_ID_IS} ` +
          `Fix: set parentId to the result's uid.`,
        unclear.eventIds(),
        { responseId: r.responseId },
      ),
    ];
  },
};
