// Schemas of the whole visit (src/shared/visits.ts): `GET /_sandbox/visits`, `/orders`, and the visit
// events on a page timeline.
import { Type } from '@sinclair/typebox';
import { RESPONSE_KINDS } from './kinds';
import { SEVERITIES, VERDICTS } from './verdict';
import { closed, literals, nullable, dto, ruleIdSchema } from './schema-base';
import { RULE_APPLIES_TO, type RuleDetailDto, type RuleInfoDto } from './timeline';
import { BEHAVIOUR_AREAS } from './client-model';
import {
  VISIT_PAGE_KINDS,
  type OrderDto,
  type OrdersSummaryDto,
  type VisitDto,
  type VisitEventDto,
} from './visits';

export const VerdictSchema = literals(VERDICTS);
/** A rule id: the rules declare theirs in their own modules; openapi.json lists them as its enum (x-values). */
export const RuleIdSchema = ruleIdSchema();
export const SeveritySchema = literals(SEVERITIES);

export const VisitPageKindSchema = literals(VISIT_PAGE_KINDS);

const VisitPageSchema = closed({
  pageLoadId: Type.String(),
  pageUrl: Type.String(),
  kind: VisitPageKindSchema,
  verdict: VerdictSchema,
  refused: Type.Optional(Type.Literal(true)),
});

export const CartItemSchema = closed({
  uid: Type.String(),
  parentId: Type.String(),
  sku: Type.String(),
  qty: Type.Number(),
  price: Type.Number(),
});

