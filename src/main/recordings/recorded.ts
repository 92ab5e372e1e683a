// What the readers of recordings make (recordings/inputs.ts for NDJSON and exports, recordings/har.ts for a
// browser's HAR): recorded events, each with the verdict the tracking interface would have given its body,
// and the error that names what could not be read.
import type { AskedSearch } from './har-searches';
import type { RecordedEvent, ValidationIssue } from '../../shared/events';
import type { IssuedResponse } from '../search/responses';
import type { RecordedCatalog } from '../search/catalog-view';
import type { RecordedSite } from '../tracking/timeline/offline-provenance';
import { validateBeaconBody } from '../tracking/schemas';
import type { RequestFields } from './request-fields';

/** Input that cannot be read: the message names the file (and line) and what was expected. */
export class InputError extends Error {}

export interface ReadResult {
  kind: 'ndjson' | 'export' | 'har';
  events: RecordedEvent[];
  /** the search responses a sandbox export carries (its `search` section), for the provenance rules */
  responses?: IssuedResponse[];
  /** the search settings of the sites the recording sandbox had (its `search.sites`) */
  sites?: RecordedSite[];
  /** the catalogs it checked sites' ids against (its `search.catalogs`) */
  catalogs?: RecordedCatalog[];
  /** sandbox time from which its responses are every one the sandbox issued (`search.rememberedSince`) */
  rememberedSince?: number;
  /** beacon requests that are not timeline events, or HAR entries skipped (for a note on stderr) */
  notes: string[];
  /** a HAR's search requests that carried the tracker's context (readiness: search.request-context) */
  asked?: AskedSearch[];
}

/** What the service would have answered a body read offline: accepted, or its status and problems. */
function validated(
  category: string,
  event: string,
  body: unknown,
): { accepted: boolean; status: number; errors: ValidationIssue[] } {
  let errors: ValidationIssue[];
  try {
    errors = validateBeaconBody(`${category}/${event}`, body);
  } catch {
    return {
      accepted: false,
      status: 404,
      errors: [{ message: `not a beacon v2 endpoint: ${category}/${event}`, path: '' }],
    };
  }
  return errors.length === 0
    ? { accepted: true, status: 200, errors }
    : { accepted: false, status: 400, errors };
}

/** The next `seq` of the events read so far, across the files of one run. */
export interface Counter {
  seq: number;
}

/** A recorded event of a body read offline: the verdict given, else the one its validator gives. */
export function makeEvent(
  counter: Counter,
  id: string,
  parts: {
    siteId: string;
    category: string;
    event: string;
    receivedAt: string;
    body: unknown;
    path?: string;
    /** a recorded event's clock offset (RecordedEvent.clockOffsetMs), when not 0 */
    clockOffsetMs?: number;
    /** a recorded event's headers, kept body length and forwarded answer, as recorded */
    request?: RequestFields;
  },
  verdict?: { accepted: boolean; status: number; errors: ValidationIssue[] },
): RecordedEvent {
  const judged = verdict ?? validated(parts.category, parts.event, parts.body);
  // every field named (not the verdict spread in): one shape for every event, built without a copy loop
  const event: RecordedEvent = {
    id,
    seq: ++counter.seq,
    receivedAt: parts.receivedAt,
    siteId: parts.siteId,
    category: parts.category,
    event: parts.event,
    path: parts.path ?? `/beacon/v2/${parts.siteId}/${parts.category}/${parts.event}`,
    accepted: judged.accepted,
    status: judged.status,
    errors: judged.errors,
    body: parts.body,
  };
  // set after, not spread into the literal: most events have none (one shape for them)
  if (parts.clockOffsetMs) event.clockOffsetMs = parts.clockOffsetMs;
  const request = parts.request;
  if (request) {
    if (request.method !== undefined) event.method = request.method;
    if (request.bodyTruncated) event.bodyTruncated = request.bodyTruncated;
    if (request.userAgent !== undefined) event.userAgent = request.userAgent;
    if (request.origin !== undefined) event.origin = request.origin;
    if (request.contentType !== undefined) event.contentType = request.contentType;
    if (request.upstream) event.upstream = request.upstream;
  }
  return event;
}
