// An export imported into another sandbox is judged as the sandbox that recorded it judged it, and as
// `check` of that export judges it: the import brings the responses its beacons name, and the imported
// events are older than the importing sandbox, so its memory of issued responses must cover their times.
// A click with a responseId no search issued, on a page whose search the sandbox answered with one page
// only, is a stale responseId (missing-render, an error) everywhere, never a possible backfill (info).
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import type { ReadinessDto } from '../../src/shared/readiness';
import { tempFile } from '../helpers/check';
import { postBeacon, startSandbox } from '../helpers/sandbox';
import { CLI, runCli } from './cli-process';

const SITE = 'demo42';
const PAGE = 'pl-stale';
const STALE = 'stale-responseid-0001';
const cleanups: Array<() => unknown> = [];
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  for (const c of cleanups) c();
});

async function sandbox(): Promise<Sandbox> {
  const s = await startSandbox();
  sandboxes.push(s);
  return s;
}

/** What must agree: each page's findings as rule:severity. */
function gist(pages: readonly PageTimelineDto[]): Record<string, string[]> {
  return Object.fromEntries(
    pages.map((p) => [
      p.pageLoadId,
      p.findings.filter((f) => f.rule !== 'dev-flag').map((f) => `${f.rule}:${f.severity}`),
    ]),
  );
}

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as T;
}

/** Readiness of the search behaviours, as `status rule`. */
function rows(r: ReadinessDto): string[] {
  return ['search.render', 'search.clickthrough'].map((id) => {
    const b = r.behaviours.find((x) => x.id === id)!;
    return `${id} ${b.status} ${b.worst?.rule ?? ''}`.trim();
  });
}

/** The storefront's journey: a search through the sandbox, its render, impression, a stale click, an add. */
async function journey(base: string): Promise<void> {
  const ids = { userId: 'u-stale', sessionId: 's-stale', pageLoadId: PAGE };
  const q = new URLSearchParams({ siteId: SITE, q: 'jacket', beacon: 'true', ...ids });
  const answer = await json<{ responseId: string; results: Array<{ uid: string }> }>(
    `${base}/api/search/search.json?${q}`,
  );
  const responseId = answer.responseId;
  const item = { uid: 'P101', parentId: 'P101', sku: 'P101-RED' };
  const tile = { type: 'product', ...item };
  const send = async (endpoint: string, data: unknown) => {
    const context = {
      ...ids,
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=jacket',
      initiator: 'searchspring/beaconjs/1.2.3',
    };
    const res = await postBeacon(base, `${SITE}/search/${endpoint}`, { context, data });
    expect(res.status, await res.text()).toBe(200);
  };
  await send('render', { responseId });
  await send('impression', { responseId, results: [tile], banners: [] });
  await send('clickthrough', { responseId: STALE, results: [tile] });
  await send('addtocart', { responseId, results: [{ ...item, qty: 1, price: 149 }] });
}

describe('an export imported into a fresh sandbox', () => {
  let recorded: Record<string, string[]>;
  let exportFile: string;
  let recordedReadiness: string[];

  beforeAll(async () => {
    if (!existsSync(CLI))
      throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
    const a = await sandbox();
    await journey(a.url);
    recorded = gist((await json<TimelineReportDto>(`${a.url}/_sandbox/report?format=json`)).pages);
    recordedReadiness = rows(
      await json<ReadinessDto>(`${a.url}/_sandbox/readiness?siteId=${SITE}&finished=true`),
    );
    exportFile = tempFile(
      cleanups,
      'stale.export.json',
      await (await fetch(`${a.url}/_sandbox/export`)).text(),
    );
  });

  it('the recording sandbox calls the stale click an error', () => {
    expect(recorded[PAGE]).toContain('missing-render:error');
    expect(recorded[PAGE]).not.toContain('missing-render-backfill:info');
  });

  it('timelines, readiness and the JUnit report of the import agree with the recording sandbox and with check', async () => {
    const offline = await runCli(['check', exportFile, '--format', 'json'], process.cwd());
    expect(offline.code, offline.stderr).toBe(1);
    const checked = gist((JSON.parse(offline.stdout) as TimelineReportDto).pages);
    expect(checked).toEqual(recorded);

    const b = await sandbox();
    const imported = await fetch(`${b.url}/_sandbox/import`, {
      method: 'POST',
      body: await (await import('node:fs/promises')).readFile(exportFile, 'utf8'),
    });
    expect(imported.status, await imported.text()).toBe(200);
    const timelines = await json<{ pages: PageTimelineDto[] }>(
      `${b.url}/_sandbox/timelines?siteId=${SITE}&finished=true`,
    );
    expect(gist(timelines.pages)).toEqual(recorded);
    const readiness = rows(
      await json<ReadinessDto>(`${b.url}/_sandbox/readiness?siteId=${SITE}&finished=true`),
    );
    expect(readiness).toEqual(recordedReadiness);
    expect(readiness).not.toContain('search.clickthrough ok');

    // the live JUnit and check's JUnit of the import's own export fail on the same rule first: the click
    // sent under another response than its tile's, which the missing render follows from
    const live = await (await fetch(`${b.url}/_sandbox/report?format=junit&failOn=warning`)).text();
    const again = tempFile(
      cleanups,
      'beacons.json',
      await (await fetch(`${b.url}/_sandbox/export`)).text(),
    );
    const junit = await runCli(
      ['check', again, '--format', 'junit', '--fail-on', 'warning'],
      process.cwd(),
    );
    expect(junit.code, junit.stderr).toBe(1);
    const firstFailure = (xml: string) => /<failure type="([^"]+)"/.exec(xml)?.[1];
    expect(firstFailure(live)).toBe('click-under-other-response');
    expect(firstFailure(junit.stdout)).toBe('click-under-other-response');
  });
});
