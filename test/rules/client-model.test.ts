// The client model is the specification the rules derive from: every rule names behaviours the model has,
// every behaviour is checked by a rule or says why none can be, and docs/client-model.md is what they make.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEHAVIOURS, sendingBehaviour } from '../../src/main/tracking/client-model';
import { VISIT_ENDPOINTS } from '../../src/main/tracking/visits/events';
import { KIND_EVENTS, RESPONSE_KINDS, endpointOf } from '../../src/shared/kinds';
import { behaviourInfos } from '../../src/main/tracking/timeline/behaviour-list';
import { RULE_METAS } from '../../src/main/tracking/timeline/rule-list';
import { clientModelDoc, DOC } from '../../scripts/client-model-doc';

describe('the client model', () => {
  it('every rule guards at least one behaviour, and only behaviours of the model', () => {
    const ids = new Set(BEHAVIOURS.map((b) => b.id));
    for (const m of RULE_METAS) {
      expect(m.guards.length, `${m.id} guards no behaviour`).toBeGreaterThan(0);
      for (const g of m.guards) expect(ids, `${m.id} guards "${g}"`).toContain(g);
    }
  });

  it('every behaviour names a rule or a reason why no check can be certain, never both', () => {
    for (const b of behaviourInfos()) {
      const why = b.uncheckable?.trim() ?? '';
      expect(b.rules.length > 0 || why.length > 0, `${b.id}: no rule and no reason`).toBe(true);
      expect(b.rules.length > 0 && why.length > 0, `${b.id}: a rule and a reason`).toBe(false);
    }
  });

  it('a rule that judges nothing without an input reads it: its needs declare what judgesOnlyWith names', () => {
    const reads = { issued: 'provenance', catalog: 'catalog', companion: 'provenance' } as const;
    for (const m of RULE_METAS)
      for (const input of m.judgesOnlyWith ?? []) {
        // the real service's answers are the page's tallies, which every page rule reads
        if (input === 'upstream') expect(m.judges, m.id).toEqual(['page']);
        else expect(m.needs?.[reads[input]], `${m.id}: needs.${reads[input]}`).toBe(true);
      }
  });

  it('a finding on a category, widget or dropdown response names its own area’s behaviour, never a search row', () => {
    // the widgets' and the dropdown's controllers are their own (RC, ACC), and so are their readiness rows
    // (a widget's, per tag); category pages run the search controller with page type category, which sends
    // category/* (SC `this.tracker.events[this.page.type]`), and have rows of their own too. The judge names, for a response of one of
    // them, the behaviour of its area the rule guards in place of a search one.
    const areaOf = (id: string) => id.slice(0, id.indexOf('.'));
    for (const m of RULE_METAS) {
      if (!m.judges.includes('response') || !m.guards.some((g) => areaOf(g) === 'search')) continue;
      for (const kind of ['category', 'autocomplete', 'recommendations', 'bundles'] as const)
        if (m.appliesTo.includes(kind))
          expect(
            m.guards.some((g) => areaOf(g) === kind),
            `${m.id} judges ${kind} responses but guards no ${kind} behaviour`,
          ).toBe(true);
    }
  });

  it('each endpoint the timelines and the visit fold is sent by one behaviour, which it shows', () => {
    const endpoints = [
      ...RESPONSE_KINDS.flatMap((k) => KIND_EVENTS[k].map((e) => endpointOf(k, e))),
      ...VISIT_ENDPOINTS,
    ];
    for (const endpoint of new Set(endpoints)) {
      const senders = BEHAVIOURS.filter((b) => b.sends?.includes(endpoint));
      expect(
        senders.map((b) => b.id),
        endpoint,
      ).toHaveLength(1);
      expect(senders[0]!.seenBy, endpoint).toContain(endpoint);
      expect(sendingBehaviour(endpoint)).toBe(senders[0]!.id);
    }
    for (const b of BEHAVIOURS)
      for (const e of b.sends ?? []) expect(new Set(endpoints), `${b.id}: ${e}`).toContain(e);
  });

  it('behaviour ids are unique, area-prefixed and say where they were read', () => {
    const seen = new Set<string>();
    for (const b of BEHAVIOURS) {
      expect(seen.has(b.id), b.id).toBe(false);
      seen.add(b.id);
      expect(b.id.startsWith(`${b.area}.`), b.id).toBe(true);
      expect(b.source.length, b.id).toBeGreaterThan(10);
      expect(b.seenBy.length, b.id).toBeGreaterThan(0);
    }
  });

  it('docs/client-model.md is the one the model makes (npm run docs:client-model)', () => {
    expect(readFileSync(DOC, 'utf8') === clientModelDoc(), 'run npm run docs:client-model').toBe(
      true,
    );
  });
});
