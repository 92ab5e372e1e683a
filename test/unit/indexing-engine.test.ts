// The feeds' engine on a frozen sandbox clock: autopilot steps and their durations, scheduled starts,
// regeneration, pause/resume, injected faults, lastIndexed/nextIndexTime, history causes, the bus.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/main/bus';
import { SandboxClock } from '../../src/main/clock';
import { IndexingService } from '../../src/main/indexing/service';
import { TIMINGS } from '../../src/main/indexing/feed-runs';
import { TransitionRefused } from '../../src/main/indexing/state-machine';
import { FeedNotFound } from '../../src/main/indexing/admin';
import { FeedNeverIndexed } from '../../src/main/indexing/refusals';
import type { FeedView } from '../../src/shared/indexing';
import type { StreamMessage } from '../../src/shared/stream';
import { testConfig, tempDir } from '../helpers/sandbox';

const START = Date.parse('2026-11-21T04:36:00Z');
const HOUR = 3_600_000;
const csv = readFileSync(path.resolve(__dirname, '../../fixtures/feeds/products.csv'));
const open: IndexingService[] = [];

async function setup(dataDir: string | null = null) {
  const clock = new SandboxClock({ frozen: true, start: START });
  const bus = new Bus();
  const messages: StreamMessage[] = [];
  bus.on((m) => messages.push(m));
  const config = testConfig({ dataDir });
  const { service } = await IndexingService.open(config, clock, bus);
  open.push(service);
  const account = config.accounts[0]!;
  const feed = (id: number) => service.feed('demo42', id)!;
  const rec = (id: number) => service.engine.record('demo42', id)!;
  /** let the running index's parse finish (real time), so its end is armed on the clock */
  const parsed = async (id: number) => {
    await service.engine.parseResult(rec(id));
    await new Promise((r) => setImmediate(r));
  };
  // the status the history records; which one each refusal gets is the HTTP layer's
  const answeredWith = (refusal: Error | null) => (refusal ? 409 : 200);
  const post = (feedId: string, requestedBy?: string) =>
    service.requestIndex({
      account,
      method: 'POST',
      feedId,
      requestedBy,
      upload: { data: csv, name: 'products.csv' },
      plainHttp: false,
      fromSandboxUi: false,
      answeredWith,
    });
  const put = (feedId: string, requestedBy?: string) =>
    service.requestIndex({
      account,
      method: 'PUT',
      feedId,
      requestedBy,
      plainHttp: false,
      fromSandboxUi: false,
      answeredWith,
    });
  return { clock, bus, messages, service, account, feed, rec, parsed, post, put };
}

const transitions = (f: FeedView) =>
  f.history
    .filter((h) => h.kind === 'transition')
    .map(
      (h) =>
        `${h.at.slice(11, 23)} ${h.cause} ${h.kind === 'transition' ? `${h.from}->${h.to}` : ''}`,
    );

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

