// `schema`: events whose body the service rejected (400): grouped by event and messages, one finding each.
// Requests refused before their body is read (404, 405, 413, 415) are `request-refused`.
import { finding, list, plural, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';

const meta: RuleMeta<'page'> = {
  id: 'schema',
  judges: ['page'],
  title: 'Rejected by validation',
  description:
    'An event whose body the real service answers with 400 ValidationError: the event is lost. (Requests refused before their body is read are request-refused.)',
  expects:
    'Every body matches the beacon v2 schema of its endpoint (context and data, no unknown fields).',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.context', 'cart.items'],
  defaultSeverity: 'error',
  messages: {
    rejected:
      '{{count}} rejected by validation ({{events}}): {{errors}}. The real service answers 400 ValidationError and drops the event.',
  },
  fix: 'Fix the fields named in the messages; the provider’s client (@athoscommerce/beacon) builds valid bodies.',
  fixes: {
    rejected:
      "correct the fields named above; the beacon v2 schema (and the provider's client @athoscommerce/beacon) says what each event needs.",
  },
  listens: ['request'],
};

/** the timeline's names of cart/add and cart/remove: no other endpoint's event is called so */
const CART_EVENTS = new Set(['add', 'remove']);
/** a message about a cart event's items (`missing required key-value: data.results[0].uid`) */
const ITEMS = /\bdata\.(results|cart)\b/;

/**
 * The behaviour a group of rejected events breaks: a cart event refused over its items (T sends items that
 * lack a uid, quantity or price as they are, and the service drops the event) is the cart's items'; any
 * other refusal is of the request the client builds (its context, its fields).
 */
function behaviourOf(group: { event: string; messages: readonly string[] }): string {
  return CART_EVENTS.has(group.event) && group.messages.some((m) => ITEMS.test(m))
    ? 'cart.items'
    : 'identity.context';
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
      };
      out.push(
        finding(meta, `${group.event}:${n}`, { messageId: 'rejected', data }, group.ids.ids, {
          eventCount: group.ids.count,
          behaviour: behaviourOf(group),
        }),
      );
    }
    return out;
  },
});
