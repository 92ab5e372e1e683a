// The UI names what it shows exactly, where two things could be taken for one: the inspector names a
// refused request's real method and copies a curl that replays it; a page without a sessionId links to no
// visit, and a visit address naming none says so; sessions and compared pages of two sites sharing a
// sessionId or a URL name their site; the clock's Set moves nothing with its field untouched and refuses an
// empty one; the top bar holds every link on one line at 1280 px beside the widest clock offset.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import { postBeacon } from '../helpers/sandbox';
import { READ_CLIPBOARD, SETTLE } from './helpers/in-page';
import { FIXTURE_FEEDS, openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
const run = promisify(execFile);
const AUTH = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;
const RENDER = '/beacon/v2/demo42/search/render';
const LIVE = 'https://shop.example/search?q=live';

/** One search render of the page `pl-live` in session `s-live` on `siteId`. */
async function sendLive(base: string, siteId: string): Promise<void> {
  const context = {
    timestamp: new Date(Date.now() - 60_000).toISOString(),
    pageUrl: LIVE,
    userId: 'u-live',
    sessionId: 's-live',
    pageLoadId: 'pl-live',
    initiator: 'e2e',
    dev: true,
  };
  const res = await postBeacon(base, `${siteId}/search/render`, {
    context,
    data: { responseId: 'r-live' },
  });
  expect(res.status).toBe(200);
}

async function events(base: string): Promise<RecordedEvent[]> {
  return ((await (await fetch(`${base}/_sandbox/events`)).json()) as { events: RecordedEvent[] })
    .events;
}

async function clock(base: string, body?: object): Promise<{ now: string; offsetMs: number }> {
  const res = await fetch(`${base}/_sandbox/clock`, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { now: string; offsetMs: number };
}

describe.skipIf(skip)('the UI names what it shows exactly', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
    await sendLive(s.sandbox.url, 'demo42');
    await sendLive(s.sandbox.url, 'demo4b');
    // a body that is not JSON: its page has no readable pageLoadId, nor sessionId
    expect((await postBeacon(s.sandbox.url, 'demo42/search/render', '{"context": ')).status).toBe(
      400,
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows a refused request’s method and copies a curl that replays it as sent', async () => {
    const preflight = await fetch(`${s.sandbox.url}${RENDER}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect((await fetch(`${s.sandbox.url}${RENDER}`)).status).toBe(405);
    const recorded = await events(s.sandbox.url);
    for (const method of ['OPTIONS', 'GET']) {
      const event = recorded.find((e) => e.method === method)!;
      expect(event, method).toBeDefined();
      await s.ui.open(`#/requests/${event.id}`);
      const inspector = s.ui.testId('inspector');
      await inspector.getByTestId('event-request-line').waitFor();
      expect(await inspector.getByTestId('event-request-line').textContent()).toBe(
        `${method} ${RENDER}`,
      );
      await inspector.getByTestId('copy-curl').click();
      const curl = await s.page.evaluate<string>(READ_CLIPBOARD);
      expect(curl.split(' \\\n')).toEqual([
        `curl -X ${method} '${s.sandbox.url}${RENDER}'`,
        ...(method === 'OPTIONS' ? [`  -H 'Origin: https://shop.example'`] : []),
      ]);
      // the copied command gets the answer the recorded request got (as POST it got 400: no body)
      const { stdout } = await run('sh', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`]);
      expect(stdout, method).toBe('405');
    }
  });

  it('holds each responseId of a page’s events whole, cut at its start where the column is narrow', async () => {
    // ids a storefront makes often differ only at their end: the end is what the cell keeps in view
    const responseId = 'resp-1796085764123-a1b2c3d4e5f6-000000000001';
    const res = await postBeacon(s.sandbox.url, 'demo42/search/render', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'https://shop.example/search?q=long-id',
        userId: 'u-long',
        sessionId: 's-long',
        pageLoadId: 'pl-long-id',
        initiator: 'e2e',
        dev: true,
      },
      data: { responseId },
    });
    expect(res.status).toBe(200);
    await s.page.setViewportSize({ width: 1280, height: 800 });
    await s.ui.open('#/timelines');
    await s.ui.pageRow('pl-long-id').waitFor();
    await s.ui.openPage('pl-long-id');
    const cell = s.page.locator('.events-table td', { hasText: '000000000001' }).first();
    await cell.waitFor();
    expect(await cell.textContent()).toBe(responseId);
    expect(
      await cell.evaluate((td) => td.ownerDocument.defaultView!.getComputedStyle(td).direction),
    ).toBe('rtl');
  });

  it('links a page without a sessionId to no visit, and says so when an address names no visit', async () => {
    await s.ui.open('#/timelines/demo42%2F');
    const view = s.ui.testId('page-view');
    await view.waitFor();
    expect(await view.getByTestId('page-no-session').textContent()).toBe('—');
    expect(await view.getByTestId('page-visit-link').count()).toBe(0);

    const notFound = s.ui.testId('visit-not-found');
    for (const [hash, says] of [
      [
        '#/visits/nope',
        'No visit nope (a visit is named by its site and sessionId, siteId/sessionId)',
      ],
      [
        '#/visits/demo42%2F',
        'No visit without a sessionId on site demo42 (events with no readable sessionId belong to no visit)',
      ],
      [
        '#/visits/demo42%2Fs-gone',
        'No visit with sessionId s-gone on site demo42 (it was reset, or retention dropped its pages)',
      ],
    ] as const) {
      await s.ui.open(hash);
      await s.ui.testId('visit-detail').waitFor();
      await notFound.waitFor();
      expect(await notFound.textContent(), hash).toBe(`${says}; showing the newest visit instead.`);
    }
    // a visit that is there is shown without a word
    await s.ui.open('#/visits/demo42%2Fs-live');
    await s.ui.testId('visit-detail').waitFor();
    expect(await s.ui.testId('visit-detail').textContent()).toContain('sitedemo42');
    expect(await notFound.count()).toBe(0);
  });

  it('names each session’s site when the list holds two sites, and a session without a sessionId', async () => {
    await s.ui.open('#/timelines');
    const live = s.page.locator('[data-testid="session-row"][data-session-id="s-live"]');
    await expect.poll(() => live.count()).toBe(2);
    const sites = await live.getByTestId('session-site').allTextContents();
    expect(sites.sort()).toEqual(['demo42 · ', 'demo4b · ']);
    const none = s.page.locator('[data-testid="session-row"][data-session-id=""]');
    expect(await none.locator('.session-label').textContent()).toBe(
      'demo42 · session (no sessionId) · 1 page',
    );
    await s.ui.screenshot('review-sessions-of-two-sites');
    // one site listed: the sessions need no site to be told apart
    await s.ui.testId('filter-site').selectOption('demo42');
    await expect.poll(() => live.count()).toBe(1);
    expect(await s.ui.testId('session-site').count()).toBe(0);
    await s.ui.testId('filter-site').selectOption('');
  });

  it('names the site of each compared page when the comparison holds two sites', async () => {
    // the same URL on two sites is two pages: a recording of neither lists both as added
    await s.ui.open('#/compare');
    await s.ui.testId('compare-empty').waitFor();
    const other = {
      siteId: 'demo42',
      category: 'search',
      event: 'render',
      body: {
        context: {
          timestamp: new Date(Date.now() - 120_000).toISOString(),
          pageUrl: 'https://shop.example/c/hats/all',
          userId: 'u-other',
          sessionId: 's-other',
          pageLoadId: 'pl-other',
          initiator: 'e2e',
          dev: true,
        },
        data: { responseId: 'r-other' },
      },
    };
    await s.ui.testId('compare-input').setInputFiles({
      name: 'other.ndjson',
      mimeType: 'application/json',
      buffer: Buffer.from(`${JSON.stringify(other)}\n`),
    });
    const added = s.page.locator('[data-testid="compare-page"][data-status="added"]', {
      hasText: LIVE,
    });
    await expect.poll(() => added.count()).toBe(2);
    expect((await added.getByTestId('compare-site').allTextContents()).sort()).toEqual([
      'site demo42',
      'site demo4b',
    ]);
    await s.ui.screenshot('review-compare-two-sites');
  });

  it('sets nothing with the clock field untouched, and refuses an empty field in words', async () => {
    const posts: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => {
      if (r.method() === 'POST' && r.url().endsWith('/_sandbox/clock')) posts.push(r.url());
    };
    s.page.on('request', onRequest);
    try {
      await s.ui.open('#/feeds');
      const panel = s.ui.testId('feeds-view').getByTestId('clock-panel');
      const input = panel.getByTestId('clock-set-input');
      const note = panel.getByTestId('clock-set-note');
      await expect.poll(() => input.inputValue()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/);
      await panel.getByTestId('clock-set').click();
      await note.waitFor();
      expect(await note.textContent()).toBe(
        'The field shows the sandbox time now: change it to the time to set.',
      );
      expect(await note.getAttribute('data-invalid')).toBeNull();
      expect(posts).toEqual([]);
      expect((await clock(s.sandbox.url)).offsetMs).toBe(0);
      // to the second (Chromium leaves out seconds that are 0): what it shows is the time now
      expect(await input.getAttribute('step')).toBe('1');

      await input.fill('');
      expect(await note.count()).toBe(0);
      await panel.getByTestId('clock-set').click();
      await note.waitFor();
      expect(await note.getAttribute('role')).toBe('alert');
      expect(await note.getAttribute('data-invalid')).toBe('true');
      expect(await note.textContent()).toBe(
        'Enter a whole date and time (UTC) to set the clock to.',
      );
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect(posts).toEqual([]);
      expect((await clock(s.sandbox.url)).offsetMs).toBe(0);
      await s.ui.screenshot('review-clock-set-empty');

      // a time typed in is set, to the second; the field then follows the clock again
      const ahead = new Date(Date.parse((await clock(s.sandbox.url)).now) + 3_600_000);
      await input.fill(ahead.toISOString().slice(0, 19));
      await panel.getByTestId('clock-set').click();
      await expect.poll(() => posts.length).toBe(1);
      await expect
        .poll(async () => Math.abs((await clock(s.sandbox.url)).offsetMs - 3_600_000))
        .toBeLessThan(10_000);
      expect(await note.count()).toBe(0);
      await panel.getByTestId('clock-set').click();
      await note.waitFor();
      expect(posts.length).toBe(1);
    } finally {
      s.page.off('request', onRequest);
      await clock(s.sandbox.url, { reset: true });
    }
  });

  it('holds every link of the top bar on one line at 1280 px beside the outbox count and the widest clock offset', async () => {
    // an e-mail in the outbox: a feed upload that names who asked, indexed on the moved clock
    const form = new FormData();
    form.append(
      'feedFile',
      new Blob([readFileSync(path.join(FIXTURE_FEEDS, 'products.csv'))]),
      'products.csv',
    );
    const sent = await fetch(
      `${s.sandbox.url}/api/index/feed?feedId=42&requestedBy=qa%40example.com`,
      { method: 'POST', headers: { Authorization: AUTH }, body: form },
    );
    expect(sent.status).toBe(200);
    await clock(s.sandbox.url, { advance: 'PT2M' });
    // the widest offset the badge shows: two units of two digits each, behind real time
    const real = Date.now();
    await clock(s.sandbox.url, { set: new Date(real - (23 * 60 + 59) * 60_000).toISOString() });
    try {
      await s.page.setViewportSize({ width: 1280, height: 800 });
      await s.ui.open('#/timelines');
      await expect
        .poll(() => s.ui.testId('clock-button-offset').textContent())
        .toBe('−23 h 59 min');
      await expect.poll(() => s.ui.testId('nav-outbox').locator('.count').count()).toBe(1);
      await s.page.evaluate(SETTLE);
      const links = await s.page.locator('nav.nav a').all();
      expect(links.length).toBe(10);
      const first = (await links[0]!.boundingBox())!;
      for (const link of links) {
        const box = (await link.boundingBox())!;
        expect(box.y, `${await link.getAttribute('data-testid')}`).toBe(first.y);
      }
      const header = (await s.page.locator('header.topbar').boundingBox())!;
      expect(header.height).toBeLessThanOrEqual(50);
      await s.ui.screenshot('review-topbar-1280');
    } finally {
      await clock(s.sandbox.url, { reset: true });
    }
  });
});
