// Schemas of the timeline DTOs (src/shared/timeline.ts): `GET /_sandbox/timelines` in each view, one
// page, the JSON report, the stream's `timeline` message.
import { Type, type TSchema } from '@sinclair/typebox';
import { RESPONSE_KINDS } from './kinds';
import { closed, literals, nullable, dto } from './schema-base';
import type {
  PageKeyDto,
  PageTimelineDto,
  PageTimelineSummaryDto,
  TimelineReportDto,
} from './timeline';
import {
  RuleIdSchema,
  SeveritySchema,
  VerdictSchema,
  VisitEventSchema,
  VisitPageKindSchema,
  pageEventFields,
} from './schema-visits';

const Kind = literals(RESPONSE_KINDS);
const RuleId = RuleIdSchema;

const VerdictCountsSchema = closed({
  pass: Type.Integer(),
  warn: Type.Integer(),
  fail: Type.Integer(),
});

export const TimelineEventSchema = closed({
  ...pageEventFields,
  event: Type.String(),
  kind: Kind,
  tag: Type.Optional(Type.String()),
  arrivedLate: Type.Boolean(),
  responseId: Type.String(),
  uids: Type.Array(Type.String()),
  bannerUids: Type.Array(Type.String()),
  redirect: Type.Optional(Type.String()),
});

export const TimelineResponseSchema = closed({
  responseId: Type.String(),
  kind: Kind,
  tag: Type.Optional(Type.String()),
  events: Type.Array(TimelineEventSchema),
});

export const TimelineFindingSchema = closed({
  id: Type.String(),
  rule: RuleId,
  severity: SeveritySchema,
  message: Type.String(),
  messageId: Type.String(),
  data: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  fix: Type.String(),
  eventIds: Type.Array(Type.String()),
  eventCount: Type.Integer(),
  responseId: Type.Optional(Type.String()),
  kind: Type.Optional(Kind),
  tag: Type.Optional(Type.String()),
  widget: Type.Optional(
    Type.String({
      description:
        'the widget whose response it is about, when its events carried another widget’s tag (the tag that rendered their responseId)',
    }),
  ),
  defaultSeverity: Type.Optional(SeveritySchema),
  severityFrom: Type.Optional(Type.String()),
  causedBy: Type.Optional(Type.String()),
  behaviour: Type.Optional(Type.String()),
});

const TimelineCountsSchema = closed({
  events: Type.Integer(),
  accepted: Type.Integer(),
  rejected: Type.Integer(),
  responses: Type.Integer(),
  errors: Type.Integer(),
  warnings: Type.Integer(),
  infos: Type.Integer(),
});

const SeverityCountsSchema = closed({
  errors: Type.Integer(),
  warnings: Type.Integer(),
  infos: Type.Integer(),
});

const header = {
  siteId: Type.String(),
  pageKind: VisitPageKindSchema,
  sessionId: Type.String(),
  userId: Type.String(),
  pageLoadId: Type.String(),
  pageUrl: Type.String(),
  verdict: VerdictSchema,
  firstSeen: nullable(Type.String()),
  lastSeen: nullable(Type.String()),
  counts: TimelineCountsSchema,
  following: Type.Optional(
    closed(
      { errors: Type.Integer(), warnings: Type.Integer(), infos: Type.Integer() },
      'of counts’ errors, warnings and infos, those that follow from another finding of the page (they carry causedBy); absent when none does',
    ),
  ),
};

export const PageTimelineShape = closed(
  {
    ...header,
    judgedAsFinished: Type.Optional(Type.Literal(true)),
    responses: Type.Array(TimelineResponseSchema),
    visitEvents: Type.Optional(Type.Array(VisitEventSchema)),
    findings: Type.Array(TimelineFindingSchema),
  },
  'a page with its events and findings',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const PageTimelineSchema = dto<PageTimelineDto>(PageTimelineShape);

export const PageTimelineSummaryShape = closed(
  {
    ...header,
    responseIds: Type.Array(Type.String()),
    kinds: Type.Array(Kind),
    rules: Type.Array(RuleId),
    severities: Type.Optional(
      Type.Record(Type.String(), SeveritySchema, {
        description:
          'of rules, those whose findings carry a severity other than the rule’s own (the config set their level): rule id → severity; absent when none does',
      }),
    ),
    scoped: Type.Optional(SeverityCountsSchema),
  },
  'a page without its events',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const PageTimelineSummarySchema = dto<PageTimelineSummaryDto>(PageTimelineSummaryShape);

export const PageKeyShape = closed(
  { siteId: Type.String(), pageLoadId: Type.String() },
  'which page, nothing of what it holds',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const PageKeySchema = dto<PageKeyDto>(PageKeyShape);

/** `{pages, total, verdicts}` with pages of the given schema. */
export const timelineList = <P extends TSchema>(page: P, description: string) =>
  closed(
    {
      pages: Type.Array(page, { description: 'oldest first; limit keeps the newest' }),
      total: Type.Integer({ description: 'pages matching the filters before limit' }),
      verdicts: VerdictCountsSchema,
    },
    description,
  );

export const TimelineReportShape = closed(
  {
    generatedAt: Type.String(),
    source: Type.String(),
    verdicts: VerdictCountsSchema,
    pages: Type.Array(PageTimelineSchema),
  },
  'every page judged as finished',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const TimelineReportSchema = dto<TimelineReportDto>(TimelineReportShape);
