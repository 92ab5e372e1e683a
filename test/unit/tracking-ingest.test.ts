// The ingest domain without HTTP: the status table of the real service, what gets recorded for every
// request, and that an answer waits for the store.
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { TrackingIngest, type TrackingRequest } from '../../src/main/tracking/ingest';
import type { RecordedEvent } from '../../src/shared/events';
import type { EventDraft, EventStore } from '../../src/main/store/types';

/** Just enough of an EventStore: append (optionally held or failing) and all(). */
class FakeStore implements EventStore {
  readonly events: RecordedEvent[] = [];
  hold: Promise<void> | null = null;
  failWith: Error | null = null;

  async append(draft: EventDraft): Promise<RecordedEvent> {
    if (this.hold) await this.hold;
    if (this.failWith) throw this.failWith;
    const seq = this.events.length + 1;
    const event = { ...draft, id: `ev_${String(seq).padStart(12, '0')}`, seq };
    this.events.push(event);
    return event;
  }
  all(): readonly RecordedEvent[] {
    return this.events;
  }
  size(): number {
    return this.events.length;
  }
  query(): RecordedEvent[] {
    throw new Error('not used by ingest');
  }
  get(): RecordedEvent | undefined {
    throw new Error('not used by ingest');
  }
  async reset(): Promise<void> {}
  readonly closing = false;
  beginImport(): Promise<string> {
    throw new Error('not used by ingest');
  }
  writesDone(): Promise<void> {
    throw new Error('not used by ingest');
  }
  answering(): void {
    throw new Error('not used by ingest');
  }
  endImport(): Promise<void> {
    throw new Error('not used by ingest');
  }
  exclusive<T>(): Promise<T> {
    throw new Error('not used by ingest');
  }
  onAppend(): () => void {
    return () => undefined;
  }
  onReset(): () => void {
    return () => undefined;
  }
  onDrop(): () => void {
    return () => undefined;
  }
  setUpstream(): boolean {
    return false;
  }
  upstreamAnswers(): [] {
    return [];
  }
  snapshot(): never {
    throw new Error('not used by ingest');
  }
  select(): never {
    throw new Error('not used by ingest');
  }
  waitFor(): never {
    throw new Error('not used by ingest');
  }
  endWaits(): never {
    throw new Error('not used by ingest');
  }
  loadWarnings(): string[] {
    return [];
  }
  async close(): Promise<void> {}
}

const NOW = Date.parse('2026-11-21T04:00:00.000Z');
const validBody = {
  context: {
    timestamp: '2026-11-21T03:59:59Z',
    pageUrl: 'http://localhost:5173/',
    userId: 'u',
    sessionId: 's',
    pageLoadId: 'p',
    initiator: 'test',
  },
  data: { responseId: 'r1' },
};

/** `realNow`: real time as the clock reads it (by default the sandbox clock's own: it was never moved) */
function setup(realNow: () => number = () => NOW) {
  const store = new FakeStore();
  const clock = new SandboxClock({ frozen: true, start: NOW }, realNow);
  const ingest = new TrackingIngest(store, clock);
  const send = (overrides: Partial<TrackingRequest> = {}) =>
    ingest.handle({
      method: 'POST',
      path: '/beacon/v2/abc123/search/render',
      contentType: 'text/plain;charset=UTF-8',
      rawBody: Buffer.from(JSON.stringify(validBody)),
      userAgent: 'UA/1',
      origin: 'http://localhost:5173',
      ...overrides,
    });
  return { store, ingest, send, clock };
}

describe('the clock offset recorded with each event', () => {
  it('is left out while the clock is at real time, and recorded once it was moved (timestamp-skew reads it)', async () => {
    let real = NOW;
    const { store, send, clock } = setup(() => real);
    await send();
    expect(store.events[0]).not.toHaveProperty('clockOffsetMs');
    clock.advance(61 * 60_000);
    await send();
    expect(store.events[1]).toMatchObject({
      receivedAt: '2026-11-21T05:01:00.000Z',
      clockOffsetMs: 61 * 60_000,
    });
    // a frozen clock is off real time as soon as real time moves on: the receipt's real time is kept
    real += 30_000;
    await send({ rawBody: Buffer.from('{') });
    expect(store.events[2]).toMatchObject({ accepted: false, clockOffsetMs: 61 * 60_000 - 30_000 });
    const e = store.events[2]!;
    expect(Date.parse(e.receivedAt) - e.clockOffsetMs!).toBe(real);
  });
});

