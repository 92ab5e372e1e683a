// The Host/Origin guard (http/security.ts) through real HTTP: the admin API and UI answer only to the
// sandbox's own Host and Origin; tracking endpoints stay open to storefronts on any origin.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { startSandbox } from '../helpers/sandbox';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

/** node:http, because fetch will not send a Host header of our choosing. */
function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: Record<string, unknown>; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: sandbox.port, method, path, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const own = () => `127.0.0.1:${sandbox.port}`;
const render = JSON.stringify({
  context: {
    timestamp: new Date().toISOString(),
    pageUrl: 'https://shop.example/',
    userId: 'u',
    sessionId: 's',
    pageLoadId: 'p',
    initiator: 'guard-test',
  },
  data: { responseId: 'r-guard' },
});

describe('admin API guard', () => {
  it('answers to its own Host names', async () => {
    for (const host of [own(), `localhost:${sandbox.port}`]) {
      expect((await request('GET', '/_sandbox/health', { Host: host })).status).toBe(200);
    }
  });

  it('refuses another Host (DNS rebinding) with 403 and a reason', async () => {
    for (const host of [
      `evil.example:${sandbox.port}`,
      'evil.example',
      `127.0.0.1:${sandbox.port + 1}`,
    ]) {
      const res = await request('GET', '/_sandbox/events', { Host: host });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'ForbiddenHost' });
      expect(String(res.body.message)).toMatch(/is not this sandbox.*DNS rebinding/);
    }
  });

  it('refuses a foreign Origin (another web page) on reads and on state changes', async () => {
    for (const origin of ['http://evil.example', 'http://localhost:5173', 'null']) {
      const read = await request('GET', '/_sandbox/events', { Host: own(), Origin: origin });
      expect(read.status).toBe(403);
      expect(read.body).toMatchObject({ error: 'ForbiddenOrigin' });
      const reset = await request(
        'POST',
        '/_sandbox/reset',
        { Host: own(), Origin: origin, 'Content-Type': 'application/json' },
        '{"what":"all"}',
      );
      expect(reset.status).toBe(403);
    }
  });

  it('lets the sandbox UI (its own origin) through', async () => {
    const res = await request(
      'POST',
      '/_sandbox/reset',
      { Host: own(), Origin: `http://${own()}`, 'Content-Type': 'application/json' },
      '{}',
    );
    expect(res.status).toBe(200);
    expect(
      (
        await request('GET', '/_sandbox/events', {
          Host: own(),
          Origin: `http://localhost:${sandbox.port}`,
        })
      ).status,
    ).toBe(200);
  });

  it('guards the stream and the export like the rest', async () => {
    expect(
      (await request('GET', '/_sandbox/export', { Host: own(), Origin: 'http://evil.example' }))
        .status,
    ).toBe(403);
    expect((await request('GET', '/_sandbox/stream', { Host: 'evil.example' })).status).toBe(403);
  });
});

describe('tracking endpoints stay open', () => {
  it('accept beacons from any storefront origin and any Host name', async () => {
    const before = sandbox.core.events.size();
    const res = await request(
      'POST',
      '/beacon/v2/demo42/search/render',
      {
        Host: `shop-proxy.test:${sandbox.port}`,
        Origin: 'https://shop.example',
        'Content-Type': 'text/plain',
      },
      render,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.headers['access-control-allow-origin']).toBeDefined();
    expect(sandbox.core.events.size()).toBe(before + 1);
  });
});