export const VisitShape = closed(
  {
    siteId: Type.String(),
    sessionId: Type.String(),
    userIds: Type.Array(Type.String()),
    shopperId: Type.Optional(Type.String()),
    start: Type.String(),
    end: Type.String(),
    verdict: VerdictSchema,
    pages: Type.Array(VisitPageSchema),
    cart: Type.Array(CartItemSchema),
    orders: Type.Array(Type.String()),
  },
  'one sessionId of one siteId: its pages, cart and orders',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const VisitSchema = dto<VisitDto>(VisitShape);

const CreditSchema = closed({
  kind: literals(RESPONSE_KINDS),
  responseId: Type.String(),
  q: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
  event: literals(['clickthrough', 'addtocart'] as const),
  eventId: Type.String(),
  pageLoadId: Type.String(),
});

const OrderLineSchema = closed({
  ...CartItemSchema.properties,
  credit: nullable(CreditSchema),
  noCreditReason: Type.Optional(Type.String()),
  unitMismatch: Type.Optional(
    closed(
      { cartPrice: Type.Number(), eventId: Type.String() },
      'the price is about 100× (or 1/100 of) what the visit’s cart carried: that price and its cart event',
    ),
  ),
});

export const OrderShape = closed(
  {
    orderId: Type.String(),
    siteId: Type.String(),
    sessionId: Type.String({
      description: 'the sessionId of its visit: its page’s first, where the order’s own drifted',
    }),
    driftedSessionId: Type.Optional(
      Type.String({
        description:
          'the sessionId the order carried, when it differs from its page’s first (context-drift)',
      }),
    ),
    userId: Type.String(),
    pageLoadId: Type.String(),
    eventId: Type.String(),
    receivedAt: Type.String(),
    transactionTotal: Type.Number(),
    total: Type.Number(),
    lines: Type.Array(OrderLineSchema),
    findings: Type.Array(
      closed({
        id: Type.String(),
        causedBy: Type.Optional(Type.String()),
        rule: RuleIdSchema,
        severity: SeveritySchema,
        message: Type.String(),
        fix: Type.String(),
        interaction: Type.Optional(
          closed(
            {
              event: literals(['clickthrough', 'addtocart'] as const),
              eventId: Type.String(),
              pageLoadId: Type.String(),
            },
            'on a finding of the interaction a line is credited to: that click or quick add',
          ),
        ),
      }),
      {
        description:
          'every finding of any rule that concerns this order, its lines or the interactions they are credited to',
      },
    ),
    duplicateOf: Type.Optional(
      Type.String({ description: 'on a repeat: the eventId of the first order with this orderId' }),
    ),
  },
  'an order with the credit of each line and the findings that concern it',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const OrderSchema = dto<OrderDto>(OrderShape);

/** What every event on a page timeline carries (PageEventDto), a search event or a visit event. */
export const pageEventFields = {
  id: Type.String(),
  seq: Type.Integer(),
  arrival: Type.Integer(),
  accepted: Type.Boolean(),
  status: Type.Integer(),
  receivedAt: nullable(Type.String()),
  clockOffsetMs: Type.Optional(
    Type.Integer({
      description:
        'the sandbox clock minus real time when it was received (ms): present only when the clock was moved',
    }),
  ),
  timestamp: nullable(Type.String()),
  sessionId: Type.String(),
  userId: Type.String(),
  pageUrl: Type.String(),
  errors: Type.Array(Type.String()),
};

export const VisitEventShape = closed({
  ...pageEventFields,
  endpoint: Type.String(),
  shopperId: Type.Optional(Type.String()),
  dev: Type.Boolean(),
  items: Type.Array(CartItemSchema),
  cart: Type.Optional(Type.Array(CartItemSchema)),
  orderId: Type.Optional(Type.String()),
  transactionTotal: Type.Optional(Type.Number()),
  total: Type.Optional(Type.Number()),
  message: Type.Optional(Type.String()),
});
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const VisitEventSchema = dto<VisitEventDto>(VisitEventShape);

const RevenueShape = {
  orders: Type.Integer(),
  lines: Type.Integer(),
  revenue: Type.Number(),
};

export const OrdersSummaryShape = closed(
  {
    ...RevenueShape,
    bySource: Type.Partial(
      closed(
        Object.fromEntries(RESPONSE_KINDS.map((k) => [k, closed(RevenueShape)])) as Record<
          (typeof RESPONSE_KINDS)[number],
          ReturnType<typeof closed<typeof RevenueShape>>
        >,
      ),
    ),
    uncredited: closed({ lines: Type.Integer(), revenue: Type.Number() }),
    duplicates: closed({ orders: Type.Integer(), revenue: Type.Number() }),
    withErrors: closed(
      { orders: Type.Integer(), revenue: Type.Number() },
      'entries that have a finding of severity error, and their lines’ revenue',
    ),
    pricesInDoubt: closed(
      { orders: Type.Integer(), revenue: Type.Number() },
      'entries with a line priced about 100× what the visit’s cart carried (cents against units), and their lines’ revenue',
    ),
  },
  'what the merchant’s revenue report would show: by the source credited, uncredited, what duplicates add, what sits on orders with errors',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const OrdersSummarySchema = dto<OrdersSummaryDto>(OrdersSummaryShape);

export const RuleInfoShape = closed(
  {
    id: RuleIdSchema,
    title: Type.String(),
    description: Type.String(),
    expects: Type.String(),
    appliesTo: Type.Array(literals(RULE_APPLIES_TO)),
    defaultSeverity: literals(['off', 'error', 'warning', 'info'] as const),
    fix: Type.String(),
    scope: literals(['page', 'session', 'site'] as const),
  },
  'a rule as its module declares it',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const RuleInfoSchema = dto<RuleInfoDto>(RuleInfoShape);

/** A behaviour of the client model as docs/client-model.md and a rule's detail show it. */
export const BehaviourInfoShape = closed(
  {
    id: Type.String({ description: 'the behaviour id (docs/client-model.md)' }),
    area: literals(BEHAVIOUR_AREAS),
    title: Type.String(),
    source: Type.String({ description: 'where it was read in the client' }),
    invariant: Type.String({ description: 'what it implies for the traffic a storefront sends' }),
    rules: Type.Array(RuleIdSchema, { description: 'every rule that checks it' }),
    uncheckable: Type.Optional(
      Type.String({ description: 'why no rule can check it with certainty' }),
    ),
  },
  'a behaviour of the provider’s client',
);

export const RuleDetailShape = closed(
  {
    ...RuleInfoShape.properties,
    messages: Type.Array(
      closed({
        id: Type.String({ description: 'the messageId its findings carry' }),
        text: Type.String({ description: 'with {{placeholders}} a finding’s data fills' }),
        fix: Type.String({ description: 'the fix its findings carry' }),
      }),
    ),
    listens: Type.Array(Type.String(), {
      description: 'the events whose arrival can change its findings (request: any request)',
    }),
    explainedBy: Type.Array(RuleIdSchema, {
      description: 'rules whose finding on the same events is the cause of this one’s',
    }),
    explainedMessages: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'the messages of its own explainedBy is about, when not all of them (the others name bugs of their own)',
      }),
    ),
    notJudged: Type.Record(Type.String(), Type.String(), {
      description: 'per page kind its appliesTo leaves out: why',
    }),
    behaviours: Type.Array(BehaviourInfoShape, {
      description: 'the behaviours of the provider’s client it checks',
    }),
  },
  'a rule explained: its declaration, messages and fixes, and the client behaviours it checks',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const RuleDetailSchema = dto<RuleDetailDto>(RuleDetailShape);
