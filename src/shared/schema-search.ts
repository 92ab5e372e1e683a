// Schemas of what the companion search API issued (`GET /_sandbox/search/responses`).
import { Type } from '@sinclair/typebox';
import { closed, literals, nullable } from './schema-base';

const ids = Type.Array(Type.String());

export const IssuedResponseSchema = closed(
  {
    responseId: Type.String(),
    siteId: Type.String(),
    kind: Type.Optional(
      literals(['search', 'category', 'autocomplete', 'recommendations', 'bundles'] as const),
    ),
    tag: Type.Optional(
      Type.String({ description: 'a widget’s profile tag (recommendations, bundles)' }),
    ),
    query: Type.String(),
    page: Type.Integer(),
    perPage: Type.Integer(),
    issuedAt: Type.Number({ description: 'sandbox time, ms' }),
    results: Type.Array(
      closed({
        uid: Type.String(),
        sku: nullable(Type.String()),
        parentId: nullable(Type.String()),
        children: Type.Array(
          closed({
            uid: Type.String(),
            sku: nullable(Type.String()),
            price: Type.Optional(Type.Number({ description: 'the variant’s own price, above 0' })),
          }),
        ),
        price: Type.Optional(
          Type.Number({
            description: 'the price the result carried, above 0 (what its quick add sends)',
          }),
        ),
      }),
    ),
    inline: Type.Array(closed({ uid: Type.String(), index: Type.Integer() })),
    slots: closed({ header: ids, banner: ids, footer: ids, left: ids }),
    redirect: nullable(Type.String()),
    test: Type.Boolean(),
    upstream: Type.Optional(Type.String()),
    full: Type.Optional(
      Type.Literal(true, {
        description:
          'the request asked redirectResponse=full (the client’s merchandising redirects off, or its results already shown)',
      }),
    ),
    filtered: Type.Optional(
      Type.Literal(true, { description: 'the request carried filters (filter.*)' }),
    ),
    bgfilters: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'the background filters the request carried, as its parameters (`bgfilter.category=Jackets`): what a category listing is of',
      }),
    ),
    asked: Type.Optional(
      Type.String({
        description:
          'the parameters that chose the results (q, filters, background filters, sort, page, page size), sorted: two responses with the same value answer the same search',
      }),
    ),
    requester: Type.Optional(
      closed(
        {
          userId: Type.Optional(Type.String()),
          sessionId: Type.Optional(Type.String()),
          pageLoadId: Type.Optional(Type.String()),
          pageUrl: Type.Optional(
            Type.String({ description: 'the request’s domain: the page’s href when it searched' }),
          ),
          shopperId: Type.Optional(Type.String({ description: 'the request’s shopper' })),
        },
        'the tracking context the search request carried (the Snap client sends userId, sessionId, pageLoadId, domain and shopper); absent when it carried none',
      ),
    ),
  },
  'an issued search response or widget, as the provenance rules see it',
);
