// The live JUnit and HTML reports, each page built once and written into its piece at once
// (report-pages.ts), are byte for byte junitReportParts/htmlReportParts over the finished DTOs of the same
// pages: every failOn, with and without the verdict filter, on every sample session plus two sites.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { parseInput } from '../../src/main/recordings/inputs';
import { Slicer } from '../../src/main/slices';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { FAIL_ON, fails, junitReportParts } from '../../src/main/tracking/timeline/report';
import { htmlReportParts } from '../../src/main/tracking/timeline/report-html';
import { htmlPages, junitPages } from '../../src/main/tracking/timeline/report-pages';
import type { Verdict } from '../../src/shared/timeline';

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

describe('live reports, each page built once and written at once', () => {
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
