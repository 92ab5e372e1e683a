// Every admin action the UI can take, one function per endpoint, so the paths and bodies the UI relies
// on are listed in one place (they are the same ones scripts and tests use).
import type { ClockState } from './types';
import type { FeedState, FeedView } from '../../../shared/indexing';
import { ApiError, basicAuth, rawRequest, sendJson, withQuery, type RawResult } from './client';

export const clockApi = {
  advance: (iso8601Duration: string) =>
    sendJson<ClockState>('POST', '/_sandbox/clock', { advance: iso8601Duration }),
  set: (iso: string) => sendJson<ClockState>('POST', '/_sandbox/clock', { set: iso }),
  reset: () => sendJson<ClockState>('POST', '/_sandbox/clock', { reset: true }),
};

export type FeedPatch = Partial<{
  autopilot: boolean;
  interval: string;
  regeneration: boolean;
  inject: Partial<FeedView['inject']>;
}>;

function feedPath(feed: Pick<FeedView, 'siteId' | 'id'>): string {
  return `/_sandbox/feeds/${encodeURIComponent(feed.siteId)}/${feed.id}`;
}

/** Feed answers may be the feed itself or `{feed}`; accept both. */
function unwrapFeed(body: unknown): FeedView | null {
  if (body && typeof body === 'object') {
    if ('feed' in body) return (body as { feed: FeedView }).feed;
    if ('state' in body && 'id' in body) return body as FeedView;
  }
  return null;
}

export const feedsApi = {
  async patch(feed: FeedView, patch: FeedPatch): Promise<FeedView | null> {
    return unwrapFeed(await sendJson<unknown>('PATCH', feedPath(feed), patch));
  },
  /** Move by hand; a refused move throws ApiError whose message explains why (409 with allowed targets). */
  async transition(feed: FeedView, to: FeedState): Promise<FeedView | null> {
    return unwrapFeed(await sendJson<unknown>('POST', `${feedPath(feed)}/transition`, { to }));
  },
};

/** Upload a feed file through the real bulk indexing API, exactly as a client would (multipart + basic auth). */
export function uploadFeed(args: {
  siteId: string;
  secretKey: string;
  feedId: number;
  file: File;
  requestedBy?: string;
}): Promise<RawResult> {
  const form = new FormData();
  form.append('feedFile', args.file, args.file.name);
  return rawRequest(
    withQuery('/api/index/feed', { feedId: args.feedId, requestedBy: args.requestedBy }),
    {
      method: 'POST',
      headers: { Authorization: basicAuth(args.siteId, args.secretKey) },
      body: form,
    },
  );
}

/** Ask for a re-index without a file (PUT), as a cart-integration client would. */
export function requestIndex(args: {
  siteId: string;
  secretKey: string;
  feedId: number;
  requestedBy?: string;
}): Promise<RawResult> {
  return rawRequest(
    withQuery('/api/index/feed', { feedId: args.feedId, requestedBy: args.requestedBy }),
    {
      method: 'PUT',
      headers: { Authorization: basicAuth(args.siteId, args.secretKey) },
    },
  );
}

export const sandboxApi = {
  resetAll: () => sendJson<unknown>('POST', '/_sandbox/reset', { what: 'all' }),
  resetEvents: () => sendJson<unknown>('POST', '/_sandbox/reset'),
  resetSite: (siteId: string) =>
    sendJson<unknown>('POST', '/_sandbox/reset', undefined, { siteId }),
  reportUrl: (format: 'html' | 'junit' | 'json', siteId?: string) =>
    withQuery('/_sandbox/report', { format, siteId }),
  exportUrl: () => '/_sandbox/export',
  async importData(text: string): Promise<unknown> {
    return sendJson<unknown>('POST', '/_sandbox/import', JSON.parse(text) as unknown);
  },
};
