// The live JUnit and HTML reports counted first and each page's DTO built as it is written
// (report-pages.ts) are byte for byte junitReportParts/htmlReportParts over the finished DTOs of the same
// pages: every failOn, with and without the verdict filter, on every sample session plus two sites.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { parseInput } from '../../src/main/check/inputs';
import { Slicer } from '../../src/main/slices';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import {
  FAIL_ON,
  htmlReportParts,
  junitReportParts,
} from '../../src/main/tracking/timeline/report';
import { choosePages, htmlPageParts, junitPageParts } from '../../src/main/tracking/report-pages';
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

describe('live reports counted first, each page built as written', () => {
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
        const chosen = await choosePages(engine, {}, verdict, failOn, new Slicer());
        expect(chosen.pages.length).toBe(dtos.length);
        failing += chosen.failures;
        const junit = [...junitPageParts(engine, chosen, 'sandbox', NOW, failOn)].join('');
        expect(junit).toBe([...junitReportParts(dtos, 'sandbox', NOW, failOn)].join(''));
        const html = [...htmlPageParts(engine, chosen, 'sandbox', NOW)].join('');
        expect(html).toBe([...htmlReportParts(dtos, 'sandbox', NOW)].join(''));
      }
    // the cases held failing pages and more than one site's suite
    expect(failing).toBeGreaterThan(0);
    expect(engine.list().some((p) => engine.finishedDto(p).judgedAsFinished)).toBe(true);
    expect(sites.size).toBeGreaterThan(1);
    engine.dispose();
  });

  it('stop counting when the client went away', async () => {
    const engine = sampleEngine();
    const chosen = await choosePages(engine, {}, undefined, 'error', new Slicer(), () => true);
    expect(chosen.pages).toEqual([]);
    engine.dispose();
  });
});
