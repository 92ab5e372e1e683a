// Pages the report golden is written from: every sample session in fixtures/sessions as the engine judged
// it when the golden was taken, plus a page of hostile text (markup, control characters, emoji), kept as
// DTOs in golden/report-pages.json so later engine changes do not move the reports' input.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { reportWriter } from '../../src/main/check/report-writer';
import type { FailOn } from '../../src/main/tracking/timeline/report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPORT_NOW = Date.parse('2026-11-21T05:00:00.000Z');

export function reportPages(): PageTimelineDto[] {
  return JSON.parse(
    readFileSync(path.join(HERE, 'golden/report-pages.json'), 'utf8'),
  ) as PageTimelineDto[];
}

/** `check`'s report of these pages, written as they come (report-writer.ts): its text, and whether a page failed. */
export function checkReport(
  format: 'json' | 'junit' | 'text',
  pages: readonly PageTimelineDto[],
  source: string,
  failOn: FailOn = 'error',
): { out: string; failed: boolean } {
  let out = '';
  const o = { out: (t: string) => (out += t), source, now: REPORT_NOW, failOn };
  const writer =
    format === 'json' ? reportWriter({ ...o, format }) : reportWriter({ ...o, format });
  try {
    for (const page of pages) writer.page(page);
    writer.end();
  } finally {
    writer.dispose();
  }
  return { out, failed: writer.failed };
}

export function digest(text: string): { bytes: number; sha256: string } {
  return {
    bytes: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
  };
}

// `node --import tsx test/unit/report-cases.ts` writes golden/report-pages.json and golden/reports.json with
// the engine and the whole-report code. First written before reports were streamed; written again when
// findings gained their structured fix (the reports show it on a line of its own), which changed every
// report's bytes. Rerun only when the reports' format changes on purpose.
if (process.argv[1]?.endsWith('report-cases.ts')) {
  const { SandboxClock } = await import('../../src/main/clock');
  const { defaultTimelineSettings } = await import('../../src/main/config');
  const { TimelineEngine } = await import('../../src/main/tracking/timeline/engine');
  const { parseInput } = await import('../../src/main/recordings/inputs');
  const { jsonReport, junitReport } = await import('../../src/main/tracking/timeline/report');
  const { htmlReport } = await import('../../src/main/tracking/timeline/report-html');
  const { PageBuilder } = await import('./timeline-events');
  const engine = new TimelineEngine({
    clock: new SandboxClock({ frozen: true }),
    settings: defaultTimelineSettings(),
  });
  const dir = path.resolve(HERE, '../../fixtures/sessions');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort())
    for (const ev of parseInput(readFileSync(path.join(dir, file), 'utf8'), file).events)
      engine.apply(ev);
  const hostile = new PageBuilder({
    siteId: 'other9',
    pageLoadId: 'p<1>',
    pageUrl: 'http://shop/search?q=<script>alert(1)</script>&x=\u0007bell 👟',
  });
  for (const ev of [
    hostile.impression('r&1', ['"uid"'], { at: 0 }),
    hostile.click('r&1', '"uid"', { at: 100 }),
  ])
    engine.apply(ev);
  engine.finish();
  engine.dispose();
  const pages = engine.pagesDto();
  writeFileSync(path.join(HERE, 'golden/report-pages.json'), `${JSON.stringify(pages, null, 1)}\n`);
  const reports = {
    json: digest(JSON.stringify(jsonReport(pages, 'sandbox', REPORT_NOW))),
    junit: digest(junitReport(pages, 'sandbox', REPORT_NOW)),
    html: digest(htmlReport(pages, 'sandbox', REPORT_NOW)),
    empty: {
      json: digest(JSON.stringify(jsonReport([], 'sandbox', REPORT_NOW))),
      junit: digest(junitReport([], 'sandbox', REPORT_NOW)),
      html: digest(htmlReport([], 'sandbox', REPORT_NOW)),
    },
  };
  writeFileSync(path.join(HERE, 'golden/reports.json'), `${JSON.stringify(reports, null, 1)}\n`);
}
