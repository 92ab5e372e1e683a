// POST /_sandbox/diff: an uploaded recording (BASE) against the sandbox's recorded traffic, filtered; the
// upload bounded (413) and read with the CLI's readers (400 naming the line).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { DiffResult } from '../../src/shared/baseline';
import { startSandbox } from '../helpers/sandbox';
import { journey, run } from '../helpers/journey';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.core.reset({ what: 'events' }));

async function play(ndjson: string, siteId?: string): Promise<void> {
  for (const line of ndjson.trim().split('\n')) {
    const e = JSON.parse(line) as Record<string, string>;
    const res = await fetch(
      `${sandbox.url}/beacon/v2/${siteId ?? e.siteId}/${e.category}/${e.event}`,
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(e.body),
      },
    );
    expect(res.status).toBe(200);
  }
}

const diff = (body: string, query = '') =>
  fetch(`${sandbox.url}/_sandbox/diff${query}`, { method: 'POST', body });

describe('POST /_sandbox/diff', () => {
  it("matches a thank-you page whose URL carries the run's order number (what the UI's Compare shows)", async () => {
    const withOrder = (price: number) => {
      const j = journey();
      j[0]![2]!.path = '/checkout/thanks?order={ORDER}';
      (j[0]![2]!.events[0]!.data.results as Array<{ price: number }>)[0]!.price = price;
      return j;
    };
    await play(run(withOrder(95)));
    const same = (await (await diff(run(withOrder(95)))).json()) as DiffResult;
    expect(same.same).toBe(true);
    const changed = (await (await diff(run(withOrder(100)))).json()) as DiffResult;
    expect(changed.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'order',
        changes: [
          expect.objectContaining({ path: 'data.results[0].price', base: 100, current: 95 }),
        ],
      }),
    ]);
  });

  it('compares the uploaded recording with the recorded traffic of a site: same, then each change named', async () => {
    await play(run(journey(), { origin: 'http://127.0.0.1:5173' }));
    await play(run(journey()), 'abc123');
    const base = run(journey());
    const same = await diff(base, '?siteId=demo42');
    expect(same.status).toBe(200);
    const result = (await same.json()) as DiffResult;
    expect(result.same).toBe(true);
    expect(result.pages).toHaveLength(4);
    expect(result.pages[0]).toMatchObject({
      status: 'same',
      kind: 'search',
      pageUrl: 'http://127.0.0.1:5173/search?q=shoes',
      baseEvents: ['search/render', 'search/impression', 'search/clickthrough'],
      currentEvents: ['search/render', 'search/impression', 'search/clickthrough'],
    });
    expect(result.pages[0]!.pageLoadId).toMatch(/^[0-9a-f-]{36}$/);

    // unfiltered, the other site's session is there too: its four pages added
    const all = (await (await diff(base)).json()) as DiffResult;
    expect(all.pages.filter((p) => p.status === 'added')).toHaveLength(4);

    const changed = journey();
    changed[0]![0]!.events.splice(2, 1);
    const answer = (await (await diff(run(changed), '?siteId=demo42')).json()) as DiffResult;
    expect(answer.same).toBe(false);
    // BASE lacks the clickthrough the sandbox recorded: it is extra in the current traffic
    expect(answer.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        changes: [
          { change: 'extra', event: 'search/clickthrough', currentIndex: 2, uids: ['102'] },
        ],
      }),
    ]);
  });

  it('names an event sent alike at another place as moved (the render after the impression)', async () => {
    const late = journey();
    const search = late[0]![0]!.events;
    search.splice(1, 0, search.splice(0, 1)[0]!);
    await play(run(late));
    const res = await diff(run(journey()));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as DiffResult;
    expect(answer.same).toBe(false);
    expect(answer.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'search',
        changes: [
          {
            change: 'moved',
            event: 'search/render',
            baseIndex: 0,
            currentIndex: 1,
            after: 'search/impression',
          },
        ],
      }),
    ]);
  });

  it('reads a recording saved as UTF-16 (PowerShell `>`) as the text it holds', async () => {
    await play(run(journey()));
    const text = run(journey()).replace(/\n/g, '\r\n');
    const res = await fetch(`${sandbox.url}/_sandbox/diff`, {
      method: 'POST',
      body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as DiffResult).same).toBe(true);
  });

  it('reads a baseline file as BASE', async () => {
    await play(run(journey()));
    const { baselineText } = await import('../../src/main/baseline/baseline-file');
    const { readUpload } = await import('../../src/main/baseline/upload');
    const recording = await readUpload(run(journey()));
    if (typeof recording === 'string') throw new Error(recording);
    const answer = (await (await diff(baselineText(recording))).json()) as DiffResult;
    expect(answer.same).toBe(true);
  });

  it('refuses to compare when the upload or the recorded traffic has no page: 400 NothingToCompare naming which', async () => {
    // nothing recorded (the storefront's tracking never reached the sandbox): never "same"
    const none = await diff(run(journey()), '?siteId=demo42');
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({
      error: 'NothingToCompare',
      message: expect.stringMatching(
        /^CURRENT \(the sandbox's recorded traffic of site demo42\) has no beacon v2 event of a page: nothing to compare\. Most often the storefront's tracking never fired/,
      ),
    });
    await play(run(journey()));
    // a HAR saved without the beacons
    const har = JSON.stringify({ log: { version: '1.2', creator: { name: 't' }, entries: [] } });
    const empty = await diff(har);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string; message: string }).message).toMatch(
      /^BASE \(the uploaded recording\) has no beacon v2 event of a page/,
    );
    expect((await diff(run(journey()))).status).toBe(200);
  });

  it('answers 400 naming the line of an unreadable recording, 400 for none, 413 past 10 MB, 400 for a bad filter', async () => {
    const broken = await diff(
      '{"siteId":"demo42","category":"search","event":"render","body":{}}\nnot json\n',
    );
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      error: 'InvalidRecording',
      message: expect.stringMatching(/^the uploaded recording:2: not valid JSON/),
    });
    const empty = await diff('  ');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(
      /^no recording in the body/,
    );
    const big = await diff(`${'x'.repeat(10 * 1024 * 1024 + 1)}`);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { message: string }).message).toMatch(/at most 10 MB/);
    const bad = await diff(run(journey()), '?session=1');
    expect(bad.status).toBe(400);
  });

  it('answers a client still sending a refused body (fetch) on a connection it keeps: the 413 of 12 MB and the 415 of 5 MB, never a broken pipe', async () => {
    // with `Connection: close` the socket closed under the client still sending: fetch rejected with
    // EPIPE for half of these
    for (let i = 0; i < 4; i++) {
      const big = await fetch(`${sandbox.url}/_sandbox/diff`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: Buffer.alloc(12_000_000, 'a'),
      });
      expect(big.status).toBe(413);
      expect(big.headers.get('connection')).not.toBe('close');
      expect(((await big.json()) as { error: string }).error).toBe('RequestTooLarge');
      const png = await fetch(`${sandbox.url}/_sandbox/diff`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: Buffer.alloc(5_000_000, 'a'),
      });
      expect(png.status).toBe(415);
      expect(((await png.json()) as { error: string }).error).toBe('UnsupportedMediaType');
    }
  });
});
