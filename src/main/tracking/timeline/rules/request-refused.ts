// `request-refused` (error): requests the real service refuses before it reads the body — a path that is
// not a beacon v2 endpoint or a bad siteId (404), a method other than POST (405; OPTIONS is a browser's
// CORS preflight), a body over 1 MB (413), a Content-Type it does not take (415). Each names the status
// and error the real service answers, what was wrong and the fix; `schema` keeps bodies that fail validation.
import { finding, list, plural, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';
import type { RefusedGroup } from '../model';
import { isRefusedPreflight, refusedPreflight } from '../../../../shared/events';
import { SENDING_BEHAVIOURS, sendingBehaviour } from '../../client-model';
import { BEACON_PREFIX, parseBeaconPath } from '../../beacon-path';
import { BEACON_ENDPOINTS } from '../../schemas';
import { SITE_ID_PATTERN } from '../../../../shared/site-id';
import { nearestTypo } from '../../../../shared/nearest';

/**
 * The path the request most likely meant, when its endpoint is a typo of one of the API's (`search/rendr`)
 * or its siteId one in capitals (`Demo42`): said after the service's own 404 message, as "; did you mean …?".
 */
function meant(path: string): string {
  const p = parseBeaconPath(path);
  if (p.ok) return '';
  if (/^invalid siteId/i.test(p.message)) {
    const lower = p.siteId.toLowerCase();
    return lower !== p.siteId && SITE_ID_PATTERN.test(lower)
      ? `; siteIds are lowercase: did you mean ${BEACON_PREFIX}/${lower}/${p.category}/${p.event}?`
      : '';
  }
  if (p.category === '' && p.event === '') return '';
  const endpoint = nearestTypo(`${p.category}/${p.event}`, BEACON_ENDPOINTS);
  if (endpoint === undefined) return '';
  return `; did you mean ${BEACON_PREFIX}/${p.siteId || '{siteId}'}/${endpoint}?`;
}

function explain(g: RefusedGroup): { answer: string; wrong: string; fix: string } {
  const first = g.messages[0] ?? '';
  switch (g.status) {
    case 404:
      return {
        answer: '404 InvalidPathError',
        wrong: /^invalid siteId/i.test(first)
          ? `its path ${g.path} has no valid siteId (${first}${meant(g.path)})`
          : `its path ${g.path} is not a beacon v2 endpoint (${first}${meant(g.path)})`,
        fix: 'send to /beacon/v2/{siteId}/{category}/{event} with your six-character siteId (lowercase letters and digits) and an endpoint of the beacon v2 API (search/render, product/pageview, cart/add, order/transaction, …); the provider’s client builds these paths from requesters.beacon.origin',
      };
    case 405:
      return isRefusedPreflight(g.status, first)
        ? { answer: '405 InvalidMethodError', ...refusedPreflight(g.path) }
        : {
            answer: '405 InvalidMethodError',
            wrong: `it was not a POST (${first})`,
            fix: 'send every beacon with POST and the JSON body (fetch with method: "POST", or navigator.sendBeacon)',
          };
    case 413:
      return {
        answer: '413 RequestTooLargeError',
        wrong: `its body is over the 1 MB the service takes (${g.path})`,
        fix: 'send fewer items per event: impressions as tiles become visible (the provider’s client sends them in batches), never the whole result list at once',
      };
    default:
      return {
        answer: '415 UnsupportedMediaType',
        wrong: `its Content-Type is ${g.contentType ? `"${g.contentType}"` : 'missing'}, where the service takes text/plain or application/json`,
        fix: 'send Content-Type: text/plain (as the provider’s client does: no CORS preflight) with the JSON body',
      };
  }
}

const meta: RuleMeta<'page'> = {
  id: 'request-refused',
  judges: ['page'],
  title: 'Request refused',
  description:
    'A request the real service refuses before it reads the body: a path that is not a beacon v2 endpoint or a bad siteId (404), a method other than POST (405; OPTIONS is a browser’s CORS preflight), a body over 1 MB (413), a Content-Type other than text/plain or application/json (415).',
  expects:
    'POST /beacon/v2/{siteId}/{category}/{event}, Content-Type text/plain, a JSON body under 1 MB.',
  appliesTo: EVERY_PAGE_KIND,
  // the request's own behaviour: see behaviourOf below
  guards: ['identity.context', ...SENDING_BEHAVIOURS],
  defaultSeverity: 'error',
  messages: {
    refused:
      '{{count}} refused ({{events}}): {{wrong}}. The real service answers {{answer}} and the event is lost.',
  },
  fix: 'The message names what was wrong and how to send it; the provider’s client (@athoscommerce/beacon) sends every beacon this way.',
  fixes: { refused: '{{fix}}.' },
  listens: ['request'],
};

/**
 * The behaviour a refused request breaks. The model has no behaviour of the transport of its own: B sends
 * every event the same way (POST of the JSON as text/plain to the path it builds from its origin, siteId and
 * endpoint), so a request refused for its Content-Type, method or size is an event sent some other way, by
 * hand, and lost: it is the behaviour whose event it was, the one that sends its endpoint (a 415 of
 * search/clickthrough is `search.clickthrough`'s, whatever its context said). A path that names no endpoint
 * of the model (a typo, a path the client never builds) is the request as a whole: `identity.context`, whose
 * invariant is that each request is one the real service accepts.
 */
function behaviourOf(g: RefusedGroup): string {
  return sendingBehaviour(g.endpoint) ?? 'identity.context';
}

export const requestRefused = defineRule({
  meta,
  count: (page) => page.tallies.refused?.size ?? 0,
  page(page) {
    const out = [];
    let n = 0;
    for (const g of page.tallies.refused?.values() ?? []) {
      n++;
      const { answer, wrong, fix } = explain(g);
      out.push(
        finding(
          meta,
          `${g.status}:${n}`,
          {
            messageId: 'refused',
            data: {
              count: plural(g.ids.count, 'request'),
              events: list(g.ids.ids, 3),
              wrong,
              answer,
              fix,
            },
          },
          g.ids.ids,
          { eventCount: g.ids.count, behaviour: behaviourOf(g) },
        ),
      );
    }
    return out;
  },
});
