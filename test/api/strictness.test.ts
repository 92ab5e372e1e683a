// Strictness (the documented contract): per-rule severity from the config file (top level, per account winning),
// findings carrying the effective severity and where it was set; reports and check judging every page
// as finished; `check --rule/--config/--fail-on info`; unknown ids and levels named in all places.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CONFIG_PATH, loadConfig } from '../../src/main/config';
import { check, tempFile } from '../helpers/check';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import { postBeacon, startSandbox } from '../helpers/sandbox';
import { newPage, searchBody, sendWarnPage } from '../e2e/helpers/beacons';
import { PageBuilder } from '../unit/timeline-events';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const temp = (name: string, text: string) => tempFile(cleanups, name, text);

const json = async <T>(url: string) => (await (await fetch(url)).json()) as T;

describe('rules in the config file', () => {
  it('sets each finding’s severity, per account winning over the top level, and says where', async () => {
    const config = loadConfig(
      { ephemeral: true, port: 0, host: '127.0.0.1', config: DEMO_CONFIG_PATH },
      {},
    );
    const s = await startSandbox({
      rules: { 'duplicate-impression': 'error', 'dev-flag': 'off' },
      accounts: config.accounts.map((a) =>
        a.siteId === 'demo42' ? { ...a, rules: { 'duplicate-impression': 'info' } } : a,
      ),
    });
    cleanups.push(() => s.close());
    const demo = await sendWarnPage(s.url);
    // the same page on a site without an account: the top-level rules
    const other = newPage();
    const t0 = Date.now();
    for (const [event, at, uids] of [
      ['render', 0, undefined],
      ['impression', 1_100, ['3001', '3002']],
      ['impression', 1_700, ['3002', '3003']],
    ] as const)
      expect(
        (
          await postBeacon(
            s.url,
            `abc123/search/${event}`,
            searchBody(event, other, { at: t0 + at, ...(uids && { uids: [...uids] }) }),
          )
        ).status,
      ).toBe(200);
    const page = (id: string) =>
      json<PageTimelineDto>(`${s.url}/_sandbox/timelines/${id}`).then((p) =>
        p.findings.filter((f) => f.rule !== 'no-impression'),
      );
    const [onDemo] = await page(demo.pageLoadId);
    expect(onDemo).toMatchObject({
      rule: 'duplicate-impression',
      severity: 'info',
      defaultSeverity: 'warning',
      severityFrom: expect.stringMatching(/^accounts\[siteId=demo42\]\.rules in /),
    });
    const [onOther] = await page(other.pageLoadId);
    expect(onOther).toMatchObject({
      severity: 'error',
      severityFrom: expect.stringMatching(/^rules in /),
    });
    const list = await json<{ pages: PageTimelineDto[] }>(`${s.url}/_sandbox/timelines`);
    expect(list.pages.map((p) => [p.siteId, p.verdict])).toEqual([
      ['demo42', 'pass'],
      ['abc123', 'fail'],
    ]);
    // dev-flag is off: no finding on any page
    expect(list.pages.flatMap((p) => p.findings.map((f) => f.rule))).not.toContain('dev-flag');
  });

  it('names an unknown rule id or level with the valid ones', () => {
    const file = temp(
      'search-sandbox.config.json',
      JSON.stringify({ rules: { 'no-impression': 'warn' } }),
    );
    expect(() => loadConfig({ config: file, ephemeral: true }, {})).toThrow(
      `${file}: rules.no-impression: "warn" is not a level for no-impression: use off, info, warning, error`,
    );
    const acc = temp(
      'search-sandbox.config.json',
      JSON.stringify({
        accounts: [{ siteId: 'abc123', secretKey: 'k', feeds: [], rules: { impressions: 'off' } }],
      }),
    );
    expect(() => loadConfig({ config: acc, ephemeral: true }, {})).toThrow(
      /accounts\[0\]\.rules\.impressions: "impressions" is not a rule id; the rule ids are schema, request-refused, missing-render/,
    );
  });
});

