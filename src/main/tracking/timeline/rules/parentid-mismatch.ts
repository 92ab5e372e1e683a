// `parentid-mismatch`: a product's parentId that does not belong to it in the search response. The provider's
// own Snap client sends parentId = uid = the result's uid, even for results with variants: that is fine.
// Errors when the parentId is plainly someone else's; warnings where the intent is ambiguous.
import { finding, plural, type ResponseRule } from './types';
import type { IssuedResult } from '../../../search/responses';
import { Offenders, describeResponse, issuedFor, itemEvents, itemType } from './provenance';

export const parentIdMismatch: ResponseRule = {
  id: 'parentid-mismatch',
  scope: 'response',
  check(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued) return [];
    const owner = new Map<string, { result: IssuedResult; variant: boolean }>();
    for (const res of issued.results) {
      owner.set(res.uid, { result: res, variant: false });
      for (const c of res.children) if (!owner.has(c.uid)) owner.set(c.uid, { result: res, variant: true });
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
        if (pid === parent || (!o.variant && o.result.parentId !== null && pid === o.result.parentId)) continue;
        if (pid === '') unclear.add(item.uid, e.id, `empty parentId; the result is "${parent}"`);
        else if (o.variant && pid === item.uid)
          unclear.add(item.uid, e.id, `a variant of result "${parent}" sent with parentId = its own uid; parentId should be "${parent}"`);
        else if (!o.variant && o.result.children.some((c) => c.uid === pid))
          unclear.add(item.uid, e.id, `parentId "${pid}" is a variant of this result: uid and parentId look swapped`);
        else {
          const other = owner.get(pid);
          const what = other ? `the ${other.variant ? 'variant of result' : 'result'} "${other.result.uid}"` : 'not in this response';
          wrong.add(item.uid, e.id, `parentId "${pid}" is ${what}; it should be "${parent}"`);
        }
      }
    }
    const out = [];
    const why =
      `parentId is the uid of the result as the response returned it (for a variant, the result it belongs to); the Snap client sends parentId = uid = the result's uid, which is fine.`;
    if (wrong.size > 0)
      out.push(
        finding(
          'parentid-mismatch',
          'error',
          r.responseId,
          `${plural(wrong.size, 'item')} reported with responseId "${r.responseId}" (${describeResponse(issued)}) ${wrong.size === 1 ? 'has' : 'have'} a parentId of another product: ${wrong.describe()}. ${why} ` +
            `Fix: send the parentId of the result the uid belongs to.`,
          wrong.eventIds(),
          { responseId: r.responseId },
        ),
      );
    if (unclear.size > 0)
      out.push(
        finding(
          'parentid-mismatch',
          'warning',
          `${r.responseId}:ambiguous`,
          `${plural(unclear.size, 'item')} reported with responseId "${r.responseId}" (${describeResponse(issued)}) ${unclear.size === 1 ? 'has' : 'have'} a parentId that does not name ${unclear.size === 1 ? 'its' : 'their'} result: ${unclear.describe()}. ${why} ` +
            `Fix: set parentId to the result's uid.`,
          unclear.eventIds(),
          { responseId: r.responseId },
        ),
      );
    return out;
  },
};
