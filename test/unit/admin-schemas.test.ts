// The answer schemas (src/shared/schema-*.ts) against the DTO interfaces they describe: each schema's
// TypeScript type is exactly the interface, checked by the type checker (`npm run typecheck`). A field
// added to a DTO and not to its schema (or the other way round) fails here, naming the two types.
import type { Static, TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { BodyOf } from '../../src/shared/admin-api';
import type {
  OrderFilterQuery,
  TimelineFilterQuery,
  VisitFilterQuery,
} from '../../src/shared/admin-params';
import type { TimelineFilter } from '../../src/main/tracking/timeline/engine';
import type { FeedPatch } from '../../src/main/indexing/admin';
import type { ForwardStats, RecordedEvent, UpstreamAnswer } from '../../src/shared/events';
import type { FeedView, HistoryEntry, OutboxMessage, PatchedFeed } from '../../src/shared/indexing';
import type {
  ClockState,
  IndexRequestNotice,
  ResetScope,
  StreamMessage,
  StreamType,
} from '../../src/shared/stream';
import type {
  PageKeyDto,
  PageTimelineDto,
  PageTimelineSummaryDto,
  TimelineReportDto,
} from '../../src/shared/timeline';
import type { DiffResult } from '../../src/shared/baseline';
import type { RuleDetailDto, RuleInfoDto } from '../../src/shared/timeline';
import type { BehaviourInfoDto } from '../../src/shared/client-model';
import type {
  OrderDto,
  OrderFilter,
  OrdersSummaryDto,
  VisitDto,
  VisitEventDto,
  VisitFilter,
} from '../../src/shared/visits';
import type { IssuedResponse } from '../../src/main/search/responses';
import type { Product } from '../../src/main/indexing/feed-product';
import {
  ForwardStatsShape,
  RecordedEventShape,
  UpstreamAnswerShape,
} from '../../src/shared/schema-events';
import {
  FeedViewShape,
  PatchedFeedShape,
  HistoryEntryShape,
  OutboxMessageShape,
  ProductSchema,
} from '../../src/shared/schema-indexing';
import {
  ClockStateShape,
  IndexRequestNoticeShape,
  ResetScopeShape,
} from '../../src/shared/schema-stream';
import {
  PageKeyShape,
  PageTimelineShape,
  PageTimelineSummaryShape,
  TimelineReportShape,
} from '../../src/shared/schema-timeline';
import {
  OrderShape,
  OrdersSummaryShape,
  BehaviourInfoShape,
  RuleDetailShape,
  RuleInfoShape,
  VisitEventShape,
  VisitShape,
} from '../../src/shared/schema-visits';
import { DiffResultShape } from '../../src/shared/schema-baseline';
import { IssuedResponseSchema } from '../../src/shared/schema-search';
import { ReadinessShape } from '../../src/shared/schema-readiness';
import type { ReadinessDto } from '../../src/shared/readiness';

/**
 * Exactly the same type, optional fields included (mutual assignability alone lets `{a?: T}` equal `{}`),
 * compared field by field down the tree so that readonly or interface-vs-alias differences do not count.
 */
type Deep<T> = T extends (infer E)[] | readonly (infer E)[]
  ? Deep<E>[]
  : T extends object
    ? {
        -readonly [K in keyof T]-?: [
          Deep<Exclude<T[K], undefined>>,
          undefined extends T[K] ? 'opt' : 'req',
        ];
      }
    : T;
type Exact<A, B> =
  (<X>() => X extends Deep<A> ? 1 : 2) extends <X>() => X extends Deep<B> ? 1 : 2 ? true : false;

/** compiles only when the schema's type is the DTO */
function same<S extends TSchema, T>(_schema: S, ok: Exact<Static<S>, T>): boolean {
  return ok;
}

describe('the answer schemas', () => {
  it('are the DTO types, field by field', () => {
    const checks = [
      same<typeof RecordedEventShape, RecordedEvent>(RecordedEventShape, true),
      same<typeof UpstreamAnswerShape, UpstreamAnswer>(UpstreamAnswerShape, true),
      same<typeof ForwardStatsShape, ForwardStats>(ForwardStatsShape, true),
      same<typeof PageTimelineShape, PageTimelineDto>(PageTimelineShape, true),
      same<typeof PageTimelineSummaryShape, PageTimelineSummaryDto>(PageTimelineSummaryShape, true),
      same<typeof PageKeyShape, PageKeyDto>(PageKeyShape, true),
      same<typeof TimelineReportShape, TimelineReportDto>(TimelineReportShape, true),
      same<typeof VisitShape, VisitDto>(VisitShape, true),
      same<typeof OrderShape, OrderDto>(OrderShape, true),
      same<typeof OrdersSummaryShape, OrdersSummaryDto>(OrdersSummaryShape, true),
      same<typeof DiffResultShape, DiffResult>(DiffResultShape, true),
      same<typeof RuleInfoShape, RuleInfoDto>(RuleInfoShape, true),
      same<typeof RuleDetailShape, RuleDetailDto>(RuleDetailShape, true),
      same<typeof BehaviourInfoShape, BehaviourInfoDto>(BehaviourInfoShape, true),
      same<typeof VisitEventShape, VisitEventDto>(VisitEventShape, true),
      same<typeof FeedViewShape, FeedView>(FeedViewShape, true),
      same<typeof PatchedFeedShape, PatchedFeed>(PatchedFeedShape, true),
      same<typeof HistoryEntryShape, HistoryEntry>(HistoryEntryShape, true),
      same<typeof OutboxMessageShape, OutboxMessage>(OutboxMessageShape, true),
      same<typeof ProductSchema, Product>(ProductSchema, true),
      same<typeof ClockStateShape, ClockState>(ClockStateShape, true),
      same<typeof ResetScopeShape, ResetScope>(ResetScopeShape, true),
      same<typeof IndexRequestNoticeShape, IndexRequestNotice>(IndexRequestNoticeShape, true),
      same<typeof IssuedResponseSchema, IssuedResponse>(IssuedResponseSchema, true),
      same<typeof ReadinessShape, ReadinessDto>(ReadinessShape, true),
    ];
    // every declared stream type has its message, and no message has another type
    const types: Exact<StreamMessage['type'], StreamType> = true;
    // the feed patch the domain takes is the body the admin API declares
    const patch: Exact<BodyOf<'patchFeed'>, FeedPatch> = true;
    // the timelines' filter the engine takes is the one the admin API declares (for the list and report)
    const filter: Exact<TimelineFilter, TimelineFilterQuery> = true;
    // the visits' and orders' filters (written out for the package's published types) are the declared ones
    const visits: Exact<VisitFilter, VisitFilterQuery> = true;
    const orders: Exact<OrderFilter, OrderFilterQuery> = true;
    expect([...checks, types, patch, filter, visits, orders].every(Boolean)).toBe(true);
  });

  it('tell a type apart from one missing an optional field (the check can fail)', () => {
    const loose: Exact<{ a: string; b?: number }, { a: string }> = false;
    const optional: Exact<{ a?: string }, { a: string }> = false;
    const nullable: Exact<{ a: string | null }, { a: string }> = false;
    expect([loose, optional, nullable]).toEqual([false, false, false]);
  });
});
