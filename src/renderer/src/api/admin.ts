// Every admin action the UI can take, one function per endpoint, so the paths and bodies the UI relies
// on are listed in one place (they are the same ones scripts and tests use).
import { NO_CHALLENGE_HEADER, type FeedState, type FeedView } from '../../../shared/indexing';
import { adminPath, type BodyOf } from '../../../shared/admin-api';
import { admin, basicAuth, rawRequest, withQuery, type RawResult } from './client';

export const clockApi = {
  advance: (iso8601Duration: string) => admin('setClock', { body: { advance: iso8601Duration } }),
  set: (iso: string) => admin('setClock', { body: { set: iso } }),
  reset: () => admin('setClock', { body: { reset: true } }),
};

export type FeedPatch = BodyOf<'patchFeed'>;

export const feedsApi = {
  patch(feed: FeedView, patch: FeedPatch): Promise<FeedView> {
    return admin('patchFeed', { params: { siteId: feed.siteId, feedId: feed.id }, body: patch });
  },
  /** Move by hand; a refused move throws ApiError whose message explains why (409 with allowed targets). */
  transition(feed: FeedView, to: FeedState): Promise<FeedView> {
    return admin('transition', { params: { siteId: feed.siteId, feedId: feed.id }, body: { to } });
  },
};

/**
 * The UI's credentials on the bulk indexing API, marked so that a refusal comes without the Basic challenge,
 * which the browser would take over (the page never sees the 401); the rest is a client's request.
 */
function indexingHeaders(siteId: string, secretKey: string): Record<string, string> {
  return { Authorization: basicAuth(siteId, secretKey), [NO_CHALLENGE_HEADER]: '1' };
}

/** Upload a feed file through the real bulk indexing API, as a client would (multipart + basic auth). */
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
      headers: indexingHeaders(args.siteId, args.secretKey),
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
      headers: indexingHeaders(args.siteId, args.secretKey),
    },
  );
}

export const sandboxApi = {
  resetAll: () => admin('reset', { body: { what: 'all' } }),
  resetEvents: () => admin('reset'),
  resetSite: (siteId: string) => admin('reset', { query: { siteId } }),
  reportUrl: (format: 'html' | 'junit' | 'json', siteId?: string) =>
    adminPath('report', {}, { format, siteId }),
  exportUrl: () => adminPath('export'),
};
