// A HAR recorded by Chromium (playwright-core's recordHar) of a page whose beacons reach a running sandbox:
// `check` and `diff` of that HAR see the traffic the sandbox received, as its live timelines and its export
// do: a beacon redirected (307) on its way is one event with its body, and a beacon that never left the
// browser (a refused port) is no event.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimelineReportDto } from '../../src/shared/timeline';
import type { Sandbox } from '../../src/main/sandbox';
import { runDiff } from '../../src/main/baseline/cli';
import { captured, check, exportFile as writeExport } from '../helpers/check';
import { skipReason } from './helpers/ui';
import { recordVisit, type RecordedVisit } from './helpers/recorded-visit';

const skip = skipReason();

/** A storefront page whose `run()` sends a search page's beacons: sendBeacon, fetch, a redirect, a refusal. */
function storefront(sandboxUrl: string): http.Server {
  return http.createServer((req, res) => {
    // the storefront's old beacon origin moved: its beacons are sent on, body and all, with a 307
    if (req.url?.startsWith('/beacon/v2/')) {
      res.writeHead(307, {
        location: `${sandboxUrl}${req.url}`,
        'access-control-allow-origin': '*',
      });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html><body><script>
      const SB = ${JSON.stringify(sandboxUrl)};
      const context = (pageLoadId) => ({ timestamp: new Date().toISOString(), pageUrl: location.href,
        userId: 'u1', sessionId: 's1', pageLoadId, initiator: 'har-test', dev: true });
      const item = { type: 'product', uid: 'a1', parentId: 'a1', sku: 'a1' };
      const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(body) });
      window.run = async () => {
        navigator.sendBeacon(SB + '/beacon/v2/demo42/search/render',
          JSON.stringify({ context: context('p1'), data: { responseId: 'r1' } }));
        await new Promise((r) => setTimeout(r, 1100));
        await post(SB + '/beacon/v2/demo42/search/impression',
          { context: context('p1'), data: { responseId: 'r1', results: [item], banners: [] } });
        await post('/beacon/v2/demo42/search/clickthrough',
          { context: context('p1'), data: { responseId: 'r1', results: [item] } });
        // port 1 is one Chromium refuses to connect to: this render never leaves the browser
        await post('http://127.0.0.1:1/beacon/v2/demo42/search/render',
          { context: context('p2'), data: { responseId: 'r2' } }).catch(() => undefined);
        await fetch(SB + '/_sandbox/health').catch(() => undefined);
      };
    </script></body></html>`);
  });
}

describe.skipIf(skip !== null)('a HAR recorded by Chromium, checked offline', () => {
  let visit: RecordedVisit;
  let sandbox: Sandbox;
  let harFile: string;
  let exportFile: string;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    visit = await recordVisit(storefront, '/search?q=a');
    ({ sandbox, harFile } = visit);
    exportFile = await writeExport(cleanups, sandbox.url);
  }, 60_000);

  afterAll(async () => {
    await visit?.close();
    while (cleanups.length) await cleanups.pop()!();
  });

  it('records the redirect as two entries, the followed one without its body (what the fix reads past)', () => {
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as {
      log: {
        entries: Array<{
          request: { url: string; postData?: { text?: string } };
          response: { status: number };
        }>;
      };
    };
    const clicks = har.log.entries.filter((e) => e.request.url.endsWith('/search/clickthrough'));
    expect(clicks.map((e) => e.response.status)).toEqual([307, 200]);
    expect(clicks[1]!.request.postData?.text ?? '').toBe('');
  });

  it('check of the HAR judges what the sandbox received: the page the live timelines show, nothing else', async () => {
    const live = (await (await fetch(`${sandbox.url}/_sandbox/timelines`)).json()) as {
      pages: Array<{ pageLoadId: string; verdict: string; counts: { events: number } }>;
    };
    expect(live.pages.map((p) => [p.pageLoadId, p.verdict, p.counts.events])).toEqual([
      ['p1', 'pass', 3],
    ]);
    const res = await check(harFile, '--format', 'json');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.out) as TimelineReportDto;
    expect(
      report.pages.map((p) => [
        p.pageLoadId,
        p.verdict,
        p.responses.flatMap((r) => r.events.map((e) => e.event)),
      ]),
    ).toEqual([['p1', 'pass', ['render', 'impression', 'clickthrough']]]);
    expect(res.err).toContain(
      '1 beacon request never left the browser (net::ERR_UNSAFE_PORT ×1) and is not judged',
    );
  });

  it('diff of the HAR against the sandbox’s export of the same visit: the same tracking', async () => {
    const { code, out } = await captured(runDiff, [exportFile, harFile]);
    expect(out).toMatch(/^same tracking: 1 page of .*visit\.har matches .*export\.json$/m);
    expect(code).toBe(0);
  });
});
