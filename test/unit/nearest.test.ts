// The names an error suggests for an unknown one: a typo, a word of a name, camelCase and kebab-case alike,
// and nothing when nothing is near (a suggestion that is wrong is worse than none).
import { describe, expect, it } from 'vitest';
import { didYouMean, nearestNames } from '../../src/shared/nearest';
import { RULE_IDS } from '../../src/main/tracking/timeline/rule-list';
import { ruleEntryProblem } from '../../src/shared/rule-levels';

const KEYS = ['forward', 'forwardTimeoutMs', 'forwardQueue'];

describe('nearestNames', () => {
  it('finds a typo within a few edits (only those), else the names sharing a word', () => {
    expect(nearestNames('forwrd', KEYS)[0]).toBe('forward');
    expect(nearestNames('timeout', KEYS)).toEqual(['forwardTimeoutMs']);
    expect(nearestNames('acounts', ['port', 'accounts', 'rules'])).toEqual(['accounts']);
    expect(nearestNames('clik-repeated', RULE_IDS)[0]).toBe('click-repeated');
    expect(nearestNames('missing-rendr', RULE_IDS)[0]).toBe('missing-render');
  });

  it('suggests nothing far away, and at most three', () => {
    expect(nearestNames('zzzzz', RULE_IDS)).toEqual([]);
    expect(nearestNames('colour', KEYS)).toEqual([]);
    // a word of two letters is no likeness: `no-such-rule` is not `no-impression`
    expect(nearestNames('no-such-rule', RULE_IDS)).toEqual([]);
    expect(nearestNames('no-impresion', RULE_IDS)[0]).toBe('no-impression');
    expect(nearestNames('impression', RULE_IDS)).toEqual(['no-impression']);
    expect(nearestNames('redirect', RULE_IDS).length).toBe(3);
    expect(
      nearestNames('search.rendr', ['search.render', 'search.banners', 'search.redirect']),
    ).toEqual(['search.render']);
    // the edit bound grows with the name: two edits for a short one, a quarter of a long one
    expect(nearestNames('prt', ['port'])).toEqual(['port']);
    expect(nearestNames('pxyz', ['port'])).toEqual([]);
    // never a name that changes half of what was typed: `nope` is no typo of `mode`
    expect(nearestNames('nope', ['mode', 'order', 'login'])).toEqual([]);
    // a swap of two neighbouring letters is one typo
    expect(nearestNames('mdoe', ['mode'])).toEqual(['mode']);
    expect(nearestNames('prot', ['port', 'host'])).toEqual(['port']);
    expect(nearestNames('modes', ['mode'])).toEqual(['mode']);
  });

  it('reads as part of a message', () => {
    expect(didYouMean('forwrd', KEYS)).toBe('did you mean forward? ');
    expect(didYouMean('colour', KEYS)).toBe('');
    // a typo of one id: that one, and where every id is listed, not the whole list in the message
    expect(ruleEntryProblem('clik-repeated', 'off', RULE_IDS)).toBe(
      `"clik-repeated" is not a rule id; did you mean click-repeated? (every rule id: GET /_sandbox/rules, or the README's rule table)`,
    );
    expect(ruleEntryProblem('zzzzz', 'off', RULE_IDS)).toMatch(
      /^"zzzzz" is not a rule id; the rule ids are schema, /,
    );
  });
});
