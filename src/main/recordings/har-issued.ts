// The companion search's own answers a browser's HAR recorded: a storefront that searches through the sandbox
// (its search origin, or the package's Playwright route) leaves each search.json, category.json and
// autocomplete.json answer in the HAR, marked by the sandbox's answer header. Read into the record the
// sandbox keeps of each response it issued, they let `check` of a HAR judge the provenance rules as `check`
// of an export does. Only the sandbox's answers count: another service's answer of the same shape says what
// it served, not that the HAR holds every response that service issued (the client's cache may have served
// ones from before the recording), which the rules that call a responseId unknown rely on.
import type { IssuedResponse, SearchKind } from '../search/responses';
import { issuedFromUpstream } from '../search/upstream-issued';
import { ANSWER_HEADER, COMPANION_ANSWER } from '../search/answer-header';
import { isObject } from '../../shared/values';

const SEARCH_PATH = /\/api\/search\/(search|category|autocomplete)\.json$/;
const HEADER = ANSWER_HEADER.toLowerCase();

export interface HarIssued {
  /** the companion's answers whose body the HAR kept, as issued responses */
  responses: IssuedResponse[];
  /** the companion's answers the HAR kept without their body (saved without response content) */
  bodiless: number;
}

/** The companion search's answers among a HAR's entries (their bodies read from `sideBodies` when kept apart). */
export function harIssued(
  entries: readonly unknown[],
  sideBodies: ReadonlyMap<string, string>,
): HarIssued {
  const out: HarIssued = { responses: [], bodiless: 0 };
  for (const entry of entries) {
    const answer = companionAnswer(entry);
    if (!answer) continue;
    const text = answerText(answer.response, sideBodies);
    const body = text === undefined ? undefined : parsed(text);
    if (body === undefined) {
      out.bodiless++;
      continue;
    }
    const issued = issuedFromUpstream({
      siteId: answer.siteId,
      kind: answer.kind,
      params: answer.params,
      body,
      now: answer.at,
    });
    if (issued) out.responses.push(issued);
  }
  return out;
}

/** A HAR entry that is a 200 answer of the companion search to a search request, with what it asked. */
function companionAnswer(entry: unknown):
  | {
      siteId: string;
      kind: SearchKind;
      params: URLSearchParams;
      response: Record<string, unknown>;
      at: number;
    }
  | undefined {
  if (!isObject(entry) || !isObject(entry.request) || !isObject(entry.response)) return undefined;
  const { url } = entry.request;
  if (typeof url !== 'string' || entry.response.status !== 200) return undefined;
  if (!markedByCompanion(entry.response.headers)) return undefined;
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    return undefined;
  }
  const kind = SEARCH_PATH.exec(parsedUrl.pathname)?.[1] as SearchKind | undefined;
  const siteId = parsedUrl.searchParams.get('siteId');
  const at = Date.parse(String(entry.startedDateTime));
  if (!kind || !siteId || !Number.isFinite(at)) return undefined;
  return { siteId, kind, params: parsedUrl.searchParams, response: entry.response, at };
}

function markedByCompanion(headers: unknown): boolean {
  return (
    Array.isArray(headers) &&
    headers.some(
      (h) =>
        isObject(h) &&
        typeof h.name === 'string' &&
        h.name.toLowerCase() === HEADER &&
        h.value === COMPANION_ANSWER,
    )
  );
}

/** The answer's text the HAR kept: inline (text, or base64), or in a side file beside it; else undefined. */
function answerText(
  response: Record<string, unknown>,
  sideBodies: ReadonlyMap<string, string>,
): string | undefined {
  const content = response.content;
  if (!isObject(content)) return undefined;
  if (typeof content._file === 'string') return sideBodies.get(content._file);
  if (typeof content.text !== 'string' || content.text === '') return undefined;
  return content.encoding === 'base64'
    ? Buffer.from(content.text, 'base64').toString('utf8')
    : content.text;
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The side files holding the companion's answers a HAR recorded with content 'attach'. */
export function answerSideFiles(
  entries: readonly unknown[],
): Array<{ entry: number; name: string }> {
  const files: Array<{ entry: number; name: string }> = [];
  entries.forEach((entry, i) => {
    const answer = companionAnswer(entry);
    const content = answer?.response.content;
    if (isObject(content) && typeof content._file === 'string')
      files.push({ entry: i + 1, name: content._file });
  });
  return files;
}
