// The sites a per-site view offers, in the order it offers them: the config's accounts first, in config
// order (so a view opens on a configured site), then the other siteIds that sent traffic, sorted. A siteId
// the beacon path refuses (`DEMO!`, from a broken or hostile storefront) was recorded but cannot be a site.
import { useMemo } from 'react';
import { SITE_ID_PATTERN } from '../../../shared/site-id';
import { useSandbox } from './store';

export function siteChoices(
  configured: readonly string[],
  feedSites: readonly string[],
  sentBy: Iterable<string>,
): string[] {
  const first = [...new Set([...configured, ...feedSites])];
  const known = new Set(first);
  const others = new Set<string>();
  for (const siteId of sentBy)
    if (!known.has(siteId) && SITE_ID_PATTERN.test(siteId)) others.add(siteId);
  return [...first, ...[...others].sort()];
}

/** The sites the sandbox knows (see above); the first is the one a view opens on. */
export function useSites(): string[] {
  const configured = useSandbox((s) => s.health?.sites);
  const feeds = useSandbox((s) => s.feeds);
  const summaries = useSandbox((s) => s.pages.summaries);
  return useMemo(
    () =>
      siteChoices(
        configured ?? [],
        feeds.map((f) => f.siteId),
        [...summaries.values()].map((p) => p.siteId),
      ),
    [configured, feeds, summaries],
  );
}