describe('status table', () => {
  it('200 {"success":true} and the event recorded with everything a user needs', async () => {
    const { store, send } = setup();
    const result = await send();
    expect(result).toMatchObject({ status: 200, body: { success: true } });
    expect(store.events).toEqual([
      {
        id: 'ev_000000000001',
        seq: 1,
        receivedAt: '2026-11-21T04:00:00.000Z',
        siteId: 'abc123',
        category: 'search',
        event: 'render',
        path: '/beacon/v2/abc123/search/render',
        accepted: true,
        status: 200,
        errors: [],
        body: validBody,
        userAgent: 'UA/1',
        origin: 'http://localhost:5173',
        contentType: 'text/plain;charset=UTF-8',
      },
    ]);
    expect(result.event).toBe(store.events[0]);
  });

  it('accepts application/json too, and other beacon v2 endpoints', async () => {
    const { send } = setup();
    expect((await send({ contentType: 'application/json' })).status).toBe(200);
    const pageview = { context: validBody.context, data: { result: { parentId: 'p', uid: 'u' } } };
    expect(
      (
        await send({
          path: '/beacon/v2/abc123/product/pageview',
          rawBody: Buffer.from(JSON.stringify(pageview)),
        })
      ).status,
    ).toBe(200);
  });

  it('400 ValidationError with every message and the body as received in data', async () => {
    const { store, send } = setup();
    const raw = JSON.stringify({
      ...validBody,
      seed: 1,
      context: { ...validBody.context, dev: 'no' },
    });
    const result = await send({ rawBody: Buffer.from(raw) });
    expect(result).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: 'ValidationError',
        messages: [
          'request body contains unknown field: "seed"',
          'invalid data type passed for key: context.dev',
        ],
        data: raw,
      },
    });
    expect(store.events[0]).toMatchObject({ accepted: false, status: 400, body: JSON.parse(raw) });
    expect(store.events[0]!.errors.map((e) => e.path)).toEqual(['seed', 'context.dev']);
  });

  it('400 for a missing or unparsable body, without data, the raw text recorded', async () => {
    const { store, send } = setup();
    expect(await send({ rawBody: null })).toMatchObject({
      status: 400,
      body: { success: false, error: 'ValidationError', messages: ['missing JSON POST body'] },
    });
    expect(await send({ rawBody: Buffer.alloc(0) })).toMatchObject({
      status: 400,
      body: { messages: ['missing JSON POST body'] },
    });
    const broken = await send({ rawBody: Buffer.from('{"context":') });
    expect(broken).toMatchObject({ status: 400, body: { messages: ['invalid JSON POST body'] } });
    expect(broken.body).not.toHaveProperty('data');
    expect(store.events.map((e) => e.body)).toEqual([null, null, '{"context":']);
  });

  it('400 invalid JSON for bodies nested deeper than 10,000 levels (like the Go decoder), kept as text', async () => {
    const { store, send } = setup();
    const deep = `{"context":${JSON.stringify(validBody.context)},"data":{"message":"m","details":{"a":${'['.repeat(10_001)}${']'.repeat(10_001)}}}}`;
    expect(
      await send({ path: '/beacon/v2/abc123/log/snap', rawBody: Buffer.from(deep) }),
    ).toMatchObject({ status: 400, body: { messages: ['invalid JSON POST body'] } });
    expect(store.events[0]!.body).toBe(deep);
    const fine = `{"context":${JSON.stringify(validBody.context)},"data":{"message":"m","details":{"a":${'['.repeat(9_990)}${']'.repeat(9_990)},"s":"[[[["}}}`;
    expect(
      (await send({ path: '/beacon/v2/abc123/log/snap', rawBody: Buffer.from(fine) })).status,
    ).toBe(200);
  });

  it('404 InvalidPathError for a path that is not a beacon v2 endpoint, or a bad siteId', async () => {
    const { store, send } = setup();
    expect(await send({ path: '/beacon/v2/renders' })).toMatchObject({
      status: 404,
      body: {
        success: false,
        error: 'InvalidPathError',
        messages: ['invalid endpoint path or missing siteId in path: `/beacon/v2/renders`'],
      },
    });
    expect((await send({ path: '/beacon/v2/abc123/search/renders' })).status).toBe(404);
    expect((await send({ path: '/beacon/v2/search/render' })).status).toBe(404);
    expect((await send({ path: '/beacon/v2/abc123/search/render/extra' })).status).toBe(404);
    for (const siteId of ['abc12', 'ABC123', 'abc1234', 'abc-12']) {
      expect(await send({ path: `/beacon/v2/${siteId}/search/render` })).toMatchObject({
        status: 404,
        body: {
          error: 'InvalidPathError',
          messages: [
            `invalid siteId pattern: received \`${siteId}\` - expected pattern \`^[a-z0-9]{6}$\``,
          ],
        },
      });
    }
    expect(store.events[0]).toMatchObject({
      siteId: '',
      category: '',
      event: '',
      status: 404,
      accepted: false,
    });
    expect(store.events[1]).toMatchObject({
      siteId: 'abc123',
      category: 'search',
      event: 'renders',
    });
    expect(store.events[2]).toMatchObject({ siteId: '', category: 'search', event: 'render' });
  });

  it('405 InvalidMethodError for every method but POST, OPTIONS included', async () => {
    const { send } = setup();
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
      expect(await send({ method, rawBody: null })).toMatchObject({
        status: 405,
        body: {
          success: false,
          error: 'InvalidMethodError',
          messages: [`invalid request method: \`${method}\` - requires \`POST\``],
        },
      });
    }
  });

  it('413 RequestTooLargeError over 1 MB, whether the router cut it short or not', async () => {
    const { store, send } = setup();
    const expected = {
      status: 413,
      body: {
        success: false,
        error: 'RequestTooLargeError',
        messages: ['request body must not be larger than 1MB'],
      },
    };
    expect(await send({ rawBody: null, bodyTooLarge: true })).toMatchObject(expected);
    expect(await send({ rawBody: Buffer.alloc((1 << 20) + 1, 0x20) })).toMatchObject(expected);
    expect(store.events.map((e) => e.body)).toEqual([null, expect.any(String)]);
  });

  it('415 UnsupportedMediaType for other content types, or none', async () => {
    const { send } = setup();
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      expect(await send({ contentType })).toMatchObject({
        status: 415,
        body: {
          success: false,
          error: 'UnsupportedMediaType',
          messages: ['invalid header: `Content-Type`, accepts `text/plain` or `application/json`'],
        },
      });
    }
    expect((await send({ contentType: 'Application/JSON; charset=utf-8' })).status).toBe(200);
  });

  it('checks in the order path, method, size, media type, body', async () => {
    const { send } = setup();
    expect(
      (await send({ path: '/beacon/v2/x', method: 'GET', contentType: 'image/png' })).status,
    ).toBe(404);
    expect((await send({ method: 'GET', bodyTooLarge: true })).status).toBe(405);
    expect((await send({ bodyTooLarge: true, contentType: 'image/png' })).status).toBe(413);
    expect((await send({ contentType: 'image/png', rawBody: null })).status).toBe(415);
  });
});

