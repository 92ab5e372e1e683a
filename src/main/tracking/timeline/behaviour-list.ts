// The client model joined with the rules: each behaviour with the rules whose metas say they guard it
// (`docs/client-model.md`, readiness), and the behaviour a rule's finding names.
import type { BehaviourInfoDto } from '../../../shared/client-model';
import { BEHAVIOURS, behaviour } from '../client-model';
import { RULE_METAS } from './rule-list';

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
  return BEHAVIOURS.map((b) => ({
    id: b.id,
    area: b.area,
    title: b.title,
    source: b.source,
    invariant: b.invariant,
    rules: [...rulesGuarding(b.id)],
    ...(b.uncheckable !== undefined && { uncheckable: b.uncheckable }),
  }));
}
