// check's JSON report is written as its pages are judged: each page stringified compact and indented
// afterwards (on the event loop for a few pages, in a worker thread for many). Whichever way, the bytes are
// `JSON.stringify(report, null, 2)`'s, for text that needs escaping, any Unicode, empty arrays and objects
// and findings nested deep.
import { describe, expect, it } from 'vitest';
import { JsonIndenter } from '../../src/main/check/json-indent';
import { reportWriter } from '../../src/main/check/report-writer';
import { jsonReport } from '../../src/main/tracking/timeline/report';
import type { PageTimelineDto, TimelineFindingDto } from '../../src/shared/timeline';
import { REPORT_NOW, reportPages } from './report-cases';

/** Values that indenting compact JSON could get wrong. */
const AWKWARD: unknown[] = [
  { quote: 'say "hi"', backslash: 'C:\\dir\\', both: '\\"', end: 'x\\' },
  { structural: '{"a":[1,2],"b":{}}', colon: 'a:b, c', brackets: '][}{' },
  { control: '\n\r\t\u0000\u001f\u007f', separators: '\u2028\u2029' },
  { unicode: 'é中文😀', lone: '\ud800 and \udfff', rtl: '\u202egnp.exe' },
  { empty: [], none: {}, nested: [[], {}, [{}], { a: [] }], deep: [[[[[{ b: [{}] }]]]]] },
  { numbers: [0, -0, 1.5e-7, 1e21, -12.25, Number.MAX_SAFE_INTEGER], flags: [true, false, null] },
  { '': '', 'key "quoted"': 1, ключ: { '😀': [] } },
  [],
  {},
  'a string',
  42,
];

function indented(value: unknown, depth: number): string {
  const parts: Buffer[] = [];
  const indenter = new JsonIndenter((bytes) => parts.push(Buffer.from(bytes)));
  const bytes = Buffer.from(JSON.stringify(value));
  indenter.bytes(bytes, 0, bytes.length, depth);
  indenter.flush();
  return Buffer.concat(parts).toString('utf8');
}

/** The pages of the report golden, with awkward values in their findings and fields. */
function awkwardPages(): PageTimelineDto[] {
  const pages = reportPages();
  return pages.map((page, i) => ({
    ...page,
    pageUrl: `${page.pageUrl}?q="${i}"\\é😀\u2028`,
    // a field the DTO does not have, so that nested findings hold every awkward value
    findings: page.findings.map(
      (f) =>
        ({ ...f, message: `${f.message} "quoted" \\ é😀`, nested: AWKWARD }) as TimelineFindingDto,
    ),
  }));
}

async function writtenReport(pages: PageTimelineDto[], threadFromBytes?: number): Promise<string> {
  let out = '';
  const writer = reportWriter({
    format: 'json',
    out: (t) => (out += t),
    source: 'awkward.ndjson',
    now: REPORT_NOW,
    failOn: 'error',
    ...(threadFromBytes !== undefined && { threadFromBytes }),
  });
  try {
    for (const page of pages) {
      writer.page(page);
      await writer.drain();
    }
    await writer.end();
  } finally {
    writer.dispose();
  }
  return out;
}

describe("check's JSON report", () => {
  it('indents compact JSON as JSON.stringify(value, null, 2) does, at any depth', () => {
    for (const value of AWKWARD)
      for (const depth of [0, 2]) {
        const expected = JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);
        expect(indented(value, depth)).toBe(expected);
      }
  });

  it('indents a value bigger than its write buffer', () => {
    const big = { items: Array.from({ length: 20_000 }, (_, i) => ({ i, s: `é${i}"` })) };
    expect(indented(big, 0)).toBe(JSON.stringify(big, null, 2));
  });

  it('writes the bytes of JSON.stringify(report, null, 2), pages indented here or in a worker thread', async () => {
    const pages = awkwardPages();
    const whole = `${JSON.stringify(jsonReport(pages, 'awkward.ndjson', REPORT_NOW), null, 2)}\n`;
    // a few pages: indented at the end; a batch of every 2 KB: in the thread, many batches in flight
    expect(await writtenReport(pages)).toBe(whole);
    expect(await writtenReport([...pages, ...pages, ...pages], 2048)).toBe(
      `${JSON.stringify(jsonReport([...pages, ...pages, ...pages], 'awkward.ndjson', REPORT_NOW), null, 2)}\n`,
    );
  });

  it('writes an empty report', async () => {
    expect(await writtenReport([])).toBe(
      `${JSON.stringify(jsonReport([], 'awkward.ndjson', REPORT_NOW), null, 2)}\n`,
    );
  });
});
