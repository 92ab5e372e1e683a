// The fault corpus (fixtures/corpus: traffic recorded from the corpus storefront on the provider's real
// clients, `npm run corpus:record`) judged offline with the timeline rules: every clean journey without an
// error or warning, every observable fault found by the rule that names it, with cause and fix in the
// message; and docs/timelines.md shows the current table. A rule regression fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS, END, START, judgeAll, sameTable, table, totals } from '../corpus/evaluate';

const all = judgeAll();

describe('fault corpus', () => {
  it('has at least 20 clean journeys and 25 observable faults, each recorded', () => {
    const t = totals(all);
    expect(t.clean).toBeGreaterThanOrEqual(20);
    expect(t.observable).toBeGreaterThanOrEqual(25);
    const missing = all.filter(
      (j) => !j.recorded && (j.entry.kind === 'clean' || j.entry.expect !== undefined),
    );
    expect(missing.map((j) => j.entry.id)).toEqual([]);
  });

  for (const j of all) {
    const e = j.entry;
    const target =
      e.kind === 'clean'
        ? 'no error or warning'
        : e.expect
          ? `${e.expect.rule} (${e.expect.severity}) names cause and fix`
          : 'nothing on the wire to judge';
    it(`${e.id}: ${target}`, () => {
      expect(j.problem).toBeUndefined();
      expect(j.ok).toBe(true);
      if (j.recorded && (e.kind === 'clean' || e.expect)) expect(j.events).toBeGreaterThan(0);
    });
  }

  it('docs/timelines.md holds the table the corpus gives now (npm run corpus -- --update-docs)', () => {
    const docs = readFileSync(DOCS, 'utf8');
    const section = docs.slice(docs.indexOf(START) + START.length, docs.indexOf(END)).trim();
    expect(sameTable(section, table(all)), 'run npm run corpus -- --update-docs').toBe(true);
  });
});
