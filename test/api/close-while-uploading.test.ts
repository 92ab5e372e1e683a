// Ctrl-C (or SIGTERM, or a test's close) while a feed file is still being sent: the sandbox reads the rest,
// stores the upload and answers it before it closes the connection, as it does an import under way. Before,
// the close cut the connection at once: the client saw a reset, and the upload it had sent half of was lost.
// A client that stops sending is not waited for past the close's bound.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { admin, AUTH, fixture, restartableSandboxes, START } from './indexing-helpers';

const { start, stop, dataDir } = restartableSandboxes();
const BOUNDARY = 'close-while-uploading';

/** An upload of products.csv to feed 42, its body cut in two: the first half sent now, `rest` sends the end. */
function halfSentUpload(url: string) {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="feedFile"; filename="products.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n`,
    ),
    fixture('products.csv'),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const req = http.request(`${url}/api/index/feed?feedId=42&requestedBy=dev%40shop.example`, {
    method: 'POST',
    headers: {
      authorization: AUTH,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': body.length,
    },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answer, rest: () => req.end(body.subarray(half)), abandon: () => req.destroy() };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('closing while a feed file is being uploaded', () => {
  it('reads the rest, stores the upload and answers it, then closes; a restart has it', async () => {
    const dir = dataDir();
    const clock = () => new SandboxClock({ frozen: true, start: START });
    const sb = await start(dir, clock());
    const upload = halfSentUpload(sb.url);
    await pause(300); // the sandbox has the request and half its body
    const closed = stop(sb);
    await pause(300);
    upload.rest();
    const { status, body } = await upload.answer;
    expect(status, JSON.stringify(body)).toBe(200);
    await closed;

    const again = await start(dir, clock());
    const feed = (await admin(again.url, 'GET', '/feeds/demo42/42')).body;
    const requests = feed.history.filter((h: any) => h.kind === 'request');
    expect(requests.map((h: any) => [h.requestedBy, h.accepted])).toEqual([
      ['dev@shop.example', true],
    ]);
  });

  it('does not wait past its bound for a client that stopped sending', async () => {
    const sb = await start(undefined, new SandboxClock({ frozen: true, start: START }));
    const upload = halfSentUpload(sb.url);
    const cut = upload.answer.then(
      () => 'answered',
      () => 'cut',
    );
    await pause(300);
    const began = Date.now();
    await stop(sb);
    // the close's bound is 3 s: it ends, and the stalled request's connection is closed
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(await cut).toBe('cut');
    upload.abandon();
  });
});
