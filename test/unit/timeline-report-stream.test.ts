// Reports written in pieces (for streaming) are byte for byte the reports as they were written whole:
// digests taken before streaming, on the same pages (golden/report-pages.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  jsonReport,
  jsonReportParts,
  junitReport,
  junitReportParts,
} from '../../src/main/tracking/timeline/report';
import { htmlReport, htmlReportParts } from '../../src/main/tracking/timeline/report-html';
import { digest, REPORT_NOW, reportPages } from './report-cases';

const golden = JSON.parse(
  readFileSync(new URL('./golden/reports.json', import.meta.url), 'utf8'),
) as Record<'json' | 'junit' | 'html', unknown> & {
  empty: Record<'json' | 'junit' | 'html', unknown>;
};

describe('timeline reports in pieces', () => {
  for (const [name, pages, expected] of [
    ['19 pages of every sample session and hostile text', reportPages(), golden],
    ['no pages', [], golden.empty],
  ] as const) {
    it(`${name}: json, junit and html are the bytes they were`, () => {
      const p = [...pages];
      const json = [...jsonReportParts(p, 'sandbox', REPORT_NOW)];
      expect(digest(json.join(''))).toEqual(expected.json);
      expect(digest(JSON.stringify(jsonReport(p, 'sandbox', REPORT_NOW)))).toEqual(expected.json);
      const junit = [...junitReportParts(p, 'sandbox', REPORT_NOW)];
      expect(digest(junit.join(''))).toEqual(expected.junit);
      expect(digest(junitReport(p, 'sandbox', REPORT_NOW))).toEqual(expected.junit);
      const html = [...htmlReportParts(p, 'sandbox', REPORT_NOW)];
      expect(digest(html.join(''))).toEqual(expected.html);
      expect(digest(htmlReport(p, 'sandbox', REPORT_NOW))).toEqual(expected.html);
      // one piece per page at least: a writer can pause between them
      for (const parts of [json, junit, html]) expect(parts.length).toBeGreaterThan(p.length);
    });
  }
});
