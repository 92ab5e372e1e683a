// The live JUnit and HTML reports, counted in a first pass from each page's verdict and findings and
// written in a second from its DTO (report-pages.ts), are byte for byte junitReportParts/htmlReportParts over
// the finished DTOs of the same pages: every failOn, with and without the verdict filter, on every sample
// session plus two sites; and where a finding about the whole session is an error, it fails the page it is
// listed on only (its session's first), in the live reports, check's and the whole report alike.
import type { Finding } from '../../src/main/tracking/finding';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { parseInput } from '../../src/main/recordings/inputs';
import { Slicer } from '../../src/main/slices';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import {
  FAIL_ON,
  fails,
  junitReport,
  junitReportParts,
} from '../../src/main/tracking/timeline/report';
import { htmlReport, htmlReportParts } from '../../src/main/tracking/timeline/report-html';
import {
  htmlPages,
  junitPages,
  type ReportSource,
} from '../../src/main/tracking/timeline/report-pages';
import type { PageTimelineDto, Verdict } from '../../src/shared/timeline';
import { widerScope } from '../../src/main/tracking/timeline/rule-list';
import type { Page } from '../../src/main/tracking/timeline/page';
import { checkReport, REPORT_NOW, reportPages } from './report-cases';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NOW = Date.parse('2026-11-21T05:00:00.000Z');

function sampleEngine(): TimelineEngine {
  const engine = new TimelineEngine({
    clock: new SandboxClock({ frozen: true }),
    settings: defaultTimelineSettings(),
  });
  const dir = path.resolve(HERE, '../../fixtures/sessions');
  for (const [i, file] of readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .entries())
    for (const ev of parseInput(readFileSync(path.join(dir, file), 'utf8'), file).events) {
      engine.apply(ev);
      // the first session on a second site too: JUnit writes a suite per site
      if (i === 0) engine.apply({ ...ev, siteId: 'shop2', id: `${ev.id}-2` });
    }
  // every page idle now (its idle timer would make it so on the loop's next turn, between the passes)
  engine.finish();
  return engine;
}

describe('live reports, each page counted first and built once as it is written', () => {
  it('are the bytes of the reports built from every DTO first', async () => {
    const engine = sampleEngine();
    const sites = new Set(engine.list().map((p) => p.siteId));
    expect(engine.size()).toBeGreaterThan(10);
    let failing = 0;
    for (const verdict of [undefined, 'pass', 'warn', 'fail'] as Array<Verdict | undefined>)
      for (const failOn of FAIL_ON) {
        const dtos = engine
          .list()
          .map((p) => engine.finishedDto(p))
          .filter((d) => verdict === undefined || d.verdict === verdict);
        failing += dtos.filter((d) => fails(d, failOn)).length;
        const o = { name: 'sandbox', now: NOW, failOn };
        const junit = await junitPages(engine, { filter: {}, verdict }, o, new Slicer());
        expect([...junit!].join('')).toBe(
          [...junitReportParts(dtos, 'sandbox', NOW, failOn)].join(''),
        );
        const html = await htmlPages(engine, { filter: {}, verdict }, o, new Slicer());
        expect([...html!].join('')).toBe([...htmlReportParts(dtos, 'sandbox', NOW)].join(''));
      }
    // the cases held failing pages, pages judged as finished and more than one site's suite
    expect(failing).toBeGreaterThan(0);
    expect(engine.list().some((p) => engine.finishedDto(p).judgedAsFinished)).toBe(true);
    expect(sites.size).toBeGreaterThan(1);
    engine.dispose();
  });

  it('stop when the client went away', async () => {
    const engine = sampleEngine();
    const choice = { filter: {}, gone: () => true };
    const o = { name: 'sandbox', now: NOW, failOn: 'error' as const };
    expect(await junitPages(engine, choice, o, new Slicer())).toBeNull();
    expect(await htmlPages(engine, choice, o, new Slicer())).toBeNull();
    engine.dispose();
  });
});

/** An engine that holds these pages as they were judged: each page's handle carries its DTO. */
function sourceOf(dtos: readonly PageTimelineDto[]): ReportSource & { dtoBuilt: number } {
  // what JUnit's case names read of an engine's page (junit-names.ts, pageIdentity), as the DTO says it
  const pages = dtos.map((dto) => ({
    siteId: dto.siteId,
    sessionId: dto.sessionId,
    userId: dto.userId,
    pageLoadId: dto.pageLoadId,
    pageKind: dto.pageKind,
    pageUrl: dto.pageUrl,
    responses: { values: () => dto.responses.values() },
    visitEvents: dto.visitEvents ?? [],
    dto,
  }));
  const dtoOf = (page: Page) => (page as unknown as (typeof pages)[number]).dto;
  const source = {
    dtoBuilt: 0,
    *matchingSteps() {
      for (const page of pages) {
        yield page as unknown as Page;
        yield null;
      }
    },
    finishedJudgement: (page: Page) => ({
      verdict: dtoOf(page).verdict,
      // the page's findings as kept: what the report reads of them (rule, severity, events) is the DTO's too
      findings: dtoOf(page).findings as unknown as Finding[],
    }),
    finishedDto: (page: Page) => {
      source.dtoBuilt++;
      return dtoOf(page);
    },
    finishedVerdictDto: (page: Page) => {
      source.dtoBuilt++;
      const { responses, visitEvents: _events, ...verdict } = dtoOf(page);
      return { ...verdict, responses: responses.map(({ events: _e, ...head }) => head) };
    },
  };
  return source as ReportSource & { dtoBuilt: number };
}

