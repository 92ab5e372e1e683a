// Beacon forwarding over real HTTP to a fake beacon service on 127.0.0.1: the request goes on byte for byte
// after the sandbox answered, the answer lands on the event, verdicts that differ become `upstream-disagrees`,
// the queue is bounded and its drops counted, and answers survive a restart, `check` of an export and an
// export/import.
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecordedEvent } from '../../src/shared/events';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { check, tempFile } from '../helpers/check';
import { heldPort, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { SITE, beacon, passThroughAccounts, startPassThrough } from '../helpers/pass-through';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  answer?: Parameters<typeof startFakeUpstream>[0],
  tracking: Record<string, unknown> = {},
  overrides = {},
): Promise<{ fake: FakeUpstream; sb: Sandbox }> {
  const fake = await startFakeUpstream(answer);
  cleanups.push(() => fake.close());
  const sb = await startPassThrough(
    { tracking: { forward: `${fake.url}/beacon/v2`, ...tracking } },
    overrides,
  );
  cleanups.push(() => sb.close());
  return { fake, sb };
}

async function event(sb: Sandbox, id: string): Promise<RecordedEvent> {
  return (await (await fetch(`${sb.url}/_sandbox/events/${id}`)).json()) as RecordedEvent;
}

async function page(sb: Sandbox, pageLoadId: string): Promise<PageTimelineDto> {
  sb.core.timelines.flushChanges();
  const res = await fetch(`${sb.url}/_sandbox/timelines?pageLoadId=${pageLoadId}`);
  return ((await res.json()) as { pages: PageTimelineDto[] }).pages[0]!;
}

async function send(sb: Sandbox, endpoint: string, body: unknown): Promise<string> {
  const res = await postBeacon(sb.url, `${SITE}/${endpoint}`, body);
  const events = (await (await fetch(`${sb.url}/_sandbox/events?limit=1`)).json()) as {
    events: RecordedEvent[];
  };
  expect(res.status).toBeLessThan(500);
  return events.events[0]!.id;
}

const REJECT = { success: false, error: 'ValidationError', messages: ['unknown field'] };

