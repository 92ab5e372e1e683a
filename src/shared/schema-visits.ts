// Schemas of the whole visit (src/shared/visits.ts): `GET /_sandbox/visits`, `/orders`, and the visit
// events on a page timeline.
import { Type } from '@sinclair/typebox';
import { RESPONSE_KINDS } from './kinds';
import { closed, literals, nullable, dto } from './schema-base';
import type { OrderDto, VisitDto, VisitEventDto } from './visits';

export const VerdictSchema = literals(['pass', 'warn', 'fail'] as const);

export const VisitPageKindSchema = literals([
  'order',
  'product',
  'search',
  'category',
  'cart',
  'other',
] as const);

const VisitPageSchema = closed({
  pageLoadId: Type.String(),
  pageUrl: Type.String(),
  kind: VisitPageKindSchema,
  verdict: VerdictSchema,
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
});

export const OrderShape = closed(
  {
    orderId: Type.String(),
    siteId: Type.String(),
    sessionId: Type.String(),
    userId: Type.String(),
    pageLoadId: Type.String(),
    eventId: Type.String(),
    receivedAt: Type.String(),
    transactionTotal: Type.Number(),
    total: Type.Number(),
    lines: Type.Array(OrderLineSchema),
  },
  'an order with the credit of each line',
);
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const OrderSchema = dto<OrderDto>(OrderShape);

export const VisitEventShape = closed({
  id: Type.String(),
  seq: Type.Integer(),
  arrival: Type.Integer(),
  endpoint: Type.String(),
  accepted: Type.Boolean(),
  status: Type.Integer(),
  receivedAt: nullable(Type.String()),
  timestamp: nullable(Type.String()),
  sessionId: Type.String(),
  userId: Type.String(),
  shopperId: Type.Optional(Type.String()),
  pageUrl: Type.String(),
  dev: Type.Boolean(),
  items: Type.Array(CartItemSchema),
  cart: Type.Optional(Type.Array(CartItemSchema)),
  orderId: Type.Optional(Type.String()),
  transactionTotal: Type.Optional(Type.Number()),
  total: Type.Optional(Type.Number()),
  errors: Type.Array(Type.String()),
});
/** typed as the DTO (test/unit/admin-schemas.test.ts holds the shape to it) */
export const VisitEventSchema = dto<VisitEventDto>(VisitEventShape);
