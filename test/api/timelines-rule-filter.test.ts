// `?rule=` on GET /_sandbox/timelines and /_sandbox/report: the pages with a finding of that rule, from
// the page index when it is the only kind of filter (with verdict, site and kind), read page by page
// with the others; pages judged as finished (finished=true, the report) by what that judging finds. An
// id that is not a rule is a 400 naming the parameter, the nearest ids and all of them, in the words the
// package's expectClean says a misspelt id in.
import { afterEach, describe, expect, it } from 'vitest';
import type { PageTimelineSummaryDto, TimelineReportDto } from '../../src/shared/timeline';
import { startSandbox } from '../helpers/sandbox';
import { connectSandbox } from '../../src/main/api/index';
import {
  newPage,
  searchBody,
  send,
  sendBadPage,
  sendGoodPage,
  sendWarnPage,
} from '../e2e/helpers/beacons';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface List {
  pages: PageTimelineSummaryDto[];
  total: number;
  verdicts: Record<string, number>;
}

describe('the rule filter of the timelines', () => {
  it('lists the pages with a finding of the rule, live and as finished, and refuses a non-rule', async () => {
    // a sandbox whose clock stands: the page without impressions stays waiting for them
    const s = await startSandbox({ rules: { 'click-not-impressed': 'off' } });
    cleanups.push(() => s.close());
    const warn = await sendWarnPage(s.url);
    const good = await sendGoodPage(s.url);
    const bad = await sendBadPage(s.url);
    const waiting = newPage();
    await send(s.url, 'render', searchBody('render', waiting, { at: Date.now() }));
    const warn2 = await sendWarnPage(s.url);

    const list = async (query: string) => {
      const res = await fetch(`${s.url}/_sandbox/timelines?view=summary&${query}`);
      expect(res.status, query).toBe(200);
      const body = (await res.json()) as List;
      return { ids: body.pages.map((p) => p.pageLoadId), total: body.total, body };
    };

    // the index path: rule alone, with a verdict, with a site, with a kind, with a limit
    const dup = await list('rule=duplicate-impression');
    expect(dup.ids).toEqual([warn.pageLoadId, warn2.pageLoadId]);
    expect(dup.body.verdicts).toEqual({ pass: 0, warn: 2, fail: 0 });
    expect(dup.body.pages.every((p) => p.rules.includes('duplicate-impression'))).toBe(true);
    expect((await list('rule=duplicate-impression&limit=1')).ids).toEqual([warn2.pageLoadId]);
    expect((await list('rule=duplicate-impression&limit=1')).total).toBe(2);
    expect((await list('rule=duplicate-impression&verdict=fail')).ids).toEqual([]);
    expect((await list('rule=duplicate-impression&kind=search&siteId=demo42')).ids).toEqual([
      warn.pageLoadId,
      warn2.pageLoadId,
    ]);
    expect((await list('rule=duplicate-impression&kind=category')).ids).toEqual([]);
    expect((await list('rule=duplicate-impression&siteId=other1')).ids).toEqual([]);
    // a rule set to off finds nothing, though the bad page clicks a tile it never impressed
    expect((await list('rule=click-not-impressed')).ids).toEqual([]);
    expect((await list('rule=schema')).ids).toEqual([bad.pageLoadId]);
    // the scan path (another filter): the same pages
    expect((await list('rule=duplicate-impression&event=impression')).ids).toEqual(dup.ids);
    expect((await list(`rule=duplicate-impression&q=${warn2.pageLoadId}`)).ids).toEqual([
      warn2.pageLoadId,
    ]);
    expect((await list(`rule=schema&sessionId=${good.sessionId}`)).ids).toEqual([]);

    // no impression yet: not a finding while the page may still send one, a finding once judged as ended
    expect((await list('rule=no-impression')).ids).toEqual([]);
    const finished = await list('rule=no-impression&finished=true');
    expect(finished.ids).toEqual([waiting.pageLoadId]);
    const report = (await (
      await fetch(`${s.url}/_sandbox/report?rule=no-impression`)
    ).json()) as TimelineReportDto;
    expect(report.pages.map((p) => p.pageLoadId)).toEqual([waiting.pageLoadId]);
    expect(report.pages[0]!.findings.map((f) => f.rule)).toContain('no-impression');
    // the live page is as it was: still no finding of it
    expect((await list('rule=no-impression')).ids).toEqual([]);

    const refused = await fetch(`${s.url}/_sandbox/timelines?rule=missing-rendr`);
    expect(refused.status).toBe(400);
    const error = (await refused.json()) as {
      parameter: string;
      message: string;
      allowed: string[];
    };
    expect(error.parameter).toBe('rule');
    expect(error.message).toMatch(
      /^query parameter rule "missing-rendr" is not a rule id; did you mean missing-render\? \(every rule id: GET \/_sandbox\/rules, or the README's rule table\)$/,
    );
    expect(error.allowed).toContain('missing-render');
    expect((await fetch(`${s.url}/_sandbox/report?rule=nope`)).status).toBe(400);
  });

  it('says a misspelt rule id in the words expectClean says it in: the nearest id, and where every id is', async () => {
    const s = await startSandbox();
    cleanups.push(() => s.close());
    const client = connectSandbox(s.url);
    const said = await client
      // @ts-expect-error a misspelt rule id is a type error; from JavaScript, a TypeError
      .expectClean({ ignoreRules: ['order-total'], allowEmpty: true })
      .catch((e: Error) => e.message);
    const words = /^expectClean: ignoreRules\[0\]: (.*)$/s.exec(String(said))?.[1];
    expect(words).toMatch(
      /^"order-total" is not a rule id; did you mean order-totals\? \(every rule id: GET \/_sandbox\/rules, or the README's rule table\)$/,
    );
    for (const path of ['timelines', 'report']) {
      const refused = await fetch(`${s.url}/_sandbox/${path}?rule=order-total`);
      expect(refused.status, path).toBe(400);
      const error = (await refused.json()) as {
        parameter: string;
        message: string;
        allowed: string[];
      };
      expect(error.parameter, path).toBe('rule');
      expect(error.message, path).toBe(`query parameter rule ${words}`);
      expect(error.allowed, path).toContain('order-totals');
    }
  });
});
