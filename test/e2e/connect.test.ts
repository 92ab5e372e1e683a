// First run in real Chromium: an empty sandbox opens on Connect, whose copy-paste snippets really work:
// the five tracking curls, run as written, produce one passing page and one redirect page.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_ID } from './helpers/beacons';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);
const run = promisify(execFile);

/** Run a snippet as a user would paste it into a shell; without curl, replay its URL and body with fetch. */
async function runCurl(code: string): Promise<{ status: number; body: string }> {
  if (existsSync('/usr/bin/curl') || existsSync('/bin/curl')) {
    const { stdout } = await run('sh', ['-c', `${code} -s -w '\\n%{http_code}'`]);
    const lines = stdout.trimEnd().split('\n');
    return { status: Number(lines.pop()), body: lines.join('\n') };
  }
  const url = /curl -X POST '([^']+)'/.exec(code)![1]!;
  const body = /--data-raw '([^']*)'/.exec(code)![1]!;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body,
  });
  return { status: res.status, body: await res.text() };
}

describe.skipIf(skip)('first run and Connect', () => {
  let s: UiSession;

  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("opens on Connect when nothing was received yet, with this sandbox's addresses and the demo account", async () => {
    await s.page.goto(`${s.sandbox.url}/`);
    await s.ui.testId('connect-view').waitFor();
    expect(await s.ui.testId('url-beacon').textContent()).toBe(`${s.sandbox.url}/beacon/v2`);
    const beaconJs = (await s.ui.testId('snippet-beaconjs').textContent()) ?? '';
    expect(beaconJs).toContain(`origin: '${s.sandbox.url}/beacon/v2'`);
    expect(beaconJs).toContain(`siteId: '${SITE_ID}'`);
    const cdn = (await s.ui.testId('snippet-beacon-cdn').textContent()) ?? '';
    expect(cdn).toContain(`siteId="${SITE_ID}"`);
    expect(cdn).toContain(`origin: '${s.sandbox.url}/beacon/v2'`);
    expect(await s.ui.testId('snippet-status').textContent()).toContain(
      `curl -u 'demo42:demo-secret-key' '${s.sandbox.url}/api/index/status'`,
    );
    expect(await s.ui.testId('snippet-upload').textContent()).toContain(
      `-F 'feedFile=@products.csv'`,
    );
    await s.ui.screenshot('connect');
  });

  it('gives tracking curls that the sandbox accepts and that make one passing page', async () => {
    await s.ui.open('#/connect');
    const results = [];
    for (const event of ['render', 'impression', 'clickthrough', 'addtocart', 'redirect']) {
      const code =
        (await s.page.locator(`[data-testid="snippet-curl-${event}"] pre`).textContent()) ?? '';
      results.push({ event, ...(await runCurl(code)) });
    }
    for (const r of results)
      expect(r, `${r.event}: ${r.body}`).toMatchObject({ status: 200, body: '{"success":true}' });

    await s.ui.nav('timelines');
    const rows = s.ui.testId('page-row');
    await expect.poll(() => rows.count()).toBe(2);
    const verdicts = await rows.evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-verdict')),
    );
    expect(verdicts).not.toContain('fail');
  });

  it('checks the status snippet against the real indexing API', async () => {
    await s.ui.open('#/connect');
    const code = (await s.page.locator('[data-testid="snippet-status"] pre').textContent()) ?? '';
    if (!existsSync('/usr/bin/curl')) return void expect(code).toContain('/api/index/status');
    const { stdout } = await run('sh', ['-c', `${code} -s`]);
    const body = JSON.parse(stdout) as { status: string; feeds: Array<{ id: number }> };
    expect(body.status).toBe('success');
    expect(body.feeds.map((f) => f.id)).toEqual(expect.arrayContaining([42, 43, 44]));
  });
});
