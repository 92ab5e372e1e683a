// An account's `readiness` settings: what the site means to implement (behaviour ids or areas of the client
// model), which `expectReady` and `check --readiness` hold it to when the caller names nothing; and the
// site as readiness reads it from its account. Errors name the key, the value and the fix.
import { ConfigError } from '../../config-error';
import { configObject } from '../../config-values';
import { expectProblem } from '../../../shared/readiness';
import { BEHAVIOURS } from '../client-model';
import type { ReadinessSite } from './readiness';

export interface ReadinessConfig {
  /** behaviour ids (`cart.ledger`) or areas (`cart`) */
  expect: string[];
}

export function parseReadinessConfig(raw: unknown, key: string, file: string): ReadinessConfig {
  if (raw === undefined) return { expect: [] };
  const r = configObject(raw, key, file, ['expect']);
  if (r.expect === undefined) return { expect: [] };
  if (!Array.isArray(r.expect))
    throw new ConfigError(
      `${key}.expect`,
      `${JSON.stringify(r.expect)} must be a list of behaviour ids or areas, e.g. ["search", "cart.ledger"]`,
      file,
    );
  const ids = BEHAVIOURS.map((b) => b.id);
  return {
    expect: r.expect.map((entry: unknown, i) => {
      const problem = expectProblem(entry, ids);
      if (problem) throw new ConfigError(`${key}.expect[${i}]`, problem, file);
      return entry as string;
    }),
  };
}

/** What readiness reads of an account (none: a site the config does not hold, with nothing declared). */
export function readinessSiteOf(
  siteId: string,
  account:
    | {
        search: { recommendations: readonly { tag: string; type: 'default' | 'bundle' }[] };
        readiness?: ReadinessConfig;
      }
    | undefined,
): ReadinessSite {
  return {
    siteId,
    configured: account !== undefined,
    widgets: account?.search.recommendations.map(({ tag, type }) => ({ tag, type })) ?? [],
    expect: account?.readiness?.expect ?? [],
  };
}
