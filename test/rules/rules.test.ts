/// <reference types="vite/client" />
// The rule tester (ESLint's RuleTester for the sandbox's rules): every rule of the one list (RULES) has a
// cases file, test/rules/cases/<rule id>.ts, with `valid` traffic (no finding of that rule) and `invalid`
// traffic (its findings: severity, message, fix, events). A rule without both kinds of case fails here.
// The README's rule table is checked against the metas too, each rule id is written in its own module
// only, every rule module is in the list, and a rule whose declarations disagree is refused at load.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TimelineFindingDto } from '../../src/shared/timeline';
import { RULES } from '../../src/main/tracking/timeline/rule-list';
import type { RuleMeta } from '../../src/main/tracking/rule-meta';
import { judging } from '../../src/main/tracking/rule';
import type { Page } from '../../src/main/tracking/timeline/page';
import { RuleViews } from '../../src/main/tracking/timeline/rule-context';
import { visitView } from '../../src/main/tracking/visits/rules/utils/view';
import { RESPONSE_KINDS } from '../../src/shared/kinds';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { pageDto } from '../../src/main/tracking/timeline/dto';
import type { RecordedEvent } from '../../src/shared/events';
import {
  README,
  RULE_IDS_FILE,
  ruleIdsSource,
  rulesTable,
  withTable,
} from '../../scripts/rules-table';
import { T0, source, type Expected, type RuleCase, type RuleCases } from './kit';

const RULE_METAS = RULES.map((r) => r.meta);
const CASES = import.meta.glob<{ default: RuleCases }>('./cases/*.ts', { eager: true });
const casesOf = (id: string) => CASES[`./cases/${id}.ts`]?.default;

/**
 * Every finding the case's traffic gets, every page judged as finished unless the case is live. `asLive`:
 * the traffic is fed as a live sandbox takes it, every page read after each event (so a rule that does
 * not listen to an event that changes its findings keeps stale ones), before the same reading at the end.
 */
function judge(
  c: RuleCase,
  events = c.events(),
  asLive?: 'event by event' | 'at once',
): TimelineFindingDto[] {
  const clock = new SandboxClock({ start: T0 + 60_000, frozen: true });
  const engine = new TimelineEngine({
    clock,
    settings: { ...defaultTimelineSettings(), ...c.settings },
  });
  if (c.provenance) engine.setProvenance(source(c.provenance));
  try {
    for (const e of events) {
      engine.apply(e);
      if (asLive === 'event by event') for (const p of engine.list()) engine.pageDto(p);
    }
    if (c.live || asLive) {
      for (const _ of engine.settle());
      return engine.list().flatMap((p) => engine.pageDto(p).findings);
    }
    engine.finish();
    return engine
      .pagesDto()
      .flatMap((p) => p.findings.map((f) => ({ ...f, pageLoadId: p.pageLoadId })));
  } finally {
    // its idle timers would judge the pages again after the case (a page awaiting impressions goes idle),
    // with whatever metas hold then
    engine.dispose();
  }
}

/** What must not differ between a live and a finished judgement of the same traffic. */
const gist = (found: TimelineFindingDto[], rule: string) =>
  found
    .filter((f) => f.rule === rule)
    .map((f) => ({
      severity: f.severity,
      messageId: f.messageId,
      message: f.message,
      fix: f.fix,
      eventIds: [...f.eventIds].sort(),
      behaviour: f.behaviour,
      tag: f.tag,
    }));

/**
 * What `check` finds in the traffic: the engine as its report runs it (offline: every page judged when the
 * input ends; no credit: clicks kept only while a page left to judge can read them, quick adds not kept).
 */
function judgeAsCheck(c: RuleCase, events: RecordedEvent[]): TimelineFindingDto[] {
  const clock = new SandboxClock({ start: T0 + 60_000, frozen: true });
  const engine = new TimelineEngine({
    clock,
    settings: { ...defaultTimelineSettings(), ...c.settings },
    offline: true,
    credit: false,
  });
  try {
    if (c.provenance) engine.setProvenance(source(c.provenance));
    for (const e of events) engine.apply(e);
    return [...engine.releaseAll(pageDto)].flatMap((p) => p.findings);
  } finally {
    engine.dispose();
    clock.dispose();
  }
}

/**
 * The README's promise: `check` of a recording finds what the live sandbox finds in the same traffic (a
 * rule that reads what `check` does not keep, the visit's clicks say, fails here).
 */
function expectSameInCheck(c: RuleCase, traffic: RecordedEvent[], rule: string) {
  if (c.live) return;
  // the same findings, whichever order the pages are handed over in
  const sorted = (found: TimelineFindingDto[]) =>
    gist(found, rule)
      .map((f) => JSON.stringify(f))
      .sort();
  expect(sorted(judgeAsCheck(c, traffic)), 'judged as check judges it').toEqual(
    sorted(judge(c, traffic)),
  );
}

/**
 * A live sandbox reads its pages while events still arrive: fed one at a time with every page read after
 * each, the traffic must get the findings it gets when read once at the end (a rule whose `listens`
 * misses an event that changes its findings keeps stale ones and fails here).
 */
