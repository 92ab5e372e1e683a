// The sandbox's rules as GET /_sandbox/rules lists them (each rule declares its own title and fix): the
// UI names rules by what the sandbox says, never by a list of its own. Fetched once per window.
import { useEffect, useState } from 'react';
import type { RuleDetailDto, RuleInfoDto } from '../../../shared/timeline';
import { admin } from '../api/client';

let loaded: Promise<ReadonlyMap<string, RuleInfoDto>> | undefined;

function load(): Promise<ReadonlyMap<string, RuleInfoDto>> {
  loaded ??= admin('rules', {}).then(
    (rules) => new Map(rules.map((r) => [r.id, r])),
    (err: unknown) => {
      loaded = undefined; // a later view tries again
      throw err;
    },
  );
  return loaded;
}

/** rule id → its declaration; empty until the list has arrived (or when it could not be read). */
export function useRules(): ReadonlyMap<string, RuleInfoDto> {
  const [rules, setRules] = useState<ReadonlyMap<string, RuleInfoDto>>(new Map());
  useEffect(() => {
    let live = true;
    load().then(
      (r) => live && setRules(r),
      () => undefined, // titles are a convenience: the ids are shown either way
    );
    return () => {
      live = false;
    };
  }, []);
  return rules;
}

const details = new Map<string, Promise<RuleDetailDto>>();

/**
 * One rule explained (GET /_sandbox/rules/{id}): asked when a finding of it is opened, once per window;
 * undefined until it has arrived (or when it could not be read: the finding still shows its fix).
 */
export function useRuleDetail(id: string): RuleDetailDto | undefined {
  const [detail, setDetail] = useState<RuleDetailDto | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let asked = details.get(id);
    if (!asked) {
      asked = admin('rule', { params: { id } });
      details.set(id, asked);
      asked.catch(() => details.delete(id)); // a later opening tries again
    }
    asked.then(
      (d) => live && setDetail(d),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id]);
  // the answer of the rule asked before, until this one's arrives, is not this rule's
  return detail?.id === id ? detail : undefined;
}
