// The sandbox's rules as GET /_sandbox/rules lists them (each rule declares its own title and fix): the
// UI names rules by what the sandbox says, never by a list of its own. Fetched once per window.
import { useEffect, useState } from 'react';
import type { RuleInfoDto } from '../../../shared/timeline';
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
