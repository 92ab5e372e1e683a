// The Compare view in real Chromium: a good run's recording loaded beside the sandbox's current traffic,
// each page side by side with its changes marked on the events they concern, and a link to the timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journey, run } from '../helpers/journey';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();

async function play(base: string, ndjson: string): Promise<void> {
  for (const line of ndjson.trim().split('\n')) {
    const e = JSON.parse(line) as Record<string, string>;
    const res = await fetch(`${base}/beacon/v2/${e.siteId}/${e.category}/${e.event}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(e.body),
    });
    expect(res.status).toBe(200);
  }
}

describe.skipIf(skip)('Compare', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
    // this release: the search page lost its clickthrough and impresses tile 102 twice, the order's
    // total moved
    const release = journey();
    release[0]![0]!.events.splice(2, 1);
    const impressed = release[0]![0]!.events[1]!.data as { results: unknown[] };
    impressed.results.push(impressed.results[1]);
    (release[0]![2]!.events[0]!.data as { total: number }).total = 90;
    await play(s.sandbox.url, run(release, { origin: 'http://127.0.0.1:5173' }));
  });
  afterAll(async () => {
    await s?.close();
  });

  const load = (name: string, text: string) =>
    s.ui.testId('compare-input').setInputFiles({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });

  it('shows the pages that differ side by side, each change on its event, with a link to the timeline', async () => {
    await s.ui.open('#/compare');
    await s.ui.testId('compare-empty').waitFor();
    await load('good-run.ndjson', run(journey()));
    const summary = s.ui.testId('compare-summary');
    await expect
      .poll(() => summary.textContent())
      .toBe('2 pages differ (2 changed of 4 in both runs; 4 pages in each).');
    const pages = s.ui.testId('compare-page');
    expect(await pages.count()).toBe(2);
    await s.ui.screenshot('compare');
    const search = pages.nth(0);
    expect(await search.textContent()).toContain('http://127.0.0.1:5173/search?q=shoes');
    const missing = search.locator('[data-testid="compare-base-event"][data-change="missing"]');
    expect(await missing.count()).toBe(1);
    // an impression's items said as diff says them: the uids each run impressed
    const impression = search.locator('[data-testid="compare-current-event"][data-change="field"]');
    expect(await impression.getByTestId('compare-field').textContent()).toBe(
      'data.results (uids impressed, 3 → 4): 102 impressed twice now, once in BASE',
    );
    expect(await missing.textContent()).toBe('search/clickthroughmissing');
    const order = pages.nth(1);
    const field = order.locator('[data-testid="compare-current-event"][data-change="field"]');
    expect(await field.getByTestId('compare-field').textContent()).toBe('data.total: 100 → 90');
    expect(
      await order.locator('[data-testid="compare-base-event"][data-change="field"]').count(),
    ).toBe(1);

    // every page, the same ones too
    await s.page.getByLabel('only pages that differ').uncheck();
    await expect.poll(() => pages.count()).toBe(4);
    expect(await s.page.locator('[data-testid="compare-page"][data-status="same"]').count()).toBe(
      2,
    );

    await search.getByTestId('compare-timeline-link').click();
    await s.ui.testId('page-view').waitFor();
    expect(await s.ui.testId('page-view').getAttribute('data-page-load-id')).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    expect(s.page.url()).toContain('#/timelines/demo42');
  });

  it('marks an event sent alike at another place as moved on both sides, with its place on the other', async () => {
    // BASE: this release's traffic, but the product page's widget impressed before its render
    const before = journey();
    before[0]![0]!.events.splice(2, 1);
    const twice = before[0]![0]!.events[1]!.data as { results: unknown[] };
    twice.results.push(twice.results[1]);
    (before[0]![2]!.events[0]!.data as { total: number }).total = 90;
    const product = before[0]![1]!.events;
    product.push(product.splice(1, 1)[0]!); // pageview, impression, render
    await s.ui.open('#/compare');
    await load('before.ndjson', run(before));
    await expect
      .poll(() => s.ui.testId('compare-summary').textContent())
      .toBe('1 page differs (1 changed of 4 in both runs; 4 pages in each).');
    const page = s.ui.testId('compare-page');
    expect(await page.count()).toBe(1);
    const moved = (side: string) =>
      page.locator(`[data-testid="compare-${side}-event"][data-change="moved"]`);
    expect(await moved('base').count()).toBe(1);
    expect(await moved('base').textContent()).toBe('recommendations/impressionmoved to event 3');
    expect(await moved('current').count()).toBe(1);
    expect(await moved('current').textContent()).toBe(
      'recommendations/impressionmoved from event 2',
    );
  });

  it('says why a recording cannot be read, naming its line; a filter to a site with no traffic says there is nothing to compare', async () => {
    await s.ui.open('#/compare');
    await load(
      'broken.ndjson',
      '{"siteId":"demo42","category":"search","event":"render","body":{}}\n{oops\n',
    );
    const error = s.ui.testId('error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(
      /Cannot compare this recording.*the uploaded recording:2: not valid JSON/,
    );

    // every page "removed" read as a regression of the storefront; the filter is what is wrong
    // (and each filter says it narrows the current traffic, not the recording)
    for (const name of ['siteId', 'sessionId'])
      expect(
        await s.page.locator('label', { has: s.page.getByLabel(name) }).getAttribute('title'),
      ).toMatch(/^Narrows the sandbox's current traffic only/);
    await s.page.getByLabel('siteId').fill('abc123');
    await load('good-run.ndjson', run(journey()));
    await expect
      .poll(() => error.textContent())
      .toMatch(
        /Cannot compare this recording.*CURRENT \(the sandbox's recorded traffic of site abc123\) has no beacon v2 event of a page: nothing to compare/,
      );
    expect(await s.ui.testId('compare-summary').count()).toBe(0);
  });

  it('names the compared recording in the URL; a reload says the loaded file is gone and to load it again, Back from a timeline shows it again', async () => {
    await s.ui.open('#/compare');
    await s.page.getByLabel('siteId').fill('demo42');
    await load('good-run.ndjson', run(journey()));
    const summary = s.ui.testId('compare-summary');
    await expect
      .poll(() => summary.textContent())
      .toBe('2 pages differ (2 changed of 4 in both runs; 4 pages in each).');
    await expect
      .poll(() => s.page.evaluate<string>('location.hash'))
      .toBe('#/compare?recording=good-run.ndjson&siteId=demo42');

    // the app's own way back: from a page's timeline, Back shows the comparison again
    await s.ui.testId('compare-timeline-link').first().click();
    await s.ui.testId('page-view').waitFor();
    await s.page.goBack();
    await expect
      .poll(() => summary.textContent())
      .toContain('2 pages differ (2 changed of 4 in both runs');

    // the sandbox stores no baselines: the file was read in this window, a reload cannot compare it again
    await s.page.reload();
    const gone = s.ui.testId('compare-gone');
    await gone.waitFor();
    expect(await gone.textContent()).toContain('The comparison with good-run.ndjson is gone');
    expect(await gone.textContent()).toContain('Load good-run.ndjson again');
    expect(await s.ui.testId('compare-empty').count()).toBe(0);
    expect(await s.page.getByLabel('siteId').inputValue()).toBe('demo42');
    await load('good-run.ndjson', run(journey()));
    await expect
      .poll(() => summary.textContent())
      .toContain('2 pages differ (2 changed of 4 in both runs');
    await gone.waitFor({ state: 'detached' });
  });
});
