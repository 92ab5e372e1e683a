// The feeds the parse golden covers: every file in fixtures/feeds, as a file and as an upload buffer, plus
// generated feeds large enough to span many slices (multi-byte text, quoted fields, broken rows), and
// what parsing each gives: the summary and every product as the catalog saves it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { Product } from '../../src/main/indexing/catalog';
import type { FeedInput } from '../../src/main/indexing/feed-file';
import { parseFeed, type ParseOptions } from '../../src/main/indexing/feed-parse';

const FIXTURES = fileURLToPath(new URL('../../fixtures/feeds', import.meta.url));

function generated(format: 'csv' | 'ndjson' | 'xml', n: number): Buffer {
  const rows: string[] = [];
  if (format === 'csv') rows.push('id,sku,name,price,description');
  if (format === 'xml') rows.push('<?xml version="1.0" encoding="UTF-8"?>\n<products>');
  for (let i = 0; i < n; i++) {
    // every 97th row repeats an id, every 211th has no id: row errors spread over the file
    const id = i % 211 === 5 ? '' : String(i % 97 === 3 ? i - 1 : i);
    const name = `Zürich «trail» shoe ${i} — größe ${i % 47}`;
    const description = `Line one of ${i}, with "quotes"\nand a second line ✓`;
    if (format === 'csv')
      rows.push(`${id},SKU-${i},${name},${(i % 300) + 0.99},"${description.replace(/"/g, '""')}"`);
    else if (format === 'ndjson')
      rows.push(
        JSON.stringify({ id, sku: `SKU-${i}`, name, price: (i % 300) + 0.99, description }),
      );
    else
      rows.push(
        `<product><id>${id}</id><sku>SKU-${i}</sku><name>${name}</name><price>${(i % 300) + 0.99}</price><description><![CDATA[${description}]]></description></product>`,
      );
  }
  if (format === 'xml') rows.push('</products>');
  return Buffer.from(`${rows.join('\n')}\n`);
}

/** Each case: a name and the feed input. */
export function parseCases(): Array<{ name: string; input: FeedInput }> {
  const cases: Array<{ name: string; input: FeedInput }> = [];
  for (const name of readdirSync(FIXTURES).sort()) {
    if (name.endsWith('.mjs')) continue;
    const file = path.join(FIXTURES, name);
    cases.push({ name: `${name} (file)`, input: { kind: 'file', path: file } });
    cases.push({ name: `${name} (upload)`, input: { kind: 'buffer', data: readFileSync(file) } });
  }
  for (const format of ['csv', 'ndjson', 'xml'] as const) {
    const data = generated(format, 3000);
    cases.push({ name: `generated.${format}`, input: { kind: 'buffer', data } });
    cases.push({
      name: `generated.${format}.gz`,
      input: { kind: 'buffer', data: zlib.gzipSync(data) },
    });
  }
  return cases;
}

/**
 * What parsing one case gives, as plain JSON: the summary (row errors included), and every product as the
 * catalog saves it, by digest (with the first two in full, to read a difference).
 */
export async function parseOutcome(
  input: FeedInput,
  options: Partial<ParseOptions> = {},
): Promise<unknown> {
  const products: Product[] = [];
  const summary = await parseFeed(input, { idField: null, ...options }, (p) => products.push(p));
  const all = JSON.stringify(products);
  return JSON.parse(
    JSON.stringify({
      summary,
      products: products.length,
      digest: createHash('sha256').update(all).digest('hex'),
      first: products.slice(0, 2),
    }),
  );
}

// `node --import tsx test/unit/feed-parse-cases.ts > test/unit/golden/feed-parse.json` wrote the golden
// with the parser as it was before parsing was sliced (commit fde1d82); it is not to be regenerated.
if (process.argv[1]?.endsWith('feed-parse-cases.ts')) {
  const out: Record<string, unknown> = {};
  for (const c of parseCases()) out[c.name] = await parseOutcome(c.input);
  process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}
