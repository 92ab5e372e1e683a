// First contact in real Chromium: Connect and the Feeds board watch for traffic. They say they are
// waiting, then show each request sent over real HTTP as it arrives (site, endpoint, verdict with the
// first error) with links that lead to its timeline, its inspector or the feed board.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBeacon } from '../helpers/sandbox';
import { SITE_ID, newPage, searchBody } from './helpers/beacons';
import { RUNNING_ANIMATIONS } from './helpers/in-page';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);

const AUTH = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;

function putIndex(base: string, feedId: number): Promise<Response> {
  return fetch(`${base}/api/index/feed?feedId=${feedId}`, {
    method: 'PUT',
    headers: { Authorization: AUTH },
  });
}

describe.skipIf(skip)('watching for traffic', () => {
  let s: UiSession;

  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('Connect waits for the first event, then shows each beacon live with links to its timeline and request', async () => {
    await s.ui.open('#/connect');
    const tracking = s.ui.testId('watch-tracking');
    await expect
      .poll(() => s.ui.testId('watch-tracking-waiting').textContent())
      .toContain('Waiting for the first event from your storefront…');
    expect(await tracking.getAttribute('data-state')).toBe('waiting');
    // listening costs no frames: nothing on the screen animates until something arrives
    const animations = () => s.page.evaluate<string[]>(RUNNING_ANIMATIONS);
    expect(await animations()).toEqual([]);

    const page = newPage();
    const res = await postBeacon(
      s.sandbox.url,
      `${SITE_ID}/search/render`,
      searchBody('render', page),
    );
    expect(res.status).toBe(200);
    const row = tracking.getByTestId('live-row').first();
    await row.waitFor();
    expect(await row.getAttribute('data-accepted')).toBe('true');
    expect(await row.textContent()).toContain(SITE_ID);
    expect(await row.textContent()).toContain('search/render');
    expect(await row.getByTestId('live-verdict').textContent()).toBe('accepted 200');
    // an arrival pulses the dot once, never endlessly
    expect(await animations()).not.toContain('watch-pulse × Infinity');

    // a rejected one says why, with the first validation error
    const broken = searchBody('impression', page) as { context: Record<string, unknown> };
    delete broken.context.timestamp;
    expect((await postBeacon(s.sandbox.url, `${SITE_ID}/search/impression`, broken)).status).toBe(
      400,
    );
    const rows = tracking.getByTestId('live-row');
    await expect.poll(() => rows.count()).toBe(2);
    const rejected = rows.first();
    expect(await rejected.getAttribute('data-accepted')).toBe('false');
    expect(await rejected.getByTestId('live-verdict').textContent()).toBe('rejected 400');
    expect(await rejected.textContent()).toContain('missing required key-value: context.timestamp');
    expect(await s.ui.testId('watch-tracking-count').textContent()).toBe(
      '2 arrivals since you opened this screen',
    );
    await s.ui.screenshot('connect-live');

    // the render's timeline link opens its page
    const render = rows.nth(1);
    await render.getByTestId('live-timeline-link').waitFor();
    await render.getByTestId('live-timeline-link').click();
    await s.page
      .locator(`[data-testid="page-view"][data-page-load-id="${page.pageLoadId}"]`)
      .waitFor();

    // opened again, Connect watches afresh and says what came before; a request link opens the inspector
    await s.ui.open('#/connect');
    await expect
      .poll(() => s.ui.testId('watch-tracking-waiting').textContent())
      .toContain('2 recorded before you opened this screen');
    expect((await postBeacon(s.sandbox.url, `${SITE_ID}/search/impression`, broken)).status).toBe(
      400,
    );
    const latest = (await (
      await fetch(`${s.sandbox.url}/_sandbox/events?accepted=false&limit=1`)
    ).json()) as { events: Array<{ id: string }> };
    const fresh = s.ui.testId('watch-tracking').getByTestId('live-row');
    await expect.poll(() => fresh.count()).toBe(1);
    await fresh.getByTestId('live-detail-link').click();
    await s.ui.testId('requests-view').waitFor();
    expect(s.page.url()).toMatch(new RegExp(`#/requests/${latest.events[0]!.id}$`));
  });

  it('an accepted beacon whose page fails says so beside "accepted 200", on Connect and on Requests', async () => {
    await s.ui.open('#/connect');
    await s.ui.testId('watch-tracking').waitFor();
    // a click on a response the page never rendered: the service accepts it, the page fails
    const page = newPage();
    const res = await postBeacon(
      s.sandbox.url,
      `${SITE_ID}/search/clickthrough`,
      searchBody('clickthrough', page),
    );
    expect(res.status).toBe(200);
    const row = s.ui
      .testId('watch-tracking')
      .locator('[data-testid="live-row"][data-accepted="true"]')
      .first();
    await row.waitFor();
    expect(await row.getByTestId('live-verdict').textContent()).toBe('accepted 200');
    await expect
      .poll(() => row.getByTestId('live-page-problem').textContent())
      .toMatch(/^page fails: .*missing-render/);
    await s.ui.screenshot('connect-page-fails-1440');

    await s.ui.open('#/requests');
    const request = s.page
      .locator('[data-testid="request-row"][data-accepted="true"]')
      .filter({ hasText: 'clickthrough' })
      .first();
    await expect
      .poll(() => request.getByTestId('request-page-problem').textContent())
      .toMatch(/^page fails: .*missing-render/);
    await s.ui.screenshot('requests-page-fails-1440');
    // its 200 is the service's answer, green; the page's verdict is its column's, not the pill's
    const code = request.getByTestId('request-status');
    expect(await code.getAttribute('class')).toMatch(/\bpass\b/);
    expect(await code.getAttribute('class')).not.toMatch(/\bfail\b/);
    const mark = request.getByRole('img', { name: /^accepted, but page fails: .*missing-render/ });
    expect(await mark.isVisible()).toBe(false);
    // at 390 px that column is hidden: a mark beside the green 200 says it, named for screen readers
    await s.page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => mark.isVisible()).toBe(true);
    expect(await request.getByTestId('request-page-problem').isVisible()).toBe(false);
    expect(await code.getAttribute('class')).toMatch(/\bpass\b/);
    await s.ui.screenshot('requests-page-fails-390');
    await s.ui.open('#/connect');
    await s.ui.testId('watch-tracking').waitFor();
    await s.page.setViewportSize({ width: 1280, height: 800 });
  });

  it('Connect says in place that a 405 to OPTIONS was a CORS preflight, and the fix; so does its request', async () => {
    // a storefront on its own origin that sends a beacon as application/json: the browser asks first
    const shop = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title>'),
    );
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    try {
      await s.ui.open('#/connect');
      const tracking = s.ui.testId('watch-tracking');
      await expect
        .poll(() => s.ui.testId('watch-tracking-waiting').textContent())
        .toMatch(/Waiting for the first event|recorded before you opened this screen/);
      const storefront = await s.page.context().newPage();
      await storefront.goto(`http://127.0.0.1:${(shop.address() as AddressInfo).port}/`);
      const sent = await storefront.evaluate(async (url) => {
        try {
          await fetch(url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ data: { responseId: 'r-cors' } }),
          });
          return 'sent';
        } catch (err) {
          return String(err);
        }
      }, `${s.sandbox.url}/beacon/v2/${SITE_ID}/search/render`);
      await storefront.close();
      // the sandbox answers OPTIONS 405 as the real service does: the POST itself never leaves
      expect(sent).toBe('TypeError: Failed to fetch');
      const row = tracking.getByTestId('live-row').first();
      await row.waitFor();
      expect(await tracking.getByTestId('live-row').count()).toBe(1);
      expect(await row.getByTestId('live-verdict').textContent()).toBe('rejected 405');
      expect(await row.textContent()).toContain(
        'invalid request method: `OPTIONS` - requires `POST`',
      );
      const explained = `It is a browser’s CORS preflight (OPTIONS /beacon/v2/${SITE_ID}/search/render): a beacon sent with a Content-Type other than text/plain (application/json, say) makes the browser ask first, and the real service refuses, so the event itself is never sent. Fix: send beacons as text/plain with the JSON body, as the provider’s client does (do not override requesters.beacon.headers’ Content-Type).`;
      expect(await row.getByTestId('refusal-explanation').textContent()).toBe(explained);
      // its request link opens the inspector, which says the same
      await row.getByTestId('live-detail-link').click();
      await s.ui.testId('requests-view').waitFor();
      expect(await s.ui.testId('rejection-title').textContent()).toBe(
        'Refused: 405 Method Not Allowed',
      );
      expect(
        await s.ui.testId('requests-view').getByTestId('refusal-explanation').textContent(),
      ).toBe(explained);
      // its page names the request a CORS preflight, not a render the storefront sent and had refused
      const refused = (await (
        await fetch(
          `${s.sandbox.url}/_sandbox/timelines?siteId=${SITE_ID}&rule=request-refused&view=keys`,
        )
      ).json()) as { pages: Array<{ siteId: string; pageLoadId: string }> };
      expect(refused.pages).toHaveLength(1);
      const page = refused.pages[0]!;
      await s.ui.open(`#/timelines/${encodeURIComponent(`${page.siteId}/${page.pageLoadId}`)}`);
      const rows = s.ui.testId('page-events').getByTestId('page-event-row');
      await rows.first().waitFor();
      expect(await rows.first().textContent()).toContain('CORS preflight');
      const lane = await s.page.locator('[data-testid="lane"] .lane-label').first().textContent();
      expect(lane).toMatch(/\(CORS preflights\)$/);
    } finally {
      await new Promise<void>((resolve) => shop.close(() => resolve()));
    }
  });

  it('Connect and the Feeds board show bulk index requests as they arrive, refusals with their reason', async () => {
    await s.ui.open('#/connect');
    await expect
      .poll(() => s.ui.testId('watch-indexing-waiting').textContent())
      .toContain('Waiting for the first index request…');
    expect((await putIndex(s.sandbox.url, 43)).status).toBe(200);
    const row = s.ui.testId('watch-indexing').getByTestId('live-row').first();
    await row.waitFor();
    expect(await row.getAttribute('data-kind')).toBe('index');
    expect(await row.textContent()).toContain('PUT feed 43');
    expect(await row.getByTestId('live-verdict').textContent()).toBe('accepted 200');
    expect(await row.textContent()).toContain('PUT accepted: reading the cart source');

    // a client with the wrong key reaches no feed, and still shows up, with the reason
    const wrong = await fetch(`${s.sandbox.url}/api/index/status`, {
      headers: { Authorization: `Basic ${Buffer.from('demo42:wrong-key').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
    const rows = s.ui.testId('watch-indexing').getByTestId('live-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain('GET /api/index/status');
    expect(await rows.first().getByTestId('live-verdict').textContent()).toBe('rejected 401');
    expect(await rows.first().textContent()).toContain(
      'invalid credentials: the siteId and secret key do not match an account of this sandbox',
    );
    expect(await rows.first().textContent()).not.toContain('wrong-key');

    await s.ui.nav('feeds');
    const watch = s.ui.testId('watch-indexing');
    await expect
      .poll(() => s.ui.testId('watch-indexing-waiting').textContent())
      // history exists: not "waiting for the first" above it
      .toContain('Nothing new since you opened this screen: waiting for the next one…');
    expect(await s.ui.testId('watch-indexing-waiting').textContent()).not.toContain(
      'Waiting for the first',
    );
    expect(await s.ui.testId('watch-indexing-waiting').textContent()).toContain(
      "1 earlier in the feeds' history below",
    );
    // a second request while the feed is still queued is refused: the row says so, with the reason
    expect((await putIndex(s.sandbox.url, 43)).status).toBe(409);
    const refused = watch.getByTestId('live-row').first();
    await refused.waitFor();
    expect(await refused.getAttribute('data-accepted')).toBe('false');
    expect(await refused.getByTestId('live-verdict').textContent()).toBe('rejected 409');
    expect(await refused.textContent()).toMatch(
      /feed 43 is already queued .*nothing is queued twice/,
    );
    // on the board, the row leads to its feed's card
    await refused.getByTestId('live-detail-link').click();
    await expect
      .poll(async () => ((await s.ui.feedCard(43).boundingBox())?.y ?? Infinity) < 400)
      .toBe(true);
  });
});
