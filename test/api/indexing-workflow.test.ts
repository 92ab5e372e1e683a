// The indexing workflow over HTTP on a controllable clock: the one-hour window, interval Never, pause on a
// request while running, PUT from the cart source, the outbox (and SMTP delivery), the scorecard, the admin API.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { StreamMessage } from '../../src/shared/stream';
import { tempDir } from '../helpers/sandbox';
import {
  admin,
  advance,
  fixture,
  put,
  runToEnd,
  START,
  startFrozen,
  status,
  upload,
  waitForFeed,
} from './indexing-helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startFrozen();
});
afterAll(async () => {
  await sb.close();
});
afterEach(async () => {
  // every test starts from the fixtures at the same sandbox time
  await admin(sb.url, 'POST', '/clock', { set: new Date(START).toISOString() });
  await admin(sb.url, 'POST', '/reset', { what: 'all' });
});

const flagsOf = (entry: any) => entry.scorecard.findings.map((f: any) => f.flag);
const lastRequest = (feedId: number) =>
  sb.core.indexing.feed('demo42', feedId)!.history.findLast((h) => h.kind === 'request') as any;

describe('the one-hour re-index window', () => {
  it('answers 409 while the feed is still queued, 429 with Retry-After inside the hour after it ran, and accepts again after it', async () => {
    expect((await put(sb.url, 'feedId=43')).status).toBe(200);
    // nothing is queued twice (the documented contract): a second request while it waits is a 409, not a 429
    const queued = await put(sb.url, 'feedId=43');
    expect(queued.status).toBe(409);
    expect(queued.headers.get('retry-after')).toBeNull();
    expect(((await queued.json()) as any).message).toMatch(
      /feed 43 is already queued .*nothing is queued twice/,
    );
    expect(flagsOf(lastRequest(43))).toContain('requested-while-waiting');
    await runToEnd(sb, 43);
    const again = await put(sb.url, 'feedId=43');
    expect(again.status).toBe(429);
    const retry = Number(again.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThan(3600);
    expect(((await again.json()) as any).message).toMatch(/one re-index per hour; try again in/);
    expect(flagsOf(lastRequest(43))).toContain('retry-inside-hour');
    await advance(sb.url, `PT${retry - 1}S`);
    expect((await put(sb.url, 'feedId=43')).status).toBe(429);
    await advance(sb.url, 'PT1S');
    expect((await put(sb.url, 'feedId=43')).status).toBe(200);
  });

  it('a 429 while the feed runs says it is running, and since when', async () => {
    expect((await admin(sb.url, 'PATCH', '/feeds/demo42/43', { autopilot: false })).status).toBe(
      200,
    );
    expect((await put(sb.url, 'feedId=43')).status).toBe(200);
    await advance(sb.url, 'PT10M');
    // by hand: regenerate, then run
    for (const to of ['regen_running', 'regen_done', 'waiting', 'running'])
      expect((await admin(sb.url, 'POST', '/feeds/demo42/43/transition', { to })).status).toBe(200);
    const res = await put(sb.url, 'feedId=43');
    expect(res.status).toBe(429);
    expect(((await res.json()) as any).message).toMatch(
      /^feed 43 is running \(since 2026-11-21T04:46:00\+0000, for the request accepted at 2026-11-21T04:36:00\+0000\): one re-index per hour; try again in 50 minutes, at 2026-11-21T05:36:00\+0000 /,
    );
  });

  it('a 429 on a feed whose run ended in error names the request that holds it and when to try again, not a queue', async () => {
    await admin(sb.url, 'PATCH', '/feeds/demo42/43', { inject: { nextIndexFails: true } });
    expect((await put(sb.url, 'feedId=43')).status).toBe(200);
    expect((await runToEnd(sb, 43)).state).toBe('error');
    await advance(sb.url, 'PT10M');
    const res = await put(sb.url, 'feedId=43');
    expect(res.status).toBe(429);
    const { message } = (await res.json()) as any;
    expect(message).toMatch(
      /^feed 43 is "error" and cannot be re-indexed yet: a re-index of it was accepted at 2026-11-21T04:36:00\+0000, less than an hour ago: one re-index per hour; try again in \d+ minutes, at 2026-11-21T05:36:00\+0000 \(in the sandbox, advancing its clock skips the wait/,
    );
    expect(message).not.toMatch(/queued/);
  });

  it('time travel never locks a feed: a request accepted "in the future" opens no window after the clock is set back', async () => {
    const start = sb.core.clock.now();
    await advance(sb.url, 'PT14H');
    expect((await put(sb.url, 'feedId=43')).status).toBe(200);
    await runToEnd(sb, 43);
    // back to where it was: the accepted request now lies 14 h ahead of the clock
    await admin(sb.url, 'POST', '/clock', { set: new Date(start).toISOString() });
    const res = await put(sb.url, 'feedId=43');
    expect(res.status).toBe(200);
  });

  it('never queues a feed with interval Never, nor starts it on schedule', async () => {
    const res = await put(sb.url, 'feedId=44');
    expect(res.status).toBe(409);
    expect((await res.json()) as any).toEqual({
      success: false,
      message: expect.stringContaining('interval "Never"'),
    });
    expect((await upload(sb.url, 'feedId=44', fixture('products.csv'), 'p.csv')).status).toBe(409);
    await advance(sb.url, 'P3D');
    const feed = sb.core.indexing.feed('demo42', 44)!;
    expect(feed).toMatchObject({
      state: 'done',
      nextIndexTime: null,
      lastIndexed: '2026-11-21T04:00:00.000Z',
    });
    expect(feed.history.filter((h) => h.kind === 'transition')).toEqual([]);
  });

  it('answers 409 for a feed that is still waiting: nothing is queued twice', async () => {
    await admin(sb.url, 'PATCH', '/feeds/demo42/42', { autopilot: false });
    await upload(sb.url, 'feedId=42', fixture('products.csv'), 'p.csv');
    await advance(sb.url, 'PT61M');
    expect(sb.core.indexing.feed('demo42', 42)!.state).toBe('waiting');
    const res = await upload(sb.url, 'feedId=42', fixture('products.csv'), 'p.csv');
    expect(res.status).toBe(409);
    expect(((await res.json()) as any).message).toMatch(
      /feed 42 is already queued \(status "waiting"\): nothing is queued twice/,
    );
    expect(flagsOf(lastRequest(42))).toEqual([
      'no-status-check',
      'requested-while-waiting',
      'plain-http',
    ]);
  });
});

describe('a request while the feed is running', () => {
  it('pauses the index: status reports waiting, the admin sees paused and why, a hand move resumes it', async () => {
    await upload(sb.url, 'feedId=42', fixture('products.csv'), 'p.csv');
    await advance(sb.url, 'PT61M');
    expect(sb.core.indexing.feed('demo42', 42)!.state).toBe('done');
    // the scheduled run of the next morning is running when the client pushes again
    await admin(sb.url, 'POST', '/clock', { set: '2026-11-22T04:00:40Z' });
    expect(sb.core.indexing.feed('demo42', 42)!.state).toBe('running');
    expect(((await (await status(sb.url)).json()) as any).feeds[0].indexStatus).toBe('running');
    const res = await upload(sb.url, 'feedId=42', fixture('products.ndjson'), 'p.ndjson');
    expect(res.status).toBe(200);
    expect(((await (await status(sb.url)).json()) as any).feeds[0].indexStatus).toBe('waiting');
    const { body } = await admin(sb.url, 'GET', '/feeds/demo42/42');
    expect(body).toMatchObject({
      state: 'paused',
      paused: true,
      indexStatus: 'waiting',
      pausedReason: expect.stringContaining('arrived while the feed was running'),
      allowedTransitions: ['running'],
    });
    expect(flagsOf(lastRequest(42))).toEqual([
      'status-not-done',
      'paused-running-index',
      'plain-http',
    ]);
    await advance(sb.url, 'PT3H');
    expect(sb.core.indexing.feed('demo42', 42)!.state).toBe('paused');
    const resumed = await admin(sb.url, 'POST', '/feeds/demo42/42/transition', { to: 'running' });
    expect(resumed).toMatchObject({ status: 200, body: { state: 'running', paused: false } });
    expect((await runToEnd(sb, 42)).state).toBe('done');
  });
});

describe('a feed paused by a request', () => {
  it('never continues by itself: a later request is told it is paused and how to resume it', async () => {
    await upload(sb.url, 'feedId=42', fixture('products.csv'), 'p.csv');
    await advance(sb.url, 'PT61M');
    await admin(sb.url, 'POST', '/clock', { set: '2026-11-22T04:00:40Z' });
    expect(sb.core.indexing.feed('demo42', 42)!.state).toBe('running');
    // a PUT uploads nothing: resuming indexes the last upload
    expect((await put(sb.url, 'feedId=42')).status).toBe(200);
    const paused = sb.core.indexing.feed('demo42', 42)!;
    expect(paused.state).toBe('paused');
    expect(paused.pausedReason).toMatch(/the index starts again with the last upload$/);
    // hours later it is still paused, and the uploader is not told to wait for it
    await advance(sb.url, 'PT2H');
    for (const res of [
      await put(sb.url, 'feedId=42'),
      await upload(sb.url, 'feedId=42', fixture('products.csv'), 'p.csv'),
    ]) {
      expect(res.status).toBe(409);
      const { message } = (await res.json()) as any;
      expect(message).toMatch(/^feed 42 is paused \(the status API reports "waiting"\)/);
      expect(message).toMatch(/never continues by itself/);
      expect(message).toContain(
        'POST /_sandbox/feeds/demo42/42/transition {"to":"running"}, or "running" on the Feeds board',
      );
      expect(message).not.toMatch(/wait until it is done/);
    }
    expect(flagsOf(lastRequest(42))).toContain('requested-while-waiting');
  });
});

describe("hand moves follow the feed's settings", () => {
  it('a feed with interval Never is not started by hand either: the refusal names the interval and the fix', async () => {
    const { body: feed } = await admin(sb.url, 'GET', '/feeds/demo42/44');
    expect(feed).toMatchObject({ state: 'done', interval: 'Never', allowedTransitions: [] });
    const res = await admin(sb.url, 'POST', '/feeds/demo42/44/transition', { to: 'waiting' });
    expect(res).toMatchObject({
      status: 409,
      body: { error: 'TransitionRefused', from: 'done', to: 'waiting', allowed: [] },
    });
    expect(res.body.message).toMatch(/feed 44 has interval "Never"/);
    expect(res.body.message).toContain('PATCH /_sandbox/feeds/demo42/44 {"interval":"24h"}');
    // no other move either, and the refusal says why rather than to wait for a step
    const other = await admin(sb.url, 'POST', '/feeds/demo42/44/transition', { to: 'running' });
    expect(other.status).toBe(409);
    expect(other.body.message).toMatch(/feed 44 has interval "Never"/);
    expect(sb.core.indexing.feed('demo42', 44)!.state).toBe('done');
    // with an interval it starts by hand
    await admin(sb.url, 'PATCH', '/feeds/demo42/44', { interval: '24h' });
    expect((await admin(sb.url, 'GET', '/feeds/demo42/44')).body.allowedTransitions).toEqual([
      'waiting',
    ]);
  });

  it('a run started by hand on an upload feed without a file says it read no file', async () => {
    const moved = await admin(sb.url, 'POST', '/feeds/demo42/42/transition', { to: 'waiting' });
    expect(moved.status).toBe(200);
    const ended = await runToEnd(sb, 42);
    expect(ended).toMatchObject({
      state: 'error',
      lastRun: { outcome: 'error', fileRead: false, indexed: 0 },
    });
    expect(ended.lastRun!.error).toMatch(/^no feed file: none was uploaded for this feed yet/);
  });

  it('a feed with external regeneration regenerates first when started by hand too', async () => {
    const { body: feed } = await admin(sb.url, 'GET', '/feeds/demo42/43');
    expect(feed).toMatchObject({ regeneration: true, allowedTransitions: ['regen_waiting'] });
    const skip = await admin(sb.url, 'POST', '/feeds/demo42/43/transition', { to: 'waiting' });
    expect(skip).toMatchObject({
      status: 409,
      body: { error: 'TransitionRefused', allowed: ['regen_waiting'] },
    });
    expect(skip.body.message).toMatch(/external regeneration/);
    expect(skip.body.message).toContain('PATCH /_sandbox/feeds/demo42/43 {"regeneration":false}');
    expect(
      (await admin(sb.url, 'POST', '/feeds/demo42/43/transition', { to: 'regen_waiting' })).status,
    ).toBe(200);
    const done = await runToEnd(sb, 43);
    expect(done.history.filter((h) => h.kind === 'transition').map((h: any) => h.to)).toEqual([
      'regen_waiting',
      'regen_running',
      'regen_done',
      'waiting',
      'running',
      'done',
    ]);
    // without regeneration a start goes straight to waiting
    await admin(sb.url, 'PATCH', '/feeds/demo42/43', { regeneration: false });
    expect((await admin(sb.url, 'GET', '/feeds/demo42/43')).body.allowedTransitions).toEqual([
      'waiting',
    ]);
  });
});

describe('PUT from the cart source', () => {
  it('regenerates, then indexes fixtures/feeds/cart-products.csv into the feed catalog', async () => {
    await put(sb.url, 'feedId=43&requestedBy=cart%40shop.example');
    const done = await runToEnd(sb, 43);
    expect(done).toMatchObject({
      state: 'done',
      products: 12,
      lastRun: { format: 'csv', products: 12 },
    });
    expect(done.history.filter((h) => h.kind === 'transition').map((h: any) => h.to)).toEqual([
      'regen_waiting',
      'regen_running',
      'regen_done',
      'waiting',
      'running',
      'done',
    ]);
    const catalog = await admin(sb.url, 'GET', '/feeds/demo42/43/catalog');
    expect(catalog.body.total).toBe(12);
    expect(catalog.body.products.map((p: any) => p.uid)).toContain('1002');
  });

  it('a file POSTed to a cart feed is indexed for that run (after its regeneration), and the next PUT reads the cart source again', async () => {
    const posted = await upload(sb.url, 'feedId=43', fixture('products.csv.gz'), 'products.csv.gz');
    expect(posted.status).toBe(200);
    const byFile = await runToEnd(sb, 43);
    expect(byFile).toMatchObject({ state: 'done', products: 24, lastRun: { products: 24 } });
    // the run read the file, not the cart source: its record names no source
    expect(byFile.lastRun).not.toHaveProperty('source');
    expect(byFile.history.find((h) => h.kind === 'request')!.detail).toBe(
      'POST accepted: indexing upload products.csv.gz (616 bytes)',
    );
    expect(byFile.history.filter((h) => h.kind === 'transition').map((h: any) => h.to)).toEqual([
      'regen_waiting',
      'regen_running',
      'regen_done',
      'waiting',
      'running',
      'done',
    ]);
    await advance(sb.url, 'PT61M');
    expect((await put(sb.url, 'feedId=43')).status).toBe(200);
    const bySource = await runToEnd(sb, 43);
    expect(bySource).toMatchObject({ state: 'done', products: 12 });
    expect(bySource.lastRun?.source).toMatch(/fixtures\/feeds\/cart-products\.csv$/);
  });
});

describe('the outbox', () => {
  it('writes an e-mail for requestedBy when the index ends, with feed, outcome, products, errors and times', async () => {
    const pushed: StreamMessage[] = [];
    const off = sb.core.bus.on((m) => void (m.type === 'outbox' && pushed.push(m)));
    await upload(
      sb.url,
      'feedId=42&requestedBy=dev%40shop.example',
      fixture('broken-rows.csv'),
      'broken-rows.csv',
    );
    const done = await runToEnd(sb, 42);
    off();
    const { body } = await admin(sb.url, 'GET', '/outbox');
    expect(body.messages).toHaveLength(1);
    const mail = body.messages[0];
    expect(mail).toMatchObject({
      to: 'dev@shop.example',
      siteId: 'demo42',
      feedId: 42,
      outcome: 'done',
      subject: 'Index of feed 42 (Custom CSV feed) done: 6 products',
      delivery: { status: 'not-configured' },
    });
    expect(mail.at).toBe(done.lastIndexed);
    for (const line of [
      'Feed: 42 (Custom CSV feed)',
      'Outcome: done',
      'Products indexed: 6',
      'Row errors: 3',
      '  line 4: 4 fields, but the header has 9',
      'Requested: 2026-11-',
      'Finished: ',
      'Next index time: 2026-11-',
    ]) {
      expect(mail.text).toContain(line);
    }
    expect(pushed.map((m) => (m.data as any).id)).toEqual([mail.id]);
    expect((await admin(sb.url, 'GET', '/outbox?feedId=43')).body.messages).toEqual([]);
  });

  it('says why an index failed, and sends nothing without requestedBy', async () => {
    await upload(sb.url, 'feedId=42', fixture('products.csv'), 'p.csv');
    await runToEnd(sb, 42);
    await put(sb.url, 'feedId=43&requestedBy=ops%40shop.example');
    await admin(sb.url, 'PATCH', '/feeds/demo42/43', { inject: { regenerationFails: true } });
    await runToEnd(sb, 43);
    const { body } = await admin(sb.url, 'GET', '/outbox');
    expect(body.messages.map((m: any) => [m.feedId, m.outcome, m.subject])).toEqual([
      [43, 'regen_error', 'Regeneration of feed 43 (Cart integration feed) failed'],
    ]);
    expect(body.messages[0].text).toContain(
      'Outcome: regen_error (injected fault: "regeneration fails")',
    );
  });

  it('tells one story of a failed run in lastRun and the e-mail: what was read, nothing indexed, the catalog kept', async () => {
    // feed 43's cart source was indexed at start-up: 12 products
    await put(sb.url, 'feedId=43&requestedBy=ops%40shop.example');
    await admin(sb.url, 'PATCH', '/feeds/demo42/43', { inject: { nextIndexFails: true } });
    const failed = await runToEnd(sb, 43);
    expect(failed.state).toBe('error');
    expect(failed.lastRun).toMatchObject({
      format: 'csv',
      products: 12,
      indexed: 0,
      outcome: 'error',
      fileRead: true,
      finishedAt: failed.history.at(-1)!.at,
      error: 'injected fault: "next index fails"',
    });
    expect(failed.products).toBe(12); // the catalog indexed before stays
    const first = (await admin(sb.url, 'GET', '/outbox')).body.messages[0];
    expect(first.text).toContain(
      'Products indexed: 0 (the run failed, so nothing was indexed: the catalog indexed at 2026-11-21T04:00:00+0000 (12 products) stays in place)',
    );
    expect(first.text).toContain('File: csv, raw, id field id, 12 products read');

    // a failed regeneration reads no file: neither lastRun nor the e-mail give the run before's details
    await advance(sb.url, 'PT1H');
    await put(sb.url, 'feedId=43&requestedBy=ops%40shop.example');
    await admin(sb.url, 'PATCH', '/feeds/demo42/43', { inject: { regenerationFails: true } });
    const regen = await runToEnd(sb, 43);
    expect(regen.lastRun).toMatchObject({
      format: null,
      products: 0,
      indexed: 0,
      outcome: 'regen_error',
      fileRead: false,
      error: 'injected fault: "regeneration fails"',
    });
    const second = (await admin(sb.url, 'GET', '/outbox')).body.messages[1];
    expect(second.text).toContain('File: none read (the run ended before indexing)');
    expect(second.text).not.toContain('id field');
    expect(second.text).toContain('Products indexed: 0 (the run failed');
  });

  it('numbers its mails on their own counter (mail_000001, mail_000002 …), and goes on after the ids an older outbox holds', async () => {
    const dir = tempDir('outbox-ids-');
    try {
      const first = await startFrozen({ dataDir: dir.dir });
      // runs without a requester go between the mails: they take no mail number
      expect((await put(first.url, 'feedId=43')).status).toBe(200);
      await runToEnd(first, 43);
      await advance(first.url, 'PT61M');
      expect((await put(first.url, 'feedId=43&requestedBy=ops%40shop.example')).status).toBe(200);
      await runToEnd(first, 43);
      await advance(first.url, 'PT61M');
      expect((await put(first.url, 'feedId=43&requestedBy=ops%40shop.example')).status).toBe(200);
      await runToEnd(first, 43);
      const ids = (await admin(first.url, 'GET', '/outbox')).body.messages.map((m: any) => m.id);
      expect(ids).toEqual(['mail_000001', 'mail_000002']);
      await first.close();

      // the file as an older version wrote it: mails numbered on the runs' counter, no counter of their own
      const file = path.join(dir.dir, 'indexing.json');
      const kept = JSON.parse(readFileSync(file, 'utf8'));
      delete kept.mailSeq;
      kept.outbox[0].id = 'mail_000002';
      kept.outbox[1].id = 'mail_000005';
      writeFileSync(file, JSON.stringify(kept));
      const again = await startFrozen({ dataDir: dir.dir });
      try {
        await advance(again.url, 'PT5H');
        expect((await put(again.url, 'feedId=43&requestedBy=ops%40shop.example')).status).toBe(200);
        await runToEnd(again, 43);
        const after = (await admin(again.url, 'GET', '/outbox')).body.messages;
        expect(after.map((m: any) => m.id)).toEqual(['mail_000002', 'mail_000005', 'mail_000006']);
        expect(after[0]).toMatchObject({ to: 'ops@shop.example', feedId: 43 });
      } finally {
        await again.close();
      }
    } finally {
      dir.cleanup();
    }
  });

  it('answers a siteId no account has with a 404 naming the configured sites, as the feeds list does; a configured site without mail answers []', async () => {
    const unknown = await admin(sb.url, 'GET', '/outbox?siteId=demo24');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: 'NotFound',
      parameter: 'siteId',
      allowed: ['demo42'],
      message:
        'siteId "demo24" names no site of this sandbox: the outbox holds the mails of the config\'s accounts\' feeds, and no account has this siteId; did you mean demo42? the configured sites are demo42 (GET /_sandbox/health lists them)',
    });
    // the same words as the feeds list's refusal, but for what each reads
    const feeds = await admin(sb.url, 'GET', '/feeds?siteId=demo24');
    expect(feeds.body.message.split(': ')[0]).toBe(unknown.body.message.split(': ')[0]);
    expect(feeds.body.message.split('; ').at(-1)).toBe(unknown.body.message.split('; ').at(-1));
    // a siteId of another shape than the beacon path's: a 400 naming the rule
    const malformed = await admin(sb.url, 'GET', '/outbox?siteId=No-Site');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'BadRequest', parameter: 'siteId' });
    expect(await admin(sb.url, 'GET', '/outbox?siteId=demo42')).toEqual({
      status: 200,
      body: { messages: [] },
    });
  });

  it('groups the digits of a product count in the subject', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `p${i},Item ${i},1.00`).join('\n');
    await upload(sb.url, 'feedId=42&requestedBy=dev%40shop.example', `id,name,price\n${rows}\n`);
    await runToEnd(sb, 42);
    const mail = (await admin(sb.url, 'GET', '/outbox')).body.messages[0];
    expect(mail.subject).toBe('Index of feed 42 (Custom CSV feed) done: 1,500 products');
    expect(mail.text).toContain('Products indexed: 1,500');
  });

  it('delivers over SMTP when configured, and records a failed delivery without crashing', async () => {
    const received: string[] = [];
    const smtp = net.createServer((socket) => {
      let data = false;
      let buffer = '';
      socket.write('220 fake ESMTP\r\n');
      socket.on('data', (chunk) => {
        buffer += chunk.toString();
        let nl: number;
        while ((nl = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 2);
          if (data) {
            if (line === '.') {
              data = false;
              socket.write('250 queued\r\n');
            } else received.push(line);
          } else if (/^EHLO/i.test(line)) socket.write('250-fake\r\n250 OK\r\n');
          else if (/^DATA/i.test(line)) {
            data = true;
            socket.write('354 go ahead\r\n');
          } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
          else socket.write('250 OK\r\n');
        }
      });
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const port = (smtp.address() as AddressInfo).port;
    const mailing = await startFrozen({
      smtp: { host: '127.0.0.1', port, from: 'sandbox@test.example' },
    });
    const refused = await startFrozen({
      smtp: { host: '127.0.0.1', port: 1, from: 'sandbox@test.example' },
    });
    try {
      for (const s of [mailing, refused]) {
        await put(s.url, 'feedId=43&requestedBy=dev%40shop.example');
        await runToEnd(s, 43);
      }
      const delivered = await new Promise<any>((resolve) => {
        const check = () => {
          const m = mailing.core.indexing.outbox.list()[0];
          if (m && m.delivery.status !== 'pending') resolve(m);
          return m?.delivery.status !== 'pending';
        };
        if (!check()) mailing.core.bus.on((m) => void (m.type === 'outbox' && check()));
      });
      expect(delivered.delivery).toMatchObject({ status: 'sent', error: null });
      expect(received.join('\n')).toContain(
        'Subject: Index of feed 43 (Cart integration feed) done: 12 products',
      );
      expect(received.join('\n')).toContain('To: dev@shop.example');
      const failed = await new Promise<any>((resolve) => {
        const check = () => {
          const m = refused.core.indexing.outbox.list()[0];
          if (m && m.delivery.status !== 'pending') resolve(m);
          return m?.delivery.status !== 'pending';
        };
        if (!check()) refused.core.bus.on((m) => void (m.type === 'outbox' && check()));
      });
      expect(failed.delivery).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('SMTP 127.0.0.1:1'),
      });
      expect((await status(refused.url)).status).toBe(200);
    } finally {
      await mailing.close();
      await refused.close();
      await new Promise<void>((r) => smtp.close(() => r()));
    }
  });
});

