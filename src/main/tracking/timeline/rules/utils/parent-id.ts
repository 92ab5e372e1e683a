// Which items of a response carry a parentId that does not name their result, shared by
// `parentid-mismatch` (another product's) and `parentid-unclear` (no product of the response, or a variant
// of the same result).
import type { IssuedResponse, IssuedResult } from '../../../../search/responses';
import type { Response } from '../../response';
import type { RuleContext } from '../types';
import { Offenders, issuedFor, itemEvents, itemType } from './provenance';

export const PARENT_ID_IS = `parentId is the uid of the result the item belongs to (for a variant, its result); parentId = uid, as the Snap client sends it, is fine too.`;

/**
 * The items of a response whose parentId names another product (`wrong`) or no product of it, or a
 * variant of the same result (`unclear`, which `parentid-unclear` reports).
 */
export function parentIdOffenders(
  r: Response,
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
