// A fake "real service" on 127.0.0.1 for pass-through tests: records every request byte for byte and answers
// with whatever the test's handler says (or holds the answer back until the test releases it).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  /** path and query as received */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** an object is sent as JSON */
  body?: unknown;
  /** never answer (until `release()`) */
  hold?: boolean;
}

export interface FakeUpstream {
  /** http://127.0.0.1:PORT */
  url: string;
  seen: SeenRequest[];
  /** change how the next requests are answered */
  answer: (req: SeenRequest) => FakeAnswer;
  /** answer every held request with 200 {"success":true} */
  release(): void;
  /** resolves once `n` requests have arrived in all */
  answered(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeUpstream(
  answer: (req: SeenRequest) => FakeAnswer = () => ({ body: { success: true } }),
): Promise<FakeUpstream> {
  const held: http.ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const fake: FakeUpstream = {
    url: '',
    seen: [],
    answer,
    release() {
      for (const res of held.splice(0)) send(res, { body: { success: true } });
    },
    answered: (n) =>
      new Promise<void>((resolve) => {
        if (fake.seen.length >= n) return resolve();
        waiters.push({ n, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        fake.release();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      fake.seen.push(seen);
      for (const w of waiters.filter((x) => fake.seen.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const a = fake.answer(seen);
      if (a.hold) held.push(res);
      else send(res, a);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function send(res: http.ServerResponse, a: FakeAnswer): void {
  const json = a.body !== undefined && typeof a.body !== 'string' && !Buffer.isBuffer(a.body);
  res.writeHead(a.status ?? 200, {
    ...(json && { 'Content-Type': 'application/json' }),
    ...a.headers,
  });
  res.end(json ? JSON.stringify(a.body) : (a.body as string | Buffer | undefined));
}

/**
 * A port held by a listener until `close()`, after which nothing listens on it. Configure the sandbox with
 * `origin` while it is held and close it just before the request: a port freed before the sandbox started
 * could be the very port the sandbox was given (it then forwarded to itself: 508, not a refused connection).
 */
export async function heldPort(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
