// The next seq a journal gives besides its events (its header's nextSeq, a reset record's) is believed only
// where ids stay exact: a value past 2^53 gave several events one id (or ids like ev_00001e+21), and the
// next restart dropped them as damaged. Such a value, or one absurdly beyond the seqs the file holds, is
// named and ignored, and ids continue after the highest seq the file holds.
import { readFileSync, writeFileSync } from 'node:fs';
import { unseal } from '../../src/main/store/record-seal';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/main/store/event-log';
import { JOURNAL_FILE, Journal } from '../../src/main/store/journal';
import { tempDir } from '../helpers/sandbox';
import { renderDraft as draft } from '../helpers/event-drafts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function open(dir: string) {
  const log = new EventLog({ retention: 1000 });
  await Journal.open(dir, log);
  return log;
}

/** A data dir whose journal holds three events of demo42, its lines then changed by `edit`. */
async function journalOf(edit: (lines: string[]) => string[]): Promise<string> {
  const { dir, cleanup } = tempDir('store-next-seq-');
  cleanups.push(cleanup);
  const log = await open(dir);
  for (const n of [1, 2, 3]) await log.append(draft('demo42', n));
  await log.close();
  const file = path.join(dir, JOURNAL_FILE);
  // as an older version wrote them, without checksums: the edits are the seq checks' to catch
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => unseal(l).text);
  writeFileSync(file, `${edit(lines).join('\n')}\n`);
  return dir;
}

const withHeader = (nextSeq: string) => (lines: string[]) => [
  `{"journal":"search-sandbox events","version":1,"nextSeq":${nextSeq}}`,
  ...lines.slice(1),
];

/** Three events appended after a start, then a restart: what each start held and said. */
async function appendAndRestart(dir: string) {
  const second = await open(dir);
  const warnings = second.loadWarnings();
  const appended = [];
  for (const n of [4, 5, 6]) appended.push(await second.append(draft('demo42', n)));
  await second.close();
  const third = await open(dir);
  const after = { ids: third.all().map((e) => e.id), warnings: third.loadWarnings() };
  await third.close();
  return { warnings, ids: appended.map((e) => e.id), after };
}

describe("a header's nextSeq", () => {
  it('past 2^53 or written as 1e21: named and ignored, ids continue after the highest seq held, none lost at the next start', async () => {
    for (const [text, read] of [
      ['9007199254740993', '9007199254740992'],
      ['1e21', '1e+21'],
    ]) {
      const r = await appendAndRestart(await journalOf(withHeader(text!)));
      expect(r.warnings, text).toEqual([
        expect.stringContaining(
          `events.ndjson, line 1: the header's nextSeq ${read} is no whole number from 0 to 9007199254740991 (past that, ids are no longer exact): a damaged field, ignored; ids continue at ev_000000004, after seq 3, the highest the file holds. Nothing to do: the next compaction of the file drops the line`,
        ),
      ]);
      expect(r.ids, text).toEqual(['ev_000000004', 'ev_000000005', 'ev_000000006']);
      // every acknowledged event is there after the restart; the line is still named, with where ids now go on
      expect(r.after.ids, text).toEqual([1, 2, 3, 4, 5, 6].map((n) => `ev_00000000${n}`));
      expect(r.after.warnings, text).toEqual([
        expect.stringMatching(
          /line 1: the header's nextSeq .* ignored; ids continue at ev_000000007/,
        ),
      ]);
    }
  });

  it('negative or fractional: named and ignored', async () => {
    for (const text of ['-5', '2.5']) {
      const log = await open(await journalOf(withHeader(text)));
      expect(log.loadWarnings(), text).toEqual([
        expect.stringContaining(`line 1: the header's nextSeq ${text} is no whole number`),
      ]);
      expect(log.peekNextSeq(), text).toBe(4);
      await log.close();
    }
  });

  it('a safe whole number more than 10^12 beyond the highest seq held: a damaged field, ignored', async () => {
    const log = await open(await journalOf(withHeader('9007199254740000')));
    expect(log.loadWarnings()).toEqual([
      expect.stringContaining(
        "line 1: the header's nextSeq 9007199254740000 is more than 10^12 beyond seq 3, the highest the file holds, farther than the ids any sandbox hands out: a damaged field, ignored; ids continue at ev_000000004",
      ),
    ]);
    expect(log.peekNextSeq()).toBe(4);
    await log.close();
  });

  it('beyond the seqs held but within 10^12 (events a reset or retention dropped before a compaction): believed', async () => {
    const log = await open(await journalOf(withHeader('1000000')));
    expect(log.loadWarnings()).toEqual([]);
    expect((await log.append(draft())).id).toBe('ev_001000000');
    await log.close();
  });
});

describe("a reset record's nextSeq", () => {
  it('past 2^53: the reset is applied, its nextSeq named and ignored', async () => {
    const dir = await journalOf((lines) => [
      ...lines,
      '{"reset":{"siteId":"demo42"},"nextSeq":1e21}',
    ]);
    const log = await open(dir);
    expect(log.all()).toEqual([]);
    expect(log.loadWarnings()).toEqual([
      expect.stringContaining(
        "line 5: this reset record's nextSeq 1e+21 is no whole number from 0 to 9007199254740991 (past that, ids are no longer exact): a damaged field, ignored (the reset itself is kept); ids continue at ev_000000004",
      ),
    ]);
    expect(log.peekNextSeq()).toBe(4);
    await log.close();
  });
});

describe('an event record past 10^15', () => {
  it('(an id an older version gave past 2^53) is skipped as damaged: ids continue after the seqs before it', async () => {
    const dir = await journalOf((lines) => [
      ...lines,
      lines[3]!.replace('"ev_000000003","seq":3', '"ev_9007199254740992","seq":9007199254740992'),
    ]);
    const log = await open(dir);
    expect(log.all().map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(log.loadWarnings()).toEqual([
      expect.stringContaining(
        'line 5: event field seq 9007199254740992 is past 10^15, beyond any seq the sandbox hands out (and past 2^53 ids are no longer exact); skipped',
      ),
    ]);
    expect(log.peekNextSeq()).toBe(4);
    await log.close();
  });
});
