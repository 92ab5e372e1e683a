// Every rule the sandbox has, from their own declarations: the rule ids (config validation, the `rule`
// filter), `GET /_sandbox/rules`, the README's rule table and the order findings are listed in.
import { RULE_APPLIES_TO, type RuleInfoDto } from '../../../shared/timeline';
import { PAGE_RULES, RESPONSE_RULES, TIMELINE_RULES, VISIT_HALVES } from './rules';
import type { RuleMeta } from '../rule-meta';
import { VISIT_RULES } from '../visits/rules';

/** The metas in the order lists show them (TIMELINE_RULES, then the visit's); one per id. */
export const RULE_METAS: readonly RuleMeta[] = (() => {
  const seen = new Map<string, RuleMeta>();
  for (const rule of [...PAGE_RULES, ...RESPONSE_RULES])
    if (!TIMELINE_RULES.includes(rule))
      throw new Error(
        `rule ${rule.meta.id} is missing from TIMELINE_RULES (timeline/rules/index.ts)`,
      );
  for (const rule of [...TIMELINE_RULES, ...VISIT_RULES, ...VISIT_HALVES]) {
    const had = seen.get(rule.meta.id);
    // one rule may judge both a response and a page's visit events (item-not-in-catalog): one meta
    if (had && had !== rule.meta) throw new Error(`two rules declare the id ${rule.meta.id}`);
    seen.set(rule.meta.id, rule.meta);
  }
  return [...seen.values()];
})();

export const RULE_IDS: readonly string[] = RULE_METAS.map((m) => m.id);

/** `GET /_sandbox/rules`: each rule as its meta declares it. */
export function ruleInfos(): RuleInfoDto[] {
  return RULE_METAS.map((m) => ({
    id: m.id,
    title: m.title,
    description: m.description,
    expects: m.expects,
    appliesTo: RULE_APPLIES_TO.filter((k) => m.appliesTo.includes(k)),
    defaultSeverity: m.defaultSeverity,
    fix: m.fix,
    scope: m.scope ?? 'page',
  }));
}

export function ruleMeta(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}

const BY_ID = new Map(RULE_METAS.map((m) => [m.id, m]));

/**
 * Where a rule's findings are about more than their page (meta `scope`: session or site, listed once per
 * session or site); undefined for a page-scope rule.
 */
export function widerScope(id: string): 'session' | 'site' | undefined {
  const scope = BY_ID.get(id)?.scope;
  return scope === 'session' || scope === 'site' ? scope : undefined;
}
