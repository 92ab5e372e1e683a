// The inspector's "Copy as curl": a POST replayed as before, byte for byte; a request of another method (a
// CORS preflight, a GET the service refused with 405) replayed with its own method and only what it sent.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';

// The renderer's module, loaded by path: this file is type-checked with the Node world, which does not
// compile TSX (vitest does)
const INSPECTOR = '../../src/renderer/src/views/inspector/EventInspector.tsx';
let eventCurl: (origin: string, e: RecordedEvent) => string;
beforeAll(async () => {
  ({ eventCurl } = (await import(/* @vite-ignore */ INSPECTOR)) as { eventCurl: typeof eventCurl });
});

const ORIGIN = 'http://127.0.0.1:4545';
const PATH = '/beacon/v2/demo42/search/render';

function recorded(over: Partial<RecordedEvent>): RecordedEvent {
  return {
    id: 'ev_000000001',
    seq: 1,
    receivedAt: '2026-12-03T06:00:00.000Z',
    siteId: 'demo42',
    category: 'search',
    event: 'render',
    path: PATH,
    accepted: false,
    status: 405,
    errors: [],
    body: null,
    ...over,
  } as RecordedEvent;
}

describe('eventCurl', () => {
  it('writes a POST as it always did', () => {
    const body = { context: { pageLoadId: "it's" }, data: { responseId: 'r1' } };
    expect(
      eventCurl(
        ORIGIN,
        recorded({
          accepted: true,
          status: 200,
          body,
          contentType: 'application/json',
          origin: 'https://shop.example',
        }),
      ),
    ).toBe(
      [
        `curl -X POST 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
        `  -H 'Content-Type: application/json'`,
        `  -H 'Origin: https://shop.example'`,
        `  --data-raw '{"context":{"pageLoadId":"it'\\''s"},"data":{"responseId":"r1"}}'`,
      ].join(' \\\n'),
    );
    // no Content-Type recorded, no body: the client's text/plain, and nothing to send
    expect(eventCurl(ORIGIN, recorded({ status: 400 }))).toBe(
      [
        `curl -X POST 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
        `  -H 'Content-Type: text/plain;charset=UTF-8'`,
      ].join(' \\\n'),
    );
    // a body kept as text (not JSON) is sent as it was
    expect(eventCurl(ORIGIN, recorded({ status: 400, body: '{"context": ' }))).toContain(
      ` \\\n  --data-raw '{"context": '`,
    );
  });

  it('replays a CORS preflight and a GET with their own method, without a body or a Content-Type they did not send', () => {
    expect(eventCurl(ORIGIN, recorded({ method: 'OPTIONS', origin: 'https://shop.example' }))).toBe(
      [
        `curl -X OPTIONS 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
        `  -H 'Origin: https://shop.example'`,
      ].join(' \\\n'),
    );
    expect(eventCurl(ORIGIN, recorded({ method: 'GET' }))).toBe(
      `curl -X GET 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
    );
  });

  it('keeps what another method did send, asks for HEAD as curl does, and quotes a method the shell would read', () => {
    expect(
      eventCurl(ORIGIN, recorded({ method: 'PUT', contentType: 'text/plain', body: 'x' })),
    ).toBe(
      [
        `curl -X PUT 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
        `  -H 'Content-Type: text/plain'`,
        `  --data-raw 'x'`,
      ].join(' \\\n'),
    );
    expect(eventCurl(ORIGIN, recorded({ method: 'HEAD' }))).toBe(
      `curl --head 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
    );
    // a method is any token, and a token may hold characters a shell acts on
    expect(eventCurl(ORIGIN, recorded({ method: "X|rm'$" }))).toBe(
      `curl -X 'X|rm'\\''$' 'http://127.0.0.1:4545/beacon/v2/demo42/search/render'`,
    );
  });
});
