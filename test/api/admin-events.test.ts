// The events admin API over real HTTP: filters and their 400s, one event, long-poll wait, reset with the
// core hook, export and import.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecordedEvent } from '../../src/shared/events';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';

const context = (pageLoadId: string, sessionId = 's-admin') => ({
  timestamp: new Date().toISOString(),
  pageUrl: 'http://localhost:5173/search?q=shirt',
  userId: 'u-admin',
  sessionId,
  pageLoadId,
  initiator: 'admin-test',
});
const render = (responseId: string, pageLoadId = 'p1', sessionId?: string) => ({
  context: context(pageLoadId, sessionId),
  data: { responseId },
});

let sandbox: Sandbox;
let base: string;
const resets: unknown[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
  sandbox.core.onReset((scope) => {
    resets.push(scope);
  });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.core.reset({ what: 'events' });
  resets.length = 0;
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: await res.json() };
}

async function post(
  path: string,
  body?: unknown,
  type = 'application/json',
): Promise<{ status: number; body: any }> {
  const init: RequestInit = { method: 'POST' };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  if (body !== undefined) init.headers = { 'Content-Type': type };
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, body: await res.json() };
}

async function seed(): Promise<void> {
  expect((await postBeacon(base, 'demo42/search/render', render('r1', 'p1', 's1'))).status).toBe(
    200,
  );
  expect((await postBeacon(base, 'demo42/search/render', render('r2', 'p2', 's1'))).status).toBe(
    200,
  );
  expect((await postBeacon(base, 'other9/search/render', render('r3', 'p3', 's2'))).status).toBe(
    200,
  );
  expect((await postBeacon(base, 'demo42/search/render', { context: context('p4') })).status).toBe(
    400,
  );
}

