// `parentid-mismatch`: a product's parentId that does not belong to it in the search response. The provider's
// own Snap client sends parentId = uid (even for variants), or '' when the response gives no parentId: both fine.
// An error when the parentId is another result's; a warning where the intent is ambiguous.
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
    const out = [];
    const why = `parentId is the uid of the result the item belongs to (for a variant, its result); parentId = uid, as the Snap client sends it, is fine too.`;
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
