// Schema of a baseline comparison (src/shared/baseline.ts): `POST /_sandbox/diff`, `diff --format json`.
import { Type } from '@sinclair/typebox';
import { closed, dto, json, literals } from './schema-base';
import type { DiffResult } from './baseline';

const DiffChangeSchema = closed({
  change: literals(['missing', 'extra', 'field', 'moved'] as const),
  event: Type.String({ description: 'the event’s endpoint, category/event' }),
  path: Type.Optional(Type.String({ description: 'a field change’s dotted path' })),
  base: Type.Optional(json('the value in BASE')),
  current: Type.Optional(json('the value in CURRENT')),
  baseIndex: Type.Optional(Type.Integer()),
  currentIndex: Type.Optional(Type.Integer()),
  after: Type.Optional(
    Type.String({ description: 'a moved event: the endpoint it now comes right after in CURRENT' }),
  ),
  uids: Type.Optional(
    Type.Array(Type.String(), {
      description: 'a missing or extra event: the uids of the items it names (the result clicked)',
    }),
  ),
});

const DiffPageSchema = closed({
  status: literals(['same', 'changed', 'added', 'removed'] as const),
  pageUrl: Type.String({ description: 'the page’s URL as recorded' }),
  page: Type.String({
    description: 'the page as compared: path and query, its ids by their name (order={orderId})',
  }),
  kind: Type.String(),
  changes: Type.Array(DiffChangeSchema),
  siteId: Type.String(),
  pageLoadId: Type.String(),
  baseEvents: Type.Array(Type.String()),
  currentEvents: Type.Array(Type.String()),
  query: Type.Optional(
    Type.Array(
      closed({
        name: Type.String(),
        base: Type.Optional(
          Type.String({ description: 'absent: BASE’s URL has no such parameter' }),
        ),
        current: Type.Optional(
          Type.String({ description: 'absent: CURRENT’s URL has no such parameter' }),
        ),
      }),
      {
        description:
          'a changed page whose URL differs from BASE’s only in these parameters (their values, or one only one URL has; paired with it)',
      },
    ),
  ),
  path: Type.Optional(
    closed(
      { segment: Type.Integer({ minimum: 1 }), base: Type.String(), current: Type.String() },
      'a changed page whose URL path differs from BASE’s only in this segment (1 = the first; paired with it)',
    ),
  ),
});

export const DiffResultShape = closed(
  { same: Type.Boolean(), pages: Type.Array(DiffPageSchema) },
  'a recording compared with another, page by page',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const DiffResultSchema = dto<DiffResult>(DiffResultShape);
