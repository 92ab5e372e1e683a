// Import bodies: a large one is read in a worker thread and gives what reading it on the loop gives —
// the same document, events and problems — and the loop keeps turning while it is read.
import { describe, expect, it } from 'vitest';
import { readImportBody, readImportBodyHere } from '../../src/main/store/import-body';
import { countTurns, searchDraft } from '../helpers/drafts';

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
      expect(await readImportBody(data)).toEqual(readImportBodyHere(text));
    });
  }

  it('keeps the loop turning while a large body is read', async () => {
    const turns = countTurns();
    const result = await readImportBody(Buffer.from(JSON.stringify(events)));
    const ticks = turns.stop();
    expect((result as { value: unknown[] }).value).toHaveLength(3000);
    // one turn of the loop at least per batch of 500 events handed over
    expect(ticks).toBeGreaterThanOrEqual(6);
  });

  it('reads a body held in a shared pool buffer without taking the pool', async () => {
    const text = JSON.stringify(events);
    const size = Buffer.byteLength(text);
    const pool = Buffer.alloc(size + 16);
    pool.write(text, 8);
    const slice = pool.subarray(8, 8 + size);
    expect(await readImportBody(slice)).toEqual(readImportBodyHere(text));
    expect(pool.length).toBe(size + 16);
    expect(pool.subarray(8, 12).toString()).toBe(text.slice(0, 4));
  });
});
