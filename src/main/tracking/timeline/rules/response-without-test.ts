// `response-without-test` (warning): development beacons (context.dev: true) whose response was requested
// without test=true, so the real service would count those requests in the site's reports. Named by the
// request the page's controller sends: the search request for search and category (and the autocomplete
// request for the dropdown), where the Snap client's development mode adds test=true (what the provider's
// client sends, "dev and test"); for a recommendations or bundles widget, the recommend API's batched
// request (POST /v1/recommend), whose body carries `test: true` in development mode (the Snap client's
// RecommendAPI sets batch.request.test).
import { finding, list, defineRule, type RuleMeta } from './types';
import { describeResponse, issuedFor, itemEvents } from './utils/provenance';
import { issuedKind, type IssuedKind } from '../../../search/responses';

const SEARCH_COUNTS =
  "The real service counts searches without test=true in the site's reports, so development searches inflate them.";
const DEV_CLIENT =
  "create the search client in development mode (Snap client: new Client({ siteId }, { mode: 'development' })) — it adds test=true";

const meta: RuleMeta<'response'> = {
  id: 'response-without-test',
  judges: ['response'],
  title: 'Development request (search, autocomplete, recommend) without test=true',
  description:
    'Development beacons (context.dev: true) whose response was requested without test=true: the search request (search, category), the autocomplete request, or the recommend request (POST /v1/recommend, `test: true` in its body) for a widget.',
  expects:
    'Development searches, autocomplete and recommend requests carry test=true so they stay out of the site’s reports.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['mode.development'],
  defaultSeverity: 'warning',
  messages: {
    withoutTest: `responseId "{{responseId}}" ({{response}}) was requested without test=true, but this page's beacons are development traffic (context.dev: true): {{events}}. ${SEARCH_COUNTS}`,
    autocompleteWithoutTest:
      'responseId "{{responseId}}" ({{response}}) was requested without test=true: the autocomplete request (/api/search/autocomplete.json) carried none, but this page\'s beacons are development traffic (context.dev: true): {{events}}. The real service counts autocomplete requests without test=true in the site\'s reports, so development typing inflates them.',
    widgetWithoutTest:
      "responseId \"{{responseId}}\" ({{response}}) was requested without test: true in the body of its recommend request (POST /v1/recommend), but this page's beacons are development traffic (context.dev: true): {{events}}. The real service counts recommend requests without test: true in the site's reports, so development page views inflate its widgets' figures.",
  },
  fix: "Create the search client with { mode: 'development' } (it adds test=true to search and autocomplete requests, and test: true to recommend requests).",
  fixes: {
    withoutTest: `${DEV_CLIENT} — or add test=true to the search request yourself.`,
    autocompleteWithoutTest: `${DEV_CLIENT} to its autocomplete requests — or add test=true to the autocomplete request yourself.`,
    widgetWithoutTest:
      'create the search client in development mode (Snap client: new Client({ siteId }, { mode: \'development\' })) — its recommend requests then carry test: true — or send "test": true in the body of POST /v1/recommend yourself.',
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

/** the message for the request that asked for a response of this kind */
const MESSAGE: Record<IssuedKind, keyof typeof meta.messages & string> = {
  search: 'withoutTest',
  category: 'withoutTest',
  autocomplete: 'autocompleteWithoutTest',
  recommendations: 'widgetWithoutTest',
  bundles: 'widgetWithoutTest',
};

export const responseWithoutTest = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || issued.test) return [];
    const f = r.facts;
    const dev = [...f.renders, ...f.redirects, ...itemEvents(r)].filter((e) => e.dev);
    if (dev.length === 0) return [];
    const data = {
      responseId: r.responseId,
      response: describeResponse(issued),
      events: list(dev.map((e) => e.id)),
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: MESSAGE[issuedKind(issued)], data },
        dev.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