describe('check (dry run)', () => {
  it('answers like handle, with each issue and its path, and records nothing', async () => {
    const { store, ingest } = setup();
    const raw = JSON.stringify({ ...validBody, seed: 1 });
    const request = {
      method: 'POST',
      path: '/beacon/v2/abc123/search/render',
      contentType: 'text/plain',
      rawBody: Buffer.from(raw),
    };
    expect(await ingest.check(request)).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'ValidationError',
        messages: ['request body contains unknown field: "seed"'],
        data: raw,
      },
      errors: [{ message: 'request body contains unknown field: "seed"', path: 'seed' }],
    });
    expect(
      await ingest.check({ ...request, rawBody: Buffer.from(JSON.stringify(validBody)) }),
    ).toEqual({
      status: 200,
      body: { success: true },
      errors: [],
    });
    expect(store.events).toEqual([]);
  });
});

describe('storing before answering', () => {
  it('answers only after append resolved', async () => {
    const { store, send } = setup();
    let release!: () => void;
    store.hold = new Promise((resolve) => (release = resolve));
    let answered = false;
    const pending = send().then((r) => {
      answered = true;
      return r;
    });
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    expect(store.events).toHaveLength(1);
  });

  it('answers 500 with the reason when the event could not be stored, never 200', async () => {
    const { store, send } = setup();
    store.failWith = new Error('ENOSPC: no space left on device');
    expect(await send()).toEqual({
      status: 500,
      body: {
        success: false,
        error: 'InternalServerError',
        messages: [
          'internal server error: the event could not be stored (ENOSPC: no space left on device)',
        ],
      },
    });
  });
});
