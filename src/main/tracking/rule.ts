// What a rule is, one shape for every rule (ESLint's `{ meta, create }`): its meta, and a handler for each
// subject its meta says it judges (`meta.judges`). The engine builds its dispatch tables from the metas of
// the one list (rule-list.ts); `defineRule` refuses, when the rule's module loads, a rule whose handlers or
// declarations disagree, so a rule the engine would never run (or would run for what it does not read)
// cannot be listed.
import { isResponseKind, RESPONSE_KINDS } from '../../shared/kinds';
import { RULE_APPLIES_TO } from '../../shared/timeline';
import { SUBJECTS, type RuleMeta, type RuleNeeds, type Subject } from './rule-meta';

/**
 * The handler of each subject: what it is given, the findings it returns. Each is declared beside the
 * types it reads, `response` and `page` in timeline/rules/types.ts, `visit` in visits/rules/types.ts, and
 * TypeScript merges them here: this module names no type of either folder, so both import it and it
 * imports neither.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are merged in (above)
export interface Handlers {}

/**
 * What a page rule adds to its `page` handler: `count`, its findings counted from the tallies alone, and
 * `tally`, what a request says beyond its events (declared in timeline/rules/types.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are merged in (above)
export interface PageTallies {}

/** A rule with the handlers of the subjects `S` (what the judge's table for a subject holds). */
export type Judging<S extends Subject> = { readonly meta: RuleMeta } & Pick<Handlers, S> &
  ('page' extends S ? PageTallies : unknown);

/** Any rule of the list. */
export type Rule = { readonly meta: RuleMeta } & Partial<Handlers> & Partial<PageTallies>;

/**
 * The one way to write a rule: `defineRule({ meta, response(r, ctx) {…} })`, with `meta: RuleMeta<'response'>`
 * (`judges: ['response']`); a rule that judges two subjects has both handlers. Throws when the rule's
 * handlers or its meta's declarations disagree (see `ruleProblem`).
 */
export function defineRule<S extends Subject>(
  rule: { meta: RuleMeta<S> } & Pick<Handlers, S> & ('page' extends S ? PageTallies : unknown),
): Rule {
  const problem = ruleProblem(rule as Rule);
  if (problem) throw new Error(`rule ${rule.meta.id}: ${problem}`);
  return rule as Rule;
}

/** The rules of `rules` that judge `subject`, in its order: a dispatch table, built once at load. */
export function judging<S extends Subject>(
  rules: readonly Rule[],
  subject: S,
): ReadonlyArray<Judging<S>> {
  // defineRule made sure a rule that judges a subject has its handlers
  return rules.filter((r) => r.meta.judges.includes(subject)) as unknown as Judging<S>[];
}

/** The page kinds of the visit's events (and the whole visit): what a visit rule applies to. */
const VISIT_KINDS = RULE_APPLIES_TO.filter((k) => !isResponseKind(k));

/** The needs that only the judge's dispatch of responses reads (`visit` only the visit's). */
const RESPONSE_NEEDS: ReadonlyArray<keyof RuleNeeds> = [
  'laterEvents',
  'supersedes',
  'pageEnd',
  'pageResponses',
];

