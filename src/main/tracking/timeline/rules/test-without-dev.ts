// `test-without-dev` (warning): a search requested with test=true (a development build) whose beacons are
// production traffic (no context.dev: true), so the real service counts a developer's clicks in the
// site's reports. The reverse of `response-without-test`; the provider's client drives both from one mode.
import { finding, list, defineRule, type RuleMeta } from './types';
import { describeResponse, issuedFor, itemEvents } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'test-without-dev',
  judges: ['response'],
  title: 'Development search, production beacons',
  description:
    'A search response requested with test=true (a development build) whose beacons lack context.dev: true.',
  expects:
    'One mode drives both: development builds send test=true on searches and dev: true on beacons.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['mode.development'],
  defaultSeverity: 'warning',
  messages: {
    productionBeacons:
      "responseId \"{{responseId}}\" ({{response}}) was requested with test=true, as a development build searches, but {{events}} {{were}} sent without context.dev: true (production mode). The provider's client drives both from one mode: development searches carry test=true and development beacons dev: true, so neither counts in the site's reports; these beacons would be counted as real shoppers' behaviour.",
  },
  fix: "Create the beacon client with { mode: 'development' } too, or the search client without it in production.",
  fixes: {
    productionBeacons:
      "create the beacon client in the same mode as the search client (new Beacon({ siteId }, { mode: 'development' }) while developing), or drop test=true in production.",
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const testWithoutDev = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || !issued.test) return [];
    const f = r.facts;
    const prod = [...f.renders, ...f.redirects, ...itemEvents(r)].filter((e) => !e.dev);
    if (prod.length === 0) return [];
    const data = {
      responseId: r.responseId,
      response: describeResponse(issued),
      events: list(prod.map((e) => e.id)),
      were: prod.length === 1 ? 'was' : 'were',
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'productionBeacons', data },
        prod.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
