// An account's `readiness` settings: what the site means to implement (behaviour ids or areas of the client
// model), which `expectReady` and `check --readiness` hold it to when the caller names nothing; and the
// site as readiness reads it from its account. Errors name the key, the value and the fix.
import { ConfigError, ConfigProblems } from '../../config-error';
import { SiteNotFound } from '../../accounts/site-not-found';
import { configObject } from '../../config-values';
import { expectProblem } from '../../../shared/readiness';
import { BEHAVIOURS } from '../client-model';
import type { ReadinessSite } from './readiness';
import type { RecordedSite } from './offline-provenance';

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
  // every entry's problem at once
  const problems = new ConfigProblems();
  r.expect.forEach((entry: unknown, i) => {
    const problem = expectProblem(entry, ids);
    if (problem) problems.add(new ConfigError(`${key}.expect[${i}]`, problem, file));
  });
  problems.settle();
  return { expect: r.expect as string[] };
}

/**
 * The account of a site whose readiness is asked for (undefined: a site no account names, whose beacons
 * were recorded: readiness reads its traffic as it reads any site's); SiteNotFound for a siteId that is
 * neither. A typo in a siteId reads as that, not as a site whose every behaviour is unseen.
 */
export function knownReadinessSite<A extends { siteId: string }>(
  siteId: string,
  accounts: readonly A[],
  sentBy: (siteId: string) => boolean,
): A | undefined {
  const account = accounts.find((a) => a.siteId === siteId);
  if (account || sentBy(siteId)) return account;
  throw new SiteNotFound(
    siteId,
    accounts.map((a) => a.siteId),
    "readiness is read for a site of the config's accounts, or one whose beacons were recorded, and none were for this one",
  );
}

/**
 * What readiness reads of an account (none: a site the config does not hold, with nothing declared). `check`
 * of an export reads, for a site its --config does not name, what the recording's sandbox declared
 * (`recorded`: the export's `search.sites`): its widgets and its `readiness.expect`, so that it gives the
 * rows and the gate the live sandbox gave (--expect still wins over the expectation).
 */
export function readinessSiteOf(
  siteId: string,
  account:
    | {
        search: { recommendations: readonly { tag: string; type: 'default' | 'bundle' }[] };
        readiness?: ReadinessConfig;
      }
    | undefined,
  recorded?: Pick<RecordedSite, 'recommendationTags' | 'bundleTags' | 'readiness'>,
): ReadinessSite {
  if (!account && recorded)
    return {
      siteId,
      // an older export names no widgets: its site reads as one no config declares any of
      configured: recorded.recommendationTags !== undefined,
      widgets: recordedWidgets(recorded),
      expect: [...(recorded.readiness?.expect ?? [])],
    };
  return {
    siteId,
    configured: account !== undefined,
    widgets: account?.search.recommendations.map(({ tag, type }) => ({ tag, type })) ?? [],
    expect: account?.readiness?.expect ?? [],
  };
}

/** The widgets an export's site settings declare: each tag, a bundle when it is one of `bundleTags`. */
function recordedWidgets(
  recorded: Pick<RecordedSite, 'recommendationTags' | 'bundleTags'>,
): ReadinessSite['widgets'] {
  const bundles = new Set(recorded.bundleTags ?? []);
  return (recorded.recommendationTags ?? []).map((tag) => ({
    tag,
    type: bundles.has(tag) ? ('bundle' as const) : ('default' as const),
  }));
}
