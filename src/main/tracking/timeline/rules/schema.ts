// `schema`: events whose body the service rejected (400): grouped by endpoint and messages, one finding each.
// Requests refused before their body is read (404, 405, 413, 415) are `request-refused`.
import { finding, list, plural, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';
import { SENDING_BEHAVIOURS, sendingBehaviour } from '../../client-model';

const meta: RuleMeta<'page'> = {
  id: 'schema',
  judges: ['page'],
  title: 'Rejected by validation',
  description:
    'An event whose body the real service answers with 400 ValidationError: the event is lost. (Requests refused before their body is read are request-refused.)',
  expects:
    'Every body matches the beacon v2 schema of its endpoint (context and data, no unknown fields).',
  appliesTo: EVERY_PAGE_KIND,
  // a rejected event is lost: the behaviour whose event it was (its endpoint's), unless its context or a cart
  // item was what the service refused (behaviourOf below); cart.items sends log/snap, so it may be there already
  guards: [...new Set(['identity.context', 'cart.items', ...SENDING_BEHAVIOURS])],
  defaultSeverity: 'error',
  messages: {
    array:
      '{{count}} rejected by validation ({{events}}): {{errors}}. The body was a JSON array of {{payloads}} payloads: the real service takes one payload ({context, data}) per request, answers 400 ValidationError and drops every payload in it.',
    rejected:
      '{{count}} rejected by validation ({{events}}): {{errors}}. The real service answers 400 ValidationError and drops the event.',
    notJson:
      '{{count}} rejected by validation ({{events}}): {{errors}}. The real service answers 400 ValidationError and drops the event: its body was no JSON document, so no field of it was read.',
    noResponseId:
      '{{count}} rejected by validation ({{events}}): {{errors}}. The real service answers 400 ValidationError and drops the event. Every event of a search, autocomplete or recommendations response names it by its responseId, which the search API gives only when the request asks with beacon=true.',
  },
  fix: 'Fix the fields named in the messages; the provider’s client (@athoscommerce/beacon) builds valid bodies.',
  fixes: {
    array:
      "send one payload per request; the provider's client merges what its queue holds of one response into one payload's results, not into an array of payloads.",
    notJson:
      'send the body as one JSON document, JSON.stringify({context, data}), with Content-Type text/plain, as the provider’s client does; a body built by hand, cut off on its way (a proxy, a size limit) or sent as form data is not one.',
    rejected:
      "correct the fields named above; the beacon v2 schema (and the provider's client @athoscommerce/beacon) says what each event needs.",
    noResponseId:
      'send data.responseId of the response that delivered the results (response.tracking.responseId in the Snap client); a client of its own asks the search, autocomplete and recommend APIs with beacon=true, as the Snap client does, or their answers carry none.',
  },
  listens: ['request'],
};

/** a message about a cart event's items (`missing required key-value: data.results[0].uid`) */
const ITEMS = /\bdata\.(results|cart)\b/;
const CART = new Set(['cart/add', 'cart/remove']);
/** the service's words for an event of a response sent without its responseId */
const NO_RESPONSE_ID = 'missing required key-value: data.responseId';
/** the service's words for a body that is no JSON (an empty one, text cut off; invalid UTF-8 adds its place) */
const NOT_JSON = /^(invalid|missing) JSON POST body\b/;

/**
 * The behaviour a group of rejected events breaks. The service drops each, so it is the behaviour whose event
 * it was: the one that sends its endpoint (a clickthrough whose uid is a number is `search.clickthrough`'s,
 * not the context's). Two refusals say more: a cart event refused over its items is the cart's items' (T
 * sends items that lack a uid, quantity or price as they are); one refused over its context is the context's
 * (B's getContext() builds it for every event, so every event the page builds with it is refused the same
 * way). An endpoint the model has no behaviour of is the request the client builds (`identity.context`).
 */
function behaviourOf(group: {
  endpoint: string;
  context: boolean;
  messages: readonly string[];
}): string {
  if (CART.has(group.endpoint) && group.messages.some((m) => ITEMS.test(m))) return 'cart.items';
  if (group.context) return 'identity.context';
  return sendingBehaviour(group.endpoint) ?? 'identity.context';
}

export const schema = defineRule({
  meta,
  count: (page) => page.tallies.schema?.size ?? 0,
  page(page) {
    const out = [];
    let n = 0;
    for (const group of page.tallies.schema?.values() ?? []) {
      n++;
      const data = {
        count: plural(group.ids.count, `${group.event} event`),
        events: list(group.ids.ids, 3),
        errors: group.messages.join('; ') || 'no message',
        payloads: group.array ?? 0,
      };
      const messageId =
        group.array !== undefined
          ? 'array'
          : group.messages.includes(NO_RESPONSE_ID)
            ? 'noResponseId'
            : group.messages.some((m) => NOT_JSON.test(m))
              ? 'notJson'
              : 'rejected';
      out.push(
        finding(meta, `${group.event}:${n}`, { messageId, data }, group.ids.ids, {
          eventCount: group.ids.count,
          behaviour: behaviourOf(group),
        }),
      );
    }
    return out;
  },
});
