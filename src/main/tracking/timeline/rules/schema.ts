// `schema`: search events the service rejected (400): grouped by event and messages, one finding each.
import { finding, list, plural, type PageRule } from './types';

// what the service answers to a browser's CORS preflight (OPTIONS) on a beacon endpoint
const PREFLIGHT = 'invalid request method: `OPTIONS`';

export const schema: PageRule = {
  id: 'schema',
  scope: 'page',
  severity: 'error',
  count: (page) => page.tallies.schema.size,
  check(page) {
    const out = [];
    let n = 0;
    for (const group of page.tallies.schema.values()) {
      n++;
      const preflight = group.messages.some((m) => m.startsWith(PREFLIGHT));
      const message =
        `${plural(group.ids.count, `${group.event} event`)} rejected by validation (${list(group.ids.ids, 3)}): ${group.messages.join('; ') || 'no message'}. ` +
        (preflight
          ? `That is a browser's CORS preflight: a beacon sent with a Content-Type other than text/plain (application/json, say) makes the browser ask OPTIONS first; ` +
            `the real service answers 405 to it, so the browser never sends the event itself (the page's events are all lost). ` +
            `Fix: send beacons as text/plain with the JSON body, as the provider's client does (do not override requesters.beacon.headers' Content-Type).`
          : `The real service answers 400 and drops the event. ` +
            `Fix: correct the fields named above; the beacon v2 schema (and the provider's client @athoscommerce/beacon) says what each event needs.`);
      out.push(
        finding('schema', 'error', `${group.event}:${n}`, message, group.ids.ids, {
          eventCount: group.ids.count,
        }),
      );
    }
    return out;
  },
};
