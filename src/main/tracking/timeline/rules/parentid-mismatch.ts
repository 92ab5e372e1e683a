// `parentid-mismatch`: a product's parentId that does not belong to it in the search response. The provider's
// own Snap client sends parentId = uid (even for variants), or '' when the response gives no parentId: both fine.
// An error when the parentId is another result's; where the intent is ambiguous, a milder rule's.
import { finding, plural, type ResponseRule, type RuleContext, type RuleMeta } from './types';
import type { IssuedResponse, IssuedResult } from '../../../search/responses';
import type { ResponseState } from '../model';
import { Offenders, describeResponse, issuedFor, itemEvents, itemType } from './provenance';

const meta: RuleMeta = {
  id: 'parentid-mismatch',
  title: 'parentId does not match the result',
  description:
    'A product whose parentId is another product of the response. parentId = uid = the result’s uid, as the Snap client sends it, is fine.',
  expects: 'parentId is the uid of the result the item belongs to.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['search.items-served'],
  defaultSeverity: 'error',
  fix: 'Set parentId to the uid of the result as returned.',
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
};

export const parentIdMismatch: ResponseRule = {
  meta,
  judges: 'response',
  check(r, ctx) {
    const found = ctx.once(parentIdOffenders);
    if (!found || found.wrong.size === 0) return [];
    const { issued, wrong } = found;
    return [
      finding(
        meta,
        r.responseId,
        `${plural(wrong.size, 'item')} reported with responseId "${r.responseId}" (${describeResponse(issued)}) ${wrong.size === 1 ? 'has' : 'have'} a parentId of another product: ${wrong.describe()}. ${PARENT_ID_IS} ` +
          `Fix: send the parentId of the result the uid belongs to.`,
        wrong.eventIds(),
        { responseId: r.responseId },
      ),
    ];
  },
};

export const PARENT_ID_IS = `parentId is the uid of the result the item belongs to (for a variant, its result); parentId = uid, as the Snap client sends it, is fine too.`;

/**
 * The items of a response whose parentId names another product (`wrong`) or no product of it, or a
 * variant of the same result (`unclear`, which `parentid-unclear` reports).
 */
export function parentIdOffenders(
  r: ResponseState,
  ctx: RuleContext,
): { issued: IssuedResponse; wrong: Offenders; unclear: Offenders } | undefined {
  {
    const issued = issuedFor(r, ctx);
    if (!issued) return undefined;
    const owner = new Map<string, { result: IssuedResult; variant: boolean }>();
    for (const res of issued.results) {
      owner.set(res.uid, { result: res, variant: false });
      for (const c of res.children)
        if (!owner.has(c.uid)) owner.set(c.uid, { result: res, variant: true });
    }
    const wrong = new Offenders();
    const unclear = new Offenders();
    for (const e of itemEvents(r)) {
      for (const item of e.results) {
        if (itemType(item) === 'banner') continue;
        const o = owner.get(item.uid);
        if (!o) continue; // item-not-in-response says it
        const parent = o.result.uid;
        const pid = item.parentId ?? '';
        // '' (the response gave no parentId) and parentId = uid are what the Snap client itself sends
        if (pid === '' || pid === item.uid || pid === parent || pid === o.result.parentId) continue;
        const other = owner.get(pid);
        if (other && other.result !== o.result)
          wrong.add(
            item.uid,
            e.id,
            `parentId "${pid}" is ${other.variant ? `a variant of result "${other.result.uid}"` : `the result "${pid}"`}; it should be "${parent}"`,
          );
        else if (other)
          unclear.add(
            item.uid,
            e.id,
            `parentId "${pid}" is a variant of the same result: uid and parentId look swapped; parentId should be "${parent}"`,
          );
        else
          unclear.add(
            item.uid,
            e.id,
            `parentId "${pid}" is not in this response; the result is "${parent}"`,
          );
      }
    }
    return { issued, wrong, unclear };
  }
}