describe('feeds engine', () => {
  it('starts every fixture feed done, indexed at the top of the hour, next index one interval later', async () => {
    const { feed, service } = await setup();
    expect(feed(42)).toMatchObject({
      state: 'done',
      lastIndexed: '2026-11-21T04:00:00.000Z',
      nextIndexTime: '2026-11-22T04:00:00.000Z',
      interval: '24h',
      products: 0,
    });
    expect(feed(43)).toMatchObject({
      state: 'done',
      regeneration: true,
      products: 12,
      source: { kind: 'cart' },
    });
    expect(feed(44)).toMatchObject({ state: 'done', nextIndexTime: null, interval: 'Never' });
    expect(service.catalog.feed('demo42', 43)!.get('1000')).toMatchObject({
      sku: 'P100-RED',
      parentId: 'P100',
      price: 89.99,
    });
    expect(service.catalog.hasCatalog('demo42')).toBe(true);
    expect(service.catalog.findProduct('demo42', 'P100-RED')?.uid).toBe('1000');
  });

  it('runs an accepted upload through waiting and running to done on autopilot, timed by product count', async () => {
    const { clock, feed, parsed, post, messages } = await setup();
    expect(await post('42')).toMatchObject({ detail: expect.stringContaining('POST accepted') });
    expect(feed(42).state).toBe('waiting');
    clock.advance(TIMINGS.waitingMs - 1);
    expect(feed(42).state).toBe('waiting');
    clock.advance(1);
    expect(feed(42).state).toBe('running');
    await parsed(42);
    const runningMs = TIMINGS.runningBaseMs + 24 * TIMINGS.runningPerProductMs;
    expect(feed(42).stepEndsAt).toBe(new Date(START + TIMINGS.waitingMs + runningMs).toISOString());
    clock.advance(runningMs - 1);
    expect(feed(42).state).toBe('running');
    clock.advance(1);
    const done = feed(42);
    expect(done).toMatchObject({
      state: 'done',
      products: 24,
      lastIndexed: new Date(START + TIMINGS.waitingMs + runningMs).toISOString(),
      nextIndexTime: '2026-11-22T04:00:00.000Z',
    });
    expect(done.lastRun).toMatchObject({ format: 'csv', products: 24, idField: 'id', error: null });
    expect(transitions(done)).toEqual([
      '04:36:00.000 api done->waiting',
      '04:36:30.000 scheduler waiting->running',
      '04:37:00.048 scheduler running->done',
    ]);
    const feedMessages = messages
      .filter((m) => m.type === 'feed')
      .map((m) => (m.data as FeedView).state);
    expect(feedMessages).toEqual(expect.arrayContaining(['waiting', 'running', 'done']));
  });

  it('regenerates first for a cart feed with external regeneration, then indexes its source', async () => {
    const { clock, feed, parsed, put } = await setup();
    expect(await put('43')).toMatchObject({ detail: expect.stringContaining('PUT accepted') });
    clock.advance(
      TIMINGS.regenWaitingMs +
        TIMINGS.regenRunningBaseMs +
        12 * TIMINGS.regenRunningPerProductMs +
        TIMINGS.regenDoneMs +
        TIMINGS.waitingMs,
    );
    expect(feed(43).state).toBe('running');
    await parsed(43);
    clock.advance(HOUR);
    expect(transitions(feed(43)).map((t) => t.slice(13))).toEqual([
      'api done->regen_waiting',
      'scheduler regen_waiting->regen_running',
      'scheduler regen_running->regen_done',
      'scheduler regen_done->waiting',
      'scheduler waiting->running',
      'scheduler running->done',
    ]);
    expect(feed(43).products).toBe(12);
  });

  it('starts feeds by itself at nextIndexTime and moves nextIndexTime on by the interval', async () => {
    const { clock, feed, parsed } = await setup();
    clock.set(Date.parse('2026-11-22T04:00:00Z'));
    expect(feed(43).state).toBe('regen_waiting');
    expect(feed(43).history.at(-1)).toMatchObject({
      cause: 'scheduler',
      detail: 'scheduled index at nextIndexTime',
    });
    // feed 42 has no upload yet: the scheduled run is skipped, and the next one is a day later
    expect(feed(42)).toMatchObject({ state: 'done', nextIndexTime: '2026-11-23T04:00:00.000Z' });
    expect(feed(42).history.at(-1)).toMatchObject({
      kind: 'note',
      cause: 'scheduler',
      detail: expect.stringContaining('skipped'),
    });
    clock.advance(5 * 60_000);
    await parsed(43);
    clock.advance(5 * 60_000);
    expect(feed(43)).toMatchObject({ state: 'done', nextIndexTime: '2026-11-23T04:00:00.000Z' });
    expect(feed(44).state).toBe('done');
  });

  it('pauses a running index on a bulk index request; only a hand move resumes it, starting again with that request', async () => {
    const { clock, feed, rec, parsed, post, service } = await setup();
    await post('42');
    clock.advance(TIMINGS.waitingMs + 10_000);
    await parsed(42);
    clock.advance(HOUR);
    expect(feed(42).state).toBe('done');
    // second run: started by the scheduler, then a request arrives while it runs
    clock.set(Date.parse('2026-11-22T04:00:00Z'));
    clock.advance(TIMINGS.waitingMs + 10_000);
    await parsed(42);
    expect(feed(42).state).toBe('running');
    expect(await post('42')).toMatchObject({
      detail: expect.stringContaining('the index was paused'),
    });
    expect(feed(42)).toMatchObject({
      state: 'paused',
      indexStatus: 'waiting',
      paused: true,
      pausedReason: expect.stringContaining('resume it by hand'),
    });
    const request = feed(42).history.findLast((h) => h.kind === 'request');
    expect(request).toMatchObject({
      kind: 'request',
      accepted: true,
      scorecard: { followed: false },
    });
    expect(request?.kind === 'request' && request.scorecard.findings.map((f) => f.flag)).toEqual([
      'no-status-check',
      'paused-running-index',
    ]);
    clock.advance(2 * HOUR);
    expect(feed(42).state).toBe('paused');
    await service.transition('demo42', 42, 'running');
    // the run that was paused gave way to the request: its file is indexed from the start
    expect(rec(42).stepElapsedMs).toBe(0);
    await parsed(42);
    clock.advance(TIMINGS.runningBaseMs + 24 * TIMINGS.runningPerProductMs - 1);
    expect(feed(42).state).toBe('running');
    clock.advance(1);
    expect(feed(42).state).toBe('done');
    expect(
      feed(42).history.findLast((h) => h.kind === 'transition' && h.to === 'running'),
    ).toMatchObject({ cause: 'hand', detail: 'resumed by hand' });
  });

  it('applies injected faults once, with the fault as the cause, and mails requestedBy', async () => {
    const { clock, feed, parsed, post, put, service } = await setup();
    await service.patch('demo42', 42, { inject: { nextIndexFails: true } });
    await post('42', 'dev@shop.example');
    clock.advance(TIMINGS.waitingMs);
    await parsed(42);
    clock.advance(HOUR);
    expect(feed(42)).toMatchObject({
      state: 'error',
      inject: { nextIndexFails: false },
      lastIndexed: '2026-11-21T04:00:00.000Z',
    });
    expect(feed(42).history.at(-1)).toMatchObject({
      kind: 'transition',
      cause: 'fault',
      to: 'error',
      detail: 'injected fault: "next index fails"',
    });

    await service.patch('demo42', 43, { inject: { regenerationFails: true } });
    await put('43', 'ops@shop.example');
    clock.advance(HOUR);
    expect(feed(43)).toMatchObject({ state: 'regen_error', inject: { regenerationFails: false } });
    expect(feed(43).history.at(-1)).toMatchObject({ cause: 'fault', to: 'regen_error' });
    await new Promise((r) => setImmediate(r));
    const mails = service.outbox.list();
    expect(mails.map((m) => [m.to, m.outcome, m.feedId])).toEqual([
      ['dev@shop.example', 'error', 42],
      ['ops@shop.example', 'regen_error', 43],
    ]);
    expect(mails[0]!.text).toContain('Outcome: error (injected fault: "next index fails")');
    // a regen_error feed rests: it can be requested again once the hour has passed
    clock.advance(HOUR);
    expect(await put('43')).toMatchObject({ detail: expect.stringContaining('PUT accepted') });
    expect(feed(43).state).toBe('regen_waiting');
  });

  it('moves only by hand when autopilot is off, along the table', async () => {
    const { clock, feed, post, service } = await setup();
    await service.patch('demo42', 42, { autopilot: false });
    await post('42');
    clock.advance(10 * HOUR);
    expect(feed(42).state).toBe('waiting');
    await expect(service.transition('demo42', 42, 'done')).rejects.toThrow(TransitionRefused);
    await expect(service.transition('demo42', 42, 'done')).rejects.toMatchObject({
      allowed: ['running'],
    });
    await service.transition('demo42', 42, 'running');
    await service.transition('demo42', 42, 'paused');
    expect(feed(42).indexStatus).toBe('waiting');
    await service.transition('demo42', 42, 'running');
    const done = await service.transition('demo42', 42, 'done');
    expect(done).toMatchObject({
      state: 'done',
      products: 24,
      lastIndexed: new Date(clock.now()).toISOString(),
    });
    expect(done.history.filter((h) => h.kind === 'transition').map((h) => h.cause)).toEqual([
      'api',
      'hand',
      'hand',
      'hand',
      'hand',
    ]);
    // (a state that is none is refused by the admin API's declared body: test/api/admin-answers.test.ts)
    await expect(service.transition('demo42', 99, 'running')).rejects.toBeInstanceOf(FeedNotFound);
  });

  it('refuses an interval it cannot read and recomputes nextIndexTime for a new interval', async () => {
    // (the body's shape is the admin API's to check: test/api/indexing-workflow.test.ts)
    const { feed, service, put } = await setup();
    await expect(service.patch('demo42', 42, { interval: 'often' })).rejects.toThrow(
      /interval: "often" is not an interval/,
    );
    expect(await service.patch('demo42', 42, { interval: 'PT6H' })).toMatchObject({
      interval: '6h',
      nextIndexTime: '2026-11-21T10:00:00.000Z',
    });
    await expect(put('44')).rejects.toBeInstanceOf(FeedNeverIndexed);
    expect(await service.patch('demo42', 44, { interval: '1h' })).toMatchObject({
      interval: '1h',
      nextIndexTime: '2026-11-21T05:00:00.000Z',
    });
    expect(await service.patch('demo42', 43, { interval: 'Never' })).toMatchObject({
      nextIndexTime: null,
    });
    expect(feed(42).history.at(-1)).toMatchObject({
      kind: 'note',
      cause: 'hand',
      detail: 'settings changed: interval 6h',
    });
  });

  it('a step it cannot time is an error when armed, never a wait on a parse that is over (a spin)', async () => {
    const { service, rec, clock } = await setup();
    const r = rec(42);
    const run = {
      id: 'run_9',
      cause: 'api',
      requestedBy: null,
      requestedAt: clock.now(),
      input: 'upload',
    } as const;
    for (const [state, stepStartedAt] of [
      ['exploded', clock.now()],
      ['waiting', null],
    ] as const) {
      Object.assign(r, { state, stepStartedAt, run });
      let thrown: unknown = null;
      try {
        service.engine.arm(r);
      } catch (err) {
        thrown = err;
      } finally {
        // were a wait armed, it stops here: the loop re-armed only while the state stayed
        Object.assign(r, { state: 'done', stepStartedAt: null, run: null });
      }
      expect(String(thrown)).toContain(
        `feed demo42/42 is in "${state}" with no end to its step (started at ${stepStartedAt}): only a running index waits for its parse`,
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
  });

  it('keeps feeds, history, uploads and catalogs across a restart, and resets them to the fixtures', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const first = await setup(dir);
      await first.post('42');
      first.clock.advance(TIMINGS.waitingMs);
      await first.parsed(42);
      first.clock.advance(HOUR);
      const before = first.feed(42);
      expect(before.state).toBe('done');
      await first.service.close();

      const second = await setup(dir);
      expect(second.feed(42)).toMatchObject({
        state: 'done',
        products: 24,
        lastIndexed: before.lastIndexed,
        history: before.history,
      });
      expect(second.service.catalog.feed('demo42', 42)?.size).toBe(24);
      second.clock.advance(HOUR);
      expect(await second.put('42')).toMatchObject({
        detail: expect.stringContaining('PUT accepted'),
      }); // the upload was kept: PUT re-indexes it

      await second.service.reset();
      expect(second.feed(42)).toMatchObject({
        state: 'done',
        products: 0,
        lastIndexed: '2026-11-21T05:00:00.000Z',
      });
      expect(second.service.catalog.feed('demo42', 42)).toBeUndefined();
      await expect(second.put('42')).rejects.toMatchObject({
        name: 'NoUploadYet',
        message: expect.stringContaining('none was uploaded yet'),
      });
      await second.service.close();
    } finally {
      cleanup();
    }
  });
});