describe('GET /_sandbox/events', () => {
  it('lists recorded requests newest last, with every filter', async () => {
    await seed();
    const all = await get('/_sandbox/events');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 4, truncated: false, retained: 4 });
    const events = all.body.events as RecordedEvent[];
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    expect(events[0]).toMatchObject({
      siteId: 'demo42',
      event: 'render',
      accepted: true,
      status: 200,
      errors: [],
    });
    expect(all.body.lastSeq).toBe(events[3]!.seq);

    const ids = async (query: string) =>
      ((await get(`/_sandbox/events?${query}`)).body.events as RecordedEvent[]).map(
        (e) => e.body && (e.body as any).data?.responseId,
      );
    expect(await ids('siteId=other9')).toEqual(['r3']);
    expect(await ids('accepted=false')).toEqual([undefined]);
    expect(await ids('responseId=r2')).toEqual(['r2']);
    expect(await ids('pageLoadId=p1')).toEqual(['r1']);
    expect(await ids('sessionId=s1')).toEqual(['r1', 'r2']);
    expect(await ids('category=search&event=render&siteId=demo42&accepted=true')).toEqual([
      'r1',
      'r2',
    ]);
    expect(await ids(`since=${events[1]!.seq}`)).toEqual(['r3', undefined]);
    expect(await ids(`since=${events[2]!.id}`)).toEqual([undefined]);
    expect(await ids(`before=${events[2]!.id}&limit=1`)).toEqual(['r2']);
    const limited = await get('/_sandbox/events?limit=2');
    expect(limited.body).toMatchObject({ count: 2, truncated: true });
    expect((limited.body.events as RecordedEvent[]).map((e) => e.seq)).toEqual([
      events[2]!.seq,
      events[3]!.seq,
    ]);
  });

  it('answers lastSeq, the newest matching event, whatever the limit: limit=0 is a cursor only', async () => {
    await seed();
    const events = (await get('/_sandbox/events')).body.events as RecordedEvent[];
    const newest = events[3]!.seq;
    for (const limit of [0, 1, 2, 100])
      expect((await get(`/_sandbox/events?limit=${limit}`)).body).toMatchObject({
        count: Math.min(limit, 4),
        truncated: limit < 4,
        retained: 4,
        lastSeq: newest,
      });
    // with filters it is the newest event that matches them (a cursor for since= with the same filters)
    expect((await get('/_sandbox/events?siteId=other9&limit=0')).body).toMatchObject({
      events: [],
      lastSeq: events[2]!.seq,
    });
    expect((await get('/_sandbox/events?siteId=nobody&limit=0')).body).toMatchObject({
      truncated: false,
      lastSeq: null,
    });
    // the cursor it gives is the one since= takes: nothing newer yet
    expect((await get(`/_sandbox/events?since=${newest}`)).body.count).toBe(0);
  });

  it.each([
    ['accepted=yes', 'accepted', /accepted must be true or false, got "yes"/],
    ['limit=-1', 'limit', /limit must be a whole number from 0 to \d+, got "-1"/],
    ['limit=abc', 'limit', /limit must be a whole number/],
    ['since=yesterday', 'since', /since must be a seq .* or an event id/],
    ['site=demo42', 'site', /unknown query parameter site; allowed: siteId,/],
    ['siteId=a&siteId=b', 'siteId', /siteId was given more than once/],
  ])('refuses %s with a 400 naming the parameter', async (query, parameter, message) => {
    const res = await get(`/_sandbox/events?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'BadRequest', parameter });
    expect(res.body.message).toMatch(message);
  });

  it('GET /_sandbox/events/:id returns one event, 404 with a reason otherwise', async () => {
    await seed();
    const [first] = sandbox.core.events.all();
    const one = await get(`/_sandbox/events/${first!.id}`);
    expect(one).toEqual({ status: 200, body: first });
    const missing = await get('/_sandbox/events/ev_999999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/no event ev_999999999: .*reset or dropped by retention/);
  });
});

describe('limit and count up to what the sandbox retains', () => {
  it('take a value past 100,000 when the retention is larger, and name the retention when refused', async () => {
    const big = await startSandbox({ retention: { events: 250_000 } });
    try {
      const at = async (query: string) => {
        const res = await fetch(`${big.url}/_sandbox/${query}`);
        return { status: res.status, body: (await res.json()) as any };
      };
      expect((await at('events?limit=200000')).status).toBe(200);
      expect((await at('events?limit=250000')).status).toBe(200);
      const over = await at('events?limit=250001');
      expect(over.status).toBe(400);
      expect(over.body.message).toMatch(
        /limit must be a whole number from 0 to 250000, got "250001"/,
      );
      const count = await at('wait?count=250001&timeout=1');
      expect(count.status).toBe(400);
      expect(count.body).toMatchObject({ parameter: 'count' });
      expect(count.body.message).toMatch(/count must be a whole number from 1 to 250000/);
      // the sandbox beside it keeps the declared 100,000
      expect((await get('/_sandbox/events?limit=100001')).status).toBe(400);
    } finally {
      await big.close();
    }
  });
});

describe('GET /_sandbox/wait', () => {
  it('answers at once when enough matching events are there', async () => {
    await seed();
    const res = await get('/_sandbox/wait?siteId=demo42&count=2&timeout=5000');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ done: true, count: 3 });
  });

  it('blocks until the events arrive', async () => {
    const waiting = get('/_sandbox/wait?responseId=late&event=render&count=2&timeout=20000');
    let settled = false;
    void waiting.then(() => (settled = true));
    expect((await postBeacon(base, 'demo42/search/render', render('late'))).status).toBe(200);
    expect(settled).toBe(false);
    expect((await postBeacon(base, 'demo42/search/render', render('late'))).status).toBe(200);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(2);
    expect(
      res.body.events.every((e: RecordedEvent) => (e.body as any).data.responseId === 'late'),
    ).toBe(true);
  });

  it('answers 408 with what was seen when the timeout passes, and caps long timeouts', async () => {
    await seed();
    const res = await get('/_sandbox/wait?siteId=other9&count=3&timeout=50');
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ done: false, error: 'Timeout', count: 1, timeoutMs: 50 });
    expect(res.body.message).toBe('1 of 3 matching events were recorded within 50 ms');
    const capped = await get('/_sandbox/wait?siteId=other9&count=1&timeout=999999999');
    expect(capped.status).toBe(200);
    expect(capped.body).toMatchObject({
      timeoutMs: 120000,
      note: expect.stringMatching(/timeout capped at 120000 ms/),
    });
    const bad = await get('/_sandbox/wait?count=0');
    expect(bad.status).toBe(400);
    expect(bad.body.parameter).toBe('count');
  });
});

describe('POST /_sandbox/reset', () => {
  it('forgets one site with ?siteId=, all events without, and runs the reset hook', async () => {
    await seed();
    const one = await post('/_sandbox/reset?siteId=other9');
    expect(one).toEqual({
      status: 200,
      body: { reset: { what: 'events', siteId: 'other9' }, removed: 1, retained: 3 },
    });
    expect(sandbox.core.events.query({ siteId: 'other9' })).toEqual([]);
    const all = await post('/_sandbox/reset');
    expect(all.body).toEqual({ reset: { what: 'events' }, removed: 3, retained: 0 });
    expect(resets).toEqual([{ what: 'events', siteId: 'other9' }, { what: 'events' }]);
  });

  it('takes {"what":"all"} as JSON or as curl -d sends it, and refuses bad bodies', async () => {
    expect((await post('/_sandbox/reset', { what: 'all' })).status).toBe(200);
    expect(
      (
        await post(
          '/_sandbox/reset',
          '{"what":"all","siteId":"demo42"}',
          'application/x-www-form-urlencoded',
        )
      ).status,
    ).toBe(200);
    expect(resets).toEqual([{ what: 'all' }, { what: 'all', siteId: 'demo42' }]);
    const bad = await post('/_sandbox/reset', { what: 'everything' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      parameter: 'body.what',
      message: 'body field what must be "events" or "all", got "everything"',
    });
    expect((await post('/_sandbox/reset', '{not json')).body.parameter).toBe('body');
    expect((await post('/_sandbox/reset?siteId=a', { siteId: 'b' })).body.message).toMatch(
      /"a" in the query but "b" in the body/,
    );
    expect((await post('/_sandbox/reset', { site: 'x' })).body.message).toMatch(
      /unknown body field site/,
    );
    // an empty siteId reset nothing and answered success; in the body it was refused already
    const before = sandbox.core.events.size();
    const empty = await post('/_sandbox/reset?siteId=');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      error: 'BadRequest',
      parameter: 'siteId',
      message: 'query parameter siteId must not be empty, got ""',
    });
    expect(sandbox.core.events.size()).toBe(before);
  });
});

describe('export and import', () => {
  it('exports every event as a downloadable file that imports back with new ids', async () => {
    await seed();
    const res = await fetch(`${base}/_sandbox/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="search-sandbox-export-.*\.json"$/,
    );
    const exported = (await res.json()) as any;
    expect(exported).toMatchObject({
      format: 'search-sandbox-export',
      version: 1,
      sandboxVersion: sandbox.core.version,
    });
    expect(exported.events).toEqual(sandbox.core.events.all());
    const filtered = (await (await fetch(`${base}/_sandbox/export?siteId=other9`)).json()) as any;
    expect(filtered.events).toHaveLength(1);

    const imported = await post('/_sandbox/import?replace=true', exported);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: 4 });
    const now = sandbox.core.events.all();
    expect(now).toHaveLength(4);
    expect(now[0]!.id).toBe(imported.body.firstId);
    expect(now[0]!.seq).toBeGreaterThan(exported.events[3].seq);
    const strip = ({ id: _id, seq: _seq, ...rest }: RecordedEvent) => rest;
    expect(now.map(strip)).toEqual(exported.events.map(strip));
  });

  it('carries the sections other areas register, and hands them back on import', async () => {
    const received: unknown[] = [];
    sandbox.core.addExportSection('testState', {
      export: () => ({ n: 42 }),
      import: (data) => void received.push(data),
    });
    expect(() => sandbox.core.addExportSection('events', { export: () => 1 })).toThrow(/taken/);
    const exported = (await (await fetch(`${base}/_sandbox/export`)).json()) as any;
    expect(exported.testState).toEqual({ n: 42 });
    const res = await post('/_sandbox/import', {
      ...exported,
      testState: { n: 7 },
      unknownPart: [],
    });
    expect(res.body).toMatchObject({
      imported: 0,
      sections: expect.arrayContaining(['testState', 'search']),
      ignoredSections: expect.arrayContaining(['unknownPart']),
    });
    expect(received).toEqual([{ n: 7 }]);

    sandbox.core.addExportSection('pickyState', {
      export: () => null,
      import: () => {
        throw new Error('expected an object with n');
      },
    });
    await seed();
    const before = sandbox.core.events.size();
    const refused = await post('/_sandbox/import', {
      events: [sandbox.core.events.all()[0]],
      pickyState: 3,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'section pickyState could not be imported: expected an object with n; no events were imported',
    );
    expect(sandbox.core.events.size()).toBe(before);
    // the same from a body large enough to be read and checked in the worker: its events are not taken
    const large = await post('/_sandbox/import', {
      events: Array.from({ length: 2000 }, () => sandbox.core.events.all()[0]),
      pickyState: 3,
    });
    expect(JSON.stringify(sandbox.core.events.all()[0]).length * 2000).toBeGreaterThan(256 * 1024);
    expect(large.status).toBe(400);
    expect(large.body.message).toBe(refused.body.message);
    expect(sandbox.core.events.size()).toBe(before);
    expect((await post('/_sandbox/import?mode=x', [])).body).toMatchObject({ parameter: 'mode' });
    expect((await post('/_sandbox/import?replace=yes', [])).body).toMatchObject({
      parameter: 'replace',
    });
  });

  it('imports an export saved as UTF-16 (PowerShell `>`), read in the worker or not', async () => {
    await seed();
    const events = sandbox.core.events.all();
    const utf16 = (text: string) =>
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const send = async (body: Buffer) => {
      const res = await fetch(`${base}/_sandbox/import?replace=true`, { method: 'POST', body });
      return { status: res.status, body: (await res.json()) as any };
    };
    const small = await send(utf16(JSON.stringify({ format: 'search-sandbox-export', events })));
    expect(small.status, JSON.stringify(small.body)).toBe(200);
    expect(small.body).toMatchObject({ imported: events.length });
    // large enough to be read and checked in the worker
    const many = Array.from({ length: 600 }, () => events).flat();
    const text = JSON.stringify({ format: 'search-sandbox-export', events: many });
    expect(text.length * 2).toBeGreaterThan(256 * 1024);
    const large = await send(utf16(text));
    expect(large.status, JSON.stringify(large.body)).toBe(200);
    expect(large.body).toMatchObject({ imported: many.length });
    // UTF-16 big-endian, without a byte order mark: NDJSON, one event a line
    const ndjson = Buffer.from(
      events.map((e) => JSON.stringify(e)).join('\r\n'),
      'utf16le',
    ).swap16();
    const bare = await send(ndjson);
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect(bare.body).toMatchObject({ imported: events.length });
  });

  it("imports a data directory's events.ndjson as a restart reads it: its resets and imports replayed, damage refused", async () => {
    // a sandbox on a data directory: beacons, a reset of one site, an import, a beacon after it
    const { dir, cleanup } = tempDir('admin-journal-');
    try {
      const onDisk = await startSandbox({ dataDir: dir });
      const at = onDisk.url;
      expect((await postBeacon(at, 'demo42/search/render', render('j1', 'p1', 's1'))).status).toBe(
        200,
      );
      expect((await postBeacon(at, 'other9/search/render', render('j2', 'p2', 's2'))).status).toBe(
        200,
      );
      expect((await fetch(`${at}/_sandbox/reset?siteId=demo42`, { method: 'POST' })).status).toBe(
        200,
      );
      const imported = await fetch(`${at}/_sandbox/import`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify([{ ...onDisk.core.events.all()[0], body: render('j3', 'p3', 's3') }]),
      });
      expect(imported.status).toBe(200);
      expect((await postBeacon(at, 'demo42/search/render', render('j4', 'p4', 's4'))).status).toBe(
        200,
      );
      const held = onDisk.core.events.all().map((e) => (e.body as any).data.responseId);
      expect(held).toEqual(['j2', 'j3', 'j4']);
      await onDisk.close();
      const journal = readFileSync(path.join(dir, 'events.ndjson'), 'utf8');
      expect(journal).toMatch(/"reset":\{"siteId":"demo42"\}/);
      expect(journal).toMatch(/"import":\{"id":"[^"]+","commit":true\}/);

      // imported elsewhere: what the restart would hold, not the events the reset forgot
      const res = await post('/_sandbox/import', journal, 'application/x-ndjson');
      expect(res).toMatchObject({ status: 200, body: { imported: 3 } });
      expect(sandbox.core.events.all().map((e) => (e.body as any).data.responseId)).toEqual(held);

      // a journal with damage is refused whole, its line named (a restart skips it and says so)
      const lines = journal.trimEnd().split('\n');
      lines.splice(2, 0, '{"id":"ev_0000');
      const before = sandbox.core.events.size();
      const damaged = await post(
        '/_sandbox/import',
        `${lines.join('\n')}\n`,
        'application/x-ndjson',
      );
      expect(damaged.status).toBe(400);
      expect(damaged.body.problems[0]).toMatch(
        /^events journal in the body, line 3: not valid JSON \(torn or garbled write\); skipped .*start a sandbox on its directory/,
      );
      expect(sandbox.core.events.size()).toBe(before);
    } finally {
      cleanup();
    }
    // NDJSON of events without a journal's header is read line by line
    await seed();
    const lines = sandbox.core.events.all().map((e) => JSON.stringify(e));
    const res = await post('/_sandbox/import', `${lines.join('\n')}\n`, 'application/x-ndjson');
    expect(res.body).toMatchObject({ imported: lines.length });
    const broken = await post('/_sandbox/import', `${lines[1]}\n{"id":`, 'application/x-ndjson');
    expect(broken.status).toBe(400);
    expect(broken.body.problems[0]).toMatch(/^line 2: not valid JSON/);
  });

  it('refuses a browser HAR, naming what reads one', async () => {
    const res = await post('/_sandbox/import', { log: { version: '1.2', entries: [] } });
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      expect.stringMatching(
        /^this is a browser HAR \(log\.entries\), not an import: .*search-sandbox check FILE.*File → Import/,
      ),
    ]);
  });

  it('refuses invalid imports naming the element and field, importing nothing', async () => {
    await seed();
    const good = sandbox.core.events.all()[0]!;
    const res = await post('/_sandbox/import', {
      format: 'search-sandbox-export',
      events: [
        good,
        { ...good, accepted: 'yes' },
        { ...good, receivedAt: 'noon' },
        7,
        // what the service never records: a status no HTTP answer has, accepted with a refusal's status
        { ...good, status: 999 },
        { ...good, accepted: true, status: 400 },
        // how far the recording sandbox's clock was moved, in words: not the whole milliseconds it records
        { ...good, clockOffsetMs: '1h' },
        // what check refuses, import refuses: a year no receive time has, a verdict's errors not as written
        { ...good, receivedAt: '+099999-01-01T00:00:00.000Z' },
        { ...good, errors: [1] },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'InvalidImport' });
    expect(res.body.problems).toEqual([
      'events[1]: field accepted must be true or false',
      'events[2]: receivedAt "noon" is not an ISO 8601 time with its zone, as the sandbox writes it (e.g. "2026-11-21T05:00:00.000Z")',
      'events[3]: must be an object (a recorded event)',
      'events[4]: field status must be an HTTP status (100 to 599), got 999',
      'events[5]: field accepted is true with status 400: an event is accepted exactly when its status is 200',
      expect.stringMatching(
        /^events\[6\]: field clockOffsetMs is "1h": it must be a whole number of milliseconds, the sandbox clock's time minus real time when the event was received/,
      ),
      expect.stringMatching(
        /^events\[7\]: receivedAt "\+099999-01-01T00:00:00\.000Z" is not an ISO 8601 time/,
      ),
      expect.stringMatching(
        /^events\[8\]: field errors must be the list of what the sandbox found wrong/,
      ),
    ]);
    expect(sandbox.core.events.size()).toBe(4);
    expect((await post('/_sandbox/import', { format: 'har', events: [] })).body.message).toMatch(
      /expected "search-sandbox-export"/,
    );
    const notJson = await post('/_sandbox/import', 'nope');
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/nothing was imported: the body is not valid JSON/);
    expect((await post('/_sandbox/import', [good])).body.imported).toBe(1);
  });

  it('refuses a body declared over 250 MB with a 413 it can read (not a reset), and imports nothing', async () => {
    const { hostname, port } = new URL(base);
    const before = sandbox.core.events.size();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () =>
        socket.write(
          `POST /_sandbox/import HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${300 * 1024 * 1024}\r\n\r\n[`,
        ),
      );
      let got = '';
      socket.on('data', (c: Buffer) => (got += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toContain('an import body may have at most 250 MB; nothing was imported');
    expect(sandbox.core.events.size()).toBe(before);
  });
});

