// The admin API's entries for the whole visit (visits, orders, one order, the revenue summary) and for
// baselines (a recording compared with the recorded traffic): part of the one declaration in admin-api.ts,
// which spreads them into ADMIN_API. Each entry's fields are described at the top of admin-api.ts.
import { Type } from '@sinclair/typebox';
import { ORDER_FILTERS, VISIT_FILTERS, text } from './admin-params';
import { ErrorSchema } from './schema-admin';
import { DiffResultSchema } from './schema-baseline';
import type { Endpoint } from './schema-endpoint';

/** the largest recording compared; a journey's recording is kilobytes */
export const DIFF_BODY_BYTES = 10 * 1024 * 1024;
import { OrderSchema, OrdersSummarySchema, VisitSchema } from './schema-visits';

const NOT_FOUND = { 404: ErrorSchema } as const;

export const VISIT_ENDPOINTS = {
  visits: {
    method: 'GET',
    path: '/_sandbox/visits',
    summary: 'visits: the shopper’s pages with their verdicts, the cart, the orders',
    query: VISIT_FILTERS,
    response: Type.Array(VisitSchema, { description: 'visits' }),
  },
  orders: {
    method: 'GET',
    path: '/_sandbox/orders',
    summary: 'orders with the credit of each line',
    query: ORDER_FILTERS,
    response: Type.Array(OrderSchema, { description: 'orders' }),
  },
  ordersSummary: {
    method: 'GET',
    path: '/_sandbox/orders/summary',
    summary: 'what revenue reports would show: by source credited, uncredited, duplicates',
    query: VISIT_FILTERS,
    response: OrdersSummarySchema,
  },
  order: {
    method: 'GET',
    path: '/_sandbox/orders/{eventId}',
    summary: 'one order by the eventId of its order/transaction (404 unknown)',
    response: OrderSchema,
    errors: NOT_FOUND,
  },
} as const satisfies Record<string, Endpoint>;

export const DIFF_ENDPOINTS = {
  diff: {
    method: 'POST',
    path: '/_sandbox/diff',
    summary:
      'compare a recording (the body: NDJSON, an export, a HAR or a baseline file; at most 10 MB) with the recorded traffic, as `search-sandbox diff BASE CURRENT` does: the body is BASE',
    query: {
      siteId: text('the recorded traffic of this siteId'),
      sessionId: text('the recorded traffic of this session'),
    },
    body: {
      media: 'ndjson',
      schema: Type.Unknown({ description: 'a recording, as `check` and `diff` read it' }),
      maxBytes: DIFF_BODY_BYTES,
      expected: 'NDJSON of events, a sandbox export, a HAR or a baseline file as BASE',
      tooLarge: `request entity too large: a recording to compare may have at most ${DIFF_BODY_BYTES / 1024 / 1024} MB (export one session or site: GET /_sandbox/export?sessionId=…)`,
    },
    response: DiffResultSchema,
  },
} as const satisfies Record<string, Endpoint>;
