/// <reference types="vite/client" />
// One rule shape and one list: every rule module of the rule folders is in RULES (a module left out of it
// fails here, it would never run), and a rule whose declarations disagree (what its meta judges, its
// appliesTo, its handlers, its needs) is refused when its module loads, with an error naming the field.
import { describe, expect, it } from 'vitest';
import { defineRule, type Rule } from '../../src/main/tracking/rule';
import type { RuleMeta, Subject } from '../../src/main/tracking/rule-meta';
import { EVERY_PAGE_KIND } from '../../src/main/tracking/rule-meta';
import { RULES, RULE_METAS } from '../../src/main/tracking/timeline/rule-list';

const MODULES = import.meta.glob<Record<string, unknown>>(
  [
    '../../src/main/tracking/timeline/rules/*.ts',
    '../../src/main/tracking/visits/rules/*.ts',
    '!**/types.ts',
    '!**/index.ts',
  ],
  { eager: true },
);

const isRule = (v: unknown): v is Rule =>
  typeof v === 'object' && v !== null && Array.isArray((v as Rule).meta?.judges);

/** The modules (by path) that export a rule missing from `list`, or no rule at all (a helper outside utils/). */
function notListed(modules: Record<string, Record<string, unknown>>, list: readonly Rule[]) {
  const listed = new Set(list);
  const problems: string[] = [];
  for (const [file, exports] of Object.entries(modules)) {
    const rules = Object.values(exports).filter(isRule);
    if (rules.length === 0)
      problems.push(`${file}: exports no rule (shared helpers go in rules/utils/)`);
    for (const r of rules)
      if (!listed.has(r))
        problems.push(`${file}: ${r.meta.id} is not in RULES (timeline/rule-list.ts)`);
  }
  return problems;
}

describe('one list', () => {
  it('every rule module of the rule folders is in RULES, and every rule of RULES is one of them', () => {
    expect(Object.keys(MODULES).length).toBeGreaterThan(50);
    expect(notListed(MODULES, RULES)).toEqual([]);
    const inModules = new Set(
      Object.values(MODULES).flatMap((m) => Object.values(m).filter(isRule)),
    );
    for (const r of RULES) expect(inModules.has(r), r.meta.id).toBe(true);
  });

  it('a rule module left out of RULES fails that test', () => {
    const [file, exports] = Object.entries(MODULES)[0]!;
    const rule = Object.values(exports).find(isRule)!;
    expect(
      notListed(
        { [file]: exports },
        RULES.filter((r) => r !== rule),
      ),
    ).toEqual([`${file}: ${rule.meta.id} is not in RULES (timeline/rule-list.ts)`]);
    expect(notListed({ 'helper.ts': { plural: () => '' } }, RULES)).toEqual([
      'helper.ts: exports no rule (shared helpers go in rules/utils/)',
    ]);
  });

  it('a rule that judges two subjects is one entry with one meta', () => {
    const both = RULES.filter((r) => r.meta.judges.length > 1);
    expect(both.map((r) => r.meta.id)).toEqual([
      'item-not-in-catalog',
      'item-ids-disagree',
      'price-unit-mismatch',
    ]);
    for (const rule of both) {
      expect(typeof rule.response).toBe('function');
      expect(typeof rule.visit).toBe('function');
    }
  });
});

/** A meta that is consistent for `judges`, with `over` on top. */
function meta<S extends Subject>(judges: S[], over: Partial<RuleMeta> = {}): RuleMeta<S> {
  return {
    id: 'made-up',
    judges,
    title: 't',
    description: 'd',
    expects: 'e',
    appliesTo: judges.includes('page' as S)
      ? EVERY_PAGE_KIND
      : judges.includes('response' as S)
        ? ['search']
        : ['order'],
    guards: [],
    defaultSeverity: 'warning',
    messages: { m: 'm' },
    fix: 'f',
    listens: ['render'],
    ...over,
  } as RuleMeta<S>;
}

// a module that declares a rule calls defineRule when it loads: what these throw, its import throws
const define = (rule: object) => () => defineRule(rule as Parameters<typeof defineRule>[0]);
const none = () => [];