describe('the workflow scorecard', () => {
  it('marks a request after a fresh status read showing done as followed', async () => {
    await status(sb.url);
    await advance(sb.url, 'PT2M');
    await put(sb.url, 'feedId=43');
    expect(lastRequest(43)).toMatchObject({
      accepted: true,
      status: 200,
      scorecard: { followed: true, statusSeen: 'done', statusReadAt: '2026-11-21T04:36:00.000Z' },
    });
    expect(flagsOf(lastRequest(43))).toEqual(['plain-http']);
  });

  it('flags a request without a recent status read, and one after a status that was not done', async () => {
    await put(sb.url, 'feedId=43');
    expect(lastRequest(43).scorecard.followed).toBe(false);
    expect(flagsOf(lastRequest(43))).toEqual(['no-status-check', 'plain-http']);
    await advance(sb.url, 'PT61M');
    await status(sb.url); // 43 is somewhere in its run, not done
    const seen = ((await (await status(sb.url)).json()) as any).feeds[1].indexStatus;
    await put(sb.url, 'feedId=43');
    expect(lastRequest(43).scorecard.statusSeen).toBe(seen);
    expect(flagsOf(lastRequest(43))[0]).toBe(seen === 'done' ? 'plain-http' : 'status-not-done');
  });

  it("does not score the sandbox UI's own upload (marked, from a page of the sandbox's origin); an integration's still is", async () => {
    const csv = fixture('products.csv');
    // the Feeds view's upload in a browser: its mark, and the browser's word that the page is the sandbox's
    const board = { 'X-Sandbox-No-Challenge': '1', 'Sec-Fetch-Site': 'same-origin' };
    const notices: StreamMessage[] = [];
    const off = sb.core.bus.on((m) => notices.push(m));
    expect((await upload(sb.url, 'feedId=42', csv, 'p.csv', { headers: board })).status).toBe(200);
    off();
    expect(lastRequest(42).scorecard).toMatchObject({ followed: true, statusReadAt: null });
    expect(lastRequest(42).scorecard.findings).toEqual([
      {
        flag: 'sandbox-ui',
        message:
          "sent from the sandbox's own Feeds view (X-Sandbox-No-Challenge from a page of the sandbox's own origin, Sec-Fetch-Site: same-origin), which shows the feed's state itself: not scored for a status read or its transport, as an integration's request is; what the request did (a 409, a pause) is still flagged",
      },
    ]);
    const notice = notices.find((m) => m.type === 'indexRequest');
    expect(notice).toMatchObject({ data: { accepted: true, workflow: null } });
    // what it does is still told: a second upload inside the hour is refused and flagged
    expect((await upload(sb.url, 'feedId=42', csv, 'p.csv', { headers: board })).status).toBe(409);
    expect(flagsOf(lastRequest(42))).toEqual(['sandbox-ui', 'requested-while-waiting']);
    expect(lastRequest(42).scorecard.followed).toBe(false);

    // without either half, or from another page of the same site, it is an integration's request
    const integrations: Record<string, string>[] = [
      {},
      { 'X-Sandbox-No-Challenge': '1' },
      { 'Sec-Fetch-Site': 'same-origin' },
      { 'X-Sandbox-No-Challenge': '1', 'Sec-Fetch-Site': 'same-site' },
      { 'X-Sandbox-No-Challenge': '1', 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of integrations) {
      await admin(sb.url, 'POST', '/reset', { what: 'all' });
      expect((await upload(sb.url, 'feedId=42', csv, 'p.csv', { headers })).status).toBe(200);
      expect(lastRequest(42).scorecard.followed).toBe(false);
      expect(flagsOf(lastRequest(42))).toEqual(['no-status-check', 'plain-http']);
    }
  });

  it('shows the scorecards in the feed history of the admin API', async () => {
    await put(sb.url, 'feedId=43');
    await put(sb.url, 'feedId=43');
    const { body } = await admin(sb.url, 'GET', '/feeds');
    const feed = body.feeds.find((f: any) => f.id === 43);
    const requests = feed.history.filter((h: any) => h.kind === 'request');
    expect(requests.map((r: any) => [r.method, r.status, r.accepted])).toEqual([
      ['PUT', 200, true],
      ['PUT', 409, false],
    ]);
    expect(requests[1].scorecard.findings.map((f: any) => f.flag)).toContain(
      'requested-while-waiting',
    );
  });
});

describe('admin feeds API', () => {
  it('lists feeds with sandbox details and filters by site', async () => {
    const { status: code, body } = await admin(sb.url, 'GET', '/feeds?siteId=demo42');
    expect(code).toBe(200);
    expect(
      body.feeds.map((f: any) => [
        f.id,
        f.state,
        f.interval,
        f.autopilot,
        f.regeneration,
        f.source.kind,
      ]),
    ).toEqual([
      [42, 'done', '24h', true, false, 'upload'],
      [43, 'done', '24h', true, true, 'cart'],
      [44, 'done', 'Never', true, false, 'upload'],
    ]);
    // a siteId no account has is not a site without feeds: a 404 names the configured ones
    const unknown = await admin(sb.url, 'GET', '/feeds?siteId=nosite');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      error: 'NotFound',
      parameter: 'siteId',
      allowed: ['demo42'],
    });
    expect((await admin(sb.url, 'GET', '/feeds/demo42/99')).status).toBe(404);
    expect((await admin(sb.url, 'GET', '/feeds/demo42/abc')).status).toBe(400);
  });

  it('refuses a hand move outside the table with 409 and the allowed targets', async () => {
    const res = await admin(sb.url, 'POST', '/feeds/demo42/43/transition', { to: 'running' });
    expect(res).toEqual({
      status: 409,
      body: {
        error: 'TransitionRefused',
        from: 'done',
        to: 'running',
        allowed: ['regen_waiting'],
        message: expect.stringContaining('"done" cannot move to "running"'),
      },
    });
    expect(
      (await admin(sb.url, 'POST', '/feeds/demo42/43/transition', { to: 'nowhere' })).status,
    ).toBe(400);
    expect(
      (await admin(sb.url, 'POST', '/feeds/demo42/77/transition', { to: 'waiting' })).status,
    ).toBe(404);
    const moved = await admin(sb.url, 'POST', '/feeds/demo42/43/transition', {
      to: 'regen_waiting',
    });
    expect(moved.body).toMatchObject({
      state: 'regen_waiting',
      history: expect.arrayContaining([
        expect.objectContaining({ cause: 'hand', from: 'done', to: 'regen_waiting' }),
      ]),
    });
  });

  it('patches interval, autopilot, regeneration and faults, with clear 400s', async () => {
    const ok = await admin(sb.url, 'PATCH', '/feeds/demo42/42', {
      interval: '6h',
      autopilot: false,
      regeneration: true,
      inject: { nextIndexFails: true },
    });
    expect(ok.body).toMatchObject({
      interval: '6h',
      autopilot: false,
      regeneration: true,
      inject: { nextIndexFails: true, regenerationFails: false },
    });
    for (const [body, message] of [
      [{ interval: 'sometimes' }, /interval: "sometimes" is not an interval/],
      [{ autopilot: 1 }, /autopilot: 1 must be true or false/],
      [{ inject: { nextIndexFails: 'yes' } }, /inject.nextIndexFails: "yes" must be true or false/],
      [{ state: 'done' }, /state: unknown field/],
      [{ inject: { everything: true } }, /inject.everything: unknown fault/],
      [{ inject: [] }, /inject: must be an object like/],
      [[], /the body must be a JSON object with any of interval/],
    ] as const) {
      const res = await admin(sb.url, 'PATCH', '/feeds/demo42/42', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    // out of range: refused, nothing changed, and the feeds still read (an interval of 99999999 days
    // was stored, answered 500, and every read of the feeds, the export and the status API failed)
    const before = (await admin(sb.url, 'GET', '/feeds/demo42/43')).body;
    for (const [interval, message] of [
      [
        '99999999d',
        /^interval: "99999999d" is longer than 366 days: an interval is 1 minute to 366 days/,
      ],
      ['P367D', /longer than 366 days/],
      ['PT0.001S', /^interval: "PT0.001S" is shorter than a minute/],
      ['30s', /shorter than a minute/],
    ] as const) {
      const res = await admin(sb.url, 'PATCH', '/feeds/demo42/43', { interval });
      expect(res.status, interval).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await admin(sb.url, 'GET', '/feeds/demo42/43')).body).toEqual(before);
    expect((await admin(sb.url, 'GET', '/feeds')).status).toBe(200);
    expect((await status(sb.url)).status).toBe(200);
    expect(
      (await admin(sb.url, 'PATCH', '/feeds/demo42/43', { interval: '366d' })).body,
    ).toMatchObject({ interval: '366d' });
    const badJson = await fetch(`${sb.url}/_sandbox/feeds/demo42/42`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(badJson.status).toBe(400);
  });

  it('puts feeds (with their scorecards) and the outbox into GET /_sandbox/export', async () => {
    await put(sb.url, 'feedId=43&requestedBy=dev%40shop.example');
    await runToEnd(sb, 43);
    const exported = (await (await fetch(`${sb.url}/_sandbox/export`)).json()) as any;
    expect(exported.indexing.feeds.map((f: any) => [f.id, f.state])).toEqual([
      [42, 'done'],
      [43, 'done'],
      [44, 'done'],
    ]);
    expect(
      exported.indexing.feeds[1].history.find((h: any) => h.kind === 'request').scorecard.findings
        .length,
    ).toBeGreaterThan(0);
    expect(exported.indexing.outbox.map((m: any) => m.to)).toEqual(['dev@shop.example']);
  });

  it('resets feeds and outbox to the fixtures with {"what":"all"}', async () => {
    await put(sb.url, 'feedId=43&requestedBy=dev%40shop.example');
    await runToEnd(sb, 43);
    await admin(sb.url, 'PATCH', '/feeds/demo42/42', { autopilot: false });
    expect((await admin(sb.url, 'GET', '/outbox')).body.messages).toHaveLength(1);
    const reset = await admin(sb.url, 'POST', '/reset', { what: 'all' });
    expect(reset.status).toBe(200);
    expect((await admin(sb.url, 'GET', '/outbox')).body.messages).toEqual([]);
    const feeds = (await admin(sb.url, 'GET', '/feeds')).body.feeds;
    expect(feeds.map((f: any) => [f.id, f.state, f.autopilot, f.history.length])).toEqual([
      [42, 'done', true, 1],
      [43, 'done', true, 1],
      [44, 'done', true, 1],
    ]);
    // events-only resets leave feeds alone
    await put(sb.url, 'feedId=43');
    await admin(sb.url, 'POST', '/reset', { what: 'events' });
    await waitForFeed(sb, 43, (f) => f.state === 'regen_waiting');
  });
});

describe('PATCH of a feed’s settings', () => {
  it('says what it changed, and answers a change to what the feed already has with nothing changed and no history entry', async () => {
    const changed = await admin(sb.url, 'PATCH', '/feeds/demo42/42', {
      interval: 'PT6H',
      inject: { nextIndexFails: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.changed).toEqual([
      'interval 6h',
      'injected faults: next index fails yes, regeneration fails no',
    ]);
    expect(changed.body.history.at(-1)).toMatchObject({
      kind: 'note',
      detail:
        'settings changed: interval 6h; injected faults: next index fails yes, regeneration fails no',
    });
    const entries = changed.body.history.length;

    // the same settings again, and the autopilot it already has: nothing to record
    const same = await admin(sb.url, 'PATCH', '/feeds/demo42/42', {
      interval: '6h',
      autopilot: true,
      inject: { nextIndexFails: true },
    });
    expect(same.status).toBe(200);
    expect(same.body.changed).toEqual([]);
    expect(same.body.history).toHaveLength(entries);
    const view = await admin(sb.url, 'GET', '/feeds/demo42/42');
    expect(view.body.history).toHaveLength(entries);
    expect(view.body).not.toHaveProperty('changed');
  });
});
