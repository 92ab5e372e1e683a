// Every status the admin API really answers is declared in its OpenAPI document: each route is sent the
// requests that make it refuse (another method, another Host or Origin, headers over 16 KB, an unknown
// parameter, a siteId or path parameter of nothing, a body too large, of another Content-Type, or not
// JSON) over real HTTP, and each status it answered must be among those openapi.json lists for it.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { ADMIN_API, type Endpoint } from '../../src/shared/admin-api';
import { isSiteIdSchema } from '../../src/shared/admin-params';
import { startSandbox } from '../helpers/sandbox';

let sandbox: Sandbox;
let responses: Map<string, Set<string>>;

beforeAll(async () => {
  sandbox = await startSandbox();
  const doc = (await (await fetch(`${sandbox.url}/_sandbox/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  responses = new Map();
  for (const [p, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      responses.set(`${method.toUpperCase()} ${p}`, new Set(Object.keys(op.responses)));
});
afterAll(async () => {
  await sandbox.close();
});

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** The status of one request (the answer's head is enough: a stream is cut once it starts); null: none in 3 s. */
function statusOf(probe: Probe): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: sandbox.port,
        method: probe.method,
        path: probe.path,
        headers: { host: `127.0.0.1:${sandbox.port}`, ...probe.headers },
      },
      (res) => {
        resolve(res.statusCode ?? null);
        res.destroy();
      },
    );
    // a long-poll that waits rather than refuses is no refusal to check
    req.setTimeout(3000, () => {
      resolve(null);
      req.destroy();
    });
    req.on('error', () => resolve(null));
    req.end(probe.body);
  });
}

/** A value for each path parameter that names nothing (a feed of no site, an id of no event). */
function pathOf(e: Endpoint, nothing: boolean): string {
  const known: Record<string, string> = { siteId: 'demo42', feedId: '42', category: 'search' };
  return e.path.replace(/\{(\w+)\}/g, (_, key: string) =>
    nothing ? (key === 'feedId' ? '999' : 'NOPE') : (known[key] ?? 'render'),
  );
}

/** The requests that make `e` refuse, each as it would be sent. */
function probes(e: Endpoint): Probe[] {
  const path = pathOf(e, false);
  const json = { 'content-type': 'application/json' };
  const out: Probe[] = [
    { method: 'PUT', path },
    { method: e.method, path, headers: { host: 'evil.example' } },
    { method: e.method, path, headers: { origin: 'http://evil.example' } },
    { method: e.method, path, headers: { 'x-big': 'a'.repeat(20_000) } },
    { method: e.method, path: `${path}?zz=1` },
  ];
  if (e.path.includes('{')) out.push({ method: e.method, path: pathOf(e, true) });
  for (const [key, schema] of Object.entries(e.query ?? {}))
    if (isSiteIdSchema(schema) || key === 'siteId')
      out.push({ method: e.method, path: `${path}?${key}=NOPE!` });
  if (e.body) {
    out.push({
      method: e.method,
      path,
      headers: json,
      body: Buffer.alloc(e.body.maxBytes + 1, 0x20),
    });
    out.push({ method: e.method, path, headers: { 'content-type': 'image/png' }, body: '{}' });
    out.push({ method: e.method, path, headers: json, body: '{' });
    out.push({ method: e.method, path, headers: json, body: '[]' });
  }
  return out;
}

describe('the OpenAPI document of the admin API', () => {
  it('declares every status each route answers to the requests that make it refuse', async () => {
    const undeclared: string[] = [];
    let answered = 0;
    for (const [name, endpoint] of Object.entries(ADMIN_API) as Array<[string, Endpoint]>) {
      // another method is answered for the path: each operation of it declares that 405
      const declared = responses.get(`${endpoint.method} ${endpoint.path}`)!;
      for (const probe of probes(endpoint)) {
        const status = await statusOf(probe);
        if (status === null || status === 200) continue;
        answered++;
        if (!declared.has(String(status)))
          undeclared.push(
            `${name} (${endpoint.method} ${endpoint.path}): ${probe.method} ${probe.path.slice(0, 60)} answered ${status}`,
          );
      }
    }
    expect(undeclared).toEqual([]);
    // the probes did reach refusals (not a run that answered nothing)
    expect(answered).toBeGreaterThan(Object.keys(ADMIN_API).length * 5);
  });

  it('declares a 503 for every route that writes, and 403, 405 and 431 for every route', () => {
    for (const [name, e] of Object.entries(ADMIN_API) as Array<[string, Endpoint]>) {
      const declared = [...responses.get(`${e.method} ${e.path}`)!];
      expect({ name, declared }).toEqual({
        name,
        declared: expect.arrayContaining(
          e.method === 'GET' ? ['400', '403', '405', '431'] : ['400', '403', '405', '431', '503'],
        ),
      });
    }
  });
});
