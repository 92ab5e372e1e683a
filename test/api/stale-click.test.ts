// A click sent with an earlier search's responseId, on a page that rendered its own response, on a site
// whose searches the sandbox does not answer (no issued responses to tell pages by): the live timeline
// names it as the stale responseId it is, an error whose fix is to send the tile's own response's id, not
// as infinite scroll's backfill (info, "send a render"). A page infinite scroll restored, whose later
// page's tiles carry their own new responseId, is still that info.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { TimelineListDto } from '../../src/shared/timeline';
import { postBeacon, startSandbox } from '../helpers/sandbox';

let sb: Sandbox;
beforeAll(async () => {
  // demo42 of the demo config: its searches go elsewhere (no companion search), so nothing is issued
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const SITE = 'demo42';
const pageUrl = 'https://shop.example/search?q=shirt';
const start = Date.now() - 120_000;

/** One page load of the shopper's session, in production (the client's cache on). */
function pageLoad(pageLoadId: string) {
  return async (at: number, endpoint: string, data: unknown) => {
    const context = {
      timestamp: new Date(start + at).toISOString(),
      pageUrl,
      userId: 'u-stale',
      sessionId: 's-stale',
      pageLoadId,
      initiator: 'search-sandbox/test',
    };
    const res = await postBeacon(sb.url, `${SITE}/search/${endpoint}`, { context, data });
    expect(res.status, await res.text()).toBe(200);
  };
}
const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: uid });

async function findings(pageLoadId: string) {
  const res = await fetch(
    `${sb.url}/_sandbox/timelines?siteId=${SITE}&pageLoadId=${pageLoadId}&finished=true`,
  );
  expect(res.status).toBe(200);
  const list = (await res.json()) as TimelineListDto;
  return list.pages[0]!.findings.filter((f) => f.rule !== 'dev-flag');
}

describe('a click with an earlier search’s responseId, the sandbox issuing neither response', () => {
  beforeAll(async () => {
    const earlier = pageLoad('pl-earlier');
    await earlier(0, 'render', { responseId: 'resp-earlier' });
    await earlier(1200, 'impression', {
      responseId: 'resp-earlier',
      results: [tile('P100')],
      banners: [],
    });
    // the same search again on a new page load: its own response rendered and impressed, then a tile
    // clicked with the earlier page's responseId
    const later = pageLoad('pl-later');
    await later(20_000, 'render', { responseId: 'resp-later' });
    await later(21_200, 'impression', {
      responseId: 'resp-later',
      results: [tile('P200')],
      banners: [],
    });
    await later(23_000, 'clickthrough', {
      responseId: 'resp-earlier',
      results: [tile('P200')],
    });
    // infinite scroll restoring two pages on load: page 1 rendered, page 2's tiles impressed with its own
    const restored = pageLoad('pl-restored');
    await restored(40_000, 'render', { responseId: 'resp-page-1' });
    await restored(41_200, 'impression', {
      responseId: 'resp-page-1',
      results: [tile('P300')],
      banners: [],
    });
    await restored(41_300, 'impression', {
      responseId: 'resp-page-2',
      results: [tile('P310')],
      banners: [],
    });
  });

  it('leads with the stale responseId and its fix, an error', async () => {
    const [lead, ...rest] = await findings('pl-later');
    expect(lead).toMatchObject({
      rule: 'missing-render',
      messageId: 'carriedOver',
      severity: 'error',
      responseId: 'resp-earlier',
      behaviour: 'search.response-bound',
    });
    expect(lead!.message).toContain(
      'carries responseId "resp-earlier", an earlier search\'s: it was first seen on page pl-earlier',
    );
    expect(lead!.fix).toMatch(
      /^send each impression, click and add with the responseId of the response whose results the page shows \(this page rendered "resp-later"\)/,
    );
    expect(rest.map((f) => f.rule)).not.toContain('missing-render-backfill');
  });

  it('leaves a page infinite scroll restored as backfill, info', async () => {
    const found = await findings('pl-restored');
    expect(found.map((f) => [f.rule, f.severity, f.responseId])).toEqual([
      ['missing-render-backfill', 'info', 'resp-page-2'],
    ]);
  });
});

describe('a click with a responseId no search gave, of a tile impressed under the response the sandbox issued', () => {
  it('leads with the click sent under another response and its fix; the missing render follows from it', async () => {
    const url = 'https://shop.example/search?q=mug';
    const ids = { userId: 'u-made-up', sessionId: 's-made-up', pageLoadId: 'pl-made-up' };
    const query = new URLSearchParams({ siteId: SITE, q: 'mug', beacon: 'true', test: 'true' });
    for (const [k, v] of Object.entries({ ...ids, domain: url })) query.set(k, v);
    const answer = (await (await fetch(`${sb.url}/api/search/search.json?${query}`)).json()) as {
      responseId: string;
      results: Array<{ uid: string }>;
    };
    const uid = answer.results[0]!.uid;
    const send = async (at: number, endpoint: string, data: unknown) => {
      const context = {
        timestamp: new Date(Date.now() - 60_000 + at).toISOString(),
        pageUrl: url,
        ...ids,
        initiator: 'search-sandbox/test',
        dev: true,
      };
      const res = await postBeacon(sb.url, `${SITE}/search/${endpoint}`, { context, data });
      expect(res.status, await res.text()).toBe(200);
    };
    await send(0, 'render', { responseId: answer.responseId });
    await send(1500, 'impression', {
      responseId: answer.responseId,
      results: [tile(uid)],
      banners: [],
    });
    await send(4000, 'clickthrough', { responseId: 'stale-responseid-0001', results: [tile(uid)] });
    const [lead, ...rest] = await findings('pl-made-up');
    expect(lead).toMatchObject({ rule: 'click-under-other-response', severity: 'warning' });
    expect(lead!.fix).toContain("take the responseId from the tile's own result");
    expect(rest.map((f) => [f.rule, f.severity, f.causedBy])).toEqual([
      ['missing-render', 'error', `click-under-other-response:stale-responseid-0001`],
    ]);
  });
});