describe('pages judged as finished', () => {
  it('reports decide no-impression on a page still waiting for it, and say so; the live page stays pending', async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const page = newPage();
    const res = await postBeacon(
      s.url,
      `demo42/search/render`,
      searchBody('render', page, { at: Date.now() }),
    );
    expect(res.status).toBe(200);
    const live = await json<PageTimelineDto>(`${s.url}/_sandbox/timelines/${page.pageLoadId}`);
    expect(live.findings.map((f) => f.rule)).not.toContain('no-impression');
    expect(live.judgedAsFinished).toBeUndefined();

    const report = await json<TimelineReportDto>(`${s.url}/_sandbox/report?format=json`);
    expect(report.pages[0]!.judgedAsFinished).toBe(true);
    expect(report.pages[0]!.findings.map((f) => f.rule)).toContain('no-impression');
    const finished = await json<{ pages: PageTimelineDto[] }>(
      `${s.url}/_sandbox/timelines?finished=true`,
    );
    expect(finished.pages[0]!.findings.map((f) => f.rule)).toContain('no-impression');
    const html = await (await fetch(`${s.url}/_sandbox/report?format=html`)).text();
    expect(html).toContain('judged as finished');
    const junit = await (await fetch(`${s.url}/_sandbox/report?format=junit&failOn=info`)).text();
    expect(junit).toContain('Judged as finished: the page was still waiting for impressions');
    expect(junit).toMatch(/<failure type="no-impression"/);
    // and the live page is as it was
    const after = await json<PageTimelineDto>(`${s.url}/_sandbox/timelines/${page.pageLoadId}`);
    expect(after.findings.map((f) => f.rule)).not.toContain('no-impression');
    const bad = await fetch(`${s.url}/_sandbox/timelines?finished=yes`);
    expect(bad.status).toBe(400);
  });
});

describe('check --rule, --config, --fail-on info', () => {
  const p = new PageBuilder({ pageLoadId: 'dup' });
  const lines = [
    p.render('r1', { at: 0 }),
    p.impression('r1', ['a', 'b'], { at: 1100 }),
    p.impression('r1', ['b', 'c'], { at: 1700 }),
  ]
    .map((e) => JSON.stringify(e))
    .join('\n');

  it('sets severity per rule, from flags and from a config file (flags win)', async () => {
    const file = temp('dup.ndjson', lines);
    expect((await check(file)).code).toBe(0); // duplicate-impression is a warning
    const raised = await check(file, '--rule', 'duplicate-impression=error');
    expect(raised.code).toBe(1);
    expect(raised.out).toMatch(/error {3}duplicate-impression/);
    const config = temp(
      'search-sandbox.config.json',
      JSON.stringify({ rules: { 'duplicate-impression': 'error' }, port: 4545 }),
    );
    const fromConfig = await check(file, '--config', config, '--format', 'json');
    expect(fromConfig.code).toBe(1);
    const f = (JSON.parse(fromConfig.out) as TimelineReportDto).pages[0]!.findings.find(
      (x) => x.rule === 'duplicate-impression',
    );
    expect(f).toMatchObject({ severity: 'error', defaultSeverity: 'warning' });
    expect(f!.severityFrom).toBe(`rules in ${config}`);
    const flagWins = await check(file, '--config', config, '--rule', 'duplicate-impression=off');
    expect(flagWins.code).toBe(0);
    expect(flagWins.out).not.toMatch(/duplicate-impression/);
    // --fail-on info fails on an info finding too
    const info = await check(file, '--fail-on', 'info', '--rule', 'duplicate-impression=info');
    expect(info.code).toBe(1);
  });

  it('names a bad --rule, a bad level and a bad config with exit 2', async () => {
    const file = temp('dup.ndjson', lines);
    const noEq = await check(file, '--rule', 'duplicate-impression');
    expect(noEq.code).toBe(2);
    expect(noEq.err).toMatch(/--rule "duplicate-impression" must be RULE=LEVEL/);
    const badId = await check(file, '--rule', 'dupes=off');
    expect(badId.err).toMatch(
      /--rule dupes=off: "dupes" is not a rule id; the rule ids are schema/,
    );
    const badLevel = await check(file, '--rule', 'order=fatal');
    expect(badLevel.err).toMatch(/"fatal" is not a level for order: use off, info, warning, error/);
    const config = temp('c.json', JSON.stringify({ rules: { order: 'fatal' } }));
    const badConfig = await check(file, '--config', config);
    expect(badConfig.code).toBe(2);
    expect(badConfig.err).toContain(`${config}: rules.order: "fatal" is not a level for order`);
  });
});
