// `check` streams its input through OfflineJudge, which keeps no clicks for order credit (its report has
// pages only): every recorded corpus journey, the whole visit's included (quick adds exempting cart
// events, orders, logins), must be judged page for page exactly as the whole-input judge, which keeps them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../src/main/recordings/inputs';
import { judgeOffline, OfflineJudge } from '../../src/main/tracking/timeline/offline-check';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { CORPUS } from '../corpus/catalog';
import { FIXTURE_DIR } from '../corpus/evaluate';

const NOW = Date.parse('2026-11-21T00:00:00Z');

function streamed(text: string, file: string): PageTimelineDto[] {
  const read = parseInput(text, file);
  const judge = new OfflineJudge(NOW);
  try {
    if (read.responses?.length) judge.addRecorded(read.responses);
    const pages: PageTimelineDto[] = [];
    for (const ev of read.events) for (const p of judge.apply(ev)) pages.push(p);
    for (const p of judge.end()) pages.push(p);
    return pages;
  } finally {
    judge.dispose();
  }
}

const recorded = CORPUS.filter((e) => existsSync(path.join(FIXTURE_DIR, `${e.id}.json`)));

describe('check judges without keeping clicks for credit, as the whole-input judge does', () => {
  it('has the whole visit among its journeys', () => {
    expect(recorded.length).toBeGreaterThan(40);
    expect(recorded.map((e) => e.id)).toContain('visit-quick-add-variant');
  });

  for (const entry of recorded)
    it(entry.id, () => {
      const file = path.join(FIXTURE_DIR, `${entry.id}.json`);
      const text = readFileSync(file, 'utf8');
      const read = parseInput(text, file);
      const whole = judgeOffline(read.events, read.responses ?? [], NOW).pages;
      expect(streamed(text, file)).toEqual(whole);
    });
});