function expectSameLive(c: RuleCase, traffic: ReturnType<RuleCase['events']>, rule: string) {
  expect(gist(judge(c, traffic, 'event by event'), rule), 'fed event by event').toEqual(
    gist(judge(c, traffic, 'at once'), rule),
  );
}

const matches = (text: string, want: string | RegExp) =>
  typeof want === 'string' ? text.includes(want) : want.test(text);

function expectFinding(
  f: TimelineFindingDto & { pageLoadId?: string },
  want: Expected,
  meta: RuleMeta,
  traffic: ReadonlyArray<{ id: string }>,
) {
  expect(f.severity).toBe(want.severity ?? meta.defaultSeverity);
  // a rule with one message needs no messageId in its cases; one with several names it in each
  const ids = Object.keys(meta.messages);
  if (want.messageId === undefined)
    expect(ids, `${meta.id} has several messages: the case names its messageId`).toHaveLength(1);
  expect(f.messageId).toBe(want.messageId ?? ids[0]);
  if (want.data !== undefined) expect(f.data).toMatchObject(want.data);
  if (want.message !== undefined)
    expect(matches(f.message, want.message), `message: ${f.message}`).toBe(true);
  // what happened, and apart from it, how to fix it
  expect(f.message, 'the fix is not written in the message').not.toMatch(/\bFix\b/);
  expect(f.fix.length, 'the finding says how to fix it').toBeGreaterThan(10);
  if (want.fix !== undefined) expect(matches(f.fix, want.fix), `fix: ${f.fix}`).toBe(true);
  if (want.events !== undefined)
    expect([...f.eventIds].sort()).toEqual(want.events.map((i) => traffic[i]!.id).sort());
  if (want.responseId !== undefined) expect(f.responseId).toBe(want.responseId);
  if (want.pageLoadId !== undefined) expect(f.pageLoadId).toBe(want.pageLoadId);
  if (want.behaviour !== undefined) expect(f.behaviour).toBe(want.behaviour);
  if (want.tag !== undefined) expect(f.tag ?? null, 'tag').toBe(want.tag);
  // a finding id starts with its rule's id (finding.ts findingId)
  if (want.causedBy !== undefined)
    expect(f.causedBy?.match(/^[a-z0-9-]+/)?.[0] ?? null, 'causedBy').toBe(want.causedBy);
  // readiness marks the one behaviour a finding names: one its rule guards
  expect(meta.guards, `${meta.id} names a behaviour it does not guard`).toContain(f.behaviour);
}

describe('every rule has tester cases of both kinds', () => {
  it('no cases file names a rule that does not exist', () => {
    const ids = new Set(RULE_METAS.map((m) => m.id));
    for (const file of Object.keys(CASES)) expect(ids, file).toContain(path.basename(file, '.ts'));
  });
  for (const meta of RULE_METAS)
    it(`${meta.id} has valid and invalid cases`, () => {
      const cases = casesOf(meta.id);
      expect(cases, `test/rules/cases/${meta.id}.ts`).toBeDefined();
      expect(cases!.valid.length, `${meta.id}: valid cases`).toBeGreaterThan(0);
      expect(cases!.invalid.length, `${meta.id}: invalid cases`).toBeGreaterThan(0);
    });
});

for (const meta of RULE_METAS) {
  const cases = casesOf(meta.id);
  if (!cases) continue;
  describe(meta.id, () => {
    for (const c of cases.valid)
      it(`valid: ${c.name}`, () => {
        const traffic = c.events();
        const found = judge(c, traffic).filter((f) => f.rule === meta.id);
        expect(found.map((f) => f.message)).toEqual([]);
        expectSameLive(c, traffic, meta.id);
        expectSameInCheck(c, traffic, meta.id);
      });
    const reported = new Set<string>();
    for (const c of cases.invalid)
      it(`invalid: ${c.name}`, () => {
        const traffic = c.events();
        const found = judge(c, traffic).filter((f) => f.rule === meta.id);
        expect(found.length, found.map((f) => f.message).join('\n')).toBe(c.findings.length);
        c.findings.forEach((want, i) => expectFinding(found[i]!, want, meta, traffic));
        for (const f of found) reported.add(f.messageId);
        expectSameLive(c, traffic, meta.id);
        expectSameInCheck(c, traffic, meta.id);
      });
    // ESLint's RuleTester: a message no case reports is untested (or dead)
    it('every message it declares is reported by an invalid case', () => {
      expect([...reported].sort()).toEqual(Object.keys(meta.messages).sort());
    });
  });
}

