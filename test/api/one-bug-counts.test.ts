// One bug reads as one wherever a page's findings are counted: an SPA re-search whose events keep the first
// search's responseId draws three errors, two of which follow from the stale id. The verdict and the raw
// counts stay (CI depends on them); every count says how many follow from another finding: the admin API's
// page and summary, check's JUnit and JSON, and expectClean's message.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/main/api/index';
import type {
  PageTimelineDto,
  PageTimelineSummaryDto,
  TimelineListDto,
  TimelineReportDto,
} from '../../src/shared/timeline';
import { check, exportFile } from '../helpers/check';
import { postBeacon } from '../helpers/sandbox';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const ids = { userId: 'u-spa', sessionId: 's-spa', pageLoadId: 'pl-spa' };

/** A search asked for as the Snap client asks it, from the page showing `pageUrl`. */
async function search(q: string, pageUrl: string) {
  const query = new URLSearchParams({ siteId: 'demo42', q, beacon: 'true', test: 'true' });
  for (const [k, v] of Object.entries({ ...ids, domain: pageUrl })) query.set(k, v);
  const res = await fetch(`${sandbox.url}/api/search/search.json?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    responseId: string;
    results: Array<{ uid: string; parentId?: string; sku?: string }>;
  };
}

let clock = Date.now() - 60_000;
async function send(endpoint: string, pageUrl: string, data: unknown) {
  clock += 1500;
  const context = {
    timestamp: new Date(clock).toISOString(),
    pageUrl,
    ...ids,
    initiator: 'search-sandbox/test',
    dev: true,
  };
  const res = await postBeacon(sandbox.url, `demo42/${endpoint}`, { context, data });
  expect(res.status).toBe(200);
}

const tile = (r: { uid: string; parentId?: string }) => ({
  type: 'product',
  uid: r.uid,
  parentId: r.parentId ?? r.uid,
});

describe('a stale responseId after an SPA re-search', () => {
  beforeAll(async () => {
    const jacketUrl = 'https://shop.example/search?q=jacket';
    const jacket = await search('jacket', jacketUrl);
    await send('search/render', jacketUrl, { responseId: jacket.responseId });
    await send('search/impression', jacketUrl, {
      responseId: jacket.responseId,
      results: jacket.results.slice(0, 2).map(tile),
      banners: [],
    });
    // the shopper searches again in place: the new response renders, its tiles go out with the old id
    const trailUrl = 'https://shop.example/search?q=trail';
    const trail = await search('trail', trailUrl);
    expect(trail.results.length).toBeGreaterThan(0);
    await send('search/render', trailUrl, { responseId: trail.responseId });
    await send('search/impression', trailUrl, {
      responseId: jacket.responseId,
      results: trail.results.slice(0, 1).map(tile),
      banners: [],
    });
    await send('search/clickthrough', trailUrl, {
      responseId: jacket.responseId,
      results: [tile(trail.results[0]!)],
    });
  });

  it('the admin API keeps the verdict and the counts, and says how many follow from another', async () => {
    const list = (await (
      await fetch(`${sandbox.url}/_sandbox/timelines?siteId=demo42&view=summary`)
    ).json()) as TimelineListDto<PageTimelineSummaryDto>;
    const summary = list.pages.find((p) => p.pageLoadId === ids.pageLoadId)!;
    expect(summary.verdict).toBe('fail');
    expect(summary.counts.errors).toBe(3);
    expect(summary.following).toEqual({ errors: 2, warnings: 0, infos: 0 });

    const page = (await (
      await fetch(`${sandbox.url}/_sandbox/timelines/${ids.pageLoadId}?siteId=demo42`)
    ).json()) as PageTimelineDto;
    expect(page.findings.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual([
      'responseid-stale',
      'response-replaced',
      'item-not-in-response',
    ]);
    expect(page.following).toEqual(summary.following);
    expect(page.findings.filter((f) => f.causedBy === page.findings[0]!.id)).toHaveLength(2);
  });

  it('expectClean counts them as check does and folds the two under the stale id', async () => {
    const failure = await sandbox.expectClean({ siteId: 'demo42' }).then(
      () => new Error('expectClean passed'),
      (e: Error) => e,
    );
    expect(failure.message).toContain('3 findings (2 follow from another finding) on 1 of 1 page');
    expect(failure.message).toMatch(/\n {2}error responseid-stale: /);
    expect(failure.message).toMatch(
      /\n {2}↳ error response-replaced, follows from responseid-stale: /,
    );
    expect(failure.message).toMatch(
      /\n {2}↳ error item-not-in-response, follows from responseid-stale: /,
    );
  });

  it('check of its export: the same exit code, and the JUnit and JSON say how many follow', async () => {
    const file = await exportFile(cleanups, sandbox.url, 'spa.json');
    const junit = await check(file, '--format', 'junit');
    expect(junit.code).toBe(1);
    expect(junit.out).toMatch(
      /message="responseid-stale: [^"]+ \(and 2 more errors: response-replaced, item-not-in-response\)">page [^\n]+\n3 errors \(2 follow from another finding\)\n\n/,
    );
    const json = await check(file, '--format', 'json');
    expect(json.code).toBe(1);
    const [page] = (JSON.parse(json.out) as TimelineReportDto).pages;
    expect(page!.counts.errors).toBe(3);
    expect(page!.following).toEqual({ errors: 2, warnings: 0, infos: 0 });
  });

  it("the HTML report's table of rules says which rows' findings follow from another", async () => {
    const html = await (await fetch(`${sandbox.url}/_sandbox/report?format=html`)).text();
    const row = (rule: string) =>
      new RegExp(`<td><b>${rule}</b></td><td>1</td><td>1([^<]*<span[^>]*>[^<]*</span>)?</td>`).exec(
        html,
      )?.[0];
    expect(row('responseid-stale')).toBe('<td><b>responseid-stale</b></td><td>1</td><td>1</td>');
    expect(row('response-replaced')).toContain('(1 follows from another finding)');
    expect(row('item-not-in-response')).toContain('(1 follows from another finding)');
  });
});
