// What every rule declares about itself (ESLint's `meta`), page, response and visit rules alike. Beside
// finding.ts: the timeline's rules and the visit's both depend on it, and it on neither.
import {
  RULE_APPLIES_TO,
  type RuleAppliesTo,
  type RuleScope,
  type Severity,
} from '../../shared/timeline';
import type { ResponseKind } from '../../shared/kinds';
import type { RuleInput } from '../../shared/readiness';
import { CATEGORY_OF } from './client-model';

/**
 * What a rule judges, each with its own handler in the rule's `check` (rule.ts): `response`, one response
 * (kind + responseId + tag) of a page; `page`, what every request of a page said (its tallies); `visit`, a
 * page's product, cart, order and login events and the visit they belong to.
 */
export const SUBJECTS = ['response', 'page', 'visit'] as const;
export type Subject = (typeof SUBJECTS)[number];

/** Every page kind: what a rule about any page (its requests, its context) applies to. */
export const EVERY_PAGE_KIND: readonly RuleAppliesTo[] = RULE_APPLIES_TO.filter(
  (k) => k !== 'visit',
);

/**
 * The behaviour of each kind's own controller, where a rule that guards a behaviour of the search page
 * judges that kind too: a category page's events are the category controller's, the dropdown's and each
 * widget's their own (the judge names it on such a response's finding: judge.ts behaviourOfKind).
 */
const KIND_EVENTS_BEHAVIOUR: Readonly<Record<Exclude<ResponseKind, 'search'>, string>> = {
  category: 'category.events',
  autocomplete: 'autocomplete.events',
  recommendations: 'recommendations.events',
  bundles: 'bundles.widget',
};

/** The behaviour of a kind's own controller (`category.events`, `bundles.widget`); undefined for search's. */
export function kindOwnBehaviour(kind: string): string | undefined {
  return kind === 'search'
    ? undefined
    : KIND_EVENTS_BEHAVIOUR[kind as Exclude<ResponseKind, 'search'>];
}

/**
 * A response rule's `appliesTo` and `guards` at once: the kinds it judges, the search page's behaviours it
 * guards (`own`, the first of which its findings name), then each other kind's own controller's behaviour,
 * so that a kind it judges is never one whose findings name a behaviour it does not guard; then, when it
 * judges category pages, the category rows of its search behaviours (client-model.ts CATEGORY_OF), which
 * its findings on a category page name.
 */
export function judgedIn(
  kinds: readonly ResponseKind[],
  own: readonly string[],
): { appliesTo: readonly ResponseKind[]; guards: readonly string[] } {
  const areas = kinds.flatMap((k) => kindOwnBehaviour(k) ?? []);
  const onCategory = kinds.includes('category') ? own.flatMap((id) => CATEGORY_OF[id] ?? []) : [];
  return { appliesTo: kinds, guards: [...own, ...areas, ...onCategory] };
}

/**
 * What a rule needs beyond its response's events, declared so the engine schedules it from this and
 * names no rule (ESLint style): it never decides a severity (the user's `rules` do).
 */
export interface RuleNeeds {
  /** its findings depend on whether a later-timestamped event arrives anywhere on the page */
  laterEvents?: boolean;
  /** its finding explains every other finding about the response (a stale responseId): report it alone */
  supersedes?: boolean;
  /** it judges only once the page has ended (gone idle, or judged as finished by a report) */
  pageEnd?: boolean;
  /** it reads what the companion search API issued (`ctx.provenance`) */
  provenance?: boolean;
  /** it reads the site's indexed catalog */
  catalog?: boolean;
  /** it reads where else on the site a responseId was seen (`ctx.origin`, `ctx.kindOrigin`) */
  origins?: boolean;
  /** it reads the whole visit (the visit book) */
  visit?: boolean;
  /** it reads the other responses of the page (their impressions): an event on one runs it on the others */
  pageResponses?: boolean;
}

/**
 * What a rule declares about itself (ESLint's `meta`): everything the rule list, the docs, the config's
 * validation, `GET /_sandbox/rules` and the engine's dispatch need. Its id is written here and nowhere else.
 * `S`: what it judges (`RuleMeta<'response'>`), so that `defineRule` asks for those handlers.
 */
