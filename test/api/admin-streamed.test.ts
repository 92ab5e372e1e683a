// Large answers are written as streams: the events list, the timelines list, the export and the three
// reports are byte for byte what they were when built whole (the same serialization of the same data),
// stay valid documents across many write slices, round-trip through import, and a client that goes away
// mid-download leaves the sandbox answering.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { WiderScope } from '../../src/main/tracking/timeline/wider-scope';
import http from 'node:http';
import { documentPieces } from '../../src/main/store/json-pieces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecordedEvent } from '../../src/shared/events';
import { pageSummary } from '../../src/main/tracking/timeline/dto';
import { jsonReport, junitReport } from '../../src/main/tracking/timeline/report';
import { htmlReport } from '../../src/main/tracking/timeline/report-html';
import { searchDraft } from '../helpers/drafts';
import { postBeacon, startSandbox } from '../helpers/sandbox';

const PAGES = 300;
let sandbox: Sandbox;
let base: string;

/** Ten events per page, pages interleaved; every 7th page clicks an item it never impressed. */
function drafts(): object[] {
  const start = Date.parse('2026-11-21T04:00:00.000Z');
  const out: object[] = [];
  for (let n = 0; n < PAGES; n++) {
    const siteId = n % 5 === 0 ? 'other9' : 'demo42';
    const ctx = (ms: number) => ({
      timestamp: new Date(start + n * 1000 + ms).toISOString(),
      pageUrl: `https://shop.example/search?q=term${n}&x=<b>"&'`,
      userId: `u-${n % 30}`,
      sessionId: `s-${n % 30}`,
      pageLoadId: `p-${n}`,
      initiator: 'streamed-test',
    });
    const items = (from: number) =>
      [0, 1, 2].map((i) => ({ type: 'product', uid: String(n * 100 + from + i) }));
    const events: Array<[string, object]> = [['render', { responseId: `r-${n}` }]];
    for (let k = 0; k < 8; k++)
      events.push(['impression', { responseId: `r-${n}`, results: items(k * 3), banners: [] }]);
    const clicked = n % 7 === 0 ? String(n * 100 + 99) : String(n * 100);
    events.push([
      'clickthrough',
      { responseId: `r-${n}`, results: [{ type: 'product', uid: clicked }] },
    ]);
    events.forEach(([event, data], k) =>
      out.push(
        searchDraft(
          event,
          { context: ctx(k * 10), data },
          { siteId, receivedAt: new Date(start + n * 1000 + k * 10).toISOString() },
        ),
      ),
    );
  }
  return out;
}

async function text(path: string): Promise<{ res: Response; body: string }> {
  const res = await fetch(`${base}${path}`);
  return { res, body: await res.text() };
}

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
  const res = await fetch(`${base}/_sandbox/import`, {
    method: 'POST',
    body: JSON.stringify(drafts()),
  });
  expect(res.status).toBe(200);
  // one rejected beacon: errors travel in every answer too
  expect((await postBeacon(base, 'demo42/search/render', { data: {} })).status).toBe(400);
});
afterAll(async () => {
  await sandbox.close();
});