describe('a rule whose declarations disagree is refused at load', () => {
  it('a response rule whose appliesTo names no response kind: its module does not load', async () => {
    await expect(import('./fixtures/response-rule-of-no-response')).rejects.toThrow(
      'rule response-rule-of-no-response: its meta judges response but its appliesTo [order] names no response kind (search, category, autocomplete, recommendations, bundles): the judge would never run it',
    );
  });

  it('what the meta judges and the handlers the rule has must be the same', () => {
    expect(define({ meta: meta(['response']), response: none })).not.toThrow();
    expect(define({ meta: meta(['response']), visit: none })).toThrow(
      'rule made-up: its meta judges response but it has no response() handler',
    );
    expect(
      define({
        meta: meta(['response'], { appliesTo: ['search', 'cart'] }),
        response: none,
        visit: none,
      }),
    ).toThrow('rule made-up: it has a visit() handler but its meta.judges does not name visit');
    expect(define({ meta: meta(['page']), page: none })).toThrow(/needs count\(page, ctx\)/);
    expect(define({ meta: meta(['visit']), visit: none, count: () => 0 })).toThrow(
      /count\(\) is for page rules/,
    );
    expect(define({ meta: meta([]), response: none })).toThrow(/meta\.judges must name/);
    expect(define({ meta: meta(['response', 'response']), response: none })).toThrow(/each once/);
  });

  it('appliesTo and what the meta judges must agree', () => {
    expect(define({ meta: meta(['visit'], { appliesTo: ['search'] }), visit: none })).toThrow(
      /judges visit but its appliesTo \[search\] names none of the visit's page kinds/,
    );
    expect(
      define({ meta: meta(['response'], { appliesTo: ['search', 'order'] }), response: none }),
    ).toThrow(/appliesTo names order but its meta does not judge visit/);
    expect(
      define({ meta: meta(['visit'], { appliesTo: ['order', 'search'] }), visit: none }),
    ).toThrow(/appliesTo names search but its meta judges no response/);
    expect(
      define({
        meta: meta(['page'], { appliesTo: ['search', 'visit'] }),
        page: none,
        count: () => 0,
      }),
    ).toThrow(/a page rule judges a page/);
  });

  it('needs read for one subject only are refused on a rule that does not judge it', () => {
    expect(define({ meta: meta(['visit'], { needs: { pageEnd: true } }), visit: none })).toThrow(
      /needs\.pageEnd is read for response rules only/,
    );
    expect(
      define({ meta: meta(['response'], { needs: { visit: true } }), response: none }),
    ).toThrow(/needs\.visit is read for visit rules only/);
    expect(define({ meta: meta(['response'], { listens: [] }), response: none })).toThrow(
      /meta\.listens names no event/,
    );
  });

  it('a behaviour guarded twice is refused (the model and readiness would list the rule twice)', () => {
    const guards = (g: string[]) =>
      define({ meta: meta(['response'], { guards: g }), response: none });
    expect(guards(['search.render', 'search.impression'])).not.toThrow();
    expect(guards(['search.render', 'search.impression', 'search.render'])).toThrow(
      /meta\.guards names search\.render twice/,
    );
  });

  it('explainedMessages names messages of its own, and only beside explainedBy', () => {
    const messages = { a: 'A.', b: 'B.' };
    const explained = (over: Partial<RuleMeta>) =>
      define({ meta: meta(['response'], { messages, ...over }), response: none });
    expect(explained({ explainedBy: ['other'], explainedMessages: ['b'] })).not.toThrow();
    expect(explained({ explainedMessages: ['b'] })).toThrow(
      'rule made-up: meta.explainedMessages says which of its messages explainedBy is about, and it has no explainedBy',
    );
    expect(explained({ explainedBy: ['other'], explainedMessages: ['c'] })).toThrow(
      'rule made-up: meta.explainedMessages names "c", which is not one of its messages (a, b)',
    );
  });

  it('causeMessages names rules of its explainedBy only, and messages those rules have', () => {
    const explained = (over: Partial<RuleMeta>) =>
      define({ meta: meta(['response'], over), response: none });
    expect(explained({ explainedBy: ['other'], causeMessages: { other: ['x'] } })).not.toThrow();
    expect(explained({ explainedBy: ['other'], causeMessages: { third: ['x'] } })).toThrow(
      'rule made-up: meta.causeMessages names "third", which its explainedBy does not (causeMessages says which messages of those rules explain it)',
    );
    // across the list: each message named is one of the named rule's
    for (const m of RULE_METAS)
      for (const [rule, ids] of Object.entries(m.causeMessages ?? {})) {
        const cause = RULE_METAS.find((c) => c.id === rule);
        expect(cause, `${m.id}: causeMessages names ${rule}`).toBeDefined();
        for (const id of ids)
          expect(Object.keys(cause!.messages), `${m.id}: ${rule}'s message ${id}`).toContain(id);
      }
  });

  it('explainedAcross names rules of its explainedBy only', () => {
    const explained = (over: Partial<RuleMeta>) =>
      define({ meta: meta(['response'], over), response: none });
    expect(explained({ explainedBy: ['other'], explainedAcross: ['other'] })).not.toThrow();
    expect(explained({ explainedBy: ['other'], explainedAcross: ['third'] })).toThrow(
      'rule made-up: meta.explainedAcross names "third", which its explainedBy does not',
    );
  });

  it('explainedWholly names rules of its explainedBy only', () => {
    const explained = (over: Partial<RuleMeta>) =>
      define({ meta: meta(['response'], over), response: none });
    expect(explained({ explainedBy: ['other'], explainedWholly: ['other'] })).not.toThrow();
    expect(explained({ explainedBy: ['other'], explainedWholly: ['third'] })).toThrow(
      'rule made-up: meta.explainedWholly names "third", which its explainedBy does not',
    );
    const messages = { a: 'A.', b: 'B.' };
    expect(
      explained({
        messages,
        explainedBy: ['other'],
        explainedWholly: ['other'],
        whollyMessages: ['a'],
      }),
    ).not.toThrow();
    expect(explained({ messages, explainedBy: ['other'], whollyMessages: ['a'] })).toThrow(
      'rule made-up: meta.whollyMessages says which of its messages explainedWholly is about, and it has no explainedWholly',
    );
    expect(
      explained({
        messages,
        explainedBy: ['other'],
        explainedWholly: ['other'],
        whollyMessages: ['c'],
      }),
    ).toThrow('rule made-up: meta.whollyMessages names "c", which is not one of its messages');
  });

  it('every rule of the list passes the same checks', () => {
    for (const rule of RULES) expect(define(rule), rule.meta.id).not.toThrow();
  });
});
