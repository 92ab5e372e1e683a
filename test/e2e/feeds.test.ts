// The feed board in real Chromium: a feed moved by hand through every state of a regenerating index,
// a refused move explained, and a feed file uploaded through the real bulk indexing API, indexed on the
// sandbox clock, refused inside the hour and accepted after the clock moves past it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedView } from '../../src/shared/indexing';
import { FIXTURE_FEEDS, openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);

const AUTH = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;

async function feedFromApi(base: string, feedId: number): Promise<FeedView> {
  const body = (await (await fetch(`${base}/_sandbox/feeds`)).json()) as { feeds: FeedView[] };
  return body.feeds.find((f) => f.id === feedId)!;
}

describe.skipIf(skip)('feed board UI', () => {
  let s: UiSession;

  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('moves a feed by hand through regeneration and indexing, and explains a refused move', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(43);
    await s.ui.feedState(43, 'done');
    // Autopilot off: only our hands move the feed, so no timer races the test.
    const autopilot = card.getByTestId('feed-autopilot');
    if (await autopilot.isChecked()) await autopilot.click();
    await expect.poll(() => autopilot.isChecked()).toBe(false);
    // set by hand against the config, and the card says what the config says
    expect(await card.getByTestId('feed-autopilot-by-hand').textContent()).toBe(
      'set by hand; the config says autopilot on',
    );

    for (const to of [
      'regen_waiting',
      'regen_running',
      'regen_done',
      'waiting',
      'running',
      'done',
    ]) {
      await card.getByTestId(`move-${to}`).click();
      await s.ui.feedState(43, to);
      expect(await card.getByTestId('feed-state').textContent()).toBe(to);
    }
    expect((await feedFromApi(s.sandbox.url, 43)).state).toBe('done');

    // regen_running is not reachable from done: the diagram lets you try, and the sandbox says why not.
    await card.getByTestId('diagram-node-regen_running').click();
    const refused = card.getByTestId('feed-refused');
    await refused.waitFor();
    const text = (await refused.textContent()) ?? '';
    expect(text).toContain('"done" cannot move to "regen_running"');
    // a feed with external regeneration regenerates first, by hand too
    expect(text).toContain('allowed from "done": "regen_waiting"');
    await s.ui.feedState(43, 'done');

    const history = card.getByTestId('feed-history-43');
    await expect
      .poll(() => history.locator('[data-kind="transition"]').count())
      .toBeGreaterThanOrEqual(6);
    expect(await history.textContent()).toContain('by hand');
    await card.scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds');
  });

  it('says a fixture’s done is not an indexed catalog until one is indexed here, as the catalog API does', async () => {
    await s.ui.open('#/feeds');
    // feeds start done as the fixtures say, before any catalog exists in this sandbox (docs/indexing.md)
    const catalog = (await (
      await fetch(`${s.sandbox.url}/_sandbox/feeds/demo42/42/catalog`)
    ).json()) as { indexedAt: string | null; total: number };
    expect(catalog).toMatchObject({ indexedAt: null, total: 0 });
    await s.ui.feedState(42, 'done');
    const card = s.ui.feedCard(42);
    expect(await card.getByTestId('feed-state-meaning').textContent()).toBe(
      'done as the config starts it (as a live account’s feed would be): no catalog indexed in this sandbox yet; upload a feed file to index one',
    );
    expect(await card.getByTestId('feed-last-indexed').textContent()).toContain(
      'as the config starts it',
    );
    // interval Never: requests are refused, so the way to a catalog is an interval first
    expect(await s.ui.feedCard(44).getByTestId('feed-state-meaning').textContent()).toBe(
      'done as the config starts it (as a live account’s feed would be): no catalog indexed in this sandbox yet; its interval is Never, so index requests are refused: pick an interval to index one',
    );
    // the cart feed's source is indexed at start-up: its done is a live catalog
    expect(await s.ui.feedCard(43).getByTestId('feed-state-meaning').textContent()).toBe(
      'indexed: the catalog is live',
    );
    await card.scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-fixture-done');
  });

  it('uploads a feed file through POST /api/index/feed, shows its products, and re-indexes after the hour', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    const file = path.join(FIXTURE_FEEDS, 'products.csv');
    const expected = readFileSync(file, 'utf8').trim().split('\n').length - 1;
    const clock = (button: string) =>
      s.page.locator(`[data-testid="feeds-view"] [data-testid="${button}"]`).click();
    const result = card.getByTestId('feed-upload-result-42');

    await card.getByTestId('feed-requested-by-42').fill('qa@example.com');
    await card.getByTestId('feed-upload-input-42').setInputFiles(file);
    await expect.poll(() => result.textContent()).toContain('200: accepted');
    await s.ui.feedState(42, 'waiting');

    // Autopilot runs on the sandbox clock: two minutes cover waiting (30 s) and running (30 s + 2 ms per product).
    await clock('clock-plus-minute');
    await clock('clock-plus-minute');
    await s.ui.feedState(42, 'done');
    await expect.poll(() => card.getByTestId('feed-products').textContent()).toBe(String(expected));
    expect(await card.getByTestId('feed-state-meaning').textContent()).toBe(
      'indexed: the catalog is live',
    );
    expect(await card.getByTestId('feed-last-indexed').textContent()).not.toContain('fixture');
    expect(await card.getByTestId('feed-row-errors').textContent()).toBe('0');
    expect((await feedFromApi(s.sandbox.url, 42)).products).toBe(expected);

    // Inside the hour the real API refuses a re-index and says when to retry.
    await card.getByTestId('feed-upload-input-42').setInputFiles(file);
    await expect.poll(() => result.textContent()).toMatch(/^429: .*Retry-After: \d+ s/);
    expect((await feedFromApi(s.sandbox.url, 42)).state).toBe('done');

    await clock('clock-plus-hour');
    await expect
      .poll(() =>
        s.page.locator('[data-testid="feeds-view"] [data-testid="clock-offset"]').textContent(),
      )
      .toMatch(/^\+1 h/);
    // This time drag and drop the file onto the card, as a user would from the file manager.
    const dataTransfer = await s.page.evaluateHandle(
      `(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(readFileSync(file, 'utf8'))}], 'products.csv', { type: 'text/csv' })); return dt; })()`,
    );
    await card.getByTestId('feed-dropzone-42').dispatchEvent('drop', { dataTransfer });
    await expect.poll(() => result.textContent()).toContain('200: accepted');
    await s.ui.feedState(42, 'waiting');

    // The first run named requestedBy: its status e-mail is in the outbox.
    await s.ui.nav('outbox');
    const message = s.ui.testId('outbox-message');
    await message.waitFor();
    expect(await message.textContent()).toContain('qa@example.com');
    await s.ui.screenshot('outbox');
  });
  it("does not blame the board's own upload for a status read it never needs; an integration's upload without one is still flagged", async () => {
    await fetch(`${s.sandbox.url}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ what: 'all' }),
    });
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    await s.ui.feedState(42, 'done');
    const rows = s.ui.testId('watch-indexing').getByTestId('live-row');
    const before = await rows.count();
    // no GET /api/index/status anywhere: the board shows the state through the admin API
    await card
      .getByTestId('feed-upload-input-42')
      .setInputFiles(path.join(FIXTURE_FEEDS, 'products.csv'));
    await expect
      .poll(() => card.getByTestId('feed-upload-result-42').textContent())
      .toContain('200: accepted');
    await expect.poll(() => rows.count()).toBe(before + 1);
    expect(await rows.first().textContent()).toContain('POST accepted');
    expect(await rows.first().textContent()).not.toContain('workflow');
    const request = card.locator('[data-kind="request"]').first();
    expect(await request.getByTestId('workflow-badge').textContent()).toBe(
      'Feeds view: not scored',
    );
    await request.getByTestId('workflow-findings-summary').click();
    expect(await request.getByTestId('workflow-findings').textContent()).toContain(
      "sandbox-ui sent from the sandbox's own Feeds view",
    );

    // an integration's upload, without a status read first, is scored as before
    const form = new FormData();
    form.append('feedFile', new Blob(['id,name\n1,Mug\n']), 'p.csv');
    const integration = await fetch(`${s.sandbox.url}/api/index/feed?feedId=44`, {
      method: 'POST',
      headers: { Authorization: AUTH },
      body: form,
    });
    expect(integration.status).toBe(409);
    await expect.poll(() => rows.count()).toBe(before + 2);
    expect(await rows.first().textContent()).toContain(
      'workflow: no GET /api/index/status in the 15 minutes before this request',
    );
  });

  it('says a wrong secret key is refused (401) within seconds, as the browser leaves the challenge to the page', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    const key = card.getByTestId('feed-secret-42');
    await key.fill('wrong');
    const started = Date.now();
    await card
      .getByTestId('feed-upload-input-42')
      .setInputFiles(path.join(FIXTURE_FEEDS, 'products.csv'));
    const result = card.getByTestId('feed-upload-result-42');
    await result.waitFor({ timeout: 3000 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await result.textContent()).toBe(
      '401: invalid credentials: the siteId and secret key do not match an account of this sandbox — check the secret key of site demo42 (the sandbox config lists it) and send again',
    );
    expect(await card.getByTestId('feed-dropzone-42').textContent()).not.toContain('Sending');
    // the key is kept per site: put the right one back for whoever uploads next
    await key.fill('demo-secret-key');
  });
  it('says who paused a feed, by hand or by a request, in its header and its history', async () => {
    const api = `${s.sandbox.url}/_sandbox/feeds/demo42/43`;
    const send = (method: string, url: string, body?: unknown) =>
      fetch(url, {
        method,
        headers: { 'content-type': 'application/json', authorization: AUTH },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const move = async (to: string) =>
      expect((await send('POST', `${api}/transition`, { to })).status).toBe(200);
    expect((await send('PATCH', api, { autopilot: false })).status).toBe(200);
    const at = (await feedFromApi(s.sandbox.url, 43)).state;
    const steps = ['regen_waiting', 'regen_running', 'regen_done', 'waiting', 'running'];
    for (const to of at === 'running' ? [] : steps) await move(to);
    await move('paused');

    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(43);
    await s.ui.feedState(43, 'paused');
    expect(await card.getByTestId('feed-state-meaning').textContent()).toBe('paused by hand');
    expect(await card.getByTestId('feed-paused-reason').count()).toBe(0);
    const paused = card.locator('[data-kind="transition"][data-to="paused"]');
    expect(await paused.first().getByTestId('history-meaning').textContent()).toBe(
      'paused by hand',
    );
    expect(await card.textContent()).not.toContain('paused by a request');

    // resumed, then paused by a bulk index request: the label and the newest history entry say so
    await move('running');
    expect((await send('PUT', `${s.sandbox.url}/api/index/feed?feedId=43`)).status).toBe(200);
    await expect
      .poll(() => card.getByTestId('feed-state-meaning').textContent())
      .toBe('paused by a request while indexing');
    expect(await card.getByTestId('feed-paused-reason').textContent()).toContain(
      'a bulk index request (PUT) arrived while the feed was running',
    );
    expect(
      await paused.evaluateAll((els) =>
        els.map((e) => e.querySelector('[data-testid="history-meaning"]')?.textContent),
      ),
    ).toEqual(['paused by a request while indexing', 'paused by hand']);
  });
});

describe.skipIf(skip)("a presenter's feed board", () => {
  let s: UiSession;
  const status = () =>
    fetch(`${s.sandbox.url}/api/index/status`, { headers: { Authorization: AUTH } });
  const put = (feedId: number) =>
    fetch(`${s.sandbox.url}/api/index/feed?feedId=${feedId}`, {
      method: 'PUT',
      headers: { Authorization: AUTH },
    });
  const clock = (button: string) =>
    s.page.locator(`[data-testid="feeds-view"] [data-testid="${button}"]`).click();

  beforeAll(async () => {
    s = await openUi({}, { viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('names each state in plain words, with human times and workflow notes folded until asked for', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(43);
    await s.ui.feedState(43, 'done');
    expect(await card.getByTestId('feed-state-meaning').textContent()).toBe(
      'indexed: the catalog is live',
    );
    // the schedule reads as a date and a time, not an API timestamp with milliseconds
    const last = (await card.getByTestId('feed-last-indexed').textContent()) ?? '';
    expect(last).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(.+ ago\)$/);
    await status();
    expect((await put(43)).status).toBe(200);
    await s.ui.feedState(43, 'regen_waiting');
    expect(await card.getByTestId('feed-state-meaning').textContent()).toBe(
      'queued to regenerate the feed',
    );
    const moved = card.locator('[data-kind="transition"][data-to="regen_waiting"]');
    expect(await moved.getByTestId('history-meaning').textContent()).toBe(
      'queued to regenerate the feed',
    );
    // the request followed the workflow: its one note (plain HTTP on loopback) waits behind a summary
    const request = card.locator('[data-kind="request"]').first();
    expect(await request.textContent()).toContain('workflow ok');
    const notes = request.getByTestId('workflow-findings');
    expect(await notes.isVisible()).toBe(false);
    await request.getByTestId('workflow-findings-summary').click();
    expect(await notes.textContent()).toContain('plain-http');
    await card.scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-presenter-1440');
    await s.page.setViewportSize({ width: 390, height: 844 });
    await card.getByTestId('feed-state').scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-presenter-390');
    await s.page.setViewportSize({ width: 1440, height: 900 });
  });

  it('+1 min walks the history through every state it passes; the hourly refusal says the clock skips it', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    await s.ui.feedState(42, 'done');
    const file = path.join(FIXTURE_FEEDS, 'products.csv');
    const result = card.getByTestId('feed-upload-result-42');
    await card.getByTestId('feed-upload-input-42').setInputFiles(file);
    await expect.poll(() => result.textContent()).toContain('200: accepted');
    await clock('clock-plus-minute');
    await clock('clock-plus-minute');
    await s.ui.feedState(42, 'done');
    const moves = await card
      .locator('[data-kind="transition"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-to')).reverse());
    expect(moves.slice(-3)).toEqual(['waiting', 'running', 'done']);
    // inside the hour: refused, and the refusal says how the sandbox skips the wait
    await card.getByTestId('feed-upload-input-42').setInputFiles(file);
    await expect.poll(() => result.textContent()).toMatch(/^429: /);
    const refusal = card.locator('[data-kind="request"]').first();
    // the history entry comes with the feed's next update on the stream
    await expect
      .poll(() => refusal.textContent())
      .toMatch(
        /one re-index per hour; try again in .* advancing its clock skips the wait: POST \/_sandbox\/clock \{"advance":"PT1H"\}, or \+1 h on the Feeds board/,
      );
  });

  it('after "reset to real time", entries recorded on the advanced clock say they are ahead of it', async () => {
    await s.ui.open('#/feeds');
    await clock('clock-plus-hour');
    const card = s.ui.feedCard(43);
    // autopilot moves feed 43 on along the hour: entries at the advanced time
    await s.ui.feedState(43, 'done');
    expect(await card.getByTestId('history-ahead').count()).toBe(0);
    await clock('clock-reset');
    await expect
      .poll(() =>
        s.page.locator('[data-testid="feeds-view"] [data-testid="clock-offset"]').textContent(),
      )
      .toMatch(/real time/);
    const ahead = card.getByTestId('history-ahead').first();
    await expect
      .poll(() => ahead.textContent())
      .toMatch(/^ \(\d+ min( \d+ s)? ahead of the clock\)$/);
    // its last index finished on the advanced clock: the board does not read it as one to come ("in 59 min")
    const feed = await feedFromApi(s.sandbox.url, 43);
    expect(Date.parse(feed.lastIndexed!)).toBeGreaterThan(Date.now());
    await expect
      .poll(() => card.getByTestId('feed-last-indexed-when').textContent())
      .toMatch(/^\(\d+ min( \d+ s)? ahead of the clock\)$/);
  });
});

describe.skipIf(skip)('the board on runs and catalogs', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  const admin = (method: string, p: string, body?: unknown) =>
    fetch(`${s.sandbox.url}/_sandbox${p}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const upload = (feedId: number, data: Buffer | string, name: string) => {
    const form = new FormData();
    form.append('feedFile', new Blob([data]), name);
    return fetch(`${s.sandbox.url}/api/index/feed?feedId=${feedId}`, {
      method: 'POST',
      headers: { authorization: AUTH },
      body: form,
    });
  };

  it('marks the previous run’s failure as the previous one while a new run is going, and says which catalog search serves', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    // a PDF ends the run in error
    expect((await upload(42, '%PDF-1.7\n%âãÏÓ\n1 0 obj\n', 'catalog.pdf')).status).toBe(200);
    await admin('POST', '/clock', { advance: 'PT2M' });
    await s.ui.feedState(42, 'error');
    const failure = card.getByTestId('feed-run-error');
    expect(await failure.getAttribute('data-previous')).toBeNull();
    expect(await card.getByTestId('feed-run-summary').textContent()).toMatch(
      /^Last run \(ended .+ UTC\) failed: unknown format, raw, 0 products read, .*; none indexed$/,
    );

    // an hour on, a new upload queued by hand (autopilot off: it stays queued while we look)
    await admin('POST', '/clock', { advance: 'PT1H' });
    await admin('PATCH', '/feeds/demo42/42', { autopilot: false });
    expect(
      (await upload(42, readFileSync(path.join(FIXTURE_FEEDS, 'products.csv')), 'p.csv')).status,
    ).toBe(200);
    await s.ui.feedState(42, 'waiting');
    await expect.poll(() => failure.getAttribute('data-previous')).toBe('true');
    expect(await failure.textContent()).toMatch(/^Previous run failed: /);
    expect(await card.getByTestId('feed-run-summary').textContent()).toMatch(/^Previous run /);
    await card.scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-previous-run');

    // indexed: search now serves feed 42's catalog, and feed 43's card no longer claims to be live
    await admin('PATCH', '/feeds/demo42/42', { autopilot: true });
    await admin('POST', '/clock', { advance: 'PT2M' });
    await s.ui.feedState(42, 'done');
    expect(await card.getByTestId('feed-run-error').count()).toBe(0);
    expect(await card.getByTestId('feed-state-meaning').textContent()).toBe(
      'indexed: the catalog is live',
    );
    expect(await card.getByTestId('feed-search-serves').textContent()).toMatch(
      /^Search serves this feed's catalog/,
    );
    const other = s.ui.feedCard(43);
    await expect
      .poll(() => other.getByTestId('feed-state-meaning').textContent())
      .toBe("indexed; search serves feed 42's catalog, indexed later, not this one");
    expect(await other.getByTestId('feed-search-serves').textContent()).toMatch(
      /^Search serves feed 42's catalog \(indexed .+ UTC\), the site's last indexed; this feed's catalog \(12 products\) is not searched\.$/,
    );
    await other.scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-search-serves');
  });

  it('gives a run’s decoded size in MB past 1 MiB, and lists a price that reads two ways as a row warning', async () => {
    await admin('POST', '/clock', { advance: 'PT1H' });
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    // a semicolon export of 1.2 MiB: decimal commas, and one price that reads two ways
    const rows = ['sku;name;price', 'S1;Semi one;1,500'];
    for (let i = 2, size = 0; size < 1.2 * 1024 * 1024; i++) {
      rows.push(`S${i};a product of a semicolon export, number ${i};${i},50`);
      size += rows.at(-1)!.length + 1;
    }
    const text = `${rows.join('\n')}\n`;
    expect((await upload(42, text, 'semi.csv')).status).toBe(200);
    await admin('POST', '/clock', { advance: 'PT10M' });
    await s.ui.feedState(42, 'done');
    const mb = (Buffer.byteLength(text) / 1024 / 1024).toFixed(1);
    await expect
      .poll(() => card.getByTestId('feed-run-summary').textContent())
      .toContain(`, ${mb} MB decoded`);
    const warnings = card.getByTestId('feed-row-warnings');
    expect(await warnings.locator('summary').textContent()).toBe('1 row warning');
    await warnings.locator('summary').click();
    expect(await warnings.locator('li').textContent()).toMatch(
      /^line 2 price "1,500" could be 1\.5 or 1500: read as 1\.5, its "," taken as the decimal mark like most of the feed's prices that tell \(line 3: "2,50"\)/,
    );
  });
});

