// `schema`: events whose body the service rejected (400): grouped by event and messages, one finding each.
// Requests refused before their body is read (404, 405, 413, 415) are `request-refused`.
import { finding, list, plural, type PageRule } from './types';

export const schema: PageRule = {
  id: 'schema',
  scope: 'page',
  severity: 'error',
  count: (page) => page.tallies.schema?.size ?? 0,
  check(page) {
    const out = [];
    let n = 0;
    for (const group of page.tallies.schema?.values() ?? []) {
      n++;
      const message =
        `${plural(group.ids.count, `${group.event} event`)} rejected by validation (${list(group.ids.ids, 3)}): ${group.messages.join('; ') || 'no message'}. ` +
        `The real service answers 400 ValidationError and drops the event. ` +
        `Fix: correct the fields named above; the beacon v2 schema (and the provider's client @athoscommerce/beacon) says what each event needs.`;
      out.push(
        finding('schema', 'error', `${group.event}:${n}`, message, group.ids.ids, {
          eventCount: group.ids.count,
        }),
      );
    }
    return out;
  },
};