/** The verdict of a page holding these findings (its own: a finding listed on another page counts too). */
function verdictOf(findings: PageTimelineDto['findings']): Verdict {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  return findings.some((f) => f.severity === 'warning') ? 'warn' : 'pass';
}

/** The pages with every finding of a session- or site-wide rule raised to an error. */
function widerAsErrors(dtos: readonly PageTimelineDto[]): PageTimelineDto[] {
  return dtos.map((p) => {
    const findings = p.findings.map((f) =>
      widerScope(f.rule) === undefined ? f : { ...f, severity: 'error' as const },
    );
    return { ...p, findings, verdict: verdictOf(findings) };
  });
}

/**
 * The sample pages, and for each holding a session- or site-wide finding a later page load of the same
 * visit that holds that finding only: it is listed on the first of them.
 */
function withLaterPages(dtos: readonly PageTimelineDto[]): PageTimelineDto[] {
  const later = dtos
    .filter((p) => p.findings.some((f) => widerScope(f.rule) !== undefined))
    .map((p) => {
      const findings = p.findings.filter((f) => widerScope(f.rule) !== undefined);
      return { ...p, pageLoadId: `${p.pageLoadId}-later`, findings, verdict: verdictOf(findings) };
    });
  return [...dtos, ...later];
}

const text = (parts: Iterable<string> | null) => [...(parts ?? [])].join('');

describe('a finding about the whole session, listed once, in the JUnit and HTML reports', () => {
  const pages = withLaterPages(reportPages());

  it('the sample pages hold a session-wide finding on more than one page of a session', () => {
    const wider = pages.filter((p) => p.findings.some((f) => widerScope(f.rule) !== undefined));
    const sessions = new Set(wider.map((p) => `${p.siteId} ${p.sessionId}`));
    expect(wider.length).toBeGreaterThan(sessions.size);
  });

  for (const [name, dtos] of [
    ['as judged', pages],
    ['session-wide findings as errors', widerAsErrors(pages)],
  ] as const) {
    it(`${name}: JUnit with every --fail-on is the report built whole, each page's DTO built once`, async () => {
      for (const failOn of FAIL_ON) {
        const source = sourceOf(dtos);
        const parts = await junitPages(
          source,
          { filter: {} },
          { name: 'sandbox', now: REPORT_NOW, failOn },
          new Slicer(),
        );
        expect(source.dtoBuilt).toBe(0);
        expect(text(parts)).toBe(junitReport(dtos, 'sandbox', REPORT_NOW, failOn));
        expect(source.dtoBuilt).toBe(dtos.length);
      }
    });

    it(`${name}: HTML, whole and of one verdict, is the report built whole`, async () => {
      for (const verdict of [undefined, 'fail', 'warn', 'pass'] as Array<Verdict | undefined>) {
        const chosen = dtos.filter((p) => verdict === undefined || p.verdict === verdict);
        const source = sourceOf(dtos);
        const parts = await htmlPages(
          source,
          { filter: {}, ...(verdict && { verdict }) },
          { name: 'sandbox', now: REPORT_NOW },
          new Slicer(),
        );
        expect(text(parts)).toBe(htmlReport(chosen, 'sandbox', REPORT_NOW));
        expect(source.dtoBuilt).toBe(chosen.length);
      }
    });
  }

  it('a session-wide error fails only the page it is listed on', async () => {
    const dtos = widerAsErrors(pages);
    const xml = text(
      await junitPages(
        sourceOf(dtos),
        { filter: {} },
        { name: 'sandbox', now: REPORT_NOW, failOn: 'error' },
        new Slicer(),
      ),
    );
    const failures = Number(/<testsuites [^>]* failures="(\d+)"/.exec(xml)![1]);
    // the later pages hold the raised finding only, and fail on their own
    const later = dtos.filter((p) => p.pageLoadId.endsWith('-later'));
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((p) => p.verdict === 'fail')).toBe(true);
    expect(failures).toBe(dtos.filter((p) => p.verdict === 'fail').length - later.length);
    expect(xml.match(/<failure /g)).toHaveLength(failures);
  });

  it("check's JUnit, written as pages come, counts the failing cases as the live report does", () => {
    const dtos = widerAsErrors(pages);
    for (const failOn of FAIL_ON) {
      const { out, failed } = checkReport('junit', dtos, 'sandbox', failOn);
      expect(out).toBe(junitReport(dtos, 'sandbox', REPORT_NOW, failOn));
      // the exit code: a page holds an error whether or not its case carries it
      expect(failed).toBe(true);
    }
  });
});
