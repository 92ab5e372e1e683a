// Feed parsing shares the event loop: it gives the loop back between slices, and still gives exactly the
// products and row errors it gave when it parsed in one go (golden taken before slicing, every fixture).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCases, parseOutcome } from './feed-parse-cases';
import { parseFeed } from '../../src/main/indexing/feed-parse';
import { countTurns } from '../helpers/drafts';

const golden = JSON.parse(
  readFileSync(new URL('./golden/feed-parse.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

describe('feed parsing in slices', () => {
  const cases = parseCases();

  it('covers every case of the golden', () => {
    expect(cases.map((c) => c.name).sort()).toEqual(Object.keys(golden).sort());
  });

  for (const c of cases) {
    it(`${c.name}: the same products and row errors as before, in default slices and in tiny ones`, async () => {
      expect(await parseOutcome(c.input)).toEqual(golden[c.name]);
      // a pause after every 97 bytes: pieces end inside multi-byte characters, quotes, tags and lines
      expect(await parseOutcome(c.input, { slices: { bytes: 97, ms: 0 } })).toEqual(golden[c.name]);
    });
  }

  it('XML: a field over 1 MB ends the parse even where only the id is read (a later product)', async () => {
    const xml = `<products>\n<product><id>1</id><name>a</name></product>\n<product><id>2</id><description>${'x'.repeat(1024 * 1024 + 1)}</description></product>\n</products>\n`;
    const summary = await parseFeed(
      { kind: 'buffer', data: Buffer.from(xml) },
      { idField: null },
      () => undefined,
    );
    expect(summary.error).toBe('a field of the product starting on line 3 is longer than 1 MB');
  });

  it('lets other work run while it parses, and reports its progress', async () => {
    const big = cases.find((c) => c.name === 'generated.xml')!;
    const turns = countTurns();
    const progress: Array<{ bytes: number; products: number }> = [];
    const summary = await parseFeed(
      big.input,
      { idField: null, slices: { bytes: 4096, ms: 0 }, onProgress: (p) => progress.push(p) },
      () => undefined,
    );
    const ticks = turns.stop();
    expect(summary.error).toBeNull();
    // every 4 KiB piece ends a slice; the other work ran in each pause
    const pieces = Math.ceil(summary.bytes / 4096);
    expect(ticks).toBeGreaterThanOrEqual(pieces - 1);
    expect(progress.length).toBeGreaterThanOrEqual(pieces - 1);
    expect(progress.map((p) => p.bytes)).toEqual(
      [...progress.map((p) => p.bytes)].sort((a, b) => a - b),
    );
    expect(progress.at(-1)!.products).toBeLessThanOrEqual(summary.products);
    expect(progress.at(-1)!.products).toBeGreaterThan(summary.products / 2);
  });
});
