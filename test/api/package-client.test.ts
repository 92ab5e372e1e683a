// The package's programmatic API against real sandboxes on port 0: startSandbox (in process) and
// connectSandbox (over HTTP) give the same answers, and every failure message says what was seen.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectSandbox,
  SandboxApiError,
  startSandbox,
  type ExpectCleanOptions,
  type StartedSandbox,
  type WaitOptions,
} from '../../src/main/api/index';
import {
  newPage,
  searchBody,
  send,
  sendBadPage,
  sendGoodPage,
  sendWarnPage,
  SITE_ID,
} from '../e2e/helpers/beacons';
import { postBeacon, tempDir } from '../helpers/sandbox';

let sandbox: StartedSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset({ what: 'all' }));

describe('startSandbox', () => {
  it('runs the demo fixtures in memory on a free port of 127.0.0.1', async () => {
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    expect(sandbox.port).toBeGreaterThan(0);
    const health = await sandbox.health();
    expect(health).toMatchObject({ status: 'ok', configSource: 'demo fixtures', dataDir: null });
    expect((await sandbox.feeds()).map((f) => f.id)).toEqual([42, 43, 44]);
  });

  it('feeds(siteId) of a site no account has rejects naming the configured sites; a configured one lists its feeds', async () => {
    expect((await sandbox.feeds('demo42')).map((f) => f.id)).toEqual([42, 43, 44]);
    const err = await sandbox.feeds('dem042').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect(err).toMatchObject({
      status: 404,
      message:
        'GET /_sandbox/feeds?siteId=dem042 answered 404: siteId "dem042" names no site of this sandbox: feeds are those of the config\'s accounts (accounts[].feeds), and no account has this siteId; did you mean demo42? the configured sites are demo42 (GET /_sandbox/health lists them)',
    });
  });

  it('close() answers the waits under way (503, the sandbox is closing) before the connections go', async () => {
    const own = await startSandbox();
    const raw = fetch(`${own.url}/_sandbox/wait?siteId=nobody&timeout=30000`);
    const waiting = own.waitForEvents({ siteId: 'nobody', timeout: 30_000 }).then(
      () => null,
      (err: Error) => err,
    );
    // both waits are open on the sandbox before it closes (nothing says when a request has arrived: a second
    // leaves room for a machine busy with other test files; 100 ms once let the client's come after close)
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await own.close();
    const res = await raw;
    expect(res.status).toBe(503);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({
      done: false,
      error: 'Closing',
      message:
        'the sandbox stopped while this wait was open: 0 of 1 matching events had been recorded',
      count: 0,
      timeoutMs: 30_000,
      events: [],
    });
    // the test's waitForEvents says why it ended, not that the sandbox cannot be reached
    const err = await waiting;
    expect(err?.message).toMatch(/the sandbox stopped while this wait was open/);
    expect(err?.message).not.toMatch(/cannot reach/);
  });

  it('takes the config as an object or a file, and keeps data in dataDir', async () => {
    const tmp = tempDir();
    try {
      const config = { accounts: [{ siteId: 'abc123', secretKey: 's3cret', feeds: [] }] };
      const fromObject = await startSandbox({ config });
      expect((await fromObject.health()).configSource).toBe('config option');
      await fromObject.close();
      const file = path.join(tmp.dir, 'sandbox.json');
      writeFileSync(file, JSON.stringify(config));
      const fromFile = await startSandbox({ config: file, dataDir: path.join(tmp.dir, 'data') });
      expect(await fromFile.health()).toMatchObject({
        configSource: file,
        dataDir: path.join(tmp.dir, 'data'),
      });
      await fromFile.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('names a bad option, a bad config and a taken port', async () => {
    await expect(startSandbox({ prot: 0 } as never)).rejects.toThrow(
      'startSandbox: unknown option "prot"; allowed: port, host, config, dataDir',
    );
    await expect(startSandbox({ config: { accounts: 'x' } })).rejects.toThrow(
      /^config option: accounts: /,
    );
    await expect(startSandbox({ config: '/nonexistent/sandbox.json' })).rejects.toThrow(
      '/nonexistent/sandbox.json: cannot read config file (ENOENT)',
    );
    await expect(startSandbox({ port: sandbox.port })).rejects.toThrow(
      `port ${sandbox.port} on 127.0.0.1 is already in use: stop the other process or pass port: 0 to startSandbox for a free port`,
    );
    await expect(startSandbox({ dataDir: 5 } as never)).rejects.toThrow(
      new TypeError(
        `startSandbox: dataDir 5 must be a directory path, e.g. './.search-sandbox' (leave it out to keep everything in memory)`,
      ),
    );
  });

  it('refuses a bad port in the config though its port option (0 when left out) overrides it', async () => {
    await expect(startSandbox({ config: { port: 99999 } })).rejects.toThrow(
      'config option: port: 99999 is not a port: use a whole number from 0 to 65535 (0 picks a free port) (startSandbox({ port }) overrides it, but every layer is checked: fix it here or take it out)',
    );
    await expect(startSandbox({ config: { httpsPort: '0' }, port: 0 })).rejects.toThrow(
      'config option: httpsPort: "0" is a string: write it as a JSON number, without quotes ("httpsPort": 0); a port is a whole number from 0 to 65535 (0 picks a free port)',
    );
  });

  it('keeps everything in memory for dataDir null, as when it is left out (not ./.search-sandbox)', async () => {
    const started = await startSandbox({ dataDir: null } as never);
    try {
      expect((await started.health()).dataDir).toBeNull();
    } finally {
      await started.close();
    }
  });
});

describe('events and waitForEvents', () => {
  it('returns what was recorded, the same in process and over HTTP', async () => {
    const page = await sendGoodPage(sandbox.url);
    const events = await sandbox.waitForEvents({ pageLoadId: page.pageLoadId, count: 4 });
    expect(events.map((e) => e.event)).toEqual([
      'render',
      'impression',
      'clickthrough',
      'addtocart',
    ]);
    const remote = connectSandbox(`${sandbox.url}/`);
    expect(await remote.events({ event: 'clickthrough', accepted: true })).toEqual(
      await sandbox.events({ event: 'clickthrough', accepted: true }),
    );
    await remote.close(); // a remote client's close leaves the server running
    expect((await sandbox.health()).status).toBe('ok');
  });

  it('times out with the matching events and the latest events of any kind', async () => {
    const page = newPage();
    await send(sandbox.url, 'render', searchBody('render', page));
    await postBeacon(sandbox.url, 'zzz999/search/impression', searchBody('impression', page));
    const err = await sandbox
      .waitForEvents({ siteId: SITE_ID, event: 'impression', count: 2, timeout: 50 })
      .catch((e: Error) => e);
    const [first, ...rest] = (err as Error).message.split('\n');
    expect(first).toBe(
      'waitForEvents timed out (siteId=demo42, event=impression, count=2): 0 of 2 matching events were recorded within 50 ms',
    );
    expect(rest[0]).toBe('Matching events seen: none');
    expect(rest[1]).toBe('Latest events of any kind:');
    expect(rest[2]).toMatch(
      new RegExp(
        `^ {2}ev_\\d+ {2}search/render {2}site demo42 {2}200 accepted {2}pageLoadId=${page.pageLoadId} responseId=${page.responseId}$`,
      ),
    );
    expect(rest[3]).toMatch(/^ {2}ev_\d+ {2}search\/impression {2}site zzz999 {2}200 accepted/);
    expect(rest[4]).toBe(
      'If the storefront sent these instead, check the siteId, category and event names of the filter.',
    );
  });

  it('says when the siteId of a wait that timed out names no site, with the nearest, as expectClean does', async () => {
    const lines = (options: WaitOptions) =>
      sandbox.waitForEvents(options).then(
        () => ['resolved'],
        (e: Error) => e.message.split('\n'),
      );
    expect((await lines({ siteId: 'dem042', event: 'render', timeout: 20 })).slice(0, 3)).toEqual([
      'waitForEvents timed out (siteId=dem042, event=render, count=1): 0 of 1 matching events were recorded within 20 ms',
      `siteId "dem042" names no site of this sandbox: none of the config's accounts has it and no beacon of it was recorded; did you mean demo42? the configured sites are demo42 (GET /_sandbox/health lists them)`,
      'Matching events seen: none',
    ]);
    // a configured site, and a site no account has whose beacons were recorded, get no such line
    expect((await lines({ siteId: SITE_ID, event: 'feedback', timeout: 20 }))[1]).toBe(
      'Matching events seen: none',
    );
    await postBeacon(sandbox.url, 'zzz998/search/render', searchBody('render', newPage()));
    expect((await lines({ siteId: 'zzz998', event: 'impression', timeout: 20 }))[1]).toBe(
      'Matching events seen: none',
    );
  });

  it('says when nothing reached the sandbox, and shows rejected events with their reasons', async () => {
    const empty = await sandbox.waitForEvents({ timeout: 20 }).catch((e: Error) => e.message);
    expect(empty).toBe(
      [
        'waitForEvents timed out (count=1): 0 of 1 matching events were recorded within 20 ms',
        'Matching events seen: none',
        'Latest events of any kind: none',
        'Nothing reached the sandbox: check that the storefront sends beacons to it (routeToSandbox, or the beacon origin).',
      ].join('\n'),
    );
    const bad = searchBody('render', newPage());
    delete (bad.context as Record<string, unknown>).timestamp;
    await send(sandbox.url, 'render', bad, 400);
    const seen = await sandbox
      .waitForEvents({ accepted: false, count: 2, timeout: 20 })
      .catch((e: Error) => e.message);
    expect(seen).toContain('1 of 2 matching events were recorded within 20 ms');
    expect(seen).toMatch(
      /Matching events seen:\n {2}ev_\d+ {2}search\/render {2}site demo42 {2}400 rejected: missing required key-value: context\.timestamp/,
    );
  });

  it('refuses a list or an object as a filter value, which would have matched nothing', async () => {
    await expect(sandbox.events({ event: ['render', 'impression'] } as never)).rejects.toThrow(
      new TypeError(
        `sandbox.events({ event: ["render","impression"] }): event takes one value (a string, number or boolean): call once per value, got ["render","impression"]; e.g. sandbox.events({ siteId: 'demo42', event: 'render' })`,
      ),
    );
    await expect(
      sandbox.waitForEvents({ siteId: { id: 'demo42' }, timeout: 100 } as never),
    ).rejects.toThrow(
      /^sandbox\.waitForEvents\(\{ siteId: \{"id":"demo42"\} \}\): siteId takes one value/,
    );
    await expect(sandbox.expectClean({ pageLoadId: ['p1'] } as never)).rejects.toThrow(
      /^sandbox\.expectClean\(\{ pageLoadId: \["p1"\] \}\): pageLoadId takes one value/,
    );
  });

  it('refuses a category or event no beacon v2 endpoint has at once, naming the nearest, without a request', async () => {
    const started = Date.now();
    const { seen, errors } = await requestsOf((c) => [
      c.waitForEvents({ event: 'transactions', timeout: 300 }),
      c.waitForEvents({ category: 'orders' }),
      c.events({ event: 'transactions' }),
      c.events({ category: 'order', event: 'render' }),
      c.waitForEvents({ kind: 'search', event: 'transaction' }),
    ]);
    expect(seen).toEqual([]);
    // refused, not waited out (the default timeout is 10 s)
    expect(Date.now() - started).toBeLessThan(300);
    const rejected =
      'only a rejected request is recorded under another name (the path it was posted to): add accepted: false to look for one';
    expect(errors.map((e) => e?.message)).toEqual([
      `sandbox.waitForEvents({ event: "transactions" }): event "transactions" is not a beacon v2 event; did you mean transaction? the events are add, addtocart, clickthrough, feedback, impression, login, pageview, personalization, redirect, remove, render, shopifypixel, snap, transaction; ${rejected}; e.g. sandbox.waitForEvents({ event: 'render', count: 1, timeout: 5000 })`,
      `sandbox.waitForEvents({ category: "orders" }): category "orders" is not a beacon v2 category; did you mean order? the categories are autocomplete, bundles, cart, category, chat, email, log, order, product, recommendations, search, shopper, sms; ${rejected}; e.g. sandbox.waitForEvents({ event: 'render', count: 1, timeout: 5000 })`,
      `sandbox.events({ event: "transactions" }): event "transactions" is not a beacon v2 event; did you mean transaction? the events are add, addtocart, clickthrough, feedback, impression, login, pageview, personalization, redirect, remove, render, shopifypixel, snap, transaction; ${rejected}; e.g. sandbox.events({ siteId: 'demo42', event: 'render' })`,
      `sandbox.events({ event: "render" }): event "render" is not an event of category order; its events are transaction; ${rejected}; e.g. sandbox.events({ siteId: 'demo42', event: 'render' })`,
      `sandbox.waitForEvents({ event: "transaction" }): event "transaction" is not an event of category search; its events are addtocart, clickthrough, impression, redirect, render; ${rejected}; e.g. sandbox.waitForEvents({ event: 'render', count: 1, timeout: 5000 })`,
    ]);
    for (const err of errors) expect(err).toBeInstanceOf(TypeError);
  });

  it('finds and waits for a request a storefront posted under another name, with accepted: false', async () => {
    // a storefront's typo in its beacon path: recorded, rejected (404), under the name it posted
    await postBeacon(sandbox.url, `${SITE_ID}/search/rendr`, searchBody('render', newPage()));
    const [rendr] = await sandbox.waitForEvents({ event: 'rendr', accepted: false, timeout: 2000 });
    expect(rendr).toMatchObject({
      category: 'search',
      event: 'rendr',
      accepted: false,
      status: 404,
    });
    expect(await sandbox.events({ category: 'serch', accepted: false })).toEqual([]);
    expect(await sandbox.events({ event: 'rendr', accepted: 'false' as never })).toEqual([rendr]);
    // over HTTP alike: without accepted=false the sandbox refuses the name, naming the parameter
    const refused = await fetch(`${sandbox.url}/_sandbox/events?event=rendr`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      parameter: 'event',
      message: expect.stringMatching(
        /^query parameter event "rendr" is not a beacon v2 event; did you mean render\? .*add accepted=false to look for one$/,
      ),
    });
  });

  it("passes on the admin API's refusal of what only the sandbox knows, naming the parameter", async () => {
    const err = await sandbox.timelines({ rule: 'no-such-rule' as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect((err as SandboxApiError).status).toBe(400);
    expect((err as Error).message).toMatch(
      /^GET \/_sandbox\/timelines\?limit=100000&rule=no-such-rule answered 400: query parameter rule "no-such-rule" is not a rule id; .*the rule ids are schema, /,
    );
  });
});

/** The requests a client makes to a server that answers every request 500, for calls that must make none. */
async function requestsOf(
  calls: (client: ReturnType<typeof connectSandbox>) => Promise<unknown>[],
) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(500).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = connectSandbox(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const errors = await Promise.all(
      calls(client).map((p) =>
        p.then(
          () => null,
          (e: Error) => e,
        ),
      ),
    );
    return { seen, errors };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('options, checked before any request in the words of the method', () => {
  it('refuses an unknown option, naming the method, the option, the nearest one, those it takes and an example', async () => {
    await sendGoodPage(sandbox.url);
    await expect(sandbox.reset({ wat: 'all' } as never)).rejects.toThrow(
      new TypeError(
        `sandbox.reset({ wat: "all" }): unknown option "wat"; did you mean what? options: what, siteId; e.g. sandbox.reset({ what: 'all' })`,
      ),
    );
    // nothing was reset
    expect((await sandbox.events()).length).toBeGreaterThan(0);
    await expect(sandbox.expectClean({ fialOn: 'warning' } as never)).rejects.toThrow(
      new TypeError(
        `sandbox.expectClean({ fialOn: "warning" }): unknown option "fialOn"; did you mean failOn? options: siteId, sessionId, pageLoadId, q, kind, event, rule, failOn, rules, ignoreRules, allowEmpty; e.g. sandbox.expectClean({ siteId: 'demo42', failOn: 'warning' })`,
      ),
    );
    // a misspelt key is a type error (the filter types are closed); from JavaScript, a TypeError
    // @ts-expect-error evnt is not a filter of events()
    await expect(sandbox.events({ evnt: 'render' })).rejects.toThrow(
      /^sandbox\.events\(\{ evnt: "render" \}\): unknown option "evnt"; did you mean event\? options: siteId, category, kind, event, accepted, responseId, pageLoadId, sessionId, since, before, limit; e\.g\. /,
    );
  });

  it('refuses an argument that is not an options object', async () => {
    await sendGoodPage(sandbox.url);
    await expect(sandbox.reset('all' as never)).rejects.toThrow(
      new TypeError(
        `sandbox.reset("all"): takes an options object, not a string; options: what, siteId; e.g. sandbox.reset({ what: 'all' })`,
      ),
    );
    expect((await sandbox.events()).length).toBeGreaterThan(0);
    await expect(sandbox.events('render' as never)).rejects.toThrow(
      /^sandbox\.events\("render"\): takes an options object, not a string; options: siteId, .*; e\.g\. sandbox\.events\(\{ siteId: 'demo42', event: 'render' \}\)$/,
    );
    await expect(sandbox.visits(['demo42'] as never)).rejects.toThrow(
      /^sandbox\.visits\(\["demo42"\]\): takes an options object, not a list; options: siteId, sessionId, userId;/,
    );
  });

  it('says a number out of range in the words and range of the option', async () => {
    await expect(sandbox.waitForEvents({ timeout: -5 })).rejects.toThrow(
      new TypeError(
        `sandbox.waitForEvents({ timeout: -5 }): timeout must be a whole number of milliseconds from 0 to 120000 (default 10000; a longer wait is capped at 120000), got -5; e.g. sandbox.waitForEvents({ event: 'render', count: 1, timeout: 5000 })`,
      ),
    );
    await expect(sandbox.waitForEvents({ count: 0 })).rejects.toThrow(
      /^sandbox\.waitForEvents\(\{ count: 0 \}\): count must be a whole number from 1 to 100000, got 0;/,
    );
    await expect(sandbox.events({ limit: 2.5 })).rejects.toThrow(
      /^sandbox\.events\(\{ limit: 2\.5 \}\): limit must be a whole number from 0 to 100000, got 2\.5;/,
    );
    await expect(sandbox.searchResponses({ limit: 5000 })).rejects.toThrow(
      /^sandbox\.searchResponses\(\{ limit: 5000 \}\): limit must be a whole number from 1 to 1000, got 5000;/,
    );
    await expect(sandbox.reset({ what: 'everything' as never })).rejects.toThrow(
      /^sandbox\.reset\(\{ what: "everything" \}\): what must be one of events, all, got "everything";/,
    );
  });

  it('checks every method that takes options or ids, without a request', async () => {
    const { seen, errors } = await requestsOf((c) => [
      // @ts-expect-error nope is no option of the method: the types refuse it as the method does
      c.events({ nope: 1 }),
      // @ts-expect-error nope is no option of the method: the types refuse it as the method does
      c.waitForEvents({ nope: 1 }),
      // @ts-expect-error nope is no option of the method: the types refuse it as the method does
      c.timelines({ nope: 1 }),
      c.visits({ nope: 1 } as never),
      c.orders({ nope: 1 } as never),
      c.ordersSummary({ nope: 1 } as never),
      // @ts-expect-error nope is no option of the method: the types refuse it as the method does
      c.expectClean({ nope: 1 }),
      c.readiness({ siteId: 'demo42', nope: 1 } as never),
      c.expectReady({ siteId: 'demo42', nope: 1 } as never),
      c.expectMatchesBaseline('x', { nope: 1 } as never),
      // @ts-expect-error nope is no option of the method: the types refuse it as the method does
      c.report('json', { nope: 1 }),
      c.reset({ nope: 1 } as never),
      c.patchFeed('demo42', 42, { nope: 1 }),
      c.searchResponses({ nope: 1 } as never),
      c.outbox({ nope: 1 } as never),
    ]);
    expect(seen).toEqual([]);
    for (const err of errors)
      expect(err?.message).toMatch(
        /^sandbox\.\w+\(\{ nope: 1 \}\): unknown option "nope"; options: /,
      );
    const ids = await requestsOf((c) => [
      c.report('pdf' as never),
      c.timeline(undefined as never),
      c.order(42 as never),
      c.rule('' as never),
      c.feed('demo42', 'x' as never),
      c.transition('demo42', -1, 'running'),
      c.searchResponse({} as never),
      c.feeds(7 as never),
    ]);
    expect(ids.seen).toEqual([]);
    expect(ids.errors.map((e) => e?.message.split(':')[0])).toEqual([
      'sandbox.report("pdf")',
      'sandbox.timeline',
      'sandbox.order',
      'sandbox.rule',
      'sandbox.feed',
      'sandbox.transition',
      'sandbox.searchResponse',
      'sandbox.feeds',
    ]);
  });
});

describe('expectClean', () => {
  it('passes on clean pages and reports what it checked', async () => {
    await sendGoodPage(sandbox.url);
    await sendGoodPage(sandbox.url);
    await expect(sandbox.expectClean({ siteId: SITE_ID, failOn: 'warning' })).resolves.toEqual({
      pages: 2,
      ignored: [],
    });
  });

  it('fails with every finding: severity, rule, page URL, pageLoadId, message and fix', async () => {
    await sendGoodPage(sandbox.url);
    const page = await sendBadPage(sandbox.url);
    const message = await sandbox.expectClean({ siteId: SITE_ID }).catch((e: Error) => e.message);
    const [timeline] = await sandbox.timelines({ pageLoadId: page.pageLoadId });
    const errors = timeline!.findings.filter((f) => f.severity === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(message).toBe(
      [
        `expectClean failed (siteId=demo42, failOn=error): ${errors.length} findings on 1 of 2 pages`,
        `by rule: ${errors.map((f) => `${f.rule} ×1 (error)`).join(', ')}`,
        '',
        `page ${page.pageUrl}`,
        `  pageLoadId ${page.pageLoadId} · site demo42 · session ${page.sessionId} · verdict fail`,
        // the page in the UI, as its own links name it, and its JSON
        `  open: ${sandbox.url}/#/timelines/demo42%2F${page.pageLoadId}`,
        `  events: ${sandbox.url}/_sandbox/timelines/${page.pageLoadId}?siteId=demo42`,
        ...errors.flatMap((f) => [`  error ${f.rule}: ${f.message}`, `    fix: ${f.fix}`]),
        '',
        `Every page and finding: ${sandbox.url}/_sandbox/report?format=html&siteId=demo42&failOn=error (the report a failed test of the Playwright fixture gets attached as search-sandbox-report.html)`,
        `While the sandbox runs, its Timelines view shows these pages: ${sandbox.url}/`,
      ].join('\n'),
    );
    expect(errors.map((f) => f.rule)).toEqual(expect.arrayContaining(['schema', 'order']));
  });

  it('filters by kind, and names the kind of a finding about a category or widget response', async () => {
    const search = await sendGoodPage(sandbox.url);
    const cat = newPage({ pageUrl: 'https://shop.example.com/collections/shirts' });
    const impression = searchBody('impression', cat);
    const res = await postBeacon(sandbox.url, `${SITE_ID}/category/impression`, impression);
    expect(res.status).toBe(200);
    await expect(sandbox.expectClean({ kind: 'search' })).resolves.toMatchObject({ pages: 1 });
    const message = await sandbox.expectClean({ kind: 'category' }).catch((e: Error) => e.message);
    expect(message).toMatch(
      /^expectClean failed \(kind=category, failOn=error\): 1 finding on 1 of 1 page\n/,
    );
    expect(message).toContain(`  error missing-render (category response "${cat.responseId}"): `);
    expect((await sandbox.timelines({ kind: 'category' })).map((p) => p.pageLoadId)).toEqual([
      cat.pageLoadId,
    ]);
    const events = await sandbox.events({ kind: 'search' });
    expect(
      new Set(
        events.map(
          (e) => e.body && (e.body as { context: { pageLoadId: string } }).context.pageLoadId,
        ),
      ),
    ).toEqual(new Set([search.pageLoadId]));
  });

  it('counts warnings only with failOn: warning, and skips ignored rules', async () => {
    const page = await sendWarnPage(sandbox.url);
    await expect(sandbox.expectClean({ siteId: SITE_ID })).resolves.toMatchObject({ pages: 1 });
    const message = await sandbox
      .expectClean({ pageLoadId: page.pageLoadId, failOn: 'warning' })
      .catch((e: Error) => e.message);
    expect(message).toMatch(
      /^expectClean failed \(pageLoadId=[\w-]+, failOn=warning\): 1 finding on 1 of 1 page\n/,
    );
    expect(message).toMatch(/\n {2}warning duplicate-impression: /);
    const passed = await sandbox.expectClean({
      failOn: 'warning',
      ignoreRules: ['duplicate-impression'],
    });
    expect(passed.ignored.map((f) => f.rule)).toEqual(['duplicate-impression']);
  });

  it('takes per-rule severity (rules) and failOn: info, naming the valid ids and levels when wrong', async () => {
    const page = await sendWarnPage(sandbox.url);
    // duplicate-impression raised to error fails the default failOn; turned off, the page passes
    const raised = await sandbox
      .expectClean({ pageLoadId: page.pageLoadId, rules: { 'duplicate-impression': 'error' } })
      .catch((e: Error) => e.message);
    expect(raised).toMatch(/\n {2}error duplicate-impression: /);
    await expect(
      sandbox.expectClean({
        pageLoadId: page.pageLoadId,
        failOn: 'info',
        rules: { 'duplicate-impression': 'off', 'dev-flag': 'off' },
      }),
    ).resolves.toMatchObject({ pages: 1 });
    const info = await sandbox
      .expectClean({
        pageLoadId: page.pageLoadId,
        failOn: 'info',
        rules: { 'duplicate-impression': 'info' },
      })
      .catch((e: Error) => e.message);
    expect(info).toMatch(/failOn=info/);
    expect(info).toMatch(/\n {2}info duplicate-impression: /);
    const badId = await sandbox
      // @ts-expect-error a misspelt rule id is a type error; from JavaScript, a TypeError
      .expectClean({ rules: { 'no-such-rule': 'off' } })
      .catch((e: Error) => e.message);
    expect(badId).toMatch(
      /^expectClean: rules\.no-such-rule: "no-such-rule" is not a rule id; the rule ids are schema, request-refused, /,
    );
    const badLevel = await sandbox
      .expectClean({ rules: { 'no-impression': 'warn' as 'warning' } })
      .catch((e: Error) => e.message);
    expect(badLevel).toBe(
      'expectClean: rules.no-impression: "warn" is not a level for no-impression: use off, info, warning, error',
    );
  });

  it('takes rule ids the sandbox declares: a misspelt one is a type error, and from JavaScript a TypeError naming the nearest', async () => {
    const typo = (p: Promise<unknown>) =>
      p.then(
        () => 'passed',
        (e: Error) => e.message,
      );
    expect(
      // @ts-expect-error no-impresion is no rule id (no-impression is)
      await typo(sandbox.expectClean({ rules: { 'no-impresion': 'off' }, allowEmpty: true })),
    ).toMatch(
      /^expectClean: rules\.no-impresion: "no-impresion" is not a rule id; did you mean no-impression\? /,
    );
    expect(
      // @ts-expect-error order-total is no rule id (order-totals is)
      await typo(sandbox.expectClean({ ignoreRules: ['order-total'], allowEmpty: true })),
    ).toMatch(
      /^expectClean: ignoreRules\[0\]: "order-total" is not a rule id; did you mean order-totals\? /,
    );
    // @ts-expect-error missing-rendr is no rule id (missing-render is)
    expect(await typo(sandbox.timelines({ rule: 'missing-rendr' }))).toMatch(
      /did you mean missing-render\?/,
    );
    // the ids the sandbox declares type-check
    await sandbox.expectClean({
      rule: 'missing-render',
      rules: { 'no-impression': 'off', 'timestamp-skew': 'info' },
      ignoreRules: ['order-totals'],
      allowEmpty: true,
    });
  });

  it('rule(id) takes the rule ids the sandbox declares: a misspelt one is a type error, an id rules() lists goes back in', async () => {
    // @ts-expect-error missing-rendr is no rule id (missing-render is)
    const typo = await sandbox.rule('missing-rendr').catch((e: unknown) => e);
    expect(typo).toBeInstanceOf(SandboxApiError);
    expect(typo).toMatchObject({ status: 404, message: /did you mean missing-render\?/ });
    // the ids read back from rules() (and rule()) type-check wherever a rule id goes
    const listed = await sandbox.rules();
    const detail = await sandbox.rule(listed[0]!.id);
    expect(detail.id).toBe(listed[0]!.id);
    expect(await sandbox.timelines({ rule: detail.id })).toEqual([]);
    await sandbox.expectClean({
      ignoreRules: listed.map((r) => r.id),
      rules: { [detail.id]: 'off' },
      allowEmpty: true,
    });
  });

  it('says when the siteId of a filter matching no page names no site, with the nearest, as readiness does', async () => {
    const lines = (options: ExpectCleanOptions) =>
      sandbox.expectClean(options).then(
        () => ['passed'],
        (e: Error) => e.message.split('\n'),
      );
    expect((await lines({ siteId: 'dem042' })).slice(0, 2)).toEqual([
      'expectClean failed (siteId=dem042): no page matched, so nothing was checked.',
      `siteId "dem042" names no site of this sandbox: none of the config's accounts has it and no beacon of it was recorded; did you mean demo42? the configured sites are demo42 (GET /_sandbox/health lists them)`,
    ]);
    // a configured site that sent nothing, and a site no account has whose beacons were recorded, get no such line
    expect((await lines({ siteId: SITE_ID }))[1]).toMatch(/^Either nothing was tracked yet/);
    await postBeacon(sandbox.url, 'zzz999/search/render', searchBody('render', newPage()));
    expect((await lines({ siteId: 'zzz999', kind: 'category' }))[1]).toMatch(
      /^Either nothing was tracked yet/,
    );
  });

  it('fails when no page matched, unless allowEmpty', async () => {
    const message = await sandbox.expectClean({ siteId: 'abc123' }).catch((e: Error) => e.message);
    expect(message).toBe(
      [
        'expectClean failed (siteId=abc123): no page matched, so nothing was checked.',
        `siteId "abc123" names no site of this sandbox: none of the config's accounts has it and no beacon of it was recorded; the configured sites are demo42 (GET /_sandbox/health lists them)`,
        'Either nothing was tracked yet (wait for it first: await sandbox.waitForEvents({ event: "render" })),',
        `or the filter matches no page (the sandbox holds them at ${sandbox.url}/_sandbox/timelines).`,
        'Pass { allowEmpty: true } when a page without tracking is what you expect.',
      ].join('\n'),
    );
    await expect(sandbox.expectClean({ siteId: 'abc123', allowEmpty: true })).resolves.toEqual({
      pages: 0,
      ignored: [],
    });
  });

  it('refuses a bad failOn or ignoreRules', async () => {
    await expect(sandbox.expectClean({ failOn: 'warn' as never })).rejects.toThrow(
      `expectClean: failOn "warn" is not a severity: use 'error' (default), 'warning' or 'info'`,
    );
    await expect(sandbox.expectClean({ ignoreRules: 'order' as never })).rejects.toThrow(
      `expectClean: ignoreRules "order" must be a list of rule ids (sandbox.rules() lists them)`,
    );
  });

  it('refuses a rule id in ignoreRules that no rule has, naming the nearest, before judging a page', async () => {
    // the finding the misspelt id meant would fail the test with nothing saying why
    const page = await sendWarnPage(sandbox.url);
    const message = await sandbox
      .expectClean({
        pageLoadId: page.pageLoadId,
        failOn: 'warning',
        // @ts-expect-error a misspelt rule id is a type error; from JavaScript, a TypeError
        ignoreRules: ['duplicate-impression', 'order-total'],
      })
      .catch((e: Error) => e);
    expect(message).toBeInstanceOf(TypeError);
    expect((message as Error).message).toMatch(
      /^expectClean: ignoreRules\[1\]: "order-total" is not a rule id; did you mean order-totals\? \(every rule id: GET \/_sandbox\/rules, or the README's rule table\)$/,
    );
    await expect(
      // @ts-expect-error a misspelt rule id is a type error; from JavaScript, a TypeError
      sandbox.expectClean({ failOn: 'warning', ignoreRules: ['duplicate-impresion'] }),
    ).rejects.toThrow(
      /^expectClean: ignoreRules\[0\]: "duplicate-impresion" is not a rule id; did you mean duplicate-impression\? /,
    );
  });
});

describe('reports, reset, feeds, clock, outbox', () => {
  it('gives the report as JSON, JUnit and HTML', async () => {
    await sendGoodPage(sandbox.url);
    await sendBadPage(sandbox.url);
    const json = await sandbox.report('json', { siteId: SITE_ID });
    expect(json.verdicts).toEqual({ pass: 1, warn: 0, fail: 1 });
    expect(await sandbox.report('junit')).toMatch(/^<\?xml[^]*<testsuite[^]*<failure/);
    // failOn reaches the report (its effect on JUnit is tested in test/api/timelines.test.ts)
    expect(await sandbox.report('junit', { failOn: 'warning' })).toContain('failures="1"');
    await expect(sandbox.report('junit', { failOn: 'never' as never })).rejects.toThrow(
      `sandbox.report({ failOn: "never" }): failOn must be one of error, warning, info, got "never"; e.g. sandbox.report('junit', { siteId: 'demo42', failOn: 'warning' })`,
    );
    expect(await sandbox.report('html')).toMatch(/<html/i);
    await expect(sandbox.report('pdf' as never)).rejects.toThrow(
      `sandbox.report("pdf"): the format must be one of json, junit, html; e.g. sandbox.report('junit', { siteId: 'demo42', failOn: 'warning' })`,
    );
  });

  it('looks up issued search responses, and says when a responseId was never issued', async () => {
    const res = await fetch(
      `${sandbox.url}/api/search/search.json?siteId=demo42&q=jacket&beacon=true`,
    );
    const { responseId } = (await res.json()) as { responseId: string };
    expect(await sandbox.searchResponse(responseId)).toMatchObject({ responseId, siteId: SITE_ID });
    // the searches one page load asked for: its request's pageLoadId
    await fetch(
      `${sandbox.url}/api/search/search.json?siteId=demo42&q=boot&beacon=true&pageLoadId=pl-asked&userId=u-1`,
    );
    const asked = await sandbox.searchResponses({ siteId: SITE_ID, pageLoadId: 'pl-asked' });
    expect(asked.map((r) => [r.siteId, r.query, r.requester])).toEqual([
      [SITE_ID, 'boot', { pageLoadId: 'pl-asked', userId: 'u-1' }],
    ]);
    expect(await sandbox.searchResponses({ pageLoadId: 'nobody' })).toEqual([]);
    await expect(sandbox.searchResponse('r-none')).rejects.toThrow(
      /^GET \/_sandbox\/search\/responses\/r-none answered 404: responseId "r-none" was not issued by this sandbox's search API/,
    );
  });

  it('resets one site or all', async () => {
    await sendGoodPage(sandbox.url);
    await postBeacon(sandbox.url, 'zzz999/search/render', searchBody('render', newPage()));
    await sandbox.reset({ siteId: 'zzz999' });
    expect(new Set((await sandbox.events()).map((e) => e.siteId))).toEqual(new Set([SITE_ID]));
    await sandbox.reset();
    expect(await sandbox.events()).toEqual([]);
  });

  it('says how many events a reset forgot, and when its siteId is most likely a typo, naming the nearest site', async () => {
    await sendGoodPage(sandbox.url);
    const sent = (await sandbox.events({ siteId: SITE_ID })).length;
    await postBeacon(sandbox.url, 'zzz999/search/render', searchBody('render', newPage()));
    expect(await sandbox.reset({ siteId: SITE_ID })).toEqual({
      reset: { what: 'events', siteId: SITE_ID },
      removed: sent,
      retained: 1,
    });
    // a siteId of no configured site that sent nothing: resolves (a site may be reset before it sends), and says so
    expect(await sandbox.reset({ siteId: 'dem042' })).toEqual({
      reset: { what: 'events', siteId: 'dem042' },
      removed: 0,
      retained: 1,
      note: `siteId "dem042" is none of the config's accounts and had no events: nothing was reset (right for a site that has not sent yet); did you mean demo42? the configured sites are demo42`,
    });
    // one that cannot be a siteId is refused as readiness and feeds refuse an unknown site
    const err = await sandbox.reset({ siteId: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect(err).toMatchObject({
      status: 404,
      message: `POST /_sandbox/reset?siteId=nope answered 404: siteId "nope" names no site of this sandbox: a reset forgets a site of the config's accounts or one whose beacons were recorded, and this is neither, nor a siteId (six lowercase letters or digits); the configured sites are demo42 (GET /_sandbox/health lists them)`,
    });
    // a site with events is reset whatever its siteId
    expect(await sandbox.reset({ siteId: 'zzz999' })).toMatchObject({ removed: 1, retained: 0 });
  });

  it('moves feeds by hand and names the allowed moves when refused', async () => {
    expect((await sandbox.transition(SITE_ID, 42, 'waiting')).state).toBe('waiting');
    const err = await sandbox.transition(SITE_ID, 42, 'regen_done').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect((err as SandboxApiError).status).toBe(409);
    expect((err as Error).message).toMatch(
      /^POST \/_sandbox\/feeds\/demo42\/42\/transition answered 409: a feed in "waiting" cannot move to "regen_done"; allowed from "waiting": .*"running"/,
    );
    expect((await sandbox.feed(SITE_ID, 42)).state).toBe('waiting');
    expect((await sandbox.patchFeed(SITE_ID, 42, { autopilot: false })).autopilot).toBe(false);
  });

  it('moves the clock', async () => {
    const before = Date.parse((await sandbox.clock.get()).now);
    const advanced = await sandbox.clock.advance('PT61M');
    // whole minutes: the offset is kept against the real clock, which moves a millisecond or two meanwhile
    expect(Math.round(advanced.offsetMs / 60_000)).toBe(61);
    expect(Math.round((Date.parse(advanced.now) - before) / 60_000)).toBe(61);
    const day = (days: number) =>
      new Date(Math.floor(Date.now() / 86_400_000 + days) * 86_400_000).toISOString();
    // set to that instant, then running: the answer's now is a few milliseconds past it on a busy machine
    const set = Date.parse((await sandbox.clock.set(day(40))).now) - Date.parse(day(40));
    expect(set).toBeGreaterThanOrEqual(0);
    expect(set).toBeLessThan(5_000);
    // forward at most 366 days at a time: every scheduled index on the way runs
    await expect(sandbox.clock.set(day(800))).rejects.toThrow(
      /answered 400: set: ".*" is more than 366 days ahead of the sandbox time .*move it in steps/,
    );
    expect((await sandbox.clock.reset()).offsetMs).toBe(0);
  });

  it('refuses a clock move that is no ISO 8601 string before sending it, in the words of the call, with one that works', async () => {
    const said = (p: Promise<unknown>) =>
      p.then(
        () => 'moved',
        (e: Error) => `${e.constructor.name}: ${e.message}`,
      );
    // @ts-expect-error a duration is an ISO 8601 string, not milliseconds
    expect(await said(sandbox.clock.advance(1000))).toBe(
      "TypeError: sandbox.clock.advance(1000): the duration must be an ISO 8601 duration, a string, not a number; e.g. sandbox.clock.advance('PT1S') for 1000 ms",
    );
    expect(await said(sandbox.clock.advance('an hour'))).toBe(
      `TypeError: sandbox.clock.advance("an hour"): duration "an hour" is not an ISO 8601 duration; use e.g. "PT61M", "PT1H30M", "P1D" (years and months are not accepted: their length varies); e.g. sandbox.clock.advance('PT61M')`,
    );
    expect(await said(sandbox.clock.advance('P1Y'))).toBe(
      'TypeError: sandbox.clock.advance("P1Y"): duration "P1Y" is a duration in years, which the sandbox clock does not take: their length varies. Use weeks, days, hours, minutes and seconds, e.g. "P365D" or "PT61M"',
    );
    expect(await said(sandbox.clock.advance(undefined as never))).toBe(
      "TypeError: sandbox.clock.advance(nothing): the duration must be an ISO 8601 duration, a string, not nothing; e.g. sandbox.clock.advance('PT61M')",
    );
    expect(await said(sandbox.clock.set('yesterday'))).toBe(
      `TypeError: sandbox.clock.set("yesterday"): instant "yesterday" is not an ISO 8601 instant with its offset (a day and a time that exist, then Z or ±hh:mm); use e.g. "2026-11-22T04:00:00Z"; e.g. sandbox.clock.set('2026-11-22T04:00:00Z')`,
    );
    // @ts-expect-error an instant is an ISO 8601 string
    expect(await said(sandbox.clock.set(Date.UTC(2026, 10, 22, 4)))).toBe(
      "TypeError: sandbox.clock.set(1795320000000): the instant must be an ISO 8601 instant, a string, not a number; e.g. sandbox.clock.set(new Date(1795320000000).toISOString()), here '2026-11-22T04:00:00.000Z'",
    );
    // nothing was moved
    expect((await sandbox.clock.get()).offsetMs).toBe(0);
  });

  it('shows the status e-mails of requestedBy', async () => {
    expect((await sandbox.feed(SITE_ID, 43)).state).toBe('done');
    const res = await fetch(
      `${sandbox.url}/api/index/feed?feedId=43&requestedBy=qa%40shop.example`,
      {
        method: 'PUT',
        headers: {
          authorization: `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`,
        },
      },
    );
    expect(res.status).toBe(200);
    // on autopilot the clock drives the feed to rest; the parse of its file runs in real time between steps
    for (let i = 0; i < 200; i++) {
      if (['done', 'error', 'regen_error'].includes((await sandbox.feed(SITE_ID, 43)).state)) break;
      await sandbox.clock.advance('PT5M');
    }
    const mail = await sandbox.outbox({ to: 'qa@shop.example' });
    expect(mail.length).toBeGreaterThan(0);
    expect(mail[0]!.to).toBe('qa@shop.example');
  });
});

describe('readiness', () => {
  it('names the method and the missing siteId when called without options', async () => {
    await expect(sandbox.readiness(undefined as never)).rejects.toThrow(
      new TypeError(
        "readiness: siteId undefined must be the site's siteId, e.g. readiness({ siteId: 'demo42' })",
      ),
    );
    await expect(sandbox.expectReady(undefined as never)).rejects.toThrow(
      new TypeError(
        "expectReady: siteId undefined must be the site's siteId, e.g. expectReady({ siteId: 'demo42' })",
      ),
    );
  });

  it("takes failOn 'error', 'warning' or 'info', as check --readiness --fail-on does, and says so when wrong", async () => {
    await expect(
      sandbox.expectReady({ siteId: SITE_ID, expect: ['search'], failOn: 'warn' as never }),
    ).rejects.toThrow(
      new TypeError(
        `expectReady: failOn "warn" is not a severity: use 'error' (default), 'warning' or 'info' (any finding), as check --readiness --fail-on takes it`,
      ),
    );
  });

  it('says once what sends an unseen area, then what some of its behaviours need besides', async () => {
    const message = await sandbox
      .expectReady({ siteId: SITE_ID, expect: ['search', 'autocomplete', 'recommendations'] })
      .then(
        () => '',
        (e: Error) => e.message,
      );
    expect(message.split('\n').slice(0, 4)).toEqual([
      'expectReady: site demo42 is not ready (3 gaps in what it expects):',
      '  - area search is unseen: nothing of it was sent (a Snap SearchController (or `tracker.events.search.*` of @athoscommerce/beacon) on the search page; some of its behaviours are seen only with a reload of a listing or a back navigation to it in production, within the client’s 5-minute cache or with infinite scroll restoring several pages on load or with pagination, filters or sort changing the listing without loading a page or with its searches asked of the sandbox’s companion search (or recorded in a HAR) with the tracker’s context, as a Snap SearchController asks them (Snap’s Client asked directly sends it only when its request has `tracking`: userId, sessionId and pageLoadId from tracker.getContext(), domain window.location.href) or with merchandising banners carrying data-banner-id or with a query that has no results or with a merchandising redirect configured for a query or with a query that has exactly one result)',
      '  - area autocomplete is unseen: nothing of it was sent (a Snap AutocompleteController (or `tracker.events.autocomplete.*`) on the search box; some of its behaviours are seen only with a redirect configured for a term)',
      '  - area recommendations is unseen: nothing of it was sent (a Snap RecommendationController per widget (profile tag), or `tracker.events.recommendations.*` (tags "similar", "trending"))',
    ]);
  });
});

describe('connectSandbox', () => {
  it('refuses what is not a sandbox origin', () => {
    expect(() => connectSandbox('localhost:4545')).toThrow(
      'connectSandbox: "localhost:4545" must be an http:// or https:// address, e.g. http://127.0.0.1:4545',
    );
    expect(() => connectSandbox('not a url')).toThrow(
      'connectSandbox: "not a url" is not a URL: pass the sandbox\'s address, e.g. http://127.0.0.1:4545',
    );
    expect(() => connectSandbox('http://127.0.0.1:4545/_sandbox')).toThrow(
      'connectSandbox: "http://127.0.0.1:4545/_sandbox" has a path or query: pass only the origin, e.g. http://127.0.0.1:4545',
    );
  });

  it('says when the sandbox cannot be reached, or the URL is not a sandbox', async () => {
    const closed = await startSandbox();
    const url = closed.url;
    await closed.close();
    const err = await connectSandbox(url)
      .events()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect((err as SandboxApiError).status).toBe(0);
    expect((err as Error).message).toBe(
      `GET ${url}/_sandbox/events: cannot reach the sandbox (ECONNREFUSED): is it running at ${url}? Start one with startSandbox() or npx search-sandbox serve`,
    );
    // another server: a shop page on one path, its HTML 404 page on another
    const page404 = `<!doctype html>\n<html><head><title>Not found</title></head>\n<body>${'<p>menu</p>'.repeat(500)}</body></html>`;
    const other = http.createServer((req, res) =>
      req.url === '/_sandbox/health'
        ? res.writeHead(200).end('<html>shop</html>')
        : res.writeHead(404, { 'content-type': 'text/html' }).end(page404),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as AddressInfo).port;
      await expect(connectSandbox(`http://127.0.0.1:${port}`).health()).rejects.toThrow(
        'GET /_sandbox/health answered 200: the answer was not JSON: is this URL a search-sandbox?',
      );
      // its start, one line, clipped: not the whole page
      const notFound = await connectSandbox(`http://127.0.0.1:${port}`)
        .events()
        .catch((e: Error) => e);
      expect((notFound as Error).message).toMatch(
        new RegExp(
          `^GET /_sandbox/events answered 404: the answer was not the sandbox's JSON \\(<!doctype html> <html><head><title>Not found</title>.*… \\(\\d+ characters\\)\\): is http://127\\.0\\.0\\.1:${port} a search-sandbox\\?$`,
        ),
      );
      expect((notFound as Error).message.length).toBeLessThan(400);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