export interface RuleMeta<S extends Subject = Subject> {
  id: string;
  /**
   * What it judges (one handler each in its `check`); the engine runs it for those and nothing else. A
   * response rule's `appliesTo` names response kinds, a visit rule's the visit's page kinds (or `visit`), a
   * page rule's every page kind: `defineRule` refuses a rule whose declarations disagree.
   */
  judges: readonly S[];
  /** a few words for lists and drop-downs */
  title: string;
  /** what the rule catches */
  description: string;
  /** what the beacon v2 spec (or the provider's client) expects */
  expects: string;
  /** the page kinds it judges (a response rule: the response kinds it runs for), or `visit` */
  appliesTo: readonly RuleAppliesTo[];
  /** the behaviours of the provider's client (client-model.ts ids) whose broken invariant it names */
  guards: readonly string[];
  /**
   * rules whose finding, naming one of the same events (of the same response), is the cause of this
   * rule's: its finding then carries `causedBy` and is listed after the cause (causes.ts)
   */
  explainedBy?: readonly string[];
  /**
   * the messages of its own that `explainedBy` is about, when not all of them: a finding of another of its
   * messages names a bug of its own and never follows from those rules' findings
   */
  explainedMessages?: readonly string[];
  /**
   * of the rules of `explainedBy`, the messages of theirs that may be the cause, when not all: their other
   * messages name bugs this rule's finding does not follow from (duplicate-render's render at a page away
   * from the listing explains a response not impressed again; its render again before any impression does not)
   */
  causeMessages?: Readonly<Record<string, readonly string[]>>;
  /**
   * the rules of `explainedBy` whose finding about another response of the page may be the cause of this
   * rule's: it names that response's events that explain it (a response's tiles impressed under another's
   * responseId), and follows from the finding there that names them too. Others: the same response only.
   */
  explainedAcross?: readonly string[];
  /**
   * the rules of `explainedBy` whose finding is the cause only when it names every event this rule's finding
   * names: the cause explains those events, and an event it does not name is a bug of this rule's own (a
   * response never rendered whose only events are clicks of tiles impressed under another response)
   */
  explainedWholly?: readonly string[];
  /**
   * its messages that the rules of `explainedWholly` may explain, when not all of them: another of its
   * messages names the same events as their cause already (a click's responseId an earlier search's)
   */
  whollyMessages?: readonly string[];
  /** the severity of its findings unless the user's `rules` set another; it never decides one itself */
  defaultSeverity: Severity;
  /**
   * Its messages by id (ESLint's `meta.messages`): what happened and what was expected, with
   * `{{placeholders}}` a finding's `data` fills. A finding names one (finding.ts rejects any other).
   */
  messages: Readonly<Record<string, string>>;
  /**
   * The one-line fix its findings carry (`GET /_sandbox/rules`, the docs), and the fix of a message that
   * declares none of its own in `fixes`.
   */
  fix: string;
  /** per message id, the fix its findings carry where it differs from `fix` (with placeholders too) */
  fixes?: Readonly<Record<string, string>>;
  /** `page` (default): one finding per page; `session`/`site`: listed once per session or site */
  scope?: RuleScope;
  /** the events (`render`, `impression`, …; `request` for any request of the page) whose arrival can change its findings */
  listens: readonly string[];
  needs?: RuleNeeds;
  /**
   * What it has nothing to judge without, where the traffic alone is not enough: it judges only where one
   * of these is there (`['catalog', 'issued']`: either). Absent: it judges the traffic by itself. Readiness
   * reads it: a behaviour none of whose rules could judge a site's traffic is `ok` unverified, naming what
   * they lacked.
   */
  judgesOnlyWith?: readonly RuleInput[];
  /**
   * Why it does not judge the response kinds `appliesTo` leaves out (a response rule names every one; the
   * docs' table per kind shows them): `appliesTo` alone decides where it runs.
   */
  notJudged?: Partial<Record<ResponseKind, string>>;
  /** response kinds for which it holds with semantics of their own */
  kindNotes?: Partial<Record<ResponseKind, string>>;
}
