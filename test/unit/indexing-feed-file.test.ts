// Feed files: decoding (raw, gzip, zip; bombs), format sniffing and stream parsing of the sample feeds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../src/main/indexing/catalog';
import { parseFeed, sniffFormat } from '../../src/main/indexing/feed-parse';
import type { DecodeLimits, FeedInput } from '../../src/main/indexing/feed-file';

const FIXTURES = path.resolve(__dirname, '../../fixtures/feeds');
const file = (name: string): FeedInput => ({ kind: 'file', path: path.join(FIXTURES, name) });
const buffer = (data: string | Buffer): FeedInput => ({ kind: 'buffer', data: Buffer.from(data) });

async function parse(input: FeedInput, idField: string | null = null, limits?: DecodeLimits) {
  const products: Product[] = [];
  const summary = await parseFeed(input, { idField, limits }, (p) => products.push(p));
  return { summary, products };
}

describe('sample feeds', () => {
  for (const [name, format, encoding] of [
    ['products.csv', 'csv', 'raw'],
    ['products.tsv', 'tsv', 'raw'],
    ['products.csv.gz', 'csv', 'gzip'],
    ['products.zip', 'csv', 'zip (entry products.csv)'],
    ['products.ndjson', 'ndjson', 'raw'],
    ['products.xml', 'xml', 'raw'],
  ] as const) {
    it(`reads ${name}: 24 products with uid, sku, parent id, name and price`, async () => {
      for (const input of [file(name), buffer(readFileSync(path.join(FIXTURES, name)))]) {
        const { summary, products } = await parse(input);
        expect(summary).toMatchObject({
          format,
          encoding,
          products: 24,
          idField: 'id',
          rowErrorCount: 0,
          error: null,
        });
        expect(products[0]).toMatchObject({
          uid: '1000',
          sku: 'P100-RED',
          parentId: 'P100',
          name: 'Trail Runner, Red',
          price: 89.99,
        });
        expect(products[0]!.fields.brand).toBe('Northfold');
        expect(products.map((p) => p.uid)).toHaveLength(new Set(products.map((p) => p.uid)).size);
      }
    });
  }

  it('reports bad rows with their line numbers and keeps the good ones', async () => {
    const { summary, products } = await parse(file('broken-rows.csv'));
    expect(summary.error).toBeNull();
    expect(summary.products).toBe(6);
    expect(products.map((p) => p.uid)).toEqual(['1000', '1001', '1002', '1003', '1010', '1011']);
    expect(summary.rowErrors).toEqual([
      {
        line: 4,
        message: '4 fields, but the header has 9: check for unquoted delimiters or missing values',
      },
      { line: 6, message: 'empty id: every product needs an id' },
      { line: 8, message: 'id "1000" is used again (first on line 2); ids must be unique' },
    ]);
  });

  it('ends in an error naming the first broken row when every row is broken', async () => {
    const { summary } = await parse(file('all-rows-broken.ndjson'));
    expect(summary.products).toBe(0);
    expect(summary.rowErrorCount).toBe(3);
    expect(summary.rowErrors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(summary.error).toMatch(/^all 3 rows are broken; first: line 1: not JSON/);
  });

  it.each([
    ['not-a-feed.png', /^the feed file is a PNG image, not a feed/],
    ['products-array.json', /JSON array; the sandbox reads ndJSON/],
    [
      'two-entries.zip',
      /holds 2 files \(products\.csv, more-products\.csv\): a feed zip must hold exactly one file/,
    ],
    ['gzip-bomb.csv.gz', /decodes to 110 MB, more than the 100 MB/],
    ['xml-entity-bomb.xml', /declares entities in its DOCTYPE; entity expansion is off/],
  ])('refuses %s with a clear reason', async (name, reason) => {
    const { summary, products } = await parse(file(name));
    expect(summary.error).toMatch(reason);
    expect(summary.products).toBe(0);
    expect(products).toEqual([]);
  });
});

describe('decompression limits', () => {
  const bomb = readFileSync(path.join(FIXTURES, 'gzip-bomb.csv.gz'));

  it('stops a gzip bomb that lies about its size within the first megabytes (ratio check)', async () => {
    const lying = Buffer.from(bomb);
    lying.writeUInt32LE(1000, lying.length - 4);
    const { summary } = await parse(buffer(lying));
    expect(summary.error).toMatch(/expands more than 200:1 .* refused as a decompression bomb/);
    expect(summary.bytes).toBeLessThan(4 * 1024 * 1024);
  });

  it('stops at the decoded-size cap even when the ratio looks harmless', async () => {
    const data = zlib.gzipSync(
      `id,name\n${Array.from({ length: 50_000 }, (_, i) => `${i},product ${i}`).join('\n')}\n`,
    );
    const lying = Buffer.from(data);
    lying.writeUInt32LE(10, lying.length - 4);
    const { summary } = await parse(buffer(lying), null, {
      maxDecodedBytes: 100_000,
      maxRatio: Infinity,
      ratioCheckAfter: 0,
    });
    expect(summary.error).toMatch(/decodes to more than 0\.1 MB/);
    expect(summary.bytes).toBeLessThanOrEqual(100_000);
  });

  it('reports a truncated gzip file', async () => {
    const data = zlib.gzipSync(readFileSync(path.join(FIXTURES, 'products.csv')));
    const { summary } = await parse(buffer(data.subarray(0, data.length - 30)));
    expect(summary.error).toMatch(/gzip file is corrupt or truncated/);
  });
});

describe('format sniffing and id fields', () => {
  it('picks the delimiter from the header', () => {
    expect(sniffFormat(Buffer.from('id;name;price\n1;a;2\n'))).toEqual({
      format: 'csv',
      delimiter: ';',
    });
    expect(sniffFormat(Buffer.from('"a,b"|id|name\n'))).toEqual({ format: 'csv', delimiter: '|' });
    expect(sniffFormat(Buffer.from('\uFEFFid\tname\n'))).toEqual({
      format: 'tsv',
      delimiter: '\t',
    });
  });

  it('takes no cut in the head of a longer XML file for an error, and the same end of a whole file for one', () => {
    // cut inside an entity, a tag and a multi-byte character: more of the file could make each right
    const one = '<products><product><id>1</id><name>A &amp; B</name></product>';
    for (const cut of [`${one}<product><id>2</id><name>C &am`, `${one}<prod`]) {
      expect(sniffFormat(Buffer.from(cut), false)).toEqual({
        format: 'xml',
        recordElement: 'product',
      });
      expect(() => sniffFormat(Buffer.from(cut), true)).toThrow(/^the XML is not well-formed: 1:/);
    }
    const split = Buffer.from(`${one}<product><id>2</id><name>Gr\u00fcn`);
    expect(sniffFormat(split.subarray(0, split.length - 1), false)).toMatchObject({
      recordElement: 'product',
    });
    // nothing closed yet: no product element found, not an error at the & the cut left open
    expect(() => sniffFormat(Buffer.from('<products><product><id>1</id><name>A &amp'))).toThrow(
      /^no product element found in the XML/,
    );
    expect(() =>
      sniffFormat(Buffer.from('<products><product><id>1</id><name>A &amp'), true),
    ).toThrow('the XML is not well-formed: 1:38: "&amp" is an & that starts no entity');
  });

  it('finds the repeated product element of RSS-style XML and reads attributes and nested fields', async () => {
    const xml = `<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0"><channel><title>Shop</title>
      <item><g:id>a1</g:id><title>One &amp; only</title><g:price>5.00 USD</g:price><images><image>x.jpg</image><image>y.jpg</image></images></item>
      <item><g:id>a2</g:id><title><![CDATA[Two <b>]]></title><g:price>7 USD</g:price></item></channel></rss>`;
    const { summary, products } = await parse(buffer(xml));
    expect(summary).toMatchObject({ format: 'xml', products: 2, idField: 'g:id', error: null });
    expect(products[0]).toMatchObject({ uid: 'a1', name: 'One & only', price: 5 });
    expect(products[0]!.fields['images.image']).toBe('x.jpg|y.jpg');
    expect(products[1]!.name).toBe('Two <b>');
  });

  it('reads every product of a large XML feed back from its element, across chunk boundaries', async () => {
    const items = Array.from(
      { length: 6000 },
      (_, i) =>
        `<item sku="S${i}"><id>${i}</id><title>Product ${i} — naïve &amp; ünïcode</title><price>${i}.5</price></item>`,
    );
    const xml = `\uFEFF<?xml version="1.0"?><feed>${items.join('\n')}</feed>`;
    expect(Buffer.byteLength(xml)).toBeGreaterThan(600_000);
    const { summary, products } = await parse(buffer(xml));
    expect(summary).toMatchObject({ products: 6000, idField: 'id', error: null });
    for (const p of products) {
      const i = Number(p.uid);
      expect(p.fields).toEqual({
        sku: `S${i}`,
        id: String(i),
        title: `Product ${i} — naïve & ünïcode`,
        price: `${i}.5`,
      });
      expect(p.price).toBe(i + 0.5);
    }
  });

  it('reads product attributes and a single-product XML feed', async () => {
    const { products } = await parse(
      buffer('<catalog><product id="p1" sku="S1"><name>Solo</name></product></catalog>'),
    );
    expect(products).toHaveLength(1);
    expect(products[0]).toMatchObject({ uid: 'p1', sku: 'S1', name: 'Solo' });
  });

  it('reports malformed XML with its position', async () => {
    const { summary } = await parse(
      buffer('<products><product><id>1</id></product><product><id>2</id></prodct></products>'),
    );
    expect(summary.error).toMatch(/XML is not well-formed: .*1:\d+/);
  });

  it('refuses a header that is not valid CSV instead of taking the next row for it', async () => {
    const { summary } = await parse(buffer('id,na"me,price\n1,a,2\n2,b,3\n'));
    expect(summary.products).toBe(0);
    expect(summary.error).toMatch(
      /^the header \(line 1\) is not valid CSV: a quote in the middle of field 2 \(na"me\), which is not quoted: .*; write the field as "na""me"$/,
    );
    expect(summary.rowErrors[0]?.line).toBe(1);
  });

  it('keeps a CSV value holding the unit separator whole (the row is kept unpacked)', async () => {
    const { products } = await parse(buffer('id,name,price\n1,a\u001fb,2\n2,c,3\n'));
    expect(products.map((p) => [p.uid, p.name, p.price])).toEqual([
      ['1', 'a\u001fb', 2],
      ['2', 'c', 3],
    ]);
  });

  it('uses the configured id field, and says so when the header lacks it', async () => {
    const csv = 'code,name\nA,x\nB,y\n';
    expect((await parse(buffer(csv), 'code')).summary).toMatchObject({
      products: 2,
      idField: 'code',
    });
    expect((await parse(buffer(csv))).summary.error).toMatch(
      /no id column: the header has code, name; add one of uid, id/,
    );
    expect((await parse(buffer(csv), 'uid')).summary.error).toMatch(
      /configured id field "uid" is not in the header/,
    );
  });

  it('refuses empty files and duplicate header names', async () => {
    expect((await parse(buffer(''))).summary.error).toBe('the feed file is empty');
    expect((await parse(buffer('id,name,name\n1,a,b\n'))).summary.error).toMatch(
      /names column "name" twice/,
    );
    expect((await parse(buffer('id,name\n'))).summary.error).toBe('the feed holds no products');
  });

  it('counts the bytes read of a file refused by its first bytes, as of one refused later', async () => {
    const login =
      '<!DOCTYPE html>\n<html><head><title>Sign in - MyShop Admin</title></head><body>login</body></html>\n';
    const big = `<!DOCTYPE html>\n<html><body>${'<p>login</p>\n'.repeat(20_000)}</body></html>\n`;
    for (const [name, data, bytes] of [
      ['an HTML page', Buffer.from(login), login.length],
      ['a gzipped HTML page', zlib.gzipSync(login), login.length],
      ['a JSON array', Buffer.from('[{"id":1}]\n'), 11],
      ['an HTML page longer than the 64 KB looked at', Buffer.from(big), 64 * 1024],
    ] as const) {
      const { summary } = await parse(buffer(data));
      expect(summary.error, name).not.toBeNull();
      if (name.includes('longer')) expect(summary.bytes, name).toBeGreaterThanOrEqual(bytes);
      else expect(summary.bytes, name).toBe(bytes);
    }
  });

  it('reads ndJSON values of any type as text, numeric ids included', async () => {
    const { summary, products } = await parse(
      buffer(
        '{"id": 7, "title": "Seven", "price": 12.5, "tags": ["a"], "stock": null, "new": true}\n',
      ),
    );
    expect(summary).toMatchObject({ products: 1, idField: 'id', error: null });
    expect(products[0]).toMatchObject({ uid: '7', name: 'Seven', price: 12.5, sku: null });
    expect(products[0]!.fields).toEqual({
      id: '7',
      title: 'Seven',
      price: '12.5',
      tags: '["a"]',
      stock: '',
      new: 'true',
    });
    expect(JSON.parse(JSON.stringify(products[0]))).toMatchObject({
      uid: '7',
      name: 'Seven',
      price: 12.5,
      fields: { id: '7' },
    });
  });

  it('reads fields back whether a row was packed or kept as is (other field order, separator in a value)', async () => {
    const lines = [
      '{"id": "a", "name": "Alpha", "price": "1.50", "sku": "SA"}',
      '{"name": "Beta", "id": "b", "price": "2", "sku": "SB"}',
      '{"id": "c", "name": "Gam\\u001fma", "price": "3", "sku": "SC"}',
      '{"id": "d", "name": "", "price": "x", "sku": "SD"}',
    ];
    const { products } = await parse(buffer(`${lines.join('\n')}\n`));
    expect(products.map((p) => [p.uid, p.name, p.price, p.sku])).toEqual([
      ['a', 'Alpha', 1.5, 'SA'],
      ['b', 'Beta', 2, 'SB'],
      ['c', 'Gam\u001fma', 3, 'SC'],
      ['d', null, null, 'SD'],
    ]);
    expect(products[0]!.fields).toEqual({ id: 'a', name: 'Alpha', price: '1.50', sku: 'SA' });
    expect(products[1]!.fields).toEqual({ name: 'Beta', id: 'b', price: '2', sku: 'SB' });
    expect(products[2]!.fields.name).toBe('Gam\u001fma');
  });

  it('keeps only the first 100 row errors but counts them all', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => `{"name": "no id ${i}"}`).join('\n');
    const { summary } = await parse(buffer(`{"id": "ok", "name": "fine"}\n${rows}\n`));
    expect(summary.products).toBe(1);
    expect(summary.rowErrorCount).toBe(250);
    expect(summary.rowErrors).toHaveLength(100);
    expect(summary.rowErrors[0]!.line).toBe(2);
  });
});

