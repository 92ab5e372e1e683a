// What a recorded event says about its request besides the body: the path and headers it was sent with, how
// much of a long body was kept, and the real service's answer when it was forwarded. The live judgement
// reads them (request-refused names the path and Content-Type, upstream-disagrees the answer), so a
// recording read back keeps each one, and one that is not what the sandbox writes is refused, not dropped.
import type { RecordedEvent } from '../../shared/events';
import { upstreamProblem } from '../store/upstream-log';
import { isKeptBody, methodProblem } from '../store/recorded-event';
import { InputError } from './recorded';
import { recordedValue as quoted } from '../../shared/text';

export type RequestFields = Partial<
  Pick<
    RecordedEvent,
    'path' | 'method' | 'contentType' | 'userAgent' | 'origin' | 'upstream' | 'bodyTruncated'
  >
>;

const HEADERS = {
  path: 'the request path as the sandbox received it, e.g. "/beacon/v2/demo42/search/render"',
  contentType: 'the Content-Type header as sent, e.g. "text/plain"',
  userAgent: 'the User-Agent header as sent',
  origin: 'the Origin header as sent, e.g. "https://shop.example"',
} as const;
/** read once: every recorded event of a recording is asked for them */
const HEADER_KEYS = Object.keys(HEADERS) as Array<keyof typeof HEADERS>;

/** The request fields of recorded event `v` (element or line `where`); throws InputError for a bad one. */
export function requestFields(v: Record<string, unknown>, where: string): RequestFields {
  const fields: RequestFields = {};
  for (const key of HEADER_KEYS) {
    const value = v[key];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw new InputError(
        `${where}: field ${key} is ${quoted(value)}: it must be a string, ${HEADERS[key]}; leave it out when the request had none`,
      );
    fields[key] = value;
  }
  if (v.upstream !== undefined) {
    const problem = upstreamProblem(v.upstream);
    if (problem)
      throw new InputError(
        `${where}: field ${problem} (upstream is ${quoted(v.upstream)}): it is the real service's answer to the forwarded request, as GET /_sandbox/export writes it ({"url", "outcome", "status", "body", "at", "ms"}); leave it out when the request was not forwarded`,
      );
    fields.upstream = v.upstream as RecordedEvent['upstream'];
  }
  if (v.bodyTruncated !== undefined) fields.bodyTruncated = truncation(v, where);
  if (v.method !== undefined) {
    const problem = methodProblem(v.method, v.status);
    if (problem)
      throw new InputError(
        `${where}: field method is ${quoted(v.method)}: it ${problem}; leave it out when the request was a POST`,
      );
    fields.method = v.method as string;
  }
  return fields;
}

/** A kept start of a long rejected body: {length, kept} beside a body that is that many characters. */
function truncation(v: Record<string, unknown>, where: string): RecordedEvent['bodyTruncated'] {
  const t = v.bodyTruncated;
  if (!isKeptBody(t, v.body))
    throw new InputError(
      `${where}: field bodyTruncated is ${quoted(t)}: it must be {"length": N, "kept": K} with K <= N, beside a body that is the text's first K characters (a string); leave it out when the whole body was kept`,
    );
  return { length: t.length, kept: t.kept };
}
