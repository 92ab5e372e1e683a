// Timelines over real HTTP: beacons posted to the tracking interface come back as pages with verdicts
// and findings, on the SSE stream, in reports, survive a restart and go on reset.
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import type {
  PageTimelineDto,
  PageTimelineSummaryDto,
  TimelineListDto,
  TimelineReportDto,
} from '../../src/shared/timeline';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { PageBuilder } from '../unit/timeline-events';

const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

async function sandbox(overrides = {}) {
  const s = await startSandbox(overrides);
  stops.push(() => s.close());
  return s;
}

/** Post built events as a browser would; the sandbox stamps its own receive times. */
async function post(base: string, events: RecordedEvent[]): Promise<void> {
  for (const e of events) {
    const res = await postBeacon(base, `${e.siteId}/search/${e.event}`, e.body);
    expect([200, 400]).toContain(res.status);
  }
}

/** Timestamps near now, so the sandbox's receive time is close to them. */
function livePage(opts: ConstructorParameters<typeof PageBuilder>[0] = {}) {
  const p = new PageBuilder(opts);
  const offset = Date.now() - Date.parse('2026-11-21T04:00:00.000Z');
  return { p, at: (ms: number) => ({ at: offset + ms }) };
}

async function list(base: string, query = ''): Promise<TimelineListDto> {
  const res = await fetch(`${base}/_sandbox/timelines${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as TimelineListDto;
}

function goodSession(pageLoadId = 'page-good') {
  const { p, at } = livePage({ pageLoadId });
  return [
    // the click is sent at once, the render and impressions (a second after it) come queued
    p.click('r-good', 'a', at(1300)),
    p.render('r-good', at(0)),
    p.impression('r-good', ['a', 'b'], at(1100)),
  ];
}

function badSession(pageLoadId = 'page-bad') {
  const { p, at } = livePage({ pageLoadId, sessionId: 'session-bad' });
  return [p.impression('r-bad', ['a'], at(0)), p.click('r-bad', 'zz', at(500))];
}

describe('GET /_sandbox/timelines', () => {
  it('lists pages with verdicts, responses and findings; filters; one page by pageLoadId', async () => {
    const s = await sandbox();
    await post(s.url, [...goodSession(), ...badSession()]);
    const all = await list(s.url);
    expect(all.total).toBe(2);
    expect(all.verdicts).toEqual({ pass: 1, warn: 0, fail: 1 });
    const good = all.pages.find((pg) => pg.pageLoadId === 'page-good')!;
    expect(good.verdict).toBe('pass');
    expect(good.responses[0]!.events.map((e) => e.event)).toEqual([
      'render',
      'impression',
      'clickthrough',
    ]);
    expect(good.responses[0]!.events.map((e) => e.arrival)).toEqual([2, 3, 1]);
    const bad = all.pages.find((pg) => pg.pageLoadId === 'page-bad')!;
    expect(bad.findings.map((f) => f.rule)).toEqual([
      'missing-render',
      'click-not-impressed-at-exit',
    ]);

    const fails = await list(s.url, '?verdict=fail');
    expect(fails.pages.map((pg) => pg.pageLoadId)).toEqual(['page-bad']);
    expect(fails.verdicts).toEqual({ pass: 1, warn: 0, fail: 1 });
    expect((await list(s.url, '?sessionId=session-bad')).total).toBe(1);
    expect((await list(s.url, '?q=r-good')).pages.map((pg) => pg.pageLoadId)).toEqual([
      'page-good',
    ]);
    expect((await list(s.url, '?siteId=zzzzzz')).total).toBe(0);
    const limited = await list(s.url, '?limit=1&view=summary');
    expect(limited.total).toBe(2);
    expect(limited.pages).toHaveLength(1);
    expect((limited.pages[0] as unknown as PageTimelineSummaryDto).responseIds).toEqual(['r-bad']);

    const one = await fetch(`${s.url}/_sandbox/timelines/page-bad`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as PageTimelineDto).verdict).toBe('fail');
    const missing = await fetch(`${s.url}/_sandbox/timelines/nope?siteId=demo42`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toContain('nope');
  });

  it('answers 400 naming a bad or unknown parameter', async () => {
    const s = await sandbox();
    for (const [query, parameter] of [
      ['?verdict=red', 'verdict'],
      ['?limit=0', 'limit'],
      ['?colour=1', 'colour'],
    ]) {
      const res = await fetch(`${s.url}/_sandbox/timelines${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'BadRequest', parameter });
    }
    const res = await fetch(`${s.url}/_sandbox/report?format=pdf`);
    expect(res.status).toBe(400);
  });

  it('shows a rejected event on its page with the schema finding', async () => {
    const s = await sandbox();
    const { p, at } = livePage({ pageLoadId: 'page-schema' });
    const good = p.render('r1', at(0));
    const body = structuredClone(p.impression('r1', ['a'], at(100)).body) as {
      data: Record<string, unknown>;
    };
    delete body.data.banners;
    await post(s.url, [good]);
    const res = await postBeacon(s.url, 'demo42/search/impression', body);
    expect(res.status).toBe(400);
    const [page] = (await list(s.url)).pages;
    expect(page!.verdict).toBe('fail');
    const rejected = page!.responses[0]!.events.find((e) => !e.accepted)!;
    expect(rejected.errors.join()).toContain('banners');
    expect(page!.findings.find((f) => f.rule === 'schema')!.eventIds).toEqual([rejected.id]);
  });

  it('pushes a timeline message on the stream when a page changes', async () => {
    const s = await sandbox();
    const controller = new AbortController();
    const res = await fetch(`${s.url}/_sandbox/stream`, { signal: controller.signal });
    const reader = res.body!.getReader();
    stops.push(() => controller.abort());
    await post(s.url, badSession('page-stream'));
    const decoder = new TextDecoder();
    let text = '';
    while (!/event: timeline\n[^\n]*"click-not-impressed-at-exit"/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const frame = text
      .split('\n\n')
      .filter((f) => f.includes('event: timeline'))
      .pop()!;
    const message = JSON.parse(
      frame
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    ) as { type: string; data: PageTimelineSummaryDto };
    expect(message.type).toBe('timeline');
    expect(message.data).toMatchObject({
      pageLoadId: 'page-stream',
      verdict: 'fail',
      rules: ['missing-render', 'click-not-impressed-at-exit'],
    });
  });

  it('forgets timelines on reset (one site or all) and rebuilds them after a restart', async () => {
    const { dir, cleanup } = tempDir();
    stops.push(cleanup);
    const first = await startSandbox({ dataDir: dir });
    await post(first.url, goodSession());
    const other = livePage({ siteId: 'other1', pageLoadId: 'page-other' });
    await post(first.url, [other.p.render('r-o', other.at(0))]);
    expect((await list(first.url)).total).toBe(2);
    await first.close();

    const second = await startSandbox({ dataDir: dir });
    stops.push(() => second.close());
    const back = await list(second.url);
    expect(back.pages.map((pg) => `${pg.siteId}/${pg.pageLoadId}/${pg.verdict}`)).toEqual([
      'demo42/page-good/pass',
      'other1/page-other/pass',
    ]);

    expect(
      (await fetch(`${second.url}/_sandbox/reset?siteId=demo42`, { method: 'POST' })).status,
    ).toBe(200);
    expect((await list(second.url)).pages.map((pg) => pg.siteId)).toEqual(['other1']);
    await fetch(`${second.url}/_sandbox/reset`, { method: 'POST' });
    expect((await list(second.url)).total).toBe(0);
  });
  it('shows after a restart what it showed before: a reset in its journal, and pages whose events retention dropped', async () => {
    const { dir, cleanup } = tempDir();
    stops.push(cleanup);
    const config = { dataDir: dir, retention: { events: 7 } };
    const other = (pageLoadId: string) => {
      const { p, at } = livePage({ siteId: 'other1', pageLoadId });
      return [p.render(`r-${pageLoadId}`, at(0))];
    };
    const shown = async (url: string) =>
      (await list(url, '?limit=100')).pages.map(
        (pg) => `${pg.siteId}/${pg.pageLoadId}/${pg.verdict}/${pg.counts.events}`,
      );
    const restarted = async (before: string[]) => {
      const again = await startSandbox(config);
      stops.push(() => again.close());
      expect(await shown(again.url)).toEqual(before);
      return again;
    };

    const first = await startSandbox(config);
    await post(first.url, [
      ...other('page-o1'),
      ...goodSession('page-g1'),
      ...badSession('page-b1'),
    ]);
    // demo42's pages forgotten; the journal keeps the reset after them
    await fetch(`${first.url}/_sandbox/reset?siteId=demo42`, { method: 'POST' });
    await post(first.url, other('page-o2'));
    const afterReset = await shown(first.url);
    expect(afterReset).toEqual(['other1/page-o1/pass/1', 'other1/page-o2/pass/1']);
    await first.close();

    const second = await restarted(afterReset);
    // more events than retention keeps: the oldest dropped, their pages forgotten
    await post(second.url, [
      ...goodSession('page-g2'),
      ...badSession('page-b2'),
      ...other('page-o3'),
    ]);
    const afterDrops = await shown(second.url);
    expect(afterDrops).toEqual([
      'other1/page-o2/pass/1',
      'demo42/page-g2/pass/3',
      'demo42/page-b2/fail/2',
      'other1/page-o3/pass/1',
    ]);
    await second.close();
    await restarted(afterDrops);
  });
});

