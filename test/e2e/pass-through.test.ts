// Pass-through in real Chromium: a page whose search response came from the (fake, local) real service shows
// it "from upstream"; the inspector shows the real beacon service's answer beside the sandbox's verdict, and
// the disagreement finding; the Actions screen counts what was forwarded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBeacon } from '../helpers/sandbox';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { SITE, beacon, passThroughAccounts } from '../helpers/pass-through';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
const RECORDED = JSON.parse(
  readFileSync(
    path.resolve(__dirname, '../../fixtures/search/upstream-search-response.json'),
    'utf8',
  ),
) as { responseId: string };
const REJECT = { success: false, error: 'ValidationError', messages: ['unknown field'] };

describe.skipIf(skip)('pass-through UI', () => {
  let fake: FakeUpstream;
  let s: UiSession;

  beforeAll(async () => {
    // one fake plays both real services: search answers the recorded response, beacons are rejected
    fake = await startFakeUpstream((req) => {
      if (!req.url.startsWith('/beacon/v2/')) return { body: RECORDED };
      // the live page's beacon is answered only when the test releases it
      return req.body.includes('pt-live') ? { hold: true } : { status: 400, body: REJECT };
    });
    s = await openUi({
      accounts: passThroughAccounts({
        search: { upstream: fake.url },
        tracking: { forward: `${fake.url}/beacon/v2` },
      }),
    });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('shows the response from upstream, the real answer in the inspector, and the forwarding counts', async () => {
    const search = await fetch(
      `${s.sandbox.url}/api/search/search.json?siteId=${SITE}&q=jacket&beacon=true`,
    );
    expect(search.status).toBe(200);
    const res = await postBeacon(
      s.sandbox.url,
      `${SITE}/search/render`,
      beacon('pt-ui', { responseId: RECORDED.responseId }),
    );
    expect(res.status).toBe(200);
    await s.sandbox.core.forwarding.idle();

    await s.ui.open('#/timelines');
    const view = await s.ui.openPage('pt-ui');
    await s.ui.finding('upstream-disagrees').waitFor();
    const source = view.getByTestId('response-source');
    await source.waitFor();
    expect(await source.getAttribute('data-upstream')).toBe(fake.url);
    expect(await source.textContent()).toContain('from upstream');
    await s.ui.screenshot('pass-through-page');

    await s.page.locator('[data-testid="chart-event"]').first().click();
    const inspector = s.ui.testId('inspector');
    const outcome = inspector.getByTestId('upstream-outcome');
    await outcome.waitFor();
    expect(await outcome.getAttribute('data-outcome')).toBe('rejected');
    expect(await inspector.getByTestId('upstream-comparison').textContent()).toContain(
      'the sandbox accepted this event and the real service rejected it',
    );
    await s.ui.screenshot('pass-through-inspector');

    await s.ui.nav('actions');
    const counts = s.ui.testId('forwarding-counts');
    await counts.waitFor();
    expect(await counts.textContent()).toContain('1 rejected');
    expect(await s.ui.testId('forwarding').textContent()).toContain(`${fake.url}/beacon/v2`);
  });

  it('puts the real answer into an open inspector as it arrives', async () => {
    await s.ui.open('#/timelines');
    const res = await postBeacon(
      s.sandbox.url,
      `${SITE}/search/render`,
      beacon('pt-live', { responseId: 'live-1' }),
    );
    expect(res.status).toBe(200);
    await s.ui.pageRow('pt-live').waitFor();
    await s.ui.openPage('pt-live');
    await s.page.locator('[data-testid="chart-event"]').first().click();
    const inspector = s.ui.testId('inspector');
    await inspector.waitFor();
    expect(await inspector.getByTestId('upstream').count()).toBe(0);
    // the forwarded request has reached the real service, which holds its answer until now
    await expect.poll(() => fake.seen.some((r) => r.body.includes('pt-live'))).toBe(true);
    fake.release(); // answered 200 {"success":true}
    const outcome = inspector.getByTestId('upstream-outcome');
    await outcome.waitFor();
    expect(await outcome.getAttribute('data-outcome')).toBe('accepted');
    expect(await inspector.getByTestId('upstream-comparison').textContent()).toBe('Both agree.');
  });
});
