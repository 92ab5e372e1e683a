// Refusals that say what was wrong with what was sent, over real HTTP and through the package's client:
// a clock body that is JSON but no object, an unknown field beside a known one, a JSON body that is not
// UTF-8, a seq no journal reaches, a NaN or a text where a number is meant, and a request Node's parser
// refuses on an admin path (no CORS header: the admin API is same-origin only).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../../src/main/api';
import type { Sandbox } from '../../src/main/sandbox';
import { startSandbox } from '../helpers/sandbox';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

interface Refusal {
  parameter?: string;
  message: string;
}

async function moveClock(body: string | Buffer): Promise<{ status: number; body: Refusal }> {
  const res = await fetch(`${sandbox.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as Refusal };
}

/** The head of the answer to bytes that are not HTTP. */
function rawAnswer(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(sandbox.port, '127.0.0.1', () => socket.write(bytes));
    socket.setEncoding('latin1').on('data', (c: string) => (text += c));
    socket.on('end', () => resolve(text.split('\r\n\r\n')[0]!));
    socket.on('error', reject);
  });
}

describe('the clock body', () => {
  it('that is JSON but not an object is said to be an array or null, not "not JSON"', async () => {
    for (const [sent, kind] of [
      ['[]', 'an array'],
      ['null', 'null'],
    ] as const) {
      const answer = await moveClock(sent);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(
        new RegExp(`^the body must be a JSON object, not ${kind}: send exactly one of`),
      );
    }
  });

  it('with an unknown field beside advance names that field', async () => {
    const answer = await moveClock('{"advance":"PT1M","x":1}');
    expect(answer.status).toBe(400);
    expect(answer.body.parameter).toBe('body.x');
    expect(answer.body.message).toMatch(/^x: unknown field; send exactly one of/);
  });

  it('that is not UTF-8 is refused naming the byte, not stored with replacement characters', async () => {
    const sent = Buffer.concat([
      Buffer.from('{"advance":"PT1M'),
      Buffer.from([0xff, 0xfe, 0x22, 0x7d]),
    ]);
    const answer = await moveClock(sent);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^body: not valid UTF-8 at byte offset 16 \(0xff\)/);
    expect(JSON.stringify(answer.body)).not.toContain('\uFFFD');
    const clock = (await (await fetch(`${sandbox.url}/_sandbox/clock`)).json()) as {
      offsetMs: number;
    };
    expect(clock.offsetMs).toBe(0);
  });
});

describe('a beacon body that is not UTF-8', () => {
  it('is refused as invalid JSON, its record naming the byte', async () => {
    const body = Buffer.concat([
      Buffer.from(
        '{"context":{"timestamp":"2026-11-21T04:36:00Z","pageUrl":"http://localhost:5173/","userId":"u","sessionId":"s","pageLoadId":"pg',
      ),
      Buffer.from([0xff]),
      Buffer.from('","initiator":"t"},"data":{"responseId":"r"}}'),
    ]);
    const res = await fetch(`${sandbox.url}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { messages: string[] }).messages).toEqual([
      'invalid JSON POST body',
    ]);
    const recorded = (await (
      await fetch(`${sandbox.url}/_sandbox/events?limit=1&accepted=false`)
    ).json()) as { events: Array<{ errors: Array<{ message: string }> }> };
    expect(recorded.events[0]!.errors[0]!.message).toMatch(
      /^invalid JSON POST body: not valid UTF-8 at byte offset 127 \(0xff\)/,
    );
  });
});

describe('an import that is not UTF-8', () => {
  const line = (pageLoadId: Buffer) =>
    Buffer.concat([
      Buffer.from(
        '{"siteId":"demo42","category":"search","event":"render","receivedAt":"2026-11-21T04:36:00.000Z","body":{"context":{"pageLoadId":"',
      ),
      pageLoadId,
      Buffer.from('"}}}\n'),
    ]);
  const importing = async (body: Buffer) => {
    const res = await fetch(`${sandbox.url}/_sandbox/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
      body,
    });
    return { status: res.status, text: await res.text() };
  };

  it('is refused naming the byte, small or large (read in the worker), and imports nothing', async () => {
    const bad = line(Buffer.from([0x70, 0x67, 0xff]));
    const small = await importing(bad);
    expect(small.status).toBe(400);
    const at = bad.indexOf(0xff);
    expect(small.text).toContain(`the body is not valid UTF-8 at byte offset ${at} (0xff)`);
    const good = line(Buffer.from('pg'));
    const many = Buffer.concat([...Array.from({ length: 3000 }, () => good), bad]);
    const large = await importing(many);
    expect(large.status).toBe(400);
    expect(large.text).toContain(
      `the body is not valid UTF-8 at byte offset ${good.length * 3000 + at} (0xff)`,
    );
    const events = (await (
      await fetch(`${sandbox.url}/_sandbox/events?limit=1&pageLoadId=pg`)
    ).json()) as {
      count: number;
    };
    expect(events.count).toBe(0);
  });
});

describe('the package client and the query', () => {
  it('refuses a since past any seq', async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/events?since=99999999999999999999999`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { parameter: string }).parameter).toBe('since');
  });

  it('says NaN for a limit of NaN, and refuses a feed id given as text', async () => {
    const client = connectSandbox(sandbox.url);
    await expect(client.events({ limit: NaN })).rejects.toThrow(/got NaN;/);
    await expect(client.feed('demo42', '42' as unknown as number)).rejects.toThrow(
      /^sandbox\.feed: feedId "42" must be a whole number \(a number, not text\)/,
    );
    expect((await client.feed('demo42', 42)).id).toBe(42);
  });
});

describe('a request that is not HTTP', () => {
  it('on an admin path is refused without a CORS header; on a provider path with one', async () => {
    const admin = await rawAnswer('GARBAGE /_sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(admin).toMatch(/^HTTP\/1\.1 400 /);
    expect(admin.toLowerCase()).not.toContain('access-control-allow-origin');
    const beacon = await rawAnswer('GARBAGE /beacon/v2/demo42/search/render HTTP/1.1\r\n\r\n');
    expect(beacon).toMatch(/^HTTP\/1\.1 400 /);
    expect(beacon).toContain('Access-Control-Allow-Origin: *');
  });
});
