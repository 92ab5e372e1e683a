// Bodies the sandbox cannot read as sent, over real HTTP: a compressed body (Content-Encoding) and a beacon
// nested past the service's JSON decoder. A beacon keeps the real service's answer; what the sandbox records
// says why. An admin body says it in its 415.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBeacon, startSandbox } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecordedEvent } from '../../src/shared/events';

const render = () => ({
  context: {
    timestamp: new Date().toISOString(),
    pageUrl: 'http://localhost:5173/search?q=shirt',
    userId: 'u-enc',
    initiator: 'encoded-bodies-test',
    sessionId: 's-enc',
    pageLoadId: 'p-enc',
  },
  data: { responseId: 'r-enc' },
});

let sandbox: Sandbox;
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.url;
});
afterAll(async () => {
  await sandbox.close();
});

async function newest(): Promise<RecordedEvent> {
  const res = await fetch(`${base}/_sandbox/events?limit=1`);
  expect(res.status).toBe(200);
  const list = (await res.json()) as { events: RecordedEvent[] };
  return list.events.at(-1)!;
}

const INVALID_JSON = {
  success: false,
  error: 'ValidationError',
  messages: ['invalid JSON POST body'],
};

describe('a beacon body sent compressed', () => {
  const cases: Array<[string, (b: Buffer) => Buffer]> = [
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ];
  for (const [encoding, compress] of cases)
    it(`Content-Encoding: ${encoding} gets the service's answer; the recorded event names the header and the fix`, async () => {
      const res = await fetch(`${base}/beacon/v2/demo42/search/render`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'Content-Encoding': encoding },
        body: compress(Buffer.from(JSON.stringify(render()))),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(INVALID_JSON);
      const recorded = await newest();
      expect(recorded).toMatchObject({ accepted: false, status: 400 });
      expect(recorded.errors).toHaveLength(1);
      expect(recorded.errors[0]!.message).toBe(
        `invalid JSON POST body: the body was sent with Content-Encoding: ${encoding}, which the provider's client never does (it posts its beacons uncompressed, as text/plain); the body is read as it arrives, not decompressed: send it uncompressed`,
      );
    });

  it('the dry-run check answers as the beacon endpoint does, its errors naming the header', async () => {
    const res = await fetch(`${base}/_sandbox/tracking/check/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' },
      body: zlib.gzipSync(JSON.stringify(render())),
    });
    expect(res.status).toBe(200);
    const checked = (await res.json()) as {
      status: number;
      body: unknown;
      errors: Array<{ message: string }>;
    };
    expect(checked).toMatchObject({ status: 400, body: INVALID_JSON });
    expect(checked.errors[0]!.message).toMatch(
      /^invalid JSON POST body: the body was sent with Content-Encoding: gzip, /,
    );
  });

  it('Content-Encoding: identity is the body as it is', async () => {
    const res = await postBeacon(base, 'demo42/search/render', render(), {
      headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'identity' },
    });
    expect(await res.json()).toEqual({ success: true });
  });
});

describe('a beacon nested deeper than the service reads', () => {
  // 20,000 levels are judged on the event loop, 40,000 (80,000 characters) in the body worker
  it.each([20_000, 40_000])(
    '%i levels get the service\'s "invalid JSON POST body"; the recorded event says it nests too deep',
    async (levels) => {
      const deep = `{"context":${JSON.stringify(render().context)},"data":{"message":"m","details":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
      const res = await postBeacon(base, 'demo42/log/snap', deep);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(INVALID_JSON);
      const recorded = await newest();
      expect(recorded.errors).toEqual([
        {
          message:
            "invalid JSON POST body: its arrays and objects nest more than 10000 levels deep, deeper than the service's JSON decoder reads: send a body nested less deeply (a beacon nests a handful of levels)",
          path: '',
        },
      ]);
    },
  );
});

describe('an admin body sent compressed', () => {
  it('an import sent with Content-Encoding: gzip is refused with 415 naming the header and the fix', async () => {
    const res = await fetch(`${base}/_sandbox/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body: zlib.gzipSync('{"id":"x"}\n'),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: 'UnsupportedMediaType',
      parameter: 'content-encoding',
      message:
        'Content-Encoding gzip: POST /_sandbox/import takes its body uncompressed; send the body uncompressed, without a Content-Encoding header (a .gz file: gunzip it first)',
      limit: {
        value: 'gzip',
        rule: 'POST /_sandbox/import takes its body uncompressed',
        fix: 'send the body uncompressed, without a Content-Encoding header (a .gz file: gunzip it first)',
      },
    });
  });

  it('a JSON body (the clock) with Content-Encoding: deflate too, and the sandbox keeps serving', async () => {
    const res = await fetch(`${base}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' },
      body: zlib.deflateSync('{"advance":"PT1H"}'),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: 'UnsupportedMediaType',
      parameter: 'content-encoding',
      limit: { value: 'deflate' },
    });
    const ok = await fetch(`${base}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: '{"reset":true}',
    });
    expect(ok.status).toBe(200);
  });
});
