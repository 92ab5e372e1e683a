// One bug, one lead finding: of a page's findings, those a rule's meta says follow from another rule's
// finding (`explainedBy`) on one of the same events carry `causedBy` (the cause's id) and are listed right
// after it, so the finding that names the cause, with its fix, leads. Counts and verdicts keep them all.
import type { TimelineFindingDto } from '../../../shared/timeline';
import { RULE_METAS } from './rule-list';

const EXPLAINED_BY = new Map<string, ReadonlySet<string>>(
  RULE_METAS.filter((m) => m.explainedBy && m.explainedBy.length > 0).map((m) => [
    m.id,
    new Set(m.explainedBy),
  ]),
);

function cause(
  f: TimelineFindingDto,
  all: readonly TimelineFindingDto[],
): TimelineFindingDto | undefined {
  const rules = EXPLAINED_BY.get(f.rule);
  if (!rules) return undefined;
  for (const g of all) {
    if (g === f || !rules.has(g.rule)) continue;
    if (f.responseId !== undefined && g.responseId !== undefined && f.responseId !== g.responseId)
      continue;
    for (const id of f.eventIds) if (g.eventIds.includes(id)) return g;
  }
  return undefined;
}

/**
 * `all` in its order (severity, then the rules' order), each finding that follows from another carrying
 * `causedBy` and moved right after the finding that leads it (the root of a chain).
 */
export function withCauses(all: TimelineFindingDto[]): TimelineFindingDto[] {
  if (all.length < 2 || EXPLAINED_BY.size === 0) return all;
  const causeOf = new Map<TimelineFindingDto, TimelineFindingDto>();
  for (const f of all) {
    const c = cause(f, all);
    if (c) causeOf.set(f, c);
  }
  if (causeOf.size === 0) return all;
  const root = (f: TimelineFindingDto) => {
    let r = f;
    for (let hops = 0; causeOf.has(r) && hops < all.length; hops++) r = causeOf.get(r)!;
    return r;
  };
  const following = new Map<TimelineFindingDto, TimelineFindingDto[]>();
  for (const f of causeOf.keys()) {
    const r = root(f);
    if (r === f) continue; // a cycle of explanations: each stays where it is
    const list = following.get(r);
    if (list) list.push(f);
    else following.set(r, [f]);
  }
  const out: TimelineFindingDto[] = [];
  const placed = new Set<TimelineFindingDto>();
  for (const f of all) {
    if (placed.has(f)) continue;
    const r = root(f);
    if (r !== f && following.get(r)?.includes(f)) continue; // listed after its cause
    out.push(f);
    placed.add(f);
    for (const c of following.get(f) ?? []) {
      out.push({ ...c, causedBy: f.id });
      placed.add(c);
    }
  }
  return out;
}