describe('a rule reads what its meta declares (needs), nothing else', () => {
  it('a rule that reads what it does not declare fails its own cases', () => {
    const rule = RULES.find((r) => r.meta.id === 'missing-render')!;
    const meta = rule.meta as { needs?: RuleMeta['needs'] };
    const declared = meta.needs;
    const c = casesOf('missing-render')!.invalid.find((x) => x.provenance)!;
    try {
      meta.needs = { origins: true };
      expect(() => judge(c)).toThrow(/missing-render reads provenance .* needs\.provenance/);
      meta.needs = { provenance: true };
      expect(() => judge(c)).toThrow(/missing-render reads origins .* needs\.origins/);
    } finally {
      meta.needs = declared;
    }
    expect(judge(c).filter((f) => f.rule === 'missing-render')).toHaveLength(1);
  });

  it('each view holds only the declared needs', () => {
    const full = {
      settings: defaultTimelineSettings(),
      page: {} as Page,
      origin: () => undefined,
      kindOrigin: () => undefined,
      provenance: source(),
    };
    const views = new RuleViews(full);
    expect(() => views.for({ id: 'a' }).provenance).toThrow(/rule a reads provenance/);
    expect(() => views.for({ id: 'b' }).kindOrigin('r1')).toThrow(/rule b reads origins/);
    expect(() => views.for({ id: 'c', needs: { provenance: true } }).catalog).toThrow(
      /rule c reads catalog/,
    );
    expect(views.for({ id: 'd', needs: { provenance: true } }).provenance).toBe(full.provenance);
    expect(views.for({ id: 'e', needs: { catalog: true } }).catalog).toBe(full.provenance);
    expect(() => visitView('f', [], undefined, false).visit).toThrow(/rule f reads visit/);
    expect(() => visitView('g', [], undefined, false).catalog).toThrow(/rule g reads catalog/);
    expect(visitView('h', [], undefined, undefined).catalog).toBeUndefined();
  });

  it('every flag a meta may declare is one the engine reads', () => {
    // pageEnd, supersedes, laterEvents, pageResponses: the judge's dispatch; the rest: the views above
    const read = [
      'laterEvents',
      'supersedes',
      'pageEnd',
      'provenance',
      'catalog',
      'origins',
      'visit',
      'pageResponses',
    ];
    for (const m of RULE_METAS)
      for (const flag of Object.keys(m.needs ?? {}))
        expect(read, `${m.id}: ${flag}`).toContain(flag);
  });
});

describe('rules declared once', () => {
  it('a rule is explained only by rules that exist, never by itself', () => {
    const ids = new Set(RULE_METAS.map((m) => m.id));
    for (const m of RULE_METAS)
      for (const by of m.explainedBy ?? []) {
        expect(ids, `${m.id} explainedBy ${by}`).toContain(by);
        expect(by, m.id).not.toBe(m.id);
      }
  });

  it('a response rule’s appliesTo is where it runs, and it says why it leaves a kind out', () => {
    for (const rule of judging(RULES, 'response')) {
      const { id, appliesTo, notJudged = {} } = rule.meta;
      for (const kind of RESPONSE_KINDS) {
        const why = (notJudged as Record<string, string>)[kind];
        if (appliesTo.includes(kind))
          expect(why, `${id} × ${kind}: judged and notJudged`).toBeUndefined();
        else expect(why, `${id} × ${kind}: not judged, with no reason`).toBeTruthy();
      }
    }
  });

  it('the README’s rule table is the one the metas make (npm run docs:rules)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withTable(readme, rulesTable()) === readme, 'run npm run docs:rules').toBe(true);
  });

  it('the package’s type of rule ids is the one the metas make (npm run docs:rules)', () => {
    expect(readFileSync(RULE_IDS_FILE, 'utf8') === ruleIdsSource(), 'run npm run docs:rules').toBe(
      true,
    );
  });

  it('each rule id is written in its own module only', () => {
    const root = path.resolve(__dirname, '../../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        // the type of rule ids is written from the modules (checked above), not by hand
        else if (/\.tsx?$/.test(e.name) && p !== RULE_IDS_FILE) files.push(p);
      }
    };
    walk(root);
    // code only: comments may name a rule to explain something, and a meta's `explainedBy` names the rules
    // its findings follow from (checked above: each names a rule that exists), `explainedAcross` some of them,
    // `causeMessages` some of them with their messages (rule-list.test.ts checks those)
    const code = (t: string) =>
      t
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/^\s*explained(By|Across|Wholly): \[[^\]]*\],?$/gm, '')
        .replace(/^\s*causeMessages: \{[^}]*\},?$/gm, '');
    const texts = files.map(
      (f) => [path.relative(root, f), code(readFileSync(f, 'utf8'))] as const,
    );
    // words of another vocabulary too: `order` a page kind and a beacon category, `schema` a validation verdict
    const ALSO_WORDS = new Set(['order', 'schema']);
    for (const meta of RULE_METAS) {
      if (ALSO_WORDS.has(meta.id)) continue;
      const quoted = new RegExp(`(['"])${meta.id}\\1`);
      const where = texts.filter(([, t]) => quoted.test(t)).map(([f]) => f);
      // the module that declares `id: '<id>'`
      expect(where, meta.id).toHaveLength(1);
      expect(readFileSync(path.join(root, where[0]!), 'utf8'), meta.id).toContain(
        `id: '${meta.id}'`,
      );
    }
  });
});