describe('lines as an editor numbers them, and records csv-parse cannot end', () => {
  it('places a CSV row on its first line, with LF or CRLF inside its quoted fields', async () => {
    for (const eol of ['\n', '\r\n']) {
      const csv = [
        'id,name,price',
        `1,"Cup${eol}multi${eol}line",4`,
        '2,Mug,3',
        '1,Dup,5',
        ',empty,3',
        '',
      ].join(eol);
      const { summary, products } = await parse(buffer(csv));
      expect(summary.rowErrors, JSON.stringify(eol)).toEqual([
        { line: 6, message: 'id "1" is used again (first on line 2); ids must be unique' },
        { line: 7, message: 'empty id: every product needs an id' },
      ]);
      expect(products.map((p) => [p.uid, p.line])).toEqual([
        ['1', 2],
        ['2', 5],
      ]);
    }
  });

  it('names the line a quote opened and never closed starts on, and keeps the rows before it', async () => {
    const csv = 'id,name\n1,Mug\n2,"Cup\n3,Bowl\n4,Plate\n';
    const { summary, products } = await parse(buffer(csv));
    expect(products.map((p) => p.uid)).toEqual(['1']);
    expect(summary.rowErrors).toEqual([
      { line: 3, message: expect.stringMatching(/^a quote opened on line 3 is never closed/) },
    ]);
  });

  it('refuses every row with a stray quote, past the lines whose text is kept for the message too', async () => {
    const rows = Array.from({ length: 1_200 }, (_, i) => `${i + 1},"${i}" Tent" Deluxe,5`);
    const { summary, products } = await parse(
      buffer(['id,name,price', ...rows, '1201,Good,6', ''].join('\n')),
    );
    expect(summary.rowErrorCount).toBe(1_200);
    expect(products.map((p) => p.uid)).toEqual(['1201']);
  });

  it('costs one row for a stray quote in a quoted field: the rows after it are read as the rows they are', async () => {
    // strict, the field stayed open to the next quote (line 5's): ids 2 and 3 were lost unsaid, line 2
    // was reported twice and the valid line 5 once
    const rule =
      'a quote inside a quoted field must be doubled; write the field as "12"" Tent"" Deluxe"';
    const good = ['2,Good Two,6', '3,Good Three,7', '4,"Quoted, Four",8', '5,Good Five,9'];
    for (const bad of ['1,"12" Tent" Deluxe,5', '1,"12" Tent" Deluxe",5']) {
      const { summary, products } = await parse(
        buffer(['id,name,price', bad, ...good, ''].join('\n')),
      );
      const written = bad.slice(2, -2);
      expect(summary.rowErrors, bad).toEqual([
        {
          line: 2,
          message: `field 2 (${written}) holds a quote that is not doubled, after "12: ${rule}`,
        },
      ]);
      expect(summary.rowErrorCount).toBe(1);
      expect(summary.error).toBeNull();
      expect(products.map((p) => [p.uid, p.line, p.name])).toEqual([
        ['2', 3, 'Good Two'],
        ['3', 4, 'Good Three'],
        ['4', 5, 'Quoted, Four'],
        ['5', 6, 'Good Five'],
      ]);
    }
  });

  it('reads doubled quotes at the end of a line as such, with any line break, and tells another break after a quote', async () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const csv = ['"id","na""me"', '1,"a ""b"""', '2,"say ""hi"""', ''].join(eol);
      const { summary, products } = await parse(buffer(csv), 'id');
      expect(summary.rowErrors, JSON.stringify(eol)).toEqual([]);
      expect(products.map((p) => p.fields['na"me'])).toEqual(['a "b"', 'say "hi"']);
    }
    // a line ended by CRLF in a file of LF lines: its quote is followed by a CR, which ends no line there
    const { summary, products } = await parse(buffer('id,name\n1,"Mug"\r\n2,Cup\n'));
    expect(summary.rowErrors).toEqual([
      {
        line: 2,
        message:
          'field 2 ("Mug") ends its line with "\\r\\n", where the header\'s line ends with "\\n": save the file with one kind of line break',
      },
    ]);
    expect(products.map((p) => p.uid)).toEqual(['2']);
  });

  it('names the stray quote, not the field count, when it split a row, and counts the row once', async () => {
    const csv = [
      'id,name,price',
      '1,"12" Tent, Deluxe",5',
      '2,12" Tent,5,extra',
      '3,"Cup\nwith a ""quoted"" line",4',
      '4,"Mug\nline "two" here",3',
      '5,Bowl,2',
      '',
    ].join('\r\n');
    const { summary, products } = await parse(buffer(csv));
    expect(summary.rowErrors).toEqual([
      {
        line: 2,
        message:
          'field 2 ("12" Tent) holds a quote that is not doubled, after "12: a quote inside a quoted field must be doubled; write the field as "12"" Tent"',
      },
      {
        line: 3,
        message:
          'a quote in the middle of field 2 (12" Tent), which is not quoted: a field that holds a quote must be quoted whole, with each quote inside it doubled; write the field as "12"" Tent"',
      },
      {
        line: 6,
        message:
          // a record over several lines is told by the line its stray quote is on
          'line 7 holds a quote that is not doubled (line "two" here",3\\r\\n): a quote inside a quoted field must be doubled (""), and a field that holds a quote must be quoted whole',
      },
    ]);
    expect(products.map((p) => [p.uid, p.line, p.name])).toEqual([
      ['3', 4, 'Cup\nwith a "quoted" line'],
      ['5', 8, 'Bowl'],
    ]);
  });

  it('refuses a CSV file with a record over 1 MB, naming its line, instead of losing the rows after it unsaid', async () => {
    // csv-parse gave up on the record and refused every later piece of the file as the same record: the
    // rows after it were gone, and one bad row was counted ~30 times
    const csv = `id,name,description\n1,Mug,a\n2,Big,${'y'.repeat(1_500_000)}\n3,Cup,small\n4,Bowl,b\n`;
    const { summary } = await parse(buffer(csv));
    expect(summary.error).toMatch(
      /^line 3 starts a record longer than 1 MB, and the file cannot be read past it: .*quote opened and never closed/,
    );
    expect(summary.rowErrorCount).toBe(0);
  });

  it('reads an ndJSON file that begins with a BOM from its first product', async () => {
    const { summary, products } = await parse(
      buffer('\uFEFF{"id":"1","name":"Mug"}\n{"id":"2","name":"Cup"}\n'),
    );
    expect(summary).toMatchObject({ products: 2, rowErrorCount: 0, error: null });
    expect(products.map((p) => [p.uid, p.line])).toEqual([
      ['1', 1],
      ['2', 2],
    ]);
  });
});
