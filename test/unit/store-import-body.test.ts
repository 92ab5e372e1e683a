// Import bodies: a large one is read and checked in a worker thread and gives what reading and checking
// it on the loop gives — the same sections, events and problems — and the loop keeps turning while it is
// read and its events are taken.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readImportBody, readImportBodyHere } from '../../src/main/store/import-body';
import { parseImport } from '../../src/main/store/export-format';
import { countTurns, searchDraft } from '../helpers/drafts';

type Read = Awaited<ReturnType<typeof readImportBody>>;

/** What an import gets from a read body: its problems, or its sections and events (every batch taken). */
async function settled(read: Read): Promise<unknown> {
  if ('tooLarge' in read || 'problems' in read) return read;
  if ('value' in read) return parseImport(read.value);
  const events: unknown[] = [];
  for await (const batch of read.checked.drafts) events.push(...batch);
  expect(events).toHaveLength(read.checked.count);
  return { events, sections: read.checked.sections };
}

/** What the loop gets from the same text. */
const here = (text: string) => settled(readImportBodyHere(text));

const event = (i: number) => searchDraft('render', { n: i, text: 'Zürich ✓ '.repeat(20) });
const events = Array.from({ length: 3000 }, (_, i) => event(i));

describe('reading an import body', () => {
  const cases: Array<[string, string]> = [
    [
      'an export',
      JSON.stringify({ format: 'search-sandbox-export', version: 1, events, extra: { a: 1 } }),
    ],
    ['an array of events', JSON.stringify(events)],
    [
      'NDJSON with journal lines',
      `{"journal":1}\n${events.map((e) => JSON.stringify(e)).join('\n')}\n{"reset":true}\n`,
    ],
    [
      'an export with bad events',
      JSON.stringify({
        format: 'search-sandbox-export',
        version: 1,
        events: events.map((e, i) => (i % 500 === 3 ? { ...e, receivedAt: 'soon' } : e)),
      }),
    ],
    ['a document without events', JSON.stringify({ format: 'x', padding: 'y'.repeat(300_000) })],
    ['a scalar', ` ${JSON.stringify('z'.repeat(300_000))} `],
    ['JSON cut short', JSON.stringify(events).slice(0, -10)],
    [
      'NDJSON with broken lines',
      events.map((e, i) => (i % 1000 === 7 ? '{oops' : JSON.stringify(e))).join('\n'),
    ],
    ['only spaces', ' '.repeat(300_000)],
  ];
  for (const [name, text] of cases) {
    it(`${name}: the worker gives what the loop gives`, async () => {
      const data = Buffer.from(text);
      expect(data.length).toBeGreaterThan(256 * 1024);
      const read = await readImportBody(data);
      expect(await settled(read)).toEqual(await here(text));
    });
  }

  it('keeps the loop turning while a large body is read', async () => {
    const turns = countTurns();
    const result = (await settled(await readImportBody(Buffer.from(JSON.stringify(events))))) as {
      events: unknown[];
    };
    const ticks = turns.stop();
    expect(result.events).toHaveLength(3000);
    // one turn of the loop at least per batch of 500 events handed over
    expect(ticks).toBeGreaterThanOrEqual(6);
  });

  it('hands the events over a batch at a time; leaving early ends them', async () => {
    const read = await readImportBody(Buffer.from(JSON.stringify(events)));
    if (!('checked' in read)) throw new Error(`not checked: ${JSON.stringify(read)}`);
    expect(read.checked.count).toBe(3000);
    const sizes: number[] = [];
    for await (const batch of read.checked.drafts) {
      sizes.push(batch.length);
      if (sizes.length === 2) break;
    }
    expect(sizes).toEqual([500, 500]);
    // the batches left are dropped: nothing more comes
    const rest: unknown[] = [];
    await expect(
      (async () => {
        for await (const batch of read.checked.drafts) rest.push(batch);
      })(),
    ).resolves.toBeUndefined();
    expect(rest).toEqual([]);
    read.checked.close();
  });

  it('reads a body held in a shared pool buffer without taking the pool', async () => {
    const text = JSON.stringify(events);
    const size = Buffer.byteLength(text);
    const pool = Buffer.alloc(size + 16);
    pool.write(text, 8);
    const slice = pool.subarray(8, 8 + size);
    expect(await settled(await readImportBody(slice))).toEqual(await here(text));
    expect(pool.length).toBe(size + 16);
    expect(pool.subarray(8, 12).toString()).toBe(text.slice(0, 4));
  });

  it('reads a body as it arrives, chunk by chunk, even with characters split between chunks', async () => {
    const text = JSON.stringify(events);
    const bytes = Buffer.from(text);
    // odd sizes cut the two-byte ü and the three-byte ✓ apart; some chunks own their memory, some share
    const chunks: Buffer[] = [];
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const size = 4093 + (i % 7);
      const piece = bytes.subarray(at, at + size);
      chunks.push(i % 2 ? Buffer.from(piece) : piece);
      at += size;
    }
    expect(
      await settled(await readImportBody(Readable.from(chunks, { objectMode: false }))),
    ).toEqual(await here(text));
  });

  it('stops at the limit without destroying the request, so that it can still be answered', async () => {
    const stream = Readable.from(
      Array.from({ length: 200 }, () => Buffer.alloc(4096, 32)),
      { objectMode: false },
    );
    expect(await readImportBody(stream, 300 * 1024)).toEqual({ tooLarge: true });
    expect(stream.destroyed).toBe(false);
    // and a body under the limit is read whole
    const small = Readable.from([Buffer.from(JSON.stringify(events.slice(0, 5)))]);
    expect(await readImportBody(small, 300 * 1024)).toEqual(
      readImportBodyHere(JSON.stringify(events.slice(0, 5))),
    );
  });
});
