// Per-rule severity, ESLint style (README, "Understand a finding and tune strictness"): a `rules` map
// of rule id → off | info | warning | error, from the config file (top level, and per account, which
// wins), expectClean({rules}) or `check --rule`. One validator for all three places, and one way to
// apply a level to a finding.
import { didYouMean, nearestTypo } from './nearest';
import { shown } from './text';
import {
  RULE_LEVELS,
  type RuleLevel,
  type RulesConfig,
  type Severity,
  type TimelineFindingDto,
  type TimelineRuleId,
} from './timeline';

export function isRuleLevel(v: unknown): v is RuleLevel {
  return typeof v === 'string' && (RULE_LEVELS as readonly string[]).includes(v);
}

/**
 * What is wrong with one entry of a rules map, naming the valid ids or levels; null when it is fine.
 * `ids` are the sandbox's rule ids (its rules declare them; `GET /_sandbox/rules` lists them).
 */
export function ruleEntryProblem(
  rule: string,
  level: unknown,
  ids: readonly string[],
): string | null {
  if (!ids.includes(rule)) return ruleIdProblem(rule, ids);
  if (!isRuleLevel(level))
    return `${JSON.stringify(level)} is not a level for ${rule}: use ${RULE_LEVELS.join(', ')}`;
  return null;
}

/**
 * An id no rule declares, said with the nearest ones and all of them: the words of every place a rule id is
 * typed (a rules map, expectClean's ignoreRules, `check --rule`, the admin API's `rule` filter).
 */
export function ruleIdProblem(rule: string, ids: readonly string[]): string {
  // a typo of one id: that one, without the whole list after it
  const typo = nearestTypo(rule, ids);
  if (typo !== undefined)
    return `${shown(rule)} is not a rule id; did you mean ${typo}? (every rule id: GET /_sandbox/rules, or the README's rule table)`;
  return `${shown(rule)} is not a rule id; ${didYouMean(rule, ids)}the rule ids are ${ids.join(', ')}`;
}

/**
 * The first id of a list of rules to ignore (`expectClean({ignoreRules})`) that no rule declares, or null:
 * a misspelt id ignores nothing, and the finding it meant still fails.
 */
export function ignoredRulesProblem(
  rules: readonly string[],
  ids: readonly string[],
): string | null {
  const i = rules.findIndex((rule) => !ids.includes(rule));
  return i < 0 ? null : `ignoreRules[${i}]: ${ruleIdProblem(rules[i]!, ids)}`;
}

/** A whole map's first problem (`where` names it: "rules", "accounts[0].rules", "--rule"), or null. */
export function rulesProblem(raw: unknown, where: string, ids: readonly string[]): string | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return `${where} must be an object of rule id → level, e.g. {"${ids[0]}": "off"}`;
  for (const [rule, level] of Object.entries(raw)) {
    const p = ruleEntryProblem(rule, level, ids);
    if (p) return `${where}.${rule}: ${p}`;
  }
  return null;
}

/** The level a rule has for a site and where it was set, or undefined when the rule keeps its own. */
export interface LevelSource {
  level(siteId: string, rule: TimelineRuleId): { level: RuleLevel; from: string } | undefined;
}

/** Levels from the config: per account (wins) over top level. */
export function configLevels(
  top: RulesConfig | undefined,
  accounts: ReadonlyArray<{ siteId: string; rules?: RulesConfig }>,
  file = 'the config',
): LevelSource | undefined {
  const sites = new Map(
    accounts.filter((a) => a.rules && Object.keys(a.rules).length > 0).map((a) => [a.siteId, a]),
  );
  if ((!top || Object.keys(top).length === 0) && sites.size === 0) return undefined;
  return {
    level(siteId, rule) {
      const site = sites.get(siteId)?.rules?.[rule];
      if (site) return { level: site, from: `accounts[siteId=${siteId}].rules in ${file}` };
      const global = top?.[rule];
      return global ? { level: global, from: `rules in ${file}` } : undefined;
    },
  };
}

/** One map for every site (`expectClean({rules})`, `check --rule`), said to come from `from`. */
export function mapLevels(rules: RulesConfig, from: string): LevelSource {
  return {
    level(_siteId, rule) {
      const level = rules[rule];
      return level ? { level, from } : undefined;
    },
  };
}

/** Two sources, the first winning (`check --rule` over `--config`). */
export function layered(first: LevelSource | undefined, then: LevelSource | undefined) {
  if (!first) return then;
  if (!then) return first;
  return {
    level: (siteId: string, rule: TimelineRuleId) =>
      first.level(siteId, rule) ?? then.level(siteId, rule),
  } satisfies LevelSource;
}

/** What a level is applied to: a finding as kept or as read. */
type Levelled = Pick<TimelineFindingDto, 'rule' | 'severity' | 'defaultSeverity' | 'severityFrom'>;

/**
 * The finding at its effective severity, saying where that was set and what the rule's own was; null
 * when the rule is off.
 */
export function withLevel<F extends Levelled>(
  f: F,
  set: { level: RuleLevel; from: string } | undefined,
): F | null {
  if (!set) return f;
  if (set.level === 'off') return null;
  if (set.level === f.severity && !f.severityFrom) return { ...f, severityFrom: set.from };
  return {
    ...f,
    severity: set.level as Severity,
    defaultSeverity: f.defaultSeverity ?? f.severity,
    severityFrom: set.from,
  };
}

export function levelled<F extends Levelled>(
  findings: F[],
  siteId: string,
  source: LevelSource | undefined,
): F[] {
  if (!source) return findings;
  const out: F[] = [];
  for (const f of findings) {
    const g = withLevel(f, source.level(siteId, f.rule));
    if (g) out.push(g);
  }
  return out;
}
