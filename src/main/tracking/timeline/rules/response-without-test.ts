// `response-without-test` (warning): development beacons (context.dev: true) whose search response was requested
// without test=true, so the real service would count those searches in the site's reports.
import { finding, list, type ResponseRule } from './types';
import { describeResponse, issuedFor, itemEvents } from './provenance';

export const responseWithoutTest: ResponseRule = {
  id: 'response-without-test',
  scope: 'response',
  check(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || issued.test) return [];
    const f = r.facts;
    const dev = [...f.renders, ...f.redirects, ...itemEvents(r)].filter((e) => e.dev);
    if (dev.length === 0) return [];
    const message =
      `responseId "${r.responseId}" (${describeResponse(issued)}) was requested without test=true, but this page's beacons are development traffic (context.dev: true): ${list(dev.map((e) => e.id))}. ` +
      `The real service counts searches without test=true in the site's reports, so development searches inflate them. ` +
      `Fix: create the search client in development mode (Snap client: new Client({ siteId }, { mode: 'development' })) — it adds test=true — or add test=true to the search request yourself.`;
    return [
      finding(
        'response-without-test',
        'warning',
        r.responseId,
        message,
        dev.map((e) => e.id),
        { responseId: r.responseId },
      ),
    ];
  },
};
