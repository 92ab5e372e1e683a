// The companion search's own answers a browser's HAR recorded: a storefront that searches through the sandbox
// (its search origin, or the package's Playwright route) leaves each search.json, category.json and
// autocomplete.json answer in the HAR, and each of its widgets' recommend answers (with the profile.json that
// says whether a widget is a bundle), marked by the sandbox's answer header. Read into the record the
// sandbox keeps of each response it issued, they let `check` of a HAR judge the provenance rules as `check`
// of an export does. Only the sandbox's answers count: another service's answer of the same shape says what
// it served, not that the HAR holds every response that service issued (the client's cache may have served
// ones from before the recording), which the rules that call a responseId unknown rely on.
import type { IssuedResponse, SearchKind } from '../search/responses';
import { issuedFromRecommend, issuedFromUpstream } from '../search/upstream-issued';
import { ANSWER_HEADER, COMPANION_ANSWER } from '../search/answer-header';
import { isObject } from '../../shared/values';

const SEARCH_PATH = /\/api\/search\/(search|category|autocomplete)\.json$/;
const PROFILE_PATH = /\/api\/personalized-recommendations\/profile\.json$|\/v1\/profile$/;
const RECOMMEND_PATH = /\/v1\/recommend$/;
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
  const answers = entries.flatMap((entry) => companionAnswer(entry) ?? []);
  const bodyOf = (answer: Answer): Record<string, unknown> | unknown[] | undefined => {
    const text = answerText(answer.response, sideBodies);
    const body = text === undefined ? undefined : parsed(text);
    if (body === undefined) out.bodiless++;
    return body;
  };
  // a widget's type (a bundle or not) is its profile's, which the client asks before the widget
  const bundles = new Map<string, boolean>();
  for (const answer of answers) {
    if (answer.kind !== 'profile') continue;
    const body = bodyOf(answer);
    const profile = isObject(body) && isObject(body.profile) ? body.profile : undefined;
    if (profile && typeof profile.tag === 'string')
      bundles.set(`${answer.siteId} ${profile.tag}`, profile.isBundle === true);
  }
  for (const answer of answers) {
    if (answer.kind === 'profile') continue;
    const body = bodyOf(answer);
    if (body === undefined) continue;
    if (answer.kind === 'recommend') {
      const { siteId, test } = answer;
      out.responses.push(
        ...issuedFromRecommend({
          siteId,
          body,
          test,
          now: answer.at,
          bundle: (tag) => bundles.get(`${siteId} ${tag}`),
        }),
      );
      continue;
    }
    const issued = isObject(body)
      ? issuedFromUpstream({
          siteId: answer.siteId,
          kind: answer.kind,
          params: answer.params,
          body,
          now: answer.at,
        })
      : null;
    if (issued) out.responses.push(issued);
  }
  return out;
}

/** A 200 answer of the companion in a HAR: a search's, a widget profile's, or a page's widgets'. */
type Answer = { siteId: string; response: Record<string, unknown>; at: number } & (
  | { kind: SearchKind; params: URLSearchParams }
  | { kind: 'profile' }
  | { kind: 'recommend'; test: boolean }
);

/** A HAR entry that is a 200 answer of the companion search, with what it asked. */
function companionAnswer(entry: unknown): Answer | undefined {
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
  const at = Date.parse(String(entry.startedDateTime));
  if (!Number.isFinite(at)) return undefined;
  const response = entry.response;
  const { pathname, searchParams } = parsedUrl;
  if (RECOMMEND_PATH.test(pathname)) {
    // the widgets asked are in the posted body: its siteId, and whether it was development traffic
    const asked = postedJson(entry.request);
    if (!isObject(asked) || typeof asked.siteId !== 'string') return undefined;
    const test = asked.test === true || asked.test === 'true';
    return { kind: 'recommend', siteId: asked.siteId, response, at, test };
  }
  const siteId = searchParams.get('siteId');
  if (!siteId) return undefined;
  if (PROFILE_PATH.test(pathname)) return { kind: 'profile', siteId, response, at };
  const kind = SEARCH_PATH.exec(pathname)?.[1] as SearchKind | undefined;
  return kind ? { kind, siteId, params: searchParams, response, at } : undefined;
}

/** The JSON a request posted inline (a recommend request is small: the HAR keeps it in its text). */
function postedJson(request: Record<string, unknown>): unknown {
  const post = request.postData;
  if (!isObject(post) || typeof post.text !== 'string') return undefined;
  const text =
    post.encoding === 'base64' ? Buffer.from(post.text, 'base64').toString('utf8') : post.text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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

function parsed(text: string): Record<string, unknown> | unknown[] | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) || Array.isArray(v) ? v : undefined;
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
