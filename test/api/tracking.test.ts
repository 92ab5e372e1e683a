// Beacon v2 over real HTTP: both content types, CORS on every answer, the 404/405/413/415 bodies,
// the 1 MB boundary, and what ends up in the event store.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postBeacon, startSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';

const STOREFRONT = 'http://localhost:5173';
const context = () => ({
  timestamp: new Date().toISOString(),
  pageUrl: `${STOREFRONT}/search?q=shirt`,
  userId: 'u-api',
  sessionId: 's-api',
  pageLoadId: 'p-api',
  initiator: 'api-test',
});
const render = () => ({ context: context(), data: { responseId: 'r-api' } });

let sandbox: Sandbox;
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
});
afterAll(async () => {
  await sandbox.close();
});

async function json(res: Response): Promise<unknown> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.json();
}

describe('accepted events', () => {
  it('text/plain (what the browser client sends) → 200 {"success":true}, recorded with the body as sent', async () => {
    const body = render();
    const res = await postBeacon(base, 'demo42/search/render', body, {
      headers: { Origin: STOREFRONT, 'User-Agent': 'StorefrontTest/1.0' },
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const recorded = sandbox.core.events.all().at(-1)!;
    expect(recorded).toMatchObject({
      siteId: 'demo42',
      category: 'search',
      event: 'render',
      path: '/beacon/v2/demo42/search/render',
      accepted: true,
      status: 200,
      errors: [],
      body,
      userAgent: 'StorefrontTest/1.0',
      origin: STOREFRONT,
      contentType: 'text/plain;charset=UTF-8',
    });
  });

  it('application/json → 200 too, and other beacon v2 endpoints the client sends', async () => {
    const res = await fetch(`${base}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(render()),
    });
    expect(res.status).toBe(200);
    const login = { context: { ...context(), shopperId: 'shopper-1' } };
    expect((await postBeacon(base, 'demo42/shopper/login', login)).status).toBe(200);
    const order = {
      context: context(),
      data: {
        orderId: 'o1',
        transactionTotal: 10,
        total: 12,
        results: [{ parentId: 'p', uid: 'u', qty: 1, price: 10 }],
      },
    };
    expect((await postBeacon(base, 'demo42/order/transaction', order)).status).toBe(200);
  });

  it('takes a body of exactly 1 MB and refuses one byte more', async () => {
    const text = JSON.stringify(render());
    const exact = text + ' '.repeat((1 << 20) - Buffer.byteLength(text));
    expect(Buffer.byteLength(exact)).toBe(1 << 20);
    expect((await postBeacon(base, 'demo42/search/render', exact)).status).toBe(200);
    expect((await postBeacon(base, 'demo42/search/render', exact + ' ')).status).toBe(413);
  });
});

describe('rejected requests: the real service bodies, CORS on each, each recorded', () => {
  it('400 lists every problem and echoes the body as received', async () => {
    const raw = JSON.stringify({
      ...render(),
      seed: true,
      context: { ...context(), dev: 'yes', timestamp: 'now' },
    });
    const res = await postBeacon(base, 'demo42/search/render', raw, {
      headers: { Origin: STOREFRONT },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(res)).toEqual({
      success: false,
      error: 'ValidationError',
      messages: [
        'request body contains unknown field: "seed"',
        'invalid context.timestamp format: expected RFC3339',
        'invalid data type passed for key: context.dev',
      ],
      data: raw,
    });
    expect(sandbox.core.events.all().at(-1)).toMatchObject({
      accepted: false,
      status: 400,
      body: JSON.parse(raw),
      origin: STOREFRONT,
    });
  });

  it('400 for a missing and for an unparsable body', async () => {
    const empty = await fetch(`${base}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(empty.status).toBe(400);
    expect(await json(empty)).toEqual({
      success: false,
      error: 'ValidationError',
      messages: ['missing JSON POST body'],
    });
    const broken = await postBeacon(base, 'demo42/search/render', '{"context": {');
    expect(await json(broken)).toEqual({
      success: false,
      error: 'ValidationError',
      messages: ['invalid JSON POST body'],
    });
  });

  it('404 for a path that is no beacon v2 endpoint, or a siteId off the pattern', async () => {
    const res = await postBeacon(base, 'renders', render());
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(res)).toEqual({
      success: false,
      error: 'InvalidPathError',
      messages: ['invalid endpoint path or missing siteId in path: `/beacon/v2/renders`'],
    });
    const site = await postBeacon(base, 'Demo42/search/render', render());
    expect(await json(site)).toEqual({
      success: false,
      error: 'InvalidPathError',
      messages: ['invalid siteId pattern: received `Demo42` - expected pattern `^[a-z0-9]{6}$`'],
    });
    const recorded = sandbox.core.events.all().at(-1)!;
    expect(recorded).toMatchObject({
      status: 404,
      siteId: 'Demo42',
      body: expect.objectContaining({ data: { responseId: 'r-api' } }),
    });
  });

  it('405 for every method but POST, OPTIONS (a CORS preflight) included', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await fetch(`${base}/beacon/v2/demo42/search/render`, {
        method,
        headers: { Origin: STOREFRONT, 'Access-Control-Request-Method': 'POST' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await json(res)).toEqual({
        success: false,
        error: 'InvalidMethodError',
        messages: [`invalid request method: \`${method}\` - requires \`POST\``],
      });
    }
    expect(sandbox.core.events.all().at(-1)).toMatchObject({
      status: 405,
      accepted: false,
      body: null,
    });
    // each refused method is recorded, for a replay of the request as sent; a POST is recorded without one
    const listed = (await json(await fetch(`${base}/_sandbox/events?accepted=false&limit=5`))) as {
      events: Array<{ method?: string }>;
    };
    expect(listed.events.map((e) => e.method)).toEqual([
      'GET',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
    ]);
    const exported = (await json(await fetch(`${base}/_sandbox/export`))) as {
      events: Array<Record<string, unknown>>;
    };
    expect(exported.events.filter((e) => e.status === 405).map((e) => e.method)).toEqual([
      'GET',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
    ]);
    expect(exported.events.filter((e) => e.status === 200).some((e) => 'method' in e)).toBe(false);
  });

  it('413 over 1 MB: refused on Content-Length and while streaming, the connection stays usable for the client', async () => {
    const big = 'x'.repeat(3 << 20);
    const res = await postBeacon(base, 'demo42/search/render', big, {
      headers: { Origin: STOREFRONT },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(res)).toEqual({
      success: false,
      error: 'RequestTooLargeError',
      messages: ['request body must not be larger than 1MB'],
    });

    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const streamed = await fetch(`${base}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(streamed.status).toBe(413);
    expect(sandbox.core.events.all().at(-1)).toMatchObject({ status: 413, body: null });
    expect((await postBeacon(base, 'demo42/search/render', render())).status).toBe(200);
  });

  it('415 for other content types', async () => {
    const res = await fetch(`${base}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: STOREFRONT },
      body: 'a=1',
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(res)).toEqual({
      success: false,
      error: 'UnsupportedMediaType',
      messages: ['invalid header: `Content-Type`, accepts `text/plain` or `application/json`'],
    });
    expect(sandbox.core.events.all().at(-1)).toMatchObject({
      status: 415,
      body: 'a=1',
      contentType: 'application/x-www-form-urlencoded',
    });
  });
});

describe('clients that misbehave', () => {
  /** A beacon of 400 bytes whose client closes the connection after 37 (`t/aborted.mjs` of the review). */
  function cutShort(): Promise<void> {
    return new Promise((resolve) => {
      const socket = net.connect(sandbox.port, '127.0.0.1', () =>
        socket.write(
          'POST /beacon/v2/demo42/search/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 400\r\n\r\n{"context":{"pageLoadId":"ABORTED-1",',
          () => socket.destroy(),
        ),
      );
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
  }

  it('a beacon whose connection closes before its body is whole is not recorded (the service never receives it), said on stderr once a minute, and the sandbox keeps serving', async () => {
    const since = sandbox.core.events.all().at(-1)?.seq ?? 0;
    const recorded = () => sandbox.core.events.all().filter((e) => e.seq > since);
    const said: string[] = [];
    const stderr = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      said.push(args.join(' '));
    });
    try {
      await cutShort();
      // the first of: its line on stderr, or the phantom rejected beacon it used to be recorded as
      await expect
        .poll(() => said.length + recorded().length, { timeout: 5_000 })
        .toBeGreaterThan(0);
      expect(recorded()).toEqual([]);
      expect(said).toEqual([
        'search-sandbox: POST /beacon/v2/demo42/search/render: the connection closed after 37 of 400 body bytes, before the body was whole: not recorded, as the real service never receives a request cut short',
      ]);
      // a flood of them is that one line, and none is recorded
      for (let i = 0; i < 20; i++) await cutShort();
      expect((await postBeacon(base, 'demo42/search/render', render())).status).toBe(200);
      expect(recorded()).toMatchObject([{ status: 200, accepted: true }]);
      expect(said).toHaveLength(1);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('requests the HTTP parser refuses', () => {
  it('answers a URL over 16 KB with a 431 in JSON and CORS headers, and a request line it cannot read with a 400 in JSON', async () => {
    // Node answered both with a bare status line: a storefront's fetch saw a CORS failure, not the reason
    const long = await fetch(
      `${base}/api/search/search.json?siteId=demo42&q=${'shoe%20'.repeat(4_000)}`,
      { headers: { Origin: STOREFRONT } },
    );
    expect(long.status).toBe(431);
    expect(long.headers.get('access-control-allow-origin')).toBe('*');
    expect(await long.json()).toEqual({
      error: 'RequestHeaderFieldsTooLarge',
      message: expect.stringMatching(/^the request line and headers are larger than 16 KB/),
    });
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(sandbox.port, '127.0.0.1', () =>
        socket.write('GET /beacon v2 HTTP/9\r\n\r\n'),
      );
      let got = '';
      socket.setEncoding('utf8').on('data', (c: string) => (got += c));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'BadRequest',
      message: expect.stringMatching(/^the request is not valid HTTP\/1\.1 \(HPE_/),
    });
    expect((await postBeacon(base, 'demo42/search/render', render())).status).toBe(200);
  });
});

describe('a body over 1 MB, refused as it is announced', () => {
  it('is answered 413 and read to its end: a client still sending gets the answer, not a broken pipe, and keeps the connection', async () => {
    const socket = net.connect(sandbox.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let received = '';
    let ended = false;
    socket.setEncoding('utf8').on('data', (c: string) => (received += c));
    socket.on('end', () => (ended = true));
    socket.on('error', () => undefined);
    const length = 2_000_000;
    socket.write(
      `POST /beacon/v2/demo42/search/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n\r\n`,
    );
    // the answer comes at once, before the body
    await expect.poll(() => received, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).not.toMatch(/\r\nConnection: close\r\n/i);
    // the client goes on sending its 2 MB, slowly: the sandbox reads it to its end
    const piece = 'x'.repeat(250_000);
    for (let sent = 0; sent < length; sent += piece.length) {
      await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ended).toBe(false);
    }
    // and the same connection takes the next beacon
    const body = JSON.stringify(render());
    received = '';
    socket.write(
      `POST /beacon/v2/demo42/search/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await expect.poll(() => received, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });
});

describe('personalization preflight', () => {
  it('POST /v1/preflight answers 200 with CORS, so the storefront console stays clean', async () => {
    const res = await fetch(`${base}/v1/preflight`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: STOREFRONT },
      body: JSON.stringify({ userId: 'u', siteId: 'demo42', cart: ['sku-1'] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(res)).toEqual({ success: true });
  });

  it('answers a CORS preflight for custom headers with 204', async () => {
    const res = await fetch(`${base}/v1/preflight`, {
      method: 'OPTIONS',
      headers: {
        Origin: STOREFRONT,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-custom',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-custom');
  });
});

describe('admin: schemas and dry-run check', () => {
  it('lists the endpoints, their source and the tightenings vs the OAS', async () => {
    const res = await fetch(`${base}/_sandbox/tracking/schemas`);
    expect(res.status).toBe(200);
    const index = (await json(res)) as {
      source: { package: string };
      tightenings: string[];
      endpoints: Array<{ endpoint: string; path: string; examples: string[] }>;
    };
    expect(index.source.package).toBe('@athoscommerce/beacon');
    expect(index.tightenings).toHaveLength(8);
    expect(index.endpoints).toHaveLength(38);
    expect(index.endpoints).toContainEqual({
      endpoint: 'search/clickthrough',
      category: 'search',
      event: 'clickthrough',
      path: '/beacon/v2/{siteId}/search/clickthrough',
      examples: ['results clickthrough example', 'banners clickthrough example'],
    });
  });

  it("serves one endpoint's schema and examples, and names the known ones for a typo", async () => {
    const res = await fetch(`${base}/_sandbox/tracking/schemas/search/render`);
    const one = (await json(res)) as {
      schema: { required: string[] };
      examples: Record<string, unknown>;
    };
    expect(one.schema.required).toEqual(['context', 'data']);
    expect(Object.keys(one.examples)).toEqual(['render example']);
    const typo = await fetch(`${base}/_sandbox/tracking/schemas/search/renders`);
    expect(typo.status).toBe(404);
    expect(((await json(typo)) as { message: string }).message).toContain('search/render,');
  });

  it('checks a body without recording it', async () => {
    const before = sandbox.core.events.size();
    const bad = { ...render(), seed: 1 };
    const res = await fetch(`${base}/_sandbox/tracking/check/demo42/search/render`, {
      method: 'POST',
      body: JSON.stringify(bad),
    });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'ValidationError',
        messages: ['request body contains unknown field: "seed"'],
        data: JSON.stringify(bad),
      },
      errors: [{ message: 'request body contains unknown field: "seed"', path: 'seed' }],
    });
    const ok = await fetch(`${base}/_sandbox/tracking/check/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(render()),
    });
    expect(await json(ok)).toEqual({ status: 200, body: { success: true }, errors: [] });
    expect(sandbox.core.events.size()).toBe(before);
  });

  it('is behind the same-origin guard, unlike the tracking endpoints', async () => {
    const res = await fetch(`${base}/_sandbox/tracking/schemas`, {
      headers: { Origin: 'http://evil.example' },
    });
    expect(res.status).toBe(403);
  });
});
