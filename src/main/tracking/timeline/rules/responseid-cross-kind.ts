// `responseid-cross-kind`: a responseId sent with events of one kind that belongs to a response of another
// kind (an autocomplete responseId on search events, a recommendations one on category events): seen so on
// the site's timelines, or known from the companion search API that issued it for another endpoint.
import { issuedKind } from '../../../search/responses';
import type { ResponseKind } from '../../../../shared/kinds';
import { endpointOf } from '../../../../shared/kinds';
import type { Response } from '../response';
import {
  finding,
  list,
  plural,
  defineRule,
  type RuleMeta,
  judgedIn,
  RESPONSE_KINDS,
} from './types';

/**
 * The one legitimate crossing: a category page's merchandising redirect goes to search/redirect with the
 * category response's responseId (the controller sends every redirect to the search endpoint).
 */
function categoryRedirect(r: Response, other: ResponseKind, otherEvent: string | null): boolean {
  if (r.kind === 'search' && other === 'category')
    return r.events.every((e) => !e.accepted || e.event === 'redirect');
  return r.kind === 'category' && other === 'search' && otherEvent === 'redirect';
}

const meta: RuleMeta<'response'> = {
  id: 'responseid-cross-kind',
  judges: ['response'],
  title: 'responseId of another kind',
  description:
    'A responseId used by events of two kinds (an autocomplete responseId on search events, a recommendations responseId on category events), or one the companion issued for another endpoint. A category page’s redirect on search/redirect is not one.',
  expects:
    'Each controller sends the responseId of its own response: autocomplete events the autocomplete response’s, search events the search response’s, each widget its recommend response’s.',
  ...judgedIn(RESPONSE_KINDS, ['search.response-bound']),
  defaultSeverity: 'error',
  messages: {
    otherKind:
      'responseId "{{responseId}}" is {{a}} {{other}} response\'s ({{where}}), yet this page sends it with {{endpoints}} in {{count}}: {{events}}. Each controller of the provider\'s client tracks its own response: {{kind}} events carry the responseId of the {{kind}} response whose results they are about, never one of a {{other}} response.',
  },
  fix: 'Take data.responseId from the response of the same controller (the one whose results the event is about).',
  fixes: {
    otherKind:
      'take data.responseId from the {{kind}} response shown (its {{source}}), not from the {{other}} response.',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  // the kind the companion issued a responseId for, when no timeline of the site has shown it
  needs: { supersedes: true, origins: true, provenance: true },
};

export const responseIdCrossKind = defineRule({
  meta,
  // a responseId of another page or kind explains everything else about it here: the cause alone
  response(r, ctx) {
    if (r.responseId === '') return [];
    const here = r.events.filter((e) => e.accepted);
    if (here.length === 0) return [];
    let other: ResponseKind | undefined;
    let where = '';
    let originId: string | null = null;
    const origin = ctx.kindOrigin(r.responseId);
    if (origin && origin.kind !== r.kind && !categoryRedirect(r, origin.kind, origin.event)) {
      other = origin.kind;
      originId = origin.eventId;
      where =
        origin.pageKey === ctx.page.key
          ? `first sent on this page with ${endpointOf(origin.kind, origin.event)} (${origin.eventId})`
          : `first sent with ${endpointOf(origin.kind, origin.event)} (${origin.eventId}) on page ${origin.pageLoadId} (${origin.pageUrl})`;
    } else {
      const issued = ctx.provenance?.issued(ctx.page.siteId, r.responseId);
      const kind = issued ? issuedKind(issued) : 'search';
      if (issued && kind !== r.kind && !categoryRedirect(r, kind, null)) {
        other = kind;
        where =
          issued.tag !== undefined
            ? `issued by the sandbox's recommend API for widget ${JSON.stringify(issued.tag)}`
            : `issued by the sandbox's ${kind} endpoint (${kind}.json, query ${JSON.stringify(issued.query)})`;
      }
    }
    if (other === undefined) return [];
    const events = [...new Set(here.map((e) => endpointOf(e.kind, e.event)))];
    const data = {
      responseId: r.responseId,
      a: other === 'autocomplete' ? 'an' : 'a',
      other,
      where,
      endpoints: list(events),
      count: plural(here.length, 'event'),
      events: list(here.map((e) => e.id)),
      kind: r.kind,
      source:
        r.kind === 'recommendations' || r.kind === 'bundles'
          ? 'recommend response, per widget'
          : 'tracking.responseId',
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'otherKind', data },
        [...(originId ? [originId] : []), ...here.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
});
