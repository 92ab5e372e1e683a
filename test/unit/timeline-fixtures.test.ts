// The sample sessions in fixtures/sessions: each must give exactly the findings written beside it
// (rule, severity, event ids) — good sessions pass with none — read the way `check` reads them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOffline } from '../../src/main/tracking/timeline/offline-check';
import { parseInput } from '../../src/main/recordings/inputs';

const DIR = path.resolve(__dirname, '../../fixtures/sessions');
const files = readdirSync(DIR).filter((f) => f.endsWith('.ndjson'));

interface Expected {
  pages: Array<{
    pageLoadId: string;
    verdict: string;
    findings: Array<{ rule: string; severity: string; eventIds: string[] }>;
  }>;
}

function check(file: string) {
  const read = parseInput(readFileSync(path.join(DIR, file), 'utf8'), file);
  return checkOffline(read.events).map((p) => ({
    pageLoadId: p.pageLoadId,
    verdict: p.verdict,
    findings: p.findings.map((f) => ({ rule: f.rule, severity: f.severity, eventIds: f.eventIds })),
  }));
}

const byRule = (a: { rule: string }, b: { rule: string }) => a.rule.localeCompare(b.rule);

describe('fixtures/sessions', () => {
  it('has good and bad sessions, each with its expectations', () => {
    expect(files.filter((f) => f.startsWith('good-')).length).toBeGreaterThanOrEqual(5);
    expect(files.filter((f) => f.startsWith('bad-')).length).toBeGreaterThanOrEqual(8);
  });

  for (const file of files) {
    it(`${file} gives exactly the expected findings`, () => {
      const expected = JSON.parse(
        readFileSync(path.join(DIR, file.replace(/\.ndjson$/, '.expected.json')), 'utf8'),
      ) as Expected;
      const actual = check(file);
      expect(actual.map((p) => p.pageLoadId).sort()).toEqual(
        expected.pages.map((p) => p.pageLoadId).sort(),
      );
      for (const want of expected.pages) {
        const got = actual.find((p) => p.pageLoadId === want.pageLoadId)!;
        expect(got.verdict, `${want.pageLoadId} verdict`).toBe(want.verdict);
        expect([...got.findings].sort(byRule)).toEqual([...want.findings].sort(byRule));
      }
      if (file.startsWith('good-')) {
        for (const p of actual) {
          expect(p.verdict).toBe('pass');
          expect(p.findings.filter((f) => f.severity !== 'info')).toEqual([]);
        }
      }
    });
  }
});
