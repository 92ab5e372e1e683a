// A HAR recorded by Chromium (playwright-core's recordHar, bodies kept beside it: content 'attach') of a
// storefront that searches through the sandbox's companion search: `check` of the HAR reads the sandbox's
// answers from their side files and judges a click with a made-up responseId as the live sandbox does, a
// stale responseId (missing-render, an error), not a possible backfill (info).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineReportDto } from '../../src/shared/timeline';
import type { Sandbox } from '../../src/main/sandbox';
import { check } from '../helpers/check';
import { skipReason } from './helpers/ui';
import { recordVisit, type RecordedVisit } from './helpers/recorded-visit';

const skip = skipReason();

/** A search page whose `run()` searches through the sandbox, renders, impresses, and clicks stale. */
function storefront(sandboxUrl: string): http.Server {
  return http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html><body><script>
      const SB = ${JSON.stringify(sandboxUrl)};
      const ids = { userId: 'u-har', sessionId: 's-har', pageLoadId: 'pl-chromium' };
      const context = () => ({ ...ids, timestamp: new Date().toISOString(), pageUrl: location.href,
        initiator: 'searchspring/beaconjs/1.2.3' });
      const tile = { type: 'product', uid: 'P101', parentId: 'P101', sku: 'P101-RED' };
      const send = (endpoint, data) => fetch(SB + '/beacon/v2/demo42/search/' + endpoint, { method: 'POST',
        headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ context: context(), data }) });
      window.run = async () => {
        const q = new URLSearchParams({ siteId: 'demo42', q: 'jacket', beacon: 'true', ...ids });
        const { responseId } = await (await fetch(SB + '/api/search/search.json?' + q)).json();
        await send('render', { responseId });
        await send('impression', { responseId, results: [tile], banners: [] });
        await send('clickthrough', { responseId: 'stale-responseid-0001', results: [tile] });
      };
    </script></body></html>`);
  });
}

describe.skipIf(skip !== null)(
  'a Chromium HAR of a storefront searching through the sandbox',
  () => {
    let visit: RecordedVisit;
    let sandbox: Sandbox;
    let harFile: string;

    beforeAll(async () => {
      visit = await recordVisit(storefront, '/search?q=jacket', 'attach');
      ({ sandbox, harFile } = visit);
    }, 60_000);

    afterAll(async () => {
      await visit?.close();
    });

    it('check of the HAR calls the stale click an error, as the live timelines do', async () => {
      const live = (await (
        await fetch(`${sandbox.url}/_sandbox/report?format=json`)
      ).json()) as TimelineReportDto;
      const rules = (r: TimelineReportDto) =>
        r.pages.flatMap((p) => p.findings.map((f) => `${f.rule}:${f.severity}`));
      expect(rules(live)).toContain('missing-render:error');
      const res = await check(harFile, '--format', 'json');
      expect(res.code, res.err).toBe(1);
      const offline = JSON.parse(res.out) as TimelineReportDto;
      expect(rules(offline)).toContain('missing-render:error');
      expect(rules(offline)).not.toContain('missing-render-backfill:info');
      expect(res.err).not.toMatch(/did not judge/);
    });
  },
);
