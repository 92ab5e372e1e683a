// Beacons are answered before express routes anything (the beacon lane, for ingest speed). The express app
// alone still has a tracking route calling the same handler. Served from the same core, both must answer
// byte for byte alike (status line, headers, body) for every outcome a storefront can meet, and record the
// same event: the lane is invisible except in the benchmark.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';
import { createExpressApp } from '../../src/main/http/app';

let sandbox: Sandbox;
let host: string;
/** the same core behind the express app alone (no lane) */
let expressOnly: http.Server;
let expressHost: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  host = new URL(sandbox.url).host;
  expressOnly = http.createServer(
    createExpressApp(sandbox.core, { allowedHosts: () => new Set(), rendererDir: null }),
  );
  await new Promise<void>((resolve) => expressOnly.listen(0, '127.0.0.1', resolve));
  expressHost = `127.0.0.1:${(expressOnly.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => expressOnly.close(resolve));
  await sandbox.close();
});

/** One raw HTTP/1.1 exchange; the whole answer as the client's socket received it. */
function exchange(request: string, to = host): Promise<string> {
  const [hostname, port] = to.split(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname!, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The answer without the two headers that tell the time (they differ between any two answers). */
function timeless(answer: string): string {
  return answer.replace(/^(Date|X-Sandbox-Now): .*\r\n/gim, '');
}

function request(method: string, target: string, body = '', extra: string[] = []): string {
  return [
    `${method} ${target} HTTP/1.1`,
    'Host: localhost',
    'Content-Type: text/plain;charset=UTF-8',
    'Origin: http://localhost:5173',
    'Connection: close',
    ...((body || method === 'POST') && !extra.some((h) => /^content-length:/i.test(h))
      ? [`Content-Length: ${Buffer.byteLength(body)}`]
      : []),
    ...extra,
    '',
    body,
  ].join('\r\n');
}

const render = (n: string) =>
  JSON.stringify({
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'http://localhost:5173/search?q=shirt',
      userId: 'u-lane',
      sessionId: 's-lane',
      pageLoadId: `p-lane-${n}`,
      initiator: 'api-test',
    },
    data: { responseId: `r-lane-${n}` },
  });

describe('the beacon lane answers exactly as the express route does', () => {
  const cases: Array<[string, string, string, string, string[]?]> = [
    ['an accepted render', 'POST', '/beacon/v2/demo42/search/render', render('ok')],
    ['a body that is not JSON', 'POST', '/beacon/v2/demo42/search/render', '{nope'],
    ['a body the schema refuses', 'POST', '/beacon/v2/demo42/search/render', '{"context":{}}'],
    ['a wrong method', 'GET', '/beacon/v2/demo42/search/render', ''],
    ['HEAD (a status and headers, no body)', 'HEAD', '/beacon/v2/demo42/search/render', ''],
    ['an unknown endpoint', 'POST', '/beacon/v2/demo42/search/nope', render('x')],
    ['a malformed siteId, with a query', 'POST', '/beacon/v2/Demo-42/search/render?x=1', '{}'],
    [
      'a declared length over 1 MB',
      'POST',
      '/beacon/v2/demo42/search/render',
      'x'.repeat(1000),
      ['Content-Length: 2000000'],
    ],
  ];
  for (const [what, method, path, body, extra] of cases) {
    it(what, async () => {
      const before = sandbox.core.events.all().length;
      const lane = await exchange(request(method, path, body, extra));
      const viaExpress = await exchange(request(method, path, body, extra), expressHost);
      expect(lane).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(lane).toMatch(/\r\nX-Sandbox-Now: \d{4}-/i);
      expect(timeless(viaExpress)).toBe(timeless(lane));
      // both were recorded alike (every beacon v2 request is, accepted or not)
      const recorded = sandbox.core.events.all().slice(before);
      expect(recorded).toHaveLength(2);
      const same = (e: object) => ({ ...e, id: 0, seq: 0, receivedAt: 0 });
      expect(same(recorded[1]!)).toEqual(same(recorded[0]!));
    });
  }

  it('takes an absolute-form request target by its path, as express routes it', async () => {
    const before = sandbox.core.events.all().length;
    const answer = await exchange(
      request('POST', `http://${host}/beacon/v2/demo42/search/render?a=1`, render('abs')),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(
      sandbox.core.events
        .all()
        .slice(before)
        .map((e) => e.path),
    ).toEqual(['/beacon/v2/demo42/search/render']);
  });

  it('matches paths case-insensitively, as express routes them (a 404 in the service’s words)', async () => {
    const answer = await exchange(request('POST', '/BEACON/V2/demo42/search/render', render('c')));
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toContain('"error":"InvalidPathError"');
  });

  it('leaves every other path to express (/beacon/v20 is not a beacon)', async () => {
    const answer = await exchange(request('POST', '/beacon/v20/demo42/search/render', '{}'));
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toContain('"error":"NotFound"');
  });
});
