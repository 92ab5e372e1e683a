// One bug, one lead finding: of a page's findings, those a rule's meta says follow from another rule's
// finding (`explainedBy`, for the messages `explainedMessages` names when it names some) on one of the same
// events (of the same response, or of another for the rules `explainedAcross` names; every one of them for
// the rules `explainedWholly` names) carry `causedBy` (the
// cause's id) and are listed right after it, so the finding that names the cause, with its fix, leads.
// Counts and verdicts keep them all; every count says how many follow (`following` of a page's DTOs).
import { findingId, type Finding } from '../finding';
import { RULE_METAS } from './rule-list';

interface Explained {
  /** the rules whose finding may be the cause */
  rules: ReadonlySet<string>;
  /** the rule's messages that may follow from one; undefined: all of them */
  messages?: ReadonlySet<string>;
  /** of those rules, the messages that may be the cause, by rule; a rule not named: any of its messages */
  causeMessages?: ReadonlyMap<string, ReadonlySet<string>>;
  /** the rules whose finding about another response may be the cause (it names that response's events) */
  across?: ReadonlySet<string>;
  /** the rules whose finding is the cause only when it names every event of the finding it explains */
  wholly?: ReadonlySet<string>;
  /** the messages those rules may explain; undefined: all of them */
  whollyMessages?: ReadonlySet<string>;
}

const EXPLAINED_BY = new Map<string, Explained>(
  RULE_METAS.filter((m) => m.explainedBy && m.explainedBy.length > 0).map((m) => [
    m.id,
    {
      rules: new Set(m.explainedBy),
      ...(m.explainedMessages && { messages: new Set(m.explainedMessages) }),
      ...(m.causeMessages && {
        causeMessages: new Map(
          Object.entries(m.causeMessages).map(([rule, ids]) => [rule, new Set(ids)]),
        ),
      }),
      ...(m.explainedAcross && { across: new Set(m.explainedAcross) }),
      ...(m.explainedWholly && { wholly: new Set(m.explainedWholly) }),
      ...(m.whollyMessages && { whollyMessages: new Set(m.whollyMessages) }),
    },
  ]),
);

/** the rules some finding may follow from */
const CAUSE_RULES = new Set([...EXPLAINED_BY.values()].flatMap((e) => [...e.rules]));

/**
 * May a finding of a page with findings of these rules follow from another? Only when one of them is a rule
 * whose findings may, and another a rule they may follow from (most pages hold no such pair).
 */
export function mayFollow(rules: ReadonlySet<string>): boolean {
  if (rules.size < 2) return false;
  for (const r of rules)
    for (const c of EXPLAINED_BY.get(r)?.rules ?? []) if (c !== r && rules.has(c)) return true;
  return false;
}

/**
 * The finding `f` follows from: the first of `all` (by `place`) of a rule that explains `f`'s (its message),
 * on the same response when both name one (unless `f`'s rule names it `explainedAcross`), sharing an event
 * with it. `byEvent`: the findings that may be a cause, by
 * each of their events (a page of thousands of findings read every other finding for each).
 */
function cause(
  f: Finding,
  byEvent: ReadonlyMap<string, readonly Finding[]>,
  place: ReadonlyMap<Finding, number>,
): Finding | undefined {
  const explained = EXPLAINED_BY.get(f.rule);
  if (!explained || (explained.messages && !explained.messages.has(f.messageId))) return undefined;
  const rules = explained.rules;
  let first: Finding | undefined;
  for (const id of f.eventIds)
    for (const g of byEvent.get(id) ?? []) {
      if (g === f || !rules.has(g.rule)) continue;
      if (explained.causeMessages?.get(g.rule)?.has(g.messageId) === false) continue;
      if (
        f.responseId !== undefined &&
        g.responseId !== undefined &&
        f.responseId !== g.responseId &&
        !explained.across?.has(g.rule)
      )
        continue;
      if (
        explained.wholly?.has(g.rule) &&
        (explained.whollyMessages?.has(f.messageId) === false ||
          !f.eventIds.every((e) => g.eventIds.includes(e)))
      )
        continue;
      if (!first || place.get(g)! < place.get(first)!) first = g;
    }
  return first;
}

/**
 * `all` in its order (severity, then the rules' order), each finding that follows from another carrying
 * `causedBy` and moved right after the finding that leads it (the root of a chain).
 */
export function withCauses(all: Finding[]): Finding[] {
  if (all.length < 2 || EXPLAINED_BY.size === 0) return all;
  const place = new Map<Finding, number>();
  const byEvent = new Map<string, Finding[]>();
  all.forEach((g, i) => {
    place.set(g, i);
    if (!CAUSE_RULES.has(g.rule)) return;
    for (const id of new Set(g.eventIds)) {
      const list = byEvent.get(id);
      if (list) list.push(g);
      else byEvent.set(id, [g]);
    }
  });
  const causeOf = new Map<Finding, Finding>();
  for (const f of all) {
    const c = cause(f, byEvent, place);
    if (c) causeOf.set(f, c);
  }
  if (causeOf.size === 0) return all;
  const root = (f: Finding) => {
    let r = f;
    for (let hops = 0; causeOf.has(r) && hops < all.length; hops++) r = causeOf.get(r)!;
    return r;
  };
  const following = new Map<Finding, Finding[]>();
  for (const f of causeOf.keys()) {
    const r = root(f);
    if (r === f) continue; // a cycle of explanations: each stays where it is
    const list = following.get(r);
    if (list) list.push(f);
    else following.set(r, [f]);
  }
  const out: Finding[] = [];
  const placed = new Set<Finding>();
  for (const f of all) {
    if (placed.has(f)) continue;
    // listed after its cause (a finding whose root is another is in that root's followers)
    if (root(f) !== f) continue;
    out.push(f);
    placed.add(f);
    for (const c of following.get(f) ?? []) {
      out.push({ ...c, causedBy: findingId(f) });
      placed.add(c);
    }
  }
  return out;
}