describe('GET /_sandbox/report', () => {
  it('renders json, junit (one test case per page) and a self-contained html file', async () => {
    const s = await sandbox();
    await post(s.url, [...goodSession(), ...badSession()]);

    const json = (await (
      await fetch(`${s.url}/_sandbox/report?format=json`)
    ).json()) as TimelineReportDto;
    expect(json.verdicts).toEqual({ pass: 1, warn: 0, fail: 1 });
    expect(json.pages).toHaveLength(2);

    const junitRes = await fetch(`${s.url}/_sandbox/report?format=junit`);
    expect(junitRes.headers.get('content-type')).toContain('application/xml');
    const junit = await junitRes.text();
    expect(junit.match(/<testcase /g)).toHaveLength(2);
    expect(junit).toContain(
      '<testsuites name="search-sandbox timelines (sandbox)" tests="2" failures="1"',
    );
    expect(junit).toMatch(/<failure type="missing-render" message="missing-render: [^"]+">page /);

    const htmlRes = await fetch(`${s.url}/_sandbox/report?format=html&verdict=fail`);
    expect(htmlRes.headers.get('content-type')).toContain('text/html');
    const html = await htmlRes.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<link |<script|src="http/);
    expect(html).toContain('page-bad');
    expect(html).not.toContain('page-good');
    expect(html).toContain('click-not-impressed');
  });

  it("junit: the suite of a request whose path named no site says so, beside each site's", async () => {
    const s = await sandbox();
    await post(s.url, goodSession());
    const { p, at } = livePage({ pageLoadId: 'page-no-site' });
    const refused = await postBeacon(s.url, '/search/render', p.render('r-x', at(0)).body);
    expect(refused.status).toBe(404);
    const junit = await (await fetch(`${s.url}/_sandbox/report?format=junit`)).text();
    expect([...junit.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'site demo42',
      'no siteId: events that named no site',
    ]);
    expect(junit).toMatch(/<testcase classname="no siteId\.\w+" name="\//);
  });

  it('failOn=warning makes pages with warnings JUnit failures; a bad failOn is a 400 naming it', async () => {
    const s = await sandbox();
    const { p, at } = livePage({ pageLoadId: 'page-warn' });
    await post(s.url, [
      ...goodSession(),
      p.render('r-warn', at(0)),
      p.render('r-warn', at(50)),
      p.impression('r-warn', ['a'], at(1100)),
    ]);
    const lenient = await (await fetch(`${s.url}/_sandbox/report?format=junit`)).text();
    expect(lenient).toContain('tests="2" failures="0"');
    expect(lenient).toMatch(/<system-out>page [^\n]+\n\n\[warning\] duplicate-render: /);
    const strict = await (
      await fetch(`${s.url}/_sandbox/report?format=junit&failOn=warning`)
    ).text();
    expect(strict).toContain('tests="2" failures="1"');
    expect(strict).toMatch(
      /<failure type="duplicate-render" message="duplicate-render: [^"]+">page [^\n]+\n1 finding\n\n\[warning\] duplicate-render: /,
    );
    const bad = await fetch(`${s.url}/_sandbox/report?format=junit&failOn=never`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(
      'query parameter failOn must be one of error, warning, info, got \\"never\\"',
    );
  });
});
