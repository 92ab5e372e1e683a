// `check` of a HAR judges the provenance rules as `check` of the sandbox's export does, when the HAR kept the
// sandbox's companion search answers (their bodies, marked by the sandbox's answer header): a click with a
// made-up responseId is a stale responseId (missing-render, an error), an add of a product the response
// never held is item-not-in-response. A recording without them says once, on stderr and in the JSON
// report, which rules could not judge it and how to give them what they need.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import type { UnverifiedDto } from '../../src/shared/readiness';
import { tempFile } from '../helpers/check';
import { startSandbox } from '../helpers/sandbox';
import { startRecommendSandbox } from './recommend-helpers';
import { CLI, runCli } from './cli-process';

const SITE = 'demo42';
const cleanups: Array<() => unknown> = [];
let sb: Sandbox;
beforeAll(async () => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
  for (const c of cleanups) c();
});

type Header = { name: string; value: string };
type Entry = Record<string, unknown>;
type Widget = {
  responseId: string;
  results: Array<{
    id: string;
    mappings: { core: { uid: string; parentId: string; sku: string } };
  }>;
};

/** A storefront's page load through the sandbox, recorded as HAR entries as the browser saw them. */
class Recorder {
  readonly entries: Entry[] = [];
  constructor(
    private readonly pageLoadId: string,
    private readonly base = () => sb.url,
    private readonly pageUrl = 'https://shop.example/search?q=jacket',
  ) {}

