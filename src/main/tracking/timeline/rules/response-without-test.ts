// `response-without-test` (warning): development beacons (context.dev: true) whose search response was requested
// without test=true, so the real service would count those searches in the site's reports.
import { finding, list, defineRule, type RuleMeta } from './types';
import { describeResponse, issuedFor, itemEvents } from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'response-without-test',
  judges: ['response'],
  title: 'Development search without test=true',
  description:
    'Development beacons (context.dev: true) whose search response was requested without test=true.',
  expects: 'Development searches carry test=true so they stay out of the site’s reports.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: ['mode.development'],
  defaultSeverity: 'warning',
  messages: {
    withoutTest:
      'responseId "{{responseId}}" ({{response}}) was requested without test=true, but this page\'s beacons are development traffic (context.dev: true): {{events}}. The real service counts searches without test=true in the site\'s reports, so development searches inflate them.',
  },
  fix: "Create the search client with { mode: 'development' } (it adds test=true).",
  fixes: {
    withoutTest:
      "create the search client in development mode (Snap client: new Client({ siteId }, { mode: 'development' })) — it adds test=true — or add test=true to the search request yourself.",
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
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
        { messageId: 'withoutTest', data },
        dev.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
});
