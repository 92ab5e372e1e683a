// Reads a beacon v2 request path (`/beacon/v2/{siteId}/{category}/{event}`) the way the real service
// routes it: a known endpoint first, then the siteId pattern, each failure with the service's 404 message.
import { isBeaconEndpoint } from './schemas';
import { SITE_ID_PATTERN } from '../../shared/site-id';

export const BEACON_PREFIX = '/beacon/v2';

export type BeaconPath =
  | { ok: true; siteId: string; category: string; event: string }
  | { ok: false; siteId: string; category: string; event: string; message: string };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape is still shown to the user as sent
  }
}

/** `path` is the request path without the query string, e.g. `/beacon/v2/abc123/search/render`. */
export function parseBeaconPath(path: string): BeaconPath {
  const rest = path.startsWith(`${BEACON_PREFIX}/`) ? path.slice(BEACON_PREFIX.length + 1) : '';
  const segments = rest === '' ? [] : rest.split('/').map(decode);
  const [siteId = '', category = '', event = ''] = segments;
  // What the store records for a bad path: the parts that were there, so a typo is easy to spot
  // (two segments are most likely `{category}/{event}` with the siteId forgotten).
  const parts =
    segments.length === 3
      ? { siteId, category, event }
      : segments.length === 2
        ? { siteId: '', category: segments[0] ?? '', event: segments[1] ?? '' }
        : { siteId: '', category: '', event: '' };

  if (segments.length !== 3 || !isBeaconEndpoint(category, event)) {
    return {
      ok: false,
      ...parts,
      message: `invalid endpoint path or missing siteId in path: \`${path}\``,
    };
  }
  if (!SITE_ID_PATTERN.test(siteId)) {
    return {
      ok: false,
      ...parts,
      message: `invalid siteId pattern: received \`${siteId}\` - expected pattern \`${SITE_ID_PATTERN.source}\``,
    };
  }
  return { ok: true, siteId, category, event };
}
