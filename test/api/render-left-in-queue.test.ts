// A shopper who clicks a result as soon as it appears and goes to the product: the provider's client holds
// the render 300 ms in its queue and sends the click at once, with no flush when the page is left, so the
// sandbox receives the click alone. Over HTTP, against the companion search, and through `check` of the
// export: timed by the sandbox's answer, that is info (missing-render-at-exit), not missing-render's error;
// a click later than a render stays queued, a page that went on, or an impression that arrived stays one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { postBeacon } from '../helpers/sandbox';
import { check, exportFile } from '../helpers/check';
import { runToEnd, startFrozen, upload } from './indexing-helpers';

const FEED = readFileSync(path.resolve(__dirname, '../../fixtures/search/outdoor-products.csv'));
const PAGE_URL = 'http://localhost:5173/search?q=jacket';
const TILE = { results: [{ type: 'product', uid: 'P200', parentId: 'P200', sku: 'P200' }] };

let sb: Sandbox;
const cleanups: Array<() => unknown> = [];
beforeAll(async () => {
  sb = await startFrozen();
  expect((await upload(sb.url, 'feedId=42', FEED, 'outdoor-products.csv')).status).toBe(200);
  expect((await runToEnd(sb, 42)).state).toBe('done');
});
afterAll(async () => {
  await sb?.close();
  for (const c of cleanups) await c();
});

/** the sandbox's answer to a development search for "jacket": its responseId */
async function search(): Promise<string> {
  const res = await fetch(
    `${sb.url}/api/search/search.json?siteId=demo42&q=jacket&beacon=true&test=true`,
  );
  return ((await res.json()) as { responseId: string }).responseId;
}

/** a beacon of page load `pageLoadId`, timestamped `afterMs` after the sandbox's clock now */
function body(pageLoadId: string, data: Record<string, unknown>, afterMs = 0) {
  return {
    context: {
      timestamp: new Date(sb.core.clock.now() + afterMs).toISOString(),
      pageUrl: PAGE_URL,
      userId: 'user-1',
      sessionId: 'session-1',
      pageLoadId,
      initiator: 'search-sandbox/api-test',
      dev: true,
    },
    data,
  };
}

async function click(pageLoadId: string, responseId: string): Promise<void> {
  const res = await postBeacon(
    sb.url,
    'demo42/search/clickthrough',
    body(pageLoadId, { responseId, ...TILE }),
  );
  expect(res.status, await res.text()).toBe(200);
}

async function findings(pageLoadId: string): Promise<Array<[string, string]>> {
  const res = await fetch(`${sb.url}/_sandbox/timelines?siteId=demo42`);
  const { pages } = (await res.json()) as { pages: PageTimelineDto[] };
  const page = pages.find((p) => p.pageLoadId === pageLoadId)!;
  return page.findings
    .filter((f) => f.rule.startsWith('missing-render'))
    .map((f) => [f.rule, f.severity]);
}

async function advance(iso: string): Promise<void> {
  const res = await fetch(`${sb.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance: iso }),
  });
  expect(res.status).toBe(200);
}

describe('a click that leaves the page before its render left the client’s queue', () => {
  it('is info when it came as soon as the sandbox answered, and the page sent nothing after it', async () => {
    await click('left-at-once', await search());
    expect(await findings('left-at-once')).toEqual([['missing-render-at-exit', 'info']]);

    // `check` of the export judges every page as finished, with the issued responses the export holds
    const { out } = await check(await exportFile(cleanups, sb.url));
    expect(out).toMatch(/^PASS +demo42 +page left-at-once /m);
    expect(out).not.toMatch(/error +missing-render/);
    expect(out).toMatch(/info +missing-render-at-exit/);
    expect(out).toContain('wait until search/render with data.responseId');
  });

  it('stays an error when the click came later than a render stays queued', async () => {
    const late = await search();
    await advance('PT2.001S');
    await click('left-late', late);
    expect(await findings('left-late')).toEqual([['missing-render', 'error']]);
  });

  it('stays an error when the page went on after the click, or an impression of the response arrived', async () => {
    const stayed = await search();
    await click('stayed', stayed);
    const later = body('stayed', { responseId: 'ac-other' }, 1000);
    await postBeacon(sb.url, 'demo42/autocomplete/render', later);
    expect(await findings('stayed')).toEqual([['missing-render', 'error']]);

    const impressed = await search();
    const impression = body('impressed', { responseId: impressed, ...TILE, banners: [] }, -100);
    await postBeacon(sb.url, 'demo42/search/impression', impression);
    await click('impressed', impressed);
    expect(await findings('impressed')).toEqual([['missing-render', 'error']]);
  });
});
