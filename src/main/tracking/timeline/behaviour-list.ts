// The client model joined with the rules: each behaviour with the rules whose metas say they guard it
// (`docs/client-model.md`, readiness), and the behaviour a rule's finding names.
import { nearestNames } from '../../../shared/nearest';
import type { BehaviourInfoDto } from '../../../shared/client-model';
import type { RuleDetailDto } from '../../../shared/timeline';
import { BEHAVIOURS, behaviour } from '../client-model';
import { RULE_METAS, ruleInfo, ruleMeta } from './rule-list';

const GUARDED_BY = new Map<string, string[]>();
for (const m of RULE_METAS)
  for (const id of m.guards) {
    if (!behaviour(id))
      throw new Error(`rule ${m.id} guards "${id}", which the client model lacks`);
    const rules = GUARDED_BY.get(id);
    if (rules) rules.push(m.id);
    else GUARDED_BY.set(id, [m.id]);
  }

/** The rules that check a behaviour (empty when none can, and the behaviour says why). */
export function rulesGuarding(id: string): readonly string[] {
  return GUARDED_BY.get(id) ?? [];
}

/** Every behaviour of the model, with the rules that check it. */
export function behaviourInfos(): BehaviourInfoDto[] {
  return BEHAVIOURS.map(infoOf);
}

function infoOf(b: (typeof BEHAVIOURS)[number]): BehaviourInfoDto {
  return {
    id: b.id,
    area: b.area,
    title: b.title,
    source: b.source,
    invariant: b.invariant,
    rules: [...rulesGuarding(b.id)],
    ...(b.uncheckable !== undefined && { uncheckable: b.uncheckable }),
  };
}

/**
 * One rule explained (`GET /_sandbox/rules/{id}`): its declaration, each message with the fix its findings
 * carry, and the behaviours of the client it checks; undefined for an id no rule declares.
 */
export function ruleDetail(id: string): RuleDetailDto | undefined {
  const meta = ruleMeta(id);
  if (!meta) return undefined;
  return {
    ...ruleInfo(meta),
    messages: Object.entries(meta.messages).map(([messageId, text]) => ({
      id: messageId,
      text,
      fix: meta.fixes?.[messageId] ?? meta.fix,
    })),
    listens: [...meta.listens],
    explainedBy: [...(meta.explainedBy ?? [])],
    ...(meta.explainedMessages && { explainedMessages: [...meta.explainedMessages] }),
    notJudged: { ...meta.notJudged },
    behaviours: meta.guards.map((g) => infoOf(behaviour(g)!)),
  };
}

/**
 * The rule ids nearest to an unknown one (a typo, a prefix, an id of another version), for a 404 that says
 * what to ask instead: ids sharing its words first, then by edit distance.
 */
export function nearestRuleIds(id: string, max = 3): string[] {
  return nearestNames(
    id,
    RULE_METAS.map((m) => m.id),
    max,
  );
}