describe('journal warnings', () => {
  it('a torn journal line is reported by GET /_sandbox/health, and the sandbox starts anyway', async () => {
    const { dir, cleanup } = tempDir('admin-health-');
    try {
      writeFileSync(
        path.join(dir, 'events.ndjson'),
        '{"journal":"search-sandbox events","version":1,"nextSeq":1}\n{"id":"ev_0000',
      );
      const withJournal = await startSandbox({ dataDir: dir });
      try {
        const health = (await (await fetch(`${withJournal.url}/_sandbox/health`)).json()) as any;
        expect(health.warnings).toHaveLength(1);
        expect(health.warnings[0]).toMatch(
          /events\.ndjson, line 2: incomplete record at the end of the file/,
        );
        expect(
          (await postBeacon(withJournal.url, 'demo42/search/render', render('after-torn'))).status,
        ).toBe(200);
      } finally {
        await withJournal.close();
      }
    } finally {
      cleanup();
    }
  });

  it('a journal line whose clockOffsetMs is not one is skipped and named; a good offset comes back as written', async () => {
    const { dir, cleanup } = tempDir('admin-health-');
    const event = (seq: number, clockOffsetMs: unknown) =>
      JSON.stringify({
        id: `ev_${String(seq).padStart(12, '0')}`,
        seq,
        receivedAt: '2026-11-21T05:01:00.000Z',
        clockOffsetMs,
        siteId: 'demo42',
        category: 'search',
        event: 'render',
        path: '/beacon/v2/demo42/search/render',
        accepted: true,
        status: 200,
        errors: [],
        body: render(`r-${seq}`),
      });
    try {
      writeFileSync(
        path.join(dir, 'events.ndjson'),
        `{"journal":"search-sandbox events","version":1,"nextSeq":1}\n${event(1, 'soon')}\n${event(2, 3_660_000)}\n`,
      );
      const withJournal = await startSandbox({ dataDir: dir });
      try {
        const health = (await (await fetch(`${withJournal.url}/_sandbox/health`)).json()) as any;
        expect(health.warnings).toEqual([
          expect.stringMatching(
            /events\.ndjson, line 2: event field clockOffsetMs is "soon": it must be a whole number of milliseconds.*; skipped/,
          ),
        ]);
        const { events } = (await (await fetch(`${withJournal.url}/_sandbox/events`)).json()) as {
          events: RecordedEvent[];
        };
        expect(events.map((e) => [e.seq, e.clockOffsetMs])).toEqual([[2, 3_660_000]]);
      } finally {
        await withJournal.close();
      }
    } finally {
      cleanup();
    }
  });
});
