// An account's recommendation profiles (`accounts[].search.recommendations`): what the companion
// recommend API answers for each widget tag. Errors name the key, the value, the rule and the fix.
import { ConfigError } from '../config-error';
import { configObject as object, refuseQuotedNumber } from '../config-values';

export const PROFILE_TYPES = ['default', 'bundle'] as const;
export const STRATEGIES = ['similar', 'also-bought', 'trending', 'recently-viewed'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export interface RecommendationProfile {
  /** the widget's profile tag, as the storefront asks for it and its beacons send it */
  tag: string;
  /** `bundle`: the widget's beacons go to bundles/*, and its responseIds are of kind `bundles` */
  type: (typeof PROFILE_TYPES)[number];
  strategy: Strategy;
  /** most products one answer holds */
  limit: number;
}

export const DEFAULT_RECOMMENDATION_LIMIT = 8;
/** Most products a profile may answer with (the real service caps profiles at a few dozen). */
export const MAX_RECOMMENDATION_LIMIT = 100;

const EXAMPLE = '{"tag": "similar", "strategy": "similar", "limit": 8}';

export function parseRecommendations(
  raw: unknown,
  key: string,
  file: string,
): RecommendationProfile[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw))
    throw new ConfigError(
      key,
      `${JSON.stringify(raw)} must be an array of profiles, e.g. [${EXAMPLE}]`,
      file,
    );
  const tags = new Set<string>();
  return raw.map((p, i) => {
    const profile = parseProfile(p, `${key}[${i}]`, file);
    if (tags.has(profile.tag))
      throw new ConfigError(
        `${key}[${i}].tag`,
        `tag ${JSON.stringify(profile.tag)} is declared twice: each widget profile needs its own tag (the storefront asks for it by tag)`,
        file,
      );
    tags.add(profile.tag);
    return profile;
  });
}

function parseProfile(raw: unknown, key: string, file: string): RecommendationProfile {
  const p = object(raw, key, file, ['tag', 'type', 'strategy', 'limit']);
  if (typeof p.tag !== 'string' || p.tag.trim() === '' || p.tag !== p.tag.trim())
    throw new ConfigError(
      `${key}.tag`,
      `${JSON.stringify(p.tag)} is not a profile tag: use the tag the storefront's widget asks for, a non-empty string without surrounding spaces, e.g. "similar"`,
      file,
    );
  const type = p.type ?? 'default';
  if (!(PROFILE_TYPES as readonly unknown[]).includes(type))
    throw new ConfigError(
      `${key}.type`,
      `${JSON.stringify(type)} is not a profile type: use "default" (beacons to recommendations/*) or "bundle" (beacons to bundles/*)`,
      file,
    );
  if (!(STRATEGIES as readonly unknown[]).includes(p.strategy))
    throw new ConfigError(
      `${key}.strategy`,
      `${JSON.stringify(p.strategy)} is not a strategy: use one of ${STRATEGIES.map((s) => `"${s}"`).join(', ')}`,
      file,
    );
  const limit = p.limit ?? DEFAULT_RECOMMENDATION_LIMIT;
  refuseQuotedNumber(
    limit,
    `${key}.limit`,
    file,
    `a whole number of products from 1 to ${MAX_RECOMMENDATION_LIMIT}`,
  );
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > MAX_RECOMMENDATION_LIMIT
  )
    throw new ConfigError(
      `${key}.limit`,
      `${JSON.stringify(limit)} must be a whole number of products from 1 to ${MAX_RECOMMENDATION_LIMIT} (default ${DEFAULT_RECOMMENDATION_LIMIT})`,
      file,
    );
  return {
    tag: p.tag,
    type: type as RecommendationProfile['type'],
    strategy: p.strategy as Strategy,
    limit,
  };
}
