// The account copy-paste snippets are written for: a site of the config (Connect lets the user pick one),
// with that site's own feeds to upload to and re-index, never another site's.
import { useMemo } from 'react';
import type { FeedView } from '../../../shared/indexing';
import { DEMO_SECRET_KEY, DEMO_SITE_ID } from '../../../shared/snippets';
import { siteChoices } from './sites';
import { useSandbox } from './store';

export interface SnippetAccount {
  siteId: string;
  /** the demo key for the demo site; otherwise a placeholder (the admin API never hands out keys) */
  secretKey: string;
  isDemo: boolean;
  /** an account of the config, which bulk indexing answers (tracking takes any siteId); null until known */
  configured: boolean | null;
  /** the feed an upload snippet posts to: an upload feed on a schedule, else the site's first; null without one */
  uploadFeedId: number | null;
  /** the feed a re-index snippet PUTs: a cart feed on a schedule, else the upload feed */
  putFeedId: number | null;
}

/**
 * The sites a snippet can be written for: the config's accounts in config order, then its feeds' sites;
 * null until the sandbox said which they are.
 */
export function useAccountSites(): string[] | null {
  const configured = useSandbox((s) => s.health?.sites);
  const feeds = useSandbox((s) => s.feeds);
  return useMemo(
    () =>
      configured
        ? siteChoices(
            configured,
            feeds.map((f) => f.siteId),
            [],
          )
        : null,
    [configured, feeds],
  );
}

export function snippetAccount(
  sites: readonly string[] | null,
  feeds: readonly FeedView[],
  asked: string | null,
): SnippetAccount {
  const siteId = asked ?? sites?.[0] ?? DEMO_SITE_ID;
  const own = feeds.filter((f) => f.siteId === siteId);
  const scheduled = own.filter((f) => f.intervalMs !== null);
  const upload = scheduled.find((f) => f.source.kind === 'upload') ?? scheduled[0] ?? own[0];
  const put = scheduled.find((f) => f.source.kind === 'cart') ?? upload;
  const isDemo = siteId === DEMO_SITE_ID;
  return {
    siteId,
    secretKey: isDemo ? DEMO_SECRET_KEY : '<secret key>',
    isDemo,
    configured: sites ? sites.includes(siteId) : null,
    uploadFeedId: upload?.id ?? null,
    putFeedId: put?.id ?? null,
  };
}

/** The account for `asked`, or the config's first site. */
export function useSnippetAccount(asked: string | null = null): SnippetAccount {
  const sites = useAccountSites();
  const feeds = useSandbox((s) => s.feeds);
  return useMemo(() => snippetAccount(sites, feeds, asked), [sites, feeds, asked]);
}