describe('streamed answers', () => {
  it('GET /_sandbox/events: the bytes res.json sent, whole and cut by limit', async () => {
    const all = sandbox.core.events.all();
    expect(all.length).toBe(PAGES * 10 + 1);
    const { res, body } = await text('/_sandbox/events?limit=100000');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(body).toBe(
      JSON.stringify({
        events: all,
        count: all.length,
        truncated: false,
        retained: all.length,
        lastSeq: all.at(-1)!.seq,
      }),
    );
    const cut = await text('/_sandbox/events?siteId=other9&limit=25');
    const other = all.filter((e) => e.siteId === 'other9').slice(-25);
    expect(cut.body).toBe(
      JSON.stringify({
        events: other,
        count: 25,
        truncated: true,
        retained: all.length,
        lastSeq: other.at(-1)!.seq,
      }),
    );
    const none = await text('/_sandbox/events?siteId=nobody');
    expect(none.body).toBe(
      JSON.stringify({
        events: [],
        count: 0,
        truncated: false,
        retained: all.length,
        lastSeq: null,
      }),
    );
  });

  it('GET /_sandbox/timelines: the bytes res.json sent, full and summary, with the verdict filter', async () => {
    const pages = sandbox.core.timelines.list();
    const verdicts = { pass: 0, warn: 0, fail: 0 };
    for (const p of pages) verdicts[p.verdict]++;
    expect(verdicts.fail).toBeGreaterThan(0);
    const full = await text('/_sandbox/timelines?limit=100000');
    expect(full.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // a finding about the whole session (dev-flag) is listed on the session's first page only
    const once = new WiderScope();
    expect(full.body).toBe(
      JSON.stringify({
        pages: pages.map((p) => once.page(sandbox.core.timelines.pageDto(p))),
        total: pages.length,
        verdicts,
      }),
    );
    const failing = pages.filter((p) => p.verdict === 'fail');
    const summary = await text('/_sandbox/timelines?verdict=fail&view=summary&limit=10');
    const onceInSummaries = new WiderScope();
    expect(summary.body).toBe(
      JSON.stringify({
        pages: failing.slice(-10).map((p) => onceInSummaries.summary(pageSummary(p))),
        total: failing.length,
        verdicts,
      }),
    );
    expect((await text('/_sandbox/timelines?verdict=maybe')).res.status).toBe(400);
  });

  it('GET /_sandbox/report: json, junit and html are the bytes of the reports built whole', async () => {
    const pages = sandbox.core.timelines.pagesDto();
    const json = await text('/_sandbox/report?format=json');
    expect(json.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const now = Date.parse((JSON.parse(json.body) as { generatedAt: string }).generatedAt);
    expect(json.body).toBe(JSON.stringify(jsonReport(pages, 'sandbox', now)));
    // filtered, and filtered down to nothing: the same bytes as the whole report of those pages
    for (const [query, keep] of [
      ['verdict=fail', (p: { verdict: string }) => p.verdict === 'fail'],
      ['siteId=nosuchsite', () => false],
    ] as const) {
      const some = await text(`/_sandbox/report?format=json&${query}`);
      const at = Date.parse((JSON.parse(some.body) as { generatedAt: string }).generatedAt);
      expect(some.body).toBe(JSON.stringify(jsonReport(pages.filter(keep), 'sandbox', at)));
    }

    const junit = await text('/_sandbox/report?format=junit');
    expect(junit.res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(junit.res.headers.get('content-disposition')).toMatch(/^inline; filename="timelines-/);
    const stamp = /timestamp="([^"]+)"/.exec(junit.body)![1]!;
    expect(junit.body).toBe(junitReport(pages, 'sandbox', Date.parse(stamp)));
    expect(junit.body.match(/<testcase /g)).toHaveLength(pages.length);

    const html = await text('/_sandbox/report?format=html&siteId=other9');
    expect(html.res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const generated = / generated (\S+) by search-sandbox/.exec(html.body)![1]!;
    const other = sandbox.core.timelines.pagesDto({ siteId: 'other9' });
    expect(html.body).toBe(htmlReport(other, 'sandbox', Date.parse(generated)));
    expect(html.body.match(/<section data-verdict=/g)).toHaveLength(PAGES / 5);

    expect((await text('/_sandbox/report?format=pdf')).res.status).toBe(400);
  });

  it('GET /_sandbox/export: the bytes it wrote in slices of 1,000 events, and it imports back', async () => {
    const { res, body } = await text('/_sandbox/export');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    const exported = JSON.parse(body) as any;
    // as the export was written before streaming: head and sections, then slices of 1,000 events
    const events = sandbox.core.events.all();
    const sections: Record<string, unknown> = {};
    for (const [name, section] of sandbox.core.exportSections())
      sections[name] = section.export({});
    const head = {
      format: 'search-sandbox-export',
      version: 1,
      exportedAt: exported.exportedAt,
      sandboxVersion: sandbox.core.version,
    };
    // the sections' large parts (the catalogs) are written from their pieces, as JSON.stringify writes the rest
    const open = [...documentPieces({ ...head, ...sections })].join('');
    expect(JSON.parse(open).search.catalogs).toEqual(exported.search.catalogs);
    let expected = `${open.slice(0, -1)},"events":[`;
    for (let i = 0; i < events.length; i += 1000)
      expected += `${i ? ',' : ''}\n${events
        .slice(i, i + 1000)
        .map((e) => JSON.stringify(e))
        .join(',\n')}`;
    expected += '\n]}\n';
    expect(body).toBe(expected);

    const imported = await fetch(`${base}/_sandbox/import?replace=true`, {
      method: 'POST',
      body,
    });
    expect(imported.status).toBe(200);
    expect(((await imported.json()) as any).imported).toBe(events.length);
    const strip = ({ id: _id, seq: _seq, ...rest }: RecordedEvent) => rest;
    expect(sandbox.core.events.all().map(strip)).toEqual(events.map(strip));
    const again = JSON.parse((await text('/_sandbox/export')).body) as any;
    expect(again.events.map(strip)).toEqual(exported.events.map(strip));
  });

  it('a client that stops reading mid-download leaves the sandbox answering', async () => {
    const url = new URL(`${base}/_sandbox/export`);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, (res) => {
        res.once('data', () => {
          res.destroy();
          resolve();
        });
      });
      req.on('error', reject);
    });
    const health = await fetch(`${base}/_sandbox/health`);
    expect(health.status).toBe(200);
    const again = await fetch(`${base}/_sandbox/events?limit=1`);
    expect(((await again.json()) as any).count).toBe(1);
  });
});
