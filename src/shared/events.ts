// Recorded tracking requests: the one shape shared by the event store, the timelines, the admin API and the UI.

/** A problem found in a tracking body, in the real service's message style, with the JSON path it concerns. */
export interface ValidationIssue {
  /** e.g. `missing required key-value: context.timestamp` */
  message: string;
  /** dotted JSON path of the offending value, e.g. `context.timestamp`, `data.results[0].uid`; '' for the whole body */
  path: string;
}

/** One tracking request as the sandbox recorded it, accepted or rejected. */
export interface RecordedEvent {
  /** stable id, `ev_` + zero-padded seq, unique within a data directory */
  id: string;
  /** monotonic sequence number (arrival order) */
  seq: number;
  /** sandbox-clock receive time, ISO 8601 with milliseconds, UTC */
  receivedAt: string;
  /** siteId from the path ('' when the path had none) */
  siteId: string;
  /** beacon v2 category: `search`, `autocomplete`, `category`, `product`, `cart`, `order`, `shopper`, `log`, … */
  category: string;
  /** the event within the category: `render`, `impression`, `clickthrough`, `addtocart`, `redirect`, `pageview`, `add`, … */
  event: string;
  /** request path as received, e.g. `/beacon/v2/abc123/search/render` */
  path: string;
  accepted: boolean;
  /** HTTP status the sandbox answered with */
  status: number;
  errors: ValidationIssue[];
  /** the parsed JSON body, or the raw text when it was not JSON, or null when there was none */
  body: unknown;
  userAgent?: string;
  origin?: string;
  contentType?: string;
}

export const SEARCH_EVENTS = [
  'render',
  'redirect',
  'impression',
  'clickthrough',
  'addtocart',
] as const;
export type SearchEventName = (typeof SEARCH_EVENTS)[number];
