// GET /_sandbox/stream over real HTTP: framing of bus messages, heartbeats, unsubscribe on disconnect,
// and a slow client being cut off (and told) instead of growing the sandbox's memory.
import type { StreamMessage } from '../../src/shared/stream';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type SandboxCore } from '../../src/main/sandbox';
import { adminEventsRouter } from '../../src/main/http/routes/admin-events';
import { SseHub, type SseOptions } from '../../src/main/http/sse';
import { postBeacon, startSandbox, testConfig } from '../helpers/sandbox';
import { readUntil } from '../helpers/sse';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** A bare app with only the events router, so the hub's limits can be made small. */
async function streamServer(
  options: SseOptions,
): Promise<{ core: SandboxCore; hub: SseHub; port: number }> {
  const core = await createCore(testConfig());
  const hub = new SseHub(core.bus, options);
  const app = express().use('/_sandbox', adminEventsRouter(core, { hub }));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await core.close();
  });
  return { core, hub, port: (server.address() as AddressInfo).port };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('GET /_sandbox/stream', () => {
  it('sends every bus message as event/id/data with the {type, data} envelope, starting with retry', async () => {
    const sandbox = await startSandbox();
    stops.push(() => sandbox.close());
    const res = await fetch(`${sandbox.url}/_sandbox/stream`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    const reader = res.body!.getReader();
    expect(await readUntil(reader, (t) => t.includes('\n\n'))).toMatch(/^retry: 2000\n/);

    const body = {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'http://localhost/',
        userId: 'u',
        sessionId: 's',
        pageLoadId: 'p',
        initiator: 'sse-test',
      },
      data: { responseId: 'r-sse' },
    };
    expect((await postBeacon(sandbox.url, 'demo42/search/render', body)).status).toBe(200);
    await sandbox.core.reset({ what: 'events', siteId: 'demo42' });
    const text = await readUntil(reader, (t) => t.includes('event: reset'));
    const frames = text.split('\n\n').filter((f) => f.startsWith('id: '));
    const parsed = frames.map((f) =>
      Object.fromEntries(
        f
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      ),
    );
    const eventFrame = parsed.find((f) => f.event === 'event')!;
    expect(JSON.parse(eventFrame.data!)).toMatchObject({
      type: 'event',
      data: { siteId: 'demo42', body },
    });
    const resetFrame = parsed.find((f) => f.event === 'reset')!;
    expect(JSON.parse(resetFrame.data!)).toEqual({
      type: 'reset',
      data: { what: 'events', siteId: 'demo42' },
    });
    expect(Number(resetFrame.id)).toBeGreaterThan(Number(eventFrame.id));
    await reader.cancel();
  });

  it('sends only the types asked for with ?types=, and refuses unknown ones', async () => {
    const { core, port } = await streamServer({});
    const res = await fetch(`http://127.0.0.1:${port}/_sandbox/stream?types=reset,feed`);
    const reader = res.body!.getReader();
    await readUntil(reader, (t) => t.includes('\n\n'));
    // partial data: the hub forwards whatever it is given
    core.bus.emit({ type: 'clock', data: { skipped: true } } as unknown as StreamMessage);
    core.bus.emit({ type: 'feed', data: { kept: 1 } } as unknown as StreamMessage);
    core.bus.emit({ type: 'reset', data: { what: 'events' } });
    const text = await readUntil(reader, (t) => t.includes('event: reset'));
    expect(text).not.toContain('event: clock');
    expect(text).toContain('data: {"type":"feed","data":{"kept":1}}');
    await reader.cancel();

    const bad = await fetch(`http://127.0.0.1:${port}/_sandbox/stream?types=event,feeds`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      parameter: 'types',
      message: expect.stringMatching(/unknown stream type feeds in types; known: event, timeline/),
    });
  });

  it('sends heartbeat comments and unsubscribes when the client goes away', async () => {
    const { hub, port } = await streamServer({ heartbeatMs: 20 });
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/_sandbox/stream`, {
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    expect(await readUntil(reader, (t) => t.includes(': heartbeat '))).toMatch(
      /\n: heartbeat \d{4}-\d\d-\d\dT/,
    );
    expect(hub.size).toBe(1);
    controller.abort();
    await until(() => hub.size === 0);
    expect(hub.size).toBe(0);
  });

  it('cuts off a client that does not read, telling it why, with memory bounded by the cap', async () => {
    const { core, hub, port } = await streamServer({
      maxBufferedBytes: 64 * 1024,
      heartbeatMs: 60_000,
    });
    const socket = net.connect(port, '127.0.0.1');
    stops.push(async () => void socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /_sandbox/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    socket.pause(); // a client that never reads
    await until(() => hub.size === 1);
    const big = 'x'.repeat(16 * 1024);
    let sent = 0;
    // Far more than the socket buffers can absorb: the hub must give up on this client.
    while (hub.size === 1 && sent < 20_000) {
      core.bus.emit({ type: 'clock', data: { big, n: sent++ } } as unknown as StreamMessage);
      if (sent % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hub.size).toBe(0);
    expect(sent).toBeLessThan(20_000);
    socket.resume();
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => socket.once('end', resolve));
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toMatch(
      /event: overflow\ndata: \{"message":"stream closed: more than 65536 bytes were waiting for this client; reconnect/,
    );
  });
});
