// The search requests a browser's HAR holds beside its beacons: the Snap client's GETs of search.json,
// category.json and autocomplete.json, each with the tracker's context it asked with (SC and ACC
// `params.tracking`: userId, sessionId, pageLoadId) and the responseId its answer carried. Readiness reads
// them as what `search.request-context` needs to be seen, whoever answered; the answers the sandbox's
// companion search gave are also read as issued responses (har-issued.ts).
import { isObject } from '../../shared/values';

/** A search response a recording shows asked for with the tracker's context (userId and pageLoadId). */
export interface AskedSearch {
  siteId: string;
  kind: 'search' | 'category' | 'autocomplete';
  responseId: string;
}

const SEARCH_PATH = /\/api\/search\/(search|category|autocomplete)\.json$/;

/** The HAR entries' search requests that carried userId and pageLoadId, with their answer's responseId. */
export function harSearches(entries: readonly unknown[]): AskedSearch[] {
  const out: AskedSearch[] = [];
  for (const entry of entries) {
    if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) continue;
    const { url } = entry.request;
    if (typeof url !== 'string') continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    const kind = SEARCH_PATH.exec(parsed.pathname)?.[1] as AskedSearch['kind'] | undefined;
    const q = parsed.searchParams;
    const siteId = q.get('siteId');
    if (!kind || !siteId || !q.get('userId') || !q.get('pageLoadId')) continue;
    const responseId = answeredId(entry.response);
    if (responseId) out.push({ siteId, kind, responseId });
  }
  return out;
}

/** The responseId of a search answer the HAR kept (its text, or base64), else undefined. */
function answeredId(response: Record<string, unknown>): string | undefined {
  const content = response.content;
  if (!isObject(content) || typeof content.text !== 'string') return undefined;
  const text =
    content.encoding === 'base64'
      ? Buffer.from(content.text, 'base64').toString('utf8')
      : content.text;
  try {
    const answer: unknown = JSON.parse(text);
    return isObject(answer) && typeof answer.responseId === 'string' && answer.responseId !== ''
      ? answer.responseId
      : undefined;
  } catch {
    return undefined;
  }
}