/** What is inconsistent about a rule, in words that name the field and the fix; undefined when nothing. */
export function ruleProblem(rule: Rule): string | undefined {
  const { judges, appliesTo, listens, needs = {}, notJudged } = rule.meta;
  const judged = new Set<string>(judges);
  if (judges.length === 0 || judged.size !== judges.length)
    return `meta.judges must name what it judges, each once (${SUBJECTS.join(', ')}); it is [${judges.join(', ')}]`;
  for (const s of judged)
    if (!(SUBJECTS as readonly string[]).includes(s))
      return `meta.judges names "${s}": a rule judges ${SUBJECTS.join(', ')}`;
  for (const s of SUBJECTS) {
    const has = typeof rule[s] === 'function';
    if (judged.has(s) && !has) return `its meta judges ${s} but it has no ${s}() handler`;
    if (!judged.has(s) && rule[s] !== undefined)
      return `it has a ${s}() handler but its meta.judges does not name ${s}`;
  }
  if (judged.has('page') !== (typeof rule.count === 'function'))
    return judged.has('page')
      ? 'a page rule counts its findings from the tallies: it needs count(page, ctx)'
      : 'count() is for page rules (meta.judges page)';
  if (rule.tally !== undefined && !judged.has('page'))
    return 'tally() is for page rules (meta.judges page)';
  const kinds = appliesTo.filter(isResponseKind);
  const visitKinds = appliesTo.filter((k) => !isResponseKind(k));
  if (judged.has('response') && kinds.length === 0)
    return `its meta judges response but its appliesTo [${appliesTo.join(', ')}] names no response kind (${RESPONSE_KINDS.join(', ')}): the judge would never run it`;
  if (judged.has('visit') && visitKinds.length === 0)
    return `its meta judges visit but its appliesTo [${appliesTo.join(', ')}] names none of the visit's page kinds (${VISIT_KINDS.join(', ')}): the visit's findings would never include it`;
  if (judged.has('page') && appliesTo.includes('visit'))
    return 'a page rule judges a page: its appliesTo names page kinds, not visit';
  if (kinds.length > 0 && !judged.has('response') && !judged.has('page'))
    return `its appliesTo names ${kinds.join(', ')} but its meta judges no response (add response to meta.judges, or leave those kinds out)`;
  if (visitKinds.length > 0 && !judged.has('visit') && !judged.has('page'))
    return `its appliesTo names ${visitKinds.join(', ')} but its meta does not judge visit (add visit to meta.judges, or leave those kinds out)`;
  if (!judged.has('response')) {
    const flag = RESPONSE_NEEDS.find((n) => needs[n]);
    if (flag)
      return `needs.${flag} is read for response rules only, and its meta judges no response`;
    if (notJudged)
      return 'notJudged says why a response rule leaves a kind out: it judges no response';
  }
  if (needs.visit && !judged.has('visit'))
    return 'needs.visit is read for visit rules only, and its meta does not judge visit';
  if (listens.length === 0) return 'meta.listens names no event: nothing would ever run it again';
  const twice = rule.meta.guards.find((g, i) => rule.meta.guards.indexOf(g) !== i);
  if (twice !== undefined)
    return `meta.guards names ${twice} twice: the client model and readiness would list the rule twice`;
  const {
    explainedBy = [],
    explainedMessages,
    explainedAcross = [],
    explainedWholly = [],
  } = rule.meta;
  const wholly = explainedWholly.find((id) => !explainedBy.includes(id));
  if (wholly !== undefined)
    return `meta.explainedWholly names "${wholly}", which its explainedBy does not (explainedWholly says which of those explain it only by naming all its events)`;
  const { whollyMessages } = rule.meta;
  if (whollyMessages !== undefined && explainedWholly.length === 0)
    return 'meta.whollyMessages says which of its messages explainedWholly is about, and it has no explainedWholly';
  const notOwn = whollyMessages?.find((m) => !Object.hasOwn(rule.meta.messages, m));
  if (notOwn !== undefined)
    return `meta.whollyMessages names "${notOwn}", which is not one of its messages`;
  const causing = Object.keys(rule.meta.causeMessages ?? {}).find(
    (id) => !explainedBy.includes(id),
  );
  if (causing !== undefined)
    return `meta.causeMessages names "${causing}", which its explainedBy does not (causeMessages says which messages of those rules explain it)`;
  const across = explainedAcross.find((id) => !explainedBy.includes(id));
  if (across !== undefined)
    return `meta.explainedAcross names "${across}", which its explainedBy does not (explainedAcross says which of those may explain it from another response)`;
  if (explainedMessages !== undefined) {
    if (explainedBy.length === 0)
      return 'meta.explainedMessages says which of its messages explainedBy is about, and it has no explainedBy';
    const unknown = explainedMessages.find((m) => !Object.hasOwn(rule.meta.messages, m));
    if (unknown !== undefined)
      return `meta.explainedMessages names "${unknown}", which is not one of its messages (${Object.keys(rule.meta.messages).join(', ')})`;
  }
  return undefined;
}
