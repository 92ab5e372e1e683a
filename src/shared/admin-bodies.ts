// The admin API's request bodies (entries of src/shared/admin-api.ts): each a closed object whose fields
// carry the rule a refusal quotes (`ruled`) and whose 400s are worded by its messages (`bodyOf`), so the
// server's validation (src/main/http/admin-body.ts) says what it always said.
import { Type } from '@sinclair/typebox';
import { FEED_STATES } from './indexing';
import { oneOf } from './admin-params';
import { bodyOf, ruled } from './schema-base';

const TRUE_OR_FALSE = 'must be true or false';
const PATCH_FIELDS = 'interval, autopilot, regeneration, inject';
const CLOCK_USAGE =
  'send exactly one of {"advance": "PT61M"} (ISO 8601 duration), {"set": "2026-11-22T04:00:00Z"} (ISO 8601 instant) or {"reset": true}';

/** what `POST /_sandbox/reset` takes (no body: events) */
/** The size of an admin JSON body. */
export const ADMIN_BODY_BYTES = 1024 * 1024;
/** The largest import (an export of a long-running sandbox). */
export const IMPORT_BODY_BYTES = 250 * 1024 * 1024;
/** A beacon body's cap, the beacon service's own (src/main/tracking/ingest.ts, MAX_BODY_BYTES). */
export const BEACON_BODY_BYTES = 1024 * 1024;

export const RESET_BODY = bodyOf(
  'what to reset (no body: events)',
  {
    what: Type.Optional(
      ruled(
        oneOf(['events', 'all'] as const, 'events (default) or all'),
        'must be "events" or "all"',
      ),
    ),
    siteId: Type.Optional(
      ruled(
        Type.String({ minLength: 1, description: 'reset only this site' }),
        'must be a non-empty string',
      ),
    ),
  },
  {
    notObject: 'the body must be a JSON object like {"what":"all"}',
    unknown: 'unknown body field {field}; allowed: what ("events" or "all"), siteId',
    invalid: 'body field {field} {rule}, got {value}',
    named: true,
  },
);

/** what `PATCH /_sandbox/feeds/{siteId}/{feedId}` takes */
export const PATCH_FEED_BODY = bodyOf(
  'settings to change',
  {
    interval: Type.Optional(
      ruled(
        Type.String({ description: '"Never", "24h", "30m" or ISO "PT24H"' }),
        'is not an interval; use "Never", a duration like "24h", "30m", "7d", or ISO 8601 like "PT24H"',
      ),
    ),
    autopilot: Type.Optional(ruled(Type.Boolean(), TRUE_OR_FALSE)),
    regeneration: Type.Optional(ruled(Type.Boolean(), TRUE_OR_FALSE)),
    inject: Type.Optional(
      bodyOf(
        'faults consumed by the next run they apply to',
        {
          nextIndexFails: Type.Optional(ruled(Type.Boolean(), TRUE_OR_FALSE)),
          regenerationFails: Type.Optional(ruled(Type.Boolean(), TRUE_OR_FALSE)),
        },
        {
          notObject: 'inject: must be an object like {"nextIndexFails": true}',
          unknown: '{field}: unknown fault; use nextIndexFails or regenerationFails',
          invalid: '{field}: {value} {rule}',
          named: true,
        },
      ),
    ),
  },
  {
    notObject: `the body must be a JSON object with any of ${PATCH_FIELDS}, e.g. {"autopilot": false}`,
    unknown: `{field}: unknown field; PATCH takes ${PATCH_FIELDS}`,
    invalid: '{field}: {value} {rule}',
    named: true,
  },
);

/** what `POST /_sandbox/feeds/{siteId}/{feedId}/transition` takes */
export const TRANSITION_BODY = bodyOf(
  'the target state',
  {
    to: ruled(
      oneOf(FEED_STATES, 'target state'),
      `is not a feed state; use one of ${FEED_STATES.join(', ')}, e.g. {"to": "running"}`,
    ),
  },
  {
    notObject: 'the body must be a JSON object like {"to": "running"}',
    unknown: '{field}: unknown field; send only {"to": "<state>"}',
    invalid: '{field}: {value} {rule}',
    missing: `{field} is required: one of ${FEED_STATES.join(', ')}, e.g. {"to": "running"}`,
    named: true,
  },
);

/** what `POST /_sandbox/clock` takes */
export const SET_CLOCK_BODY = bodyOf(
  'one of advance, set, reset',
  {
    advance: Type.Optional(
      ruled(
        Type.String({ description: 'ISO 8601 duration, e.g. PT61M' }),
        'is not an ISO 8601 duration; use e.g. "PT61M", "PT1H30M", "P1D" (years and months are not accepted: their length varies)',
      ),
    ),
    set: Type.Optional(
      ruled(
        Type.String({ description: 'ISO 8601 instant' }),
        'is not an ISO 8601 instant with its offset (a day and a time that exist, then Z or ±hh:mm); use e.g. "2026-11-22T04:00:00Z"',
      ),
    ),
    reset: Type.Optional(ruled(Type.Literal(true), 'must be true')),
  },
  {
    notObject: `the body must be a JSON object, not {value}: ${CLOCK_USAGE}`,
    unknown: `{field}: unknown field; ${CLOCK_USAGE}`,
    invalid: '{field}: {value} {rule}',
    together: `{fields} together: ${CLOCK_USAGE}`,
    empty: CLOCK_USAGE,
    named: true,
  },
  { minProperties: 1, maxProperties: 1 },
);
