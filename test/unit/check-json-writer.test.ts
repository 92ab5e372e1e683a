// check's JSON report is written as its pages are judged, each page at its depth in the document, spooled
// until the totals are known: the bytes are `JSON.stringify(report, null, 2)`'s, for text that needs
// escaping, any Unicode, empty arrays and objects and findings nested deep.
import { describe, expect, it } from 'vitest';
import { jsonReport } from '../../src/main/tracking/timeline/report';
import type { PageTimelineDto, TimelineFindingDto } from '../../src/shared/timeline';
import { checkReport, REPORT_NOW, reportPages } from './report-cases';

/** Values a page writer could get wrong: escapes, structural characters in strings, Unicode, empty and nested values. */
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

const writtenReport = (pages: PageTimelineDto[]) =>
  checkReport('json', pages, 'awkward.ndjson').out;

describe("check's JSON report", () => {
  it('writes the bytes of JSON.stringify(report, null, 2)', () => {
    const pages = awkwardPages();
    expect(writtenReport(pages)).toBe(
      `${JSON.stringify(jsonReport(pages, 'awkward.ndjson', REPORT_NOW), null, 2)}\n`,
    );
  });

  it('writes an empty report', () => {
    expect(writtenReport([])).toBe(
      `${JSON.stringify(jsonReport([], 'awkward.ndjson', REPORT_NOW), null, 2)}\n`,
    );
  });
});