describe('beacon forwarding', () => {
  it('sends the request on byte for byte and records the answer on the event', async () => {
    const { fake, sb } = await setup();
    // odd spacing and key order: a re-serialised body would differ
    const raw = `{"data":{"responseId":"r1"},  "context":${JSON.stringify(beacon('fw-1', {}).context)}}`;
    const res = await postBeacon(sb.url, `${SITE}/search/render`, raw);
    expect(res.status).toBe(200);
    await sb.core.forwarding.idle();
    expect(fake.seen).toHaveLength(1);
    const seen = fake.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe(`/beacon/v2/${SITE}/search/render`);
    expect(seen.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect(seen.body.equals(Buffer.from(raw))).toBe(true);
    const ev = (await (await fetch(`${sb.url}/_sandbox/events?limit=1`)).json()) as {
      events: RecordedEvent[];
    };
    const up = ev.events[0]!.upstream!;
    expect(up).toMatchObject({
      url: `${fake.url}/beacon/v2/${SITE}/search/render`,
      outcome: 'accepted',
      status: 200,
      body: { success: true },
    });
    expect(up.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(up.at)).not.toBeNaN();
  });

  it('sends a compressed body with its Content-Encoding and Content-Type, bytes untouched; a plain one without', async () => {
    const { fake, sb } = await setup();
    const text = JSON.stringify(beacon('fw-ce', { responseId: 'r1' }));
    const sent: Array<[string | null, Buffer]> = [
      ['gzip', zlib.gzipSync(text)],
      ['deflate', zlib.deflateSync(text)],
      ['br', zlib.brotliCompressSync(text)],
      [null, Buffer.from(text)],
    ];
    for (const [encoding, body] of sent) {
      const res = await fetch(`${sb.url}/beacon/v2/${SITE}/search/render`, {
        method: 'POST',
        headers: {
          'Content-Type': 'text/plain;charset=UTF-8',
          ...(encoding !== null && { 'Content-Encoding': encoding }),
        },
        body,
      });
      expect(res.status).toBe(encoding === null ? 200 : 400);
    }
    await sb.core.forwarding.idle();
    expect(fake.seen).toHaveLength(sent.length);
    fake.seen.forEach((seen, i) => {
      const [encoding, body] = sent[i]!;
      expect(seen.headers['content-encoding']).toBe(encoding ?? undefined);
      expect(seen.headers['content-type']).toBe('text/plain;charset=UTF-8');
      expect(seen.body.equals(body)).toBe(true);
    });
  });

  it('flags a page when the real service rejects what the sandbox accepted, with both answers', async () => {
    const { sb } = await setup(() => ({ status: 400, body: REJECT }));
    await send(sb, 'search/render', beacon('fw-2', { responseId: 'r2' }));
    await sb.core.forwarding.idle();
    const f = (await page(sb, 'fw-2')).findings.filter((x) => x.rule === 'upstream-disagrees');
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('error');
    expect(f[0]!.message).toContain('the sandbox accepted and the real service rejected');
    expect(f[0]!.message).toContain('Sandbox answered: 200 {"success":true}');
    expect(f[0]!.message).toContain(`answered: 400 ${JSON.stringify(REJECT)}`);
    expect(f[0]!.message).toContain('"responseId":"r2"');
  });

  it('flags a page when the real service accepts what the sandbox rejected', async () => {
    const { sb } = await setup();
    const bad = beacon('fw-3', { responseId: 'r3', extra: 1 });
    await send(sb, 'search/render', bad);
    await sb.core.forwarding.idle();
    const f = (await page(sb, 'fw-3')).findings.find((x) => x.rule === 'upstream-disagrees')!;
    expect(f.message).toContain('the sandbox rejected and the real service accepted');
    expect(f.message).toContain('Sandbox answered: 400 with');
  });

  it('compares verdicts only: 2xx against 4xx; 429, 5xx and both-reject are not disagreements', async () => {
    let status = 429;
    const { sb } = await setup(() => ({ status, body: { success: false } }));
    await send(sb, 'search/render', beacon('fw-4', { responseId: 'r4a' }));
    await sb.core.forwarding.idle();
    status = 503;
    await send(sb, 'search/render', beacon('fw-4', { responseId: 'r4b' }));
    await sb.core.forwarding.idle();
    status = 404;
    await send(sb, 'search/render', beacon('fw-4', { responseId: 'r4c', extra: 1 })); // both reject
    await sb.core.forwarding.idle();
    let rules = (await page(sb, 'fw-4')).findings.map((f) => f.rule);
    expect(rules).not.toContain('upstream-disagrees');
    // the edge from the other side: a 4xx that is a verdict does count
    status = 422;
    await send(sb, 'search/render', beacon('fw-4', { responseId: 'r4d' }));
    await sb.core.forwarding.idle();
    rules = (await page(sb, 'fw-4')).findings.map((f) => f.rule);
    expect(rules).toContain('upstream-disagrees');
    const outcomes = (await (await fetch(`${sb.url}/_sandbox/events`)).json()) as {
      events: RecordedEvent[];
    };
    expect(outcomes.events.map((e) => e.upstream?.outcome)).toEqual([
      'unavailable',
      'unavailable',
      'rejected',
      'rejected',
    ]);
  });

  it('records an upstream that is slow as unavailable, without delaying the sandbox', async () => {
    const { fake, sb } = await setup(() => ({ hold: true }), { forwardTimeoutMs: 200 });
    const id = await send(sb, 'search/render', beacon('fw-5', { responseId: 'r5' }));
    await sb.core.forwarding.idle();
    const up = (await event(sb, id)).upstream!;
    expect(up.outcome).toBe('unavailable');
    expect(up.error).toContain('no answer within 200 ms (tracking.forwardTimeoutMs)');
    expect(fake.seen).toHaveLength(1);
    expect((await page(sb, 'fw-5')).findings.map((f) => f.rule)).not.toContain(
      'upstream-disagrees',
    );
  });

  it('records an upstream that is down as unavailable, with the cause', async () => {
    const held = await heldPort();
    const origin = held.origin;
    const sb = await startPassThrough({ tracking: { forward: `${origin}/beacon/v2` } });
    cleanups.push(() => sb.close());
    await held.close();
    const id = await send(sb, 'search/render', beacon('fw-11', { responseId: 'r11' }));
    await sb.core.forwarding.idle();
    const up = (await event(sb, id)).upstream!;
    expect(up).toMatchObject({ outcome: 'unavailable', status: null, body: null });
    expect(up.error).toContain('ECONNREFUSED');
    expect(sb.core.forwarding.stats().unavailable).toBe(1);
  });

  it('bounds the queue: requests beyond it are not sent, and are counted in health and on the event', async () => {
    const { fake, sb } = await setup(() => ({ hold: true }), { forwardQueue: 2 });
    const ids: string[] = [];
    // 4 go out at once (held by the fake), 2 wait, 3 find the queue full; every answer is the sandbox's 200
    for (let i = 0; i < 9; i++)
      ids.push(await send(sb, 'search/render', beacon('fw-6', { responseId: `r6-${i}` })));
    const health = (await (await fetch(`${sb.url}/_sandbox/health`)).json()) as {
      forwarding: { queued: number; inFlight: number; dropped: number };
    };
    expect(health.forwarding).toMatchObject({ queued: 2, inFlight: 4, dropped: 3 });
    for (const id of ids.slice(6)) {
      const up = (await event(sb, id)).upstream!;
      expect(up.outcome).toBe('not-sent');
      expect(up.error).toContain('the forwarding queue was full');
    }
    fake.release();
    await fake.answered(6);
    fake.release();
    await sb.core.forwarding.idle();
    expect(sb.core.forwarding.stats()).toMatchObject({ accepted: 6, dropped: 3, queued: 0 });
  });

  it('forwards only parsed, valid beacon v2 endpoints, rebuilt from their parts', async () => {
    const { fake, sb } = await setup();
    const http = await import('node:http');
    // a path with dot segments, sent as it is (fetch would normalise it), and a path naming no endpoint
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${sb.url}${path}`,
          { method: 'POST', headers: { 'Content-Type': 'text/plain' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(beacon('fw-x', { responseId: 'r1' })));
      });
    expect(await raw(`/beacon/v2/${SITE}/../..`)).toBe(404);
    expect(await raw(`/beacon/v2/${SITE}/search/rendr`)).toBe(404);
    expect(await raw(`/beacon/v2/${SITE}/search/render`)).toBe(200);
    await sb.core.forwarding.idle();
    expect(fake.seen.map((r) => r.url)).toEqual([`/beacon/v2/${SITE}/search/render`]);
  });

  it('is off by default: nothing is forwarded without tracking.forward', async () => {
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const id = await send(sb, 'search/render', beacon('fw-7', { responseId: 'r7' }));
    expect((await event(sb, id)).upstream).toBeUndefined();
    const health = (await (await fetch(`${sb.url}/_sandbox/health`)).json()) as {
      forwarding: { sites: unknown[] };
    };
    expect(health.forwarding.sites).toEqual([]);
  });
});

describe('upstream answers are kept', () => {
  it('across a restart, with their findings', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const fake = await startFakeUpstream(() => ({ status: 400, body: REJECT }));
    cleanups.push(() => fake.close());
    const accounts = passThroughAccounts({ tracking: { forward: `${fake.url}/beacon/v2` } });
    const first = await startSandbox({ accounts, dataDir: dir });
    const id = await send(first, 'search/render', beacon('fw-8', { responseId: 'r8' }));
    await first.core.forwarding.idle();
    await first.close();
    const second = await startSandbox({ accounts, dataDir: dir });
    cleanups.push(() => second.close());
    expect((await event(second, id)).upstream).toMatchObject({ outcome: 'rejected', status: 400 });
    expect((await page(second, 'fw-8')).findings.map((f) => f.rule)).toContain(
      'upstream-disagrees',
    );
  });

  it('in an export, which check judges as the live sandbox did, and come back on import', async () => {
    const { sb } = await setup(() => ({ status: 400, body: REJECT }));
    await send(sb, 'search/render', beacon('fw-9', { responseId: 'r9' }));
    await sb.core.forwarding.idle();
    const exported = await (await fetch(`${sb.url}/_sandbox/export`)).text();
    const disagrees = (findings: PageTimelineDto['findings']) =>
      findings.filter((f) => f.rule === 'upstream-disagrees').map((f) => f.message);
    const live = disagrees((await page(sb, 'fw-9')).findings);
    expect(live).toHaveLength(1);
    const checked = await check(tempFile(cleanups, 'export.json', exported), '--format', 'json');
    expect(checked.code, checked.err).toBe(1);
    const report = JSON.parse(checked.out) as TimelineReportDto;
    expect(disagrees(report.pages.flatMap((p) => p.findings))).toEqual(live);
    const fresh = await startSandbox();
    cleanups.push(() => fresh.close());
    const res = await fetch(`${fresh.url}/_sandbox/import`, { method: 'POST', body: exported });
    expect(res.status).toBe(200);
    expect((await page(fresh, 'fw-9')).findings.map((f) => f.rule)).toContain('upstream-disagrees');
  });

  it('refuses an import whose upstream answer is malformed, naming the event and field', async () => {
    const sb = await startSandbox();
    cleanups.push(() => sb.close());
    const ev = {
      receivedAt: new Date().toISOString(),
      siteId: SITE,
      category: 'search',
      event: 'render',
      path: `/beacon/v2/${SITE}/search/render`,
      accepted: true,
      status: 200,
      errors: [],
      body: beacon('fw-10', { responseId: 'r10' }),
      upstream: { url: 'http://x', outcome: 'maybe', status: 200, at: 'now', ms: 1 },
    };
    const res = await fetch(`${sb.url}/_sandbox/import`, {
      method: 'POST',
      body: JSON.stringify([ev]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'nothing was imported: events[0]: upstream.outcome "maybe" must be one of accepted, rejected, unavailable, not-sent',
    );
  });
});