describe.skipIf(skip)("an upload feed's answers and mail on the board", () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi({}, { viewport: { width: 1366, height: 900 } });
  });
  afterAll(async () => {
    await s?.close();
  });
  const advance = (duration: string) =>
    fetch(`${s.sandbox.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: duration }),
    });
  const file = path.join(FIXTURE_FEEDS, 'products.csv');

  it('re-indexes the last upload with PUT from the card, as the docs say PUT does for an upload feed', async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    await s.ui.feedState(42, 'done');
    const result = card.getByTestId('feed-upload-result-42');
    const put = card.getByTestId('feed-put-42');
    // nothing uploaded yet: the real API has no file to re-index, and says so
    expect(await put.count()).toBe(1);
    await put.click();
    await expect.poll(() => result.textContent()).toMatch(/^409: /);

    await card.getByTestId('feed-upload-input-42').setInputFiles(file);
    await expect.poll(() => result.textContent()).toContain('200: accepted');
    await s.ui.feedState(42, 'waiting');
    expect((await advance('PT2M')).status).toBe(200);
    await s.ui.feedState(42, 'done');

    const uploaded = (await feedFromApi(s.sandbox.url, 42)).lastRun!;

    // an hour on, PUT re-indexes the file uploaded last: a run of its own, reading the same products
    expect((await advance('PT1H')).status).toBe(200);
    await put.click();
    await expect.poll(() => result.textContent()).toMatch(/^200: accepted/);
    await s.ui.feedState(42, 'waiting');
    const request = card.locator('[data-kind="request"]').first();
    expect(await request.textContent()).toContain('PUT /api/index/feed');
    expect((await advance('PT2M')).status).toBe(200);
    await s.ui.feedState(42, 'done');
    const expected = readFileSync(file, 'utf8').trim().split('\n').length - 1;
    const reindexed = await feedFromApi(s.sandbox.url, 42);
    expect(reindexed.products).toBe(expected);
    expect(reindexed.lastRun).toMatchObject({ error: null, products: expected });
    expect(reindexed.lastRun!.finishedAt).not.toBe(uploaded.finishedAt);
    await card.getByTestId('feed-upload').scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-put-upload-1366');
    await s.page.setViewportSize({ width: 390, height: 844 });
    await card.getByTestId('feed-upload').scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-put-upload-390');
    await s.page.setViewportSize({ width: 1366, height: 900 });
  });

  it("says an upload's answer is out of date once the feed moved on", async () => {
    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(42);
    await s.ui.feedState(42, 'done');
    const result = card.getByTestId('feed-upload-result-42');
    expect((await advance('PT1H')).status).toBe(200);
    await card.getByTestId('feed-upload-input-42').setInputFiles(file);
    await expect.poll(() => result.textContent()).toContain('200: accepted');
    await s.ui.feedState(42, 'waiting');
    // still waiting: the answer holds
    expect(await result.getAttribute('data-stale')).toBeNull();
    expect((await advance('PT2M')).status).toBe(200);
    await s.ui.feedState(42, 'done');
    // the feed indexed and is done: "waits its turn" is no longer so, and the banner says it
    await expect.poll(() => result.getAttribute('data-stale')).toBe('true');
    expect(await result.textContent()).toMatch(
      / — out of date: the feed has moved on since \(now done; its history below says how\)\.$/,
    );
    await card.getByTestId('feed-upload').scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-answer-out-of-date-1366');
    await s.page.setViewportSize({ width: 390, height: 844 });
    await card.getByTestId('feed-upload').scrollIntoViewIfNeeded();
    await s.ui.screenshot('feeds-answer-out-of-date-390');
    await s.page.setViewportSize({ width: 1366, height: 900 });
  });

  it('marks mail dated ahead of the sandbox clock, as the history does, once the clock went back', async () => {
    const form = new FormData();
    form.append('feedFile', new Blob([readFileSync(file)]), 'products.csv');
    expect((await advance('PT1H')).status).toBe(200);
    const sent = await fetch(
      `${s.sandbox.url}/api/index/feed?feedId=42&requestedBy=ahead%40example.com`,
      { method: 'POST', headers: { Authorization: AUTH }, body: form },
    );
    expect(sent.status).toBe(200);
    expect((await advance('PT2M')).status).toBe(200);
    await s.ui.open('#/outbox');
    const list = s.ui.testId('outbox-list');
    await expect.poll(() => list.textContent(), { timeout: 10_000 }).toContain('ahead@example.com');
    // on the clock it was written on, no mail is ahead of it
    expect(await s.ui.testId('outbox-view').getByTestId('mail-ahead').count()).toBe(0);
    await s.ui.testId('outbox-view').getByTestId('clock-reset').click();
    const mark = list.locator('li', { hasText: 'ahead@example.com' }).getByTestId('mail-ahead');
    await expect.poll(() => mark.count()).toBe(1);
    await expect
      .poll(() => mark.textContent())
      .toMatch(/^ \(\d+ (h|min)( \d+ (min|s))? ahead of the clock\)$/);
    expect(await s.ui.testId('outbox-message').getByTestId('mail-ahead').count()).toBe(1);
    await s.ui.screenshot('outbox-ahead-1366');
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.ui.screenshot('outbox-ahead-390');
    await s.page.setViewportSize({ width: 1366, height: 900 });
  });
});

describe.skipIf(skip)('the board after the clock goes back', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = (method: string, p: string, body?: string | FormData, json = true) =>
    fetch(`${s.sandbox.url}${p}`, {
      method,
      headers: {
        authorization: AUTH,
        ...(json && body ? { 'content-type': 'application/json' } : {}),
      },
      body,
    });
  const clock = (body: unknown) => call('POST', '/_sandbox/clock', JSON.stringify(body));

  it('names the catalog indexed last as served, and says its sandbox time is the earlier one', async () => {
    await s.ui.open('#/feeds');
    // a day ahead, the outdoor catalog indexed to feed 42
    expect((await clock({ advance: 'P1D' })).status).toBe(200);
    const form = new FormData();
    const outdoor = readFileSync(path.join(FIXTURE_FEEDS, '../search/outdoor-products.csv'));
    form.append('feedFile', new Blob([outdoor]), 'outdoor-products.csv');
    expect((await call('POST', '/api/index/feed?feedId=42', form, false)).status).toBe(200);
    expect((await clock({ advance: 'PT10M' })).status).toBe(200);
    await expect.poll(async () => (await feedFromApi(s.sandbox.url, 42)).products).toBe(22);
    // back to real time, feed 43 re-indexes its cart source: indexed after feed 42, at an earlier time
    expect((await clock({ reset: true })).status).toBe(200);
    expect((await call('PUT', '/api/index/feed?feedId=43')).status).toBe(200);
    expect((await clock({ advance: 'PT10M' })).status).toBe(200);
    const card42 = s.ui.feedCard(42);
    await expect
      .poll(() => card42.getByTestId('feed-state-meaning').textContent())
      .toBe(
        "indexed; search serves feed 43's catalog, indexed later (at an earlier sandbox time: the clock went back in between), not this one",
      );
    expect(await card42.getByTestId('feed-search-serves').textContent()).toMatch(
      /^Search serves feed 43's catalog \(indexed .+ UTC\), the site's last indexed; this feed's catalog \(22 products\) is not searched\. Feed 43's was indexed after this one's, at an earlier sandbox time: the clock went back in between\.$/,
    );
    const card43 = s.ui.feedCard(43);
    expect(await card43.getByTestId('feed-state-meaning').textContent()).toBe(
      'indexed: the catalog is live',
    );
    expect(await card43.getByTestId('feed-search-serves').textContent()).toMatch(
      /^Search serves this feed's catalog/,
    );
  });
});
