// Every answer of the bulk indexing interface goes out on GET /_sandbox/stream as an `indexRequest`
// notice — status reads, accepted and refused feed requests, and wrong credentials that reach no feed —
// so the UI can show a client's first request live. The secret key never appears in it.
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexRequestNotice } from '../../src/shared/stream';
import { startSandbox } from '../helpers/sandbox';
import { envelopes, readUntil } from '../helpers/sse';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

describe('indexRequest notices on the stream', () => {
  it('announce each answer with site, feed, status and the reason, never the secret', async () => {
    const sandbox = await startSandbox();
    stops.push(() => sandbox.close());
    const res = await fetch(`${sandbox.url}/_sandbox/stream?types=indexRequest`);
    const reader = res.body!.getReader();
    await readUntil(reader, (t) => t.includes('\n\n')); // retry: line
    stops.push(() => reader.cancel());

    const wrong = await fetch(`${sandbox.url}/api/index/feed?feedId=43`, {
      method: 'PUT',
      headers: { Authorization: basic('demo42', 'not-the-key-TOPSECRET') },
    });
    expect(wrong.status).toBe(401);
    const status = await fetch(`${sandbox.url}/api/index/status`, {
      headers: { Authorization: basic('demo42', 'demo-secret-key') },
    });
    expect(status.status).toBe(200);
    const put = () =>
      fetch(`${sandbox.url}/api/index/feed?feedId=43`, {
        method: 'PUT',
        headers: { Authorization: basic('demo42', 'demo-secret-key') },
      });
    expect((await put()).status).toBe(200);
    // the feed is still queued: nothing is queued twice (409)
    expect((await put()).status).toBe(409);

    const text = await readUntil(reader, (t) => envelopes(t).length >= 4);
    expect(text).not.toContain('TOPSECRET');
    const notices = envelopes(text).map((m) => {
      expect(m.type).toBe('indexRequest');
      return m.data as IndexRequestNotice;
    });
    expect(notices).toEqual([
      expect.objectContaining({
        method: 'PUT',
        endpoint: 'feed',
        siteId: 'demo42',
        feedId: 43,
        status: 401,
        accepted: false,
        message:
          'invalid credentials: the siteId and secret key do not match an account of this sandbox',
      }),
      expect.objectContaining({
        method: 'GET',
        endpoint: 'status',
        siteId: 'demo42',
        feedId: null,
        status: 200,
        accepted: true,
        message: null,
      }),
      expect.objectContaining({
        method: 'PUT',
        feedId: 43,
        status: 200,
        accepted: true,
        message: 'PUT accepted: reading the cart source',
        workflow: null,
      }),
      expect.objectContaining({
        method: 'PUT',
        feedId: 43,
        status: 409,
        accepted: false,
        message: expect.stringMatching(/^feed 43 is already queued .*nothing is queued twice/),
      }),
    ]);
    for (const n of notices) expect(Date.parse(n.at)).not.toBeNaN();
  });

  it('never puts the secret on the stream when the credentials are sent the wrong way round', async () => {
    const sandbox = await startSandbox();
    stops.push(() => sandbox.close());
    const res = await fetch(`${sandbox.url}/_sandbox/stream?types=indexRequest`);
    const reader = res.body!.getReader();
    await readUntil(reader, (t) => t.includes('\n\n'));
    stops.push(() => reader.cancel());
    // secret key as the user, siteId as the password; then a 6-character secret of another shape
    for (const auth of [
      basic('demo-secret-key', 'demo42'),
      basic('abc123', 'x'),
      basic('TOPSEC', 'demo42'),
    ])
      expect(
        (await fetch(`${sandbox.url}/api/index/status`, { headers: { Authorization: auth } }))
          .status,
      ).toBe(401);
    const text = await readUntil(reader, (t) => envelopes(t).length >= 3);
    expect(text).not.toContain('demo-secret-key');
    expect(text).not.toContain('TOPSEC');
    const sites = envelopes(text).map((m) => (m.data as IndexRequestNotice).siteId);
    // only what is shaped like a siteId is named
    expect(sites).toEqual(['', 'abc123', '']);
  });
});
