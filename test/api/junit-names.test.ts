// JUnit test cases keep their names run after run, so a CI dashboard keeps each test's history: a thank-you
// page's order number (new every run) reads by its name, as baselines read it (`/thank-you?order={orderId}`),
// and a page whose beacons the service rejected keeps its kind (`demo42.search`), so the existing test turns
// red instead of vanishing beside a new one. Through `check --format junit` and the live report.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { check, tempFile } from '../helpers/check';
import { journey, run } from '../helpers/journey';
import { postBeacon, startSandbox } from '../helpers/sandbox';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Line {
  siteId: string;
  category: string;
  event: string;
  body: { context: Record<string, unknown>; data: Record<string, unknown> };
  accepted?: boolean;
  status?: number;
  errors?: Array<{ message: string; path: string }>;
}

/** A run of the journey whose thank-you page carries its order number, `/thank-you?order=N`. */
function ordered(n: number): Line[] {
  return run(journey())
    .trim()
    .split('\n')
    .map((line) => {
      const e = JSON.parse(line) as Line;
      if (e.category === 'order') {
        e.body.data.orderId = String(n);
        e.body.context.pageUrl = `http://127.0.0.1:41023/thank-you?order=${n}`;
      }
      return e;
    });
}

const ndjson = (lines: readonly Line[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

/** `classname name` of each test case, in order. */
const cases = (xml: string) =>
  [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map((m) => `${m[1]} ${m[2]}`);

async function junit(lines: readonly Line[]): Promise<{ code: number; out: string }> {
  return check(tempFile(cleanups, 'run.ndjson', ndjson(lines)), '--format', 'junit');
}

/** The search page's events answered as the service answers a body it rejects, or a request it refuses. */
function refusedSearch(lines: readonly Line[], status: 400 | 415): Line[] {
  const pageLoadId = lines[0]!.body.context.pageLoadId;
  const error = status === 400 ? 'missing required key-value: context.timestamp' : 'unsupported';
  return lines.map((e) =>
    e.body.context.pageLoadId === pageLoadId
      ? { ...e, accepted: false, status, errors: [{ message: error, path: '' }] }
      : e,
  );
}

describe('check --format junit names a page alike run after run', () => {
  it('a thank-you page reads its order number by its name, as baselines do; the raw URL stays in the body', async () => {
    const first = await junit(ordered(500359));
    const second = await junit(ordered(720479));
    expect(cases(first.out)).toEqual([
      'demo42.search /search?q=shoes',
      'demo42.product /product/102',
      'demo42.order /thank-you?order={orderId}',
      'demo42.category /shop/boots?sort=price',
    ]);
    expect(cases(second.out)).toEqual(cases(first.out));
    expect(first.out).toMatch(
      /<system-out>page [0-9a-f-]{36} of session [0-9a-f-]{36}: http:\/\/127\.0\.0\.1:41023\/thank-you\?order=500359<\/system-out>/,
    );
  });

  it('two pages that read alike are told apart by their order in the report', async () => {
    const [one, other] = [ordered(500359), ordered(500360)];
    const lines = [...one, ...other.filter((e) => e.category === 'order')];
    expect(cases((await junit(lines)).out).filter((c) => c.includes('order'))).toEqual([
      'demo42.order /thank-you?order={orderId}',
      'demo42.order /thank-you?order={orderId} (2)',
    ]);
  });

  it('a page whose beacons the service rejected (400) or refused (415) keeps its kind: the same test fails', async () => {
    const good = await junit(ordered(500359));
    for (const status of [400, 415] as const) {
      const broken = await junit(refusedSearch(ordered(500361), status));
      expect(broken.code, String(status)).toBe(1);
      expect(cases(broken.out), String(status)).toEqual(cases(good.out));
      expect(broken.out).toMatch(
        new RegExp(
          `<testcase classname="demo42\\.search" name="/search\\?q=shoes" time="0">\\n {6}<failure type="${status === 400 ? 'schema' : 'request-refused'}"`,
        ),
      );
    }
    // an order the service rejected is still the order page, its number still read by its name
    const rejected = ordered(500362).map((e) =>
      e.category === 'order'
        ? { ...e, accepted: false, status: 400, errors: [{ message: 'bad total', path: '' }] }
        : e,
    );
    expect(cases((await junit(rejected)).out)).toEqual(cases(good.out));
  });
});

describe('the live JUnit report names pages as check does', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(async () => {
    await sb?.close();
  });

  async function live(lines: readonly Line[]): Promise<string> {
    await fetch(`${sb.url}/_sandbox/reset`, { method: 'POST' });
    for (const e of lines) {
      const body = { ...e.body, context: { ...e.body.context } };
      // the service's own reason to reject it: no timestamp
      if (e.accepted === false) delete body.context.timestamp;
      await postBeacon(sb.url, `${e.siteId}/${e.category}/${e.event}`, body);
    }
    return (await fetch(`${sb.url}/_sandbox/report?format=junit`)).text();
  }

  it('by their order number’s name and their requests’ kind, accepted or not', async () => {
    const good = cases(await live(ordered(500359)));
    expect(good).toContain('demo42.order /thank-you?order={orderId}');
    expect(cases(await live(ordered(720479)))).toEqual(good);
    const rejected = await live(refusedSearch(ordered(720480), 400));
    expect(cases(rejected)).toEqual(good);
    expect(rejected).toMatch(
      /<testcase classname="demo42\.search" name="\/search\?q=shoes" time="0">\n {6}<failure type="schema"/,
    );
  });
});