  /** A request to the sandbox, recorded with the answer's headers and body (`keepBody: false`: left out). */
  private async exchange(url: string, post?: string, keepBody = true): Promise<string> {
    const startedDateTime = new Date().toISOString();
    const type = { name: 'Content-Type', value: 'text/plain;charset=UTF-8' };
    const res = await fetch(url, {
      method: post === undefined ? 'GET' : 'POST',
      ...(post !== undefined && { headers: { [type.name]: type.value }, body: post }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const headers: Header[] = [...res.headers].map(([name, value]) => ({ name, value }));
    this.entries.push({
      startedDateTime,
      time: 5,
      request: {
        method: post === undefined ? 'GET' : 'POST',
        url,
        headers: post === undefined ? [] : [type],
        queryString: [],
        ...(post !== undefined && { postData: { mimeType: type.value, text: post } }),
        bodySize: post === undefined ? 0 : Buffer.byteLength(post),
      },
      response: {
        status: res.status,
        headers,
        content: keepBody
          ? { size: text.length, mimeType: 'application/json', text }
          : { size: text.length, mimeType: 'application/json' },
      },
    });
    return text;
  }

  private ids() {
    return { userId: 'u-har', sessionId: 's-har', pageLoadId: this.pageLoadId };
  }

  /** GET the companion search (`keepBody: false`: its answer's body left out of the HAR). */
  async search(q: string, keepBody = true): Promise<string> {
    const query = new URLSearchParams({ siteId: SITE, q, beacon: 'true', ...this.ids() });
    const text = await this.exchange(
      `${this.base()}/api/search/search.json?${query}`,
      undefined,
      keepBody,
    );
    return (JSON.parse(text) as { responseId: string }).responseId;
  }

  /** A product page's widgets as the Snap client asks them: each profile.json, then one POST /v1/recommend. */
  async recommend(tags: string[], product: string): Promise<Record<string, Widget>> {
    for (const tag of tags)
      await this.exchange(
        `${this.base()}/api/personalized-recommendations/profile.json?${new URLSearchParams({ siteId: SITE, tag })}`,
      );
    const body = {
      siteId: SITE,
      profiles: tags.map((tag) => ({ tag })),
      products: [product],
      ...this.ids(),
    };
    const answer = JSON.parse(
      await this.exchange(`${this.base()}/v1/recommend`, JSON.stringify(body)),
    ) as Array<{ profile: { tag: string }; responseId: string; results: Widget['results'] }>;
    return Object.fromEntries(answer.map((w) => [w.profile.tag, w]));
  }

  /** POST a beacon to the sandbox, recorded with its body. */
  async beacon(endpoint: string, data: unknown): Promise<void> {
    const context = {
      ...this.ids(),
      timestamp: new Date().toISOString(),
      pageUrl: this.pageUrl,
      initiator: 'searchspring/beaconjs/1.2.3',
    };
    const path = endpoint.includes('/') ? endpoint : `search/${endpoint}`;
    await this.exchange(
      `${this.base()}/beacon/v2/${SITE}/${path}`,
      JSON.stringify({ context, data }),
    );
  }

  har(): string {
    return JSON.stringify({
      log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: this.entries },
    });
  }
}

const item = { uid: 'P101', parentId: 'P101', sku: 'P101-RED' };
const tile = { type: 'product', ...item };

/** A search, its render and impression, a click with a made-up responseId, an add with the real one. */
async function staleClick(page: Recorder, keepBody = true): Promise<void> {
  const responseId = await page.search('jacket', keepBody);
  await page.beacon('render', { responseId });
  await page.beacon('impression', { responseId, results: [tile], banners: [] });
  await page.beacon('clickthrough', { responseId: 'stale-responseid-0001', results: [tile] });
  await page.beacon('addtocart', { responseId, results: [{ ...item, qty: 1, price: 149 }] });
}

/** A search, its render and impression, and an add of a product id the response never held. */
async function unknownProduct(page: Recorder): Promise<void> {
  const responseId = await page.search('jacket');
  await page.beacon('render', { responseId });
  await page.beacon('impression', { responseId, results: [tile], banners: [] });
  const zzz = { uid: 'ZZZ-1', parentId: 'ZZZ-1', sku: 'ZZZ-1' };
  await page.beacon('addtocart', { responseId, results: [{ ...zzz, qty: 1, price: 10 }] });
}

type Checked = TimelineReportDto & { unjudged?: UnverifiedDto[] };

async function checkJson(file: string): Promise<{ code: number; report: Checked; err: string }> {
  const run = await runCli(['check', file, '--format', 'json'], process.cwd());
  expect(run.code, run.stderr).toBeLessThan(2);
  return { code: run.code, report: JSON.parse(run.stdout) as Checked, err: run.stderr };
}

/** Each page's findings as rule:severity. */
function gist(pages: readonly PageTimelineDto[]): Record<string, string[]> {
  return Object.fromEntries(
    pages.map((p) => [
      p.pageLoadId,
      p.findings.filter((f) => f.rule !== 'dev-flag').map((f) => `${f.rule}:${f.severity}`),
    ]),
  );
}

describe('check of a HAR that kept the sandbox’s search answers', () => {
  let har: Checked;
  let harRun: { code: number; err: string };
  let exported: Checked;

  beforeAll(async () => {
    expect((await fetch(`${sb.url}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    const stale = new Recorder('pl-har-stale');
    await staleClick(stale);
    const pid = new Recorder('pl-har-pid');
    await unknownProduct(pid);
    const file = tempFile(
      cleanups,
      'journeys.har',
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 'test', version: '1' },
          entries: [...stale.entries, ...pid.entries],
        },
      }),
    );
    const fromHar = await checkJson(file);
    har = fromHar.report;
    harRun = fromHar;
    const exportFile = tempFile(
      cleanups,
      'export.json',
      await (await fetch(`${sb.url}/_sandbox/export`)).text(),
    );
    exported = (await checkJson(exportFile)).report;
  });

  it('judges the stale click and the unknown product as check of the export does', () => {
    const fromHar = gist(har.pages);
    expect(fromHar['pl-har-stale']).toContain('missing-render:error');
    expect(fromHar['pl-har-stale']).not.toContain('missing-render-backfill:info');
    expect(fromHar['pl-har-pid']).toContain('item-not-in-response:error');
    const fromExport = gist(exported.pages);
    for (const page of ['pl-har-stale', 'pl-har-pid'])
      // the export records demo42 as no companion site; a HAR of its answers shows one that searches
      // through the sandbox, so it may say more (responseid-unknown), never less
      for (const f of fromExport[page]!) expect(fromHar[page]).toContain(f);
    expect(harRun.code).toBe(1);
  });

  it('says nothing of rules that could not judge', () => {
    expect(har.unjudged).toBeUndefined();
    expect(harRun.err).not.toMatch(/did not judge/);
  });
});

describe('check of a HAR that kept the sandbox’s recommendation answers', () => {
  let rs: Sandbox;
  let har: Checked;
  let unprofiled: Checked;
  let exported: Checked;

  beforeAll(async () => {
    rs = await startRecommendSandbox();
    const page = new Recorder(
      'pl-har-recs',
      () => rs.url,
      'https://shop.example/products/rain-shell-jacket',
    );
    // a search on the page makes the HAR's site one that searches through the sandbox
    await page.search('jacket');
    const widgets = await page.recommend(['similar', 'bundle-pdp'], 'P200');
    for (const tag of ['similar', 'bundle-pdp']) {
      const { responseId, results } = widgets[tag]!;
      expect(results.length).toBeGreaterThan(0);
      const shown = results.slice(0, 2).map(({ mappings: { core } }) => ({
        type: 'product',
        uid: core.uid,
        parentId: core.parentId,
        sku: core.sku,
      }));
      // a bundle profile's widget sends its beacons as bundles (the Snap client's BundleController)
      const category = tag === 'bundle-pdp' ? 'bundles' : 'recommendations';
      await page.beacon(`${category}/render`, { responseId, tag });
      await page.beacon(`${category}/impression`, {
        responseId,
        tag,
        results: shown,
        banners: [],
      });
    }
    // a tile of the similar widget whose product the widget never served
    const { responseId } = widgets.similar!;
    const zzz = { type: 'product', uid: 'ZZZ-1', parentId: 'ZZZ-1', sku: 'ZZZ-1' };
    await page.beacon('recommendations/clickthrough', {
      responseId,
      tag: 'similar',
      results: [zzz],
    });
    har = (await checkJson(tempFile(cleanups, 'recs.har', page.har()))).report;
    // the same HAR without the widgets' profile.json answers (a client that had them already)
    const noProfiles = JSON.parse(page.har()) as {
      log: { entries: Array<{ request: { url: string } }> };
    };
    noProfiles.log.entries = noProfiles.log.entries.filter(
      (e) => !e.request.url.includes('profile.json'),
    );
    unprofiled = (
      await checkJson(tempFile(cleanups, 'recs-unprofiled.har', JSON.stringify(noProfiles)))
    ).report;
    const exportFile = tempFile(
      cleanups,
      'recs-export.json',
      await (await fetch(`${rs.url}/_sandbox/export`)).text(),
    );
    exported = (await checkJson(exportFile)).report;
  });
  afterAll(() => rs?.close());

  it('judges the widgets’ beacons against what each widget served, as check of the export does', () => {
    const fromHar = gist(har.pages);
    expect(fromHar['pl-har-recs']).toContain('item-not-in-response:error');
    expect(fromHar['pl-har-recs']).not.toContain('responseid-unknown:error');
    expect(fromHar).toEqual(gist(exported.pages));
    expect(har.unjudged).toBeUndefined();
  });

  it('leaves out a widget whose profile the HAR does not hold: a bundle read as a widget would be another widget’s', () => {
    const findings = gist(unprofiled.pages)['pl-har-recs']!;
    expect(findings).not.toContain('responseid-cross-kind:error');
    expect(findings).not.toContain('item-not-in-response:error');
  });
});

describe('check of a recording without the sandbox’s answers', () => {
  it('a HAR whose answers lost their bodies: says so, and which rules did not judge, once', async () => {
    const stale = new Recorder('pl-har-bodiless');
    await staleClick(stale, false);
    const run = await runCli(
      ['check', tempFile(cleanups, 'bodiless.har', stale.har()), '--format', 'json'],
      process.cwd(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /1 answer of the sandbox's companion search is in the HAR without its body/,
    );
    const said = run.stderr.split('\n').filter((l) => l.includes('did not judge'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /the input carries none of the responses the sandbox's companion search issued, so (\d+) rules that judge only with them did not judge it \([a-z-]+, [a-z-]+, [a-z-]+ and \d+ more: check --format json lists them under "unjudged"\).*To give them what they need: point the storefront's search/,
    );
    // the line names three and counts the rest; the JSON lists every one
    const [, count, more] = /so (\d+) rules .* and (\d+) more/.exec(said[0]!)!;
    expect(Number(count) - Number(more)).toBe(3);
    const report = JSON.parse(run.stdout) as Checked;
    expect(report.unjudged).toEqual([
      expect.objectContaining({
        lacks: 'issued',
        rules: expect.arrayContaining(['item-not-in-response', 'responseid-unknown']),
      }),
    ]);
    expect(report.unjudged![0]!.rules).toHaveLength(Number(count));
  });

  it('NDJSON of beacon bodies: the same note on stderr, in the text report too', async () => {
    const lines = [
      { context: ctx('pl-nd'), data: { responseId: 'r-nd' } },
      { context: ctx('pl-nd'), data: { responseId: 'r-nd', results: [tile], banners: [] } },
    ];
    const file = tempFile(
      cleanups,
      'beacons.ndjson',
      `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    );
    const run = await runCli(['check', file], process.cwd());
    expect(run.code, run.stderr).toBeLessThan(2);
    expect(run.stderr.split('\n').filter((l) => l.includes('did not judge'))).toHaveLength(1);
  });
});

function ctx(pageLoadId: string) {
  return {
    userId: 'u-nd',
    sessionId: 's-nd',
    pageLoadId,
    timestamp: '2026-11-21T04:00:00.000Z',
    pageUrl: 'https://shop.example/search?q=jacket',
    initiator: 'searchspring/beaconjs/1.2.3',
  };
}
