// The NDJSON journal: group commit, durability before acknowledgement, reload (torn and garbled lines),
// resets that stay reset, retention and background compaction that never loses a retained event.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
  fdatasync,
  fdatasyncSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventLog } from '../../src/main/store/event-log';
import { JOURNAL_FILE, Journal, type JournalOptions } from '../../src/main/store/journal';
import { openEventStore } from '../../src/main/store/open-events';
import { tempDir } from '../helpers/sandbox';
import { renderDraft } from '../helpers/event-drafts';
import { seal, unseal } from '../../src/main/store/record-seal';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function dataDir(): string {
  const { dir, cleanup } = tempDir('store-journal-');
  cleanups.push(cleanup);
  return dir;
}

const draft = renderDraft;

async function open(dir: string, retention = 1000, options: JournalOptions = {}, hot?: number) {
  const log = new EventLog({ retention, ...(hot !== undefined && { hot }) });
  const journal = await Journal.open(dir, log, options);
  return { log, journal };
}

/** The journal's records as JSON, each line's checksum taken off (record-seal.ts). */
const fileLines = (dir: string) =>
  readFileSync(path.join(dir, JOURNAL_FILE), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => unseal(l).text);

/**
 * The journal rewritten as an older version wrote it, without checksums, with `damage` done to its lines:
 * how the reader's other checks are seen (a changed byte in a line that carries its checksum is caught
 * by that first; see "a record whose bytes changed").
 */
function rewriteUnsealed(file: string, damage: (line: string, i: number) => string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, lines.map((l, i) => damage(l && unseal(l).text, i)).join('\n'));
}

describe('Journal', () => {
  it('writes appends of one tick in one write() and acknowledges only what is in the file', async () => {
    const dir = dataDir();
    const { log, journal } = await open(dir);
    const stored = await Promise.all(
      Array.from({ length: 50 }, (_, i) => log.append(draft('demo42', i))),
    );
    expect(journal.stats).toMatchObject({ writes: 1, syncs: 1, records: 50 });
    // Acknowledged means in the file and synced, before any close.
    const lines = fileLines(dir);
    expect(lines).toHaveLength(51);
    expect(JSON.parse(lines[50]!)).toEqual(stored[49]);
    await log.append(draft());
    expect(journal.stats.writes).toBe(2);
    await log.close();
  });

  it('reloads events with their ids and continues seq after the last one', async () => {
    const dir = dataDir();
    const first = await open(dir);
    const a = await first.log.append(draft('aaaaaa', 1));
    const b = await first.log.append(draft('bbbbbb', 2));
    await first.log.close();

    const second = await open(dir);
    expect(second.log.all()).toEqual([a, b]);
    expect(second.log.query({ responseId: 'r1' })).toEqual([a]);
    expect(second.log.loadWarnings()).toEqual([]);
    expect((await second.log.append(draft())).seq).toBe(3);
    await second.log.close();
  });

  it('reads back a journal larger than its 1 MB read buffer, records spanning the chunks', async () => {
    const dir = dataDir();
    const first = await open(dir, 10_000);
    const big = (i: number) => ({
      ...draft('demo42', i),
      body: { pad: `${i}`.padEnd(1200 + (i % 7), 'x'), n: 'ü€'.repeat(i % 5) },
    });
    const written = await Promise.all(
      Array.from({ length: 2500 }, (_, i) => first.log.append(big(i))),
    );
    await first.log.close();
    const second = await open(dir, 10_000);
    expect(second.log.loadWarnings()).toEqual([]);
    expect(second.log.all()).toEqual(written);
    await second.log.close();
  });

  it('skips a torn last line with a warning, keeps its bytes aside, truncates it, and appends on a clean line', async () => {
    const dir = dataDir();
    const first = await open(dir);
    await first.log.append(draft('demo42', 1));
    await first.log.close();
    appendFileSync(
      path.join(dir, JOURNAL_FILE),
      '{"id":"ev_000000002","seq":2,"receivedAt":"2026-',
    );

    const second = await open(dir);
    expect(second.log.size()).toBe(1);
    expect(second.log.loadWarnings()).toHaveLength(1);
    expect(second.log.loadWarnings()[0]).toMatch(
      /line 3: incomplete record at the end of the file: either a write cut short by a crash \(not acknowledged: appends are acknowledged once on disk\), or the file was cut here \(a copy or restore that stopped early, a disk fault\) and the records after it are lost too, their number unknown; its 48 bytes were cut off and kept in \S+events\.ndjson\.damaged-\S+; ids continue at ev_000000003 \(should records after it be lost, ids they had may be handed out again\)/,
    );
    const aside = readdirSync(dir).filter((n) => n.startsWith(`${JOURNAL_FILE}.damaged-`));
    expect(aside.map((n) => readFileSync(path.join(dir, n), 'utf8'))).toEqual([
      '{"id":"ev_000000002","seq":2,"receivedAt":"2026-',
    ]);
    // the seq the torn record may have been given is not handed out again
    const next = await second.log.append(draft('demo42', 2));
    expect(next.seq).toBe(3);
    await second.log.close();

    const third = await open(dir);
    expect(third.log.all().map((e) => e.seq)).toEqual([1, 3]);
    expect(third.log.loadWarnings()).toEqual([
      expect.stringContaining(`${aside[0]} holds the damaged end cut off the journal`),
    ]);
    await third.log.close();
  });

  it('says so when the journal is empty or has no header line', async () => {
    const empty = dataDir();
    writeFileSync(path.join(empty, JOURNAL_FILE), '');
    const first = await open(empty);
    expect(first.log.loadWarnings()).toEqual([
      expect.stringMatching(/events\.ndjson was empty \(not even its header line\)/),
    ]);
    await first.log.close();

    const headless = dataDir();
    const written = await open(headless);
    await written.log.append(draft());
    await written.log.close();
    const file = path.join(headless, JOURNAL_FILE);
    writeFileSync(file, fileLines(headless).slice(1).join('\n') + '\n');
    const second = await open(headless);
    expect(second.log.size()).toBe(1);
    expect(second.log.loadWarnings()).toEqual([
      expect.stringMatching(/events\.ndjson has no header line/),
    ]);
    await second.log.close();
  });

  it('keeps a whole last record that lost only its newline', async () => {
    const dir = dataDir();
    const first = await open(dir);
    const a = await first.log.append(draft());
    await first.log.close();
    const file = path.join(dir, JOURNAL_FILE);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n$/, ''));
    const second = await open(dir);
    expect(second.log.all()).toEqual([a]);
    await second.log.append(draft());
    await second.log.close();
    expect(fileLines(dir).map((l) => JSON.parse(l).seq)).toEqual([undefined, 1, 2]);
  });

  it('skips garbled and foreign lines in the middle, reporting each, never failing to start', async () => {
    const dir = dataDir();
    const first = await open(dir);
    await first.log.append(draft());
    await first.log.close();
    appendFileSync(path.join(dir, JOURNAL_FILE), 'garbage\n[1,2]\n{"id":"x"}\n');
    const second = await open(dir);
    await second.log.append(draft());
    await second.log.close();
    const third = await open(dir);
    expect(third.log.all().map((e) => e.seq)).toEqual([1, 2]);
    const warnings = third.log.loadWarnings();
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/line 3: not valid JSON/);
    expect(warnings[1]).toMatch(/line 4: not a JSON object/);
    expect(warnings[2]).toMatch(
      /line 5: event field seq|line 5: event without a positive integer seq/,
    );
    await third.log.close();
  });

  describe('resynchronises after a damaged record in the middle', () => {
    /** A journal of ten events, the record at `line` (1 = the first event) changed by `damage`. */
    async function damaged(line: number, damage: (text: string) => string) {
      const dir = dataDir();
      const first = await open(dir);
      for (let i = 0; i < 10; i++) await first.log.append(draft('demo42', i));
      await first.log.close();
      // lines[0] is the header
      rewriteUnsealed(path.join(dir, JOURNAL_FILE), (l, i) => (i === line ? damage(l) : l));
      const second = await open(dir);
      const seqs = second.log.all().map((e) => e.seq);
      const warnings = second.log.loadWarnings();
      const next = await second.log.append(draft());
      await second.log.close();
      return { seqs, warnings, next: next.seq };
    }
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

    it('a seq corrupted upwards: that record is skipped and named, every later one kept', async () => {
      const r = await damaged(5, (t) => t.replace('"seq":5', '"seq":99999'));
      expect(r.seqs).toEqual(all.filter((s) => s !== 5));
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toMatch(/line 6: seq 99999 disagrees with its id ev_000000005 /);
      // ids continue after the last intact record, not after the damaged seq
      expect(r.next).toBe(11);
      // id and seq damaged alike: its neighbours tell
      const both = await damaged(5, (t) =>
        t.replace('"id":"ev_000000005","seq":5', '"id":"ev_000099999","seq":99999'),
      );
      expect(both.seqs).toEqual(all.filter((s) => s !== 5));
      expect(both.warnings[0]).toMatch(/line 6: seq 99999 is out of line .*4 before, 6 after/);
    });

    it('a seq corrupted downwards, and a field corrupted in the middle of a record', async () => {
      const down = await damaged(5, (t) => t.replace('"seq":5', '"seq":2'));
      expect(down.seqs).toEqual(all.filter((s) => s !== 5));
      expect(down.warnings[0]).toMatch(/line 6: seq 2 disagrees with its id ev_000000005 /);
      const field = await damaged(3, (t) => t.replace('"accepted":true', '"accepted":tru'));
      expect(field.seqs).toEqual(all.filter((s) => s !== 3));
      expect(field.warnings[0]).toMatch(/line 4: not valid JSON/);
    });

    it('a seq damaged downwards onto its neighbour: the record whose id disagrees is skipped', async () => {
      const r = await damaged(6, (t) => t.replace('"seq":6,', '"seq":5,'));
      expect(r.seqs).toEqual(all.filter((s) => s !== 6));
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toMatch(
        /line 7: seq 5 disagrees with its id ev_000000006 .*: a damaged record/,
      );
    });

    it('a seq damaged upwards on the last record: skipped and named, ids continue after its id', async () => {
      const r = await damaged(10, (t) => t.replace('"seq":10,', '"seq":999,'));
      expect(r.seqs).toEqual(all.filter((s) => s !== 10));
      expect(r.warnings[0]).toMatch(/line 11: seq 999 disagrees with its id ev_000000010/);
      expect(r.next).toBe(11);
      // its id damaged instead, in the middle: the next intact record shows the id was the wrong one
      const id = await damaged(5, (t) => t.replace('"id":"ev_000000005"', '"id":"ev_000000777"'));
      expect(id.seqs).toEqual(all.filter((s) => s !== 5));
      expect(id.next).toBe(11);
    });

    it('a zeroed block: the warning says which seqs it held, without printing the zero bytes', async () => {
      const dir = dataDir();
      const first = await open(dir);
      for (let i = 0; i < 30; i++) await first.log.append(draft('demo42', i));
      await first.log.close();
      const file = path.join(dir, JOURNAL_FILE);
      const bytes = readFileSync(file);
      const lines = bytes.toString('utf8').split('\n');
      const at = lines.slice(0, 10).join('\n').length + 1 + 50; // inside the 10th event (seq 10)
      const end = lines.slice(0, 18).join('\n').length + 1 + 20; // inside the 18th event (seq 18)
      bytes.fill(0, at, end);
      writeFileSync(file, bytes);
      const second = await open(dir);
      expect(second.log.all().map((e) => e.seq)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1).filter((s) => s < 10 || s > 18),
      );
      const warnings = second.log.loadWarnings();
      expect(warnings.join('\n')).not.toContain('\\u0000');
      expect(warnings.join('\n')).not.toContain('\0');
      expect(warnings.join('\n')).toMatch(/seq 10 to 18 \(9 events\) are missing/);
      expect(warnings.join('\n')).toMatch(/\d+ zero bytes/);
      await second.log.close();
    });

    it('a record its export could not be imported or checked with (its body gone) is skipped and named', async () => {
      const r = await damaged(4, (t) => JSON.stringify({ ...JSON.parse(t), body: undefined }));
      expect(r.seqs).toEqual(all.filter((s) => s !== 4));
      expect(r.warnings[0]).toMatch(/line 5: event field body is missing/);
    });

    it('two records glued together by a lost newline are both kept', async () => {
      const dir = dataDir();
      const first = await open(dir);
      for (let i = 0; i < 4; i++) await first.log.append(draft('demo42', i));
      await first.log.close();
      const file = path.join(dir, JOURNAL_FILE);
      const text = readFileSync(file, 'utf8');
      const second = text.indexOf('\n', text.indexOf('\n') + 1);
      writeFileSync(file, `${text.slice(0, second)}#${text.slice(second + 1)}`);
      const again = await open(dir);
      expect(again.log.all().map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(again.log.loadWarnings()[0]).toMatch(/line 2: .*2 whole records in it kept/);
      await again.log.close();
    });
  });

  describe('a record whose bytes changed (each line carries its checksum)', () => {
    /** Ten events journaled, `damage` done to the bytes of line `line` (0: the header), the journal opened again. */
    async function changed(line: number, damage: (bytes: Buffer) => Buffer) {
      const dir = dataDir();
      const first = await open(dir);
      for (let i = 0; i < 10; i++) await first.log.append(draft('demo42', i));
      await first.log.close();
      const file = path.join(dir, JOURNAL_FILE);
      const lines = readFileSync(file, 'latin1').split('\n');
      lines[line] = damage(Buffer.from(lines[line]!, 'latin1')).toString('latin1');
      writeFileSync(file, lines.join('\n'), 'latin1');
      const second = await open(dir);
      const events = second.log.all();
      const warnings = second.log.loadWarnings();
      const next = await second.log.append(draft());
      await second.log.close();
      return { events, warnings, next: next.seq, file };
    }
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

    it('a value changed that still reads as JSON is skipped and named, never loaded as another event', async () => {
      const r = await changed(5, (b) =>
        Buffer.from(b.toString('latin1').replace('"demo42"', '"demo4q"'), 'latin1'),
      );
      expect(r.events.map((e) => e.seq)).toEqual(all.filter((s) => s !== 5));
      expect(r.events.some((e) => e.siteId === 'demo4q')).toBe(false);
      expect(r.warnings[0]).toMatch(
        /^events journal .*events\.ndjson, line 6: its checksum is [0-9a-f]{8}, not the [0-9a-f]{8} it was written with: its bytes changed on disk since \(it reads as event ev_000000005, seq 5, not to be trusted: not loaded; the file's other records are\. .*check the disk, and restore the file from a backup to have the record back; .*\); skipped \(/,
      );
      // the seq it held is not handed out again
      expect(r.next).toBe(11);
    });

    it('a byte that is no UTF-8 (read as U+FFFD) is caught the same way', async () => {
      const r = await changed(3, (b) => {
        const at = b.indexOf('pageLoadId') + 14;
        return Buffer.concat([b.subarray(0, at), Buffer.from([0xff]), b.subarray(at + 1)]);
      });
      expect(r.events.map((e) => e.seq)).toEqual(all.filter((s) => s !== 3));
      expect(r.warnings[0]).toMatch(
        /line 4: its checksum is .* \(it reads as event ev_000000003, seq 3,/,
      );
    });

    it('a byte changed in the checksum field itself is damage, not a record without one', async () => {
      const r = await changed(7, (b) =>
        Buffer.from(b.toString('latin1').replace('{"crc"', '{"crx"'), 'latin1'),
      );
      expect(r.events.map((e) => e.seq)).toEqual(all.filter((s) => s !== 7));
      expect(r.warnings[0]).toMatch(/line 8: its checksum field is damaged \("\{\\"crx\\":/);
    });

    it('a journal an older version wrote (no checksums) loads whole, and what is appended to it carries them', async () => {
      const dir = dataDir();
      const first = await open(dir);
      for (let i = 0; i < 5; i++) await first.log.append(draft('demo42', i));
      await first.log.close();
      const file = path.join(dir, JOURNAL_FILE);
      rewriteUnsealed(file, (l) => l);
      expect(readFileSync(file, 'utf8')).not.toContain('"crc"');
      const second = await open(dir);
      expect(second.log.loadWarnings()).toEqual([]);
      expect(second.log.all().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      await second.log.append(draft('demo42', 5));
      await second.log.close();
      const raw = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      expect(raw.at(-1)).toBe(seal(unseal(raw.at(-1)!).text));
      expect(raw.at(-1)).toMatch(/^\{"crc":"[0-9a-f]{8}","id":"ev_000000006",/);
      const third = await open(dir);
      expect(third.log.loadWarnings()).toEqual([]);
      expect(third.log.all().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      await third.log.close();
    });

    it('a compaction writes every line with its checksum', async () => {
      const dir = dataDir();
      const { log, journal } = await open(dir, 10, { compactSlack: 5 });
      for (let i = 0; i < 40; i++) await log.append(draft('demo42', i));
      await journal.settled();
      expect(journal.stats.compactions).toBeGreaterThan(0);
      await log.close();
      const raw = readFileSync(path.join(dir, JOURNAL_FILE), 'utf8').split('\n').filter(Boolean);
      for (const line of raw) {
        expect(line).toMatch(/^\{"crc":"[0-9a-f]{8}",/);
        expect(unseal(line).problem).toBeNull();
      }
    });
  });

  describe('an import is all or nothing across a restart', () => {
    /** Two events, then an import (a reset and three events) with a beacon in the middle of it. */
    async function importing(end: 'commit' | 'abort' | 'none') {
      const dir = dataDir();
      const first = await open(dir);
      await first.log.append(draft('before', 1));
      await first.log.append(draft('before', 2));
      const id = await first.log.beginImport();
      await first.log.reset(undefined, id);
      await first.log.append(draft('imported', 3), id);
      await first.log.append(draft('beacon', 4)); // acknowledged while the import runs
      await first.log.append(draft('imported', 5), id);
      await first.log.append(draft('imported', 6), id);
      if (end !== 'none') await first.log.endImport(id, end);
      await first.log.close();
      const second = await open(dir);
      const sites = second.log.all().map((e) => e.siteId);
      const warnings = second.log.loadWarnings();
      const next = (await second.log.append(draft())).seq;
      await second.log.close();
      return { sites, warnings, next };
    }

    it('committed: the state after it, with the beacon received meanwhile', async () => {
      const r = await importing('commit');
      expect(r.sites).toEqual(['imported', 'beacon', 'imported', 'imported']);
      expect(r.warnings).toEqual([]);
    });

    it('never completed (the process stopped, or it failed): the state before it, with the beacon', async () => {
      for (const end of ['none', 'abort'] as const) {
        const r = await importing(end);
        expect(r.sites, end).toEqual(['before', 'before', 'beacon']);
        expect(r.next, end).toBe(7); // ids of the undone events are not handed out again
      }
      // the process stopped during it: the start that undoes it says so
      const stopped = await importing('none');
      expect(stopped.warnings).toHaveLength(1);
      expect(stopped.warnings[0]).toMatch(
        /line 4: an import that did not complete .* was undone: its 3 events and its reset are not restored/,
      );
      // it failed, and its answer said it is undone at the next start: not said again
      expect((await importing('abort')).warnings).toEqual([]);
    });

    it('an import undone at one start is said once: later starts read its abort marker and say nothing', async () => {
      const dir = dataDir();
      const first = await open(dir);
      await first.log.append(draft('before', 1));
      const id = await first.log.beginImport();
      await first.log.append(draft('imported', 2), id);
      await first.log.append(draft('imported', 3), id);
      await first.log.close(); // the process stopped before the import's end
      const second = await open(dir);
      expect(second.log.loadWarnings()).toEqual([
        expect.stringMatching(/line 3: an import that did not complete .* was undone/),
      ]);
      await second.log.append(draft('after', 4));
      await second.log.close();
      for (const start of [3, 4]) {
        const again = await open(dir);
        expect(again.log.loadWarnings(), `start ${start}`).toEqual([]);
        expect(again.log.all().map((e) => e.siteId)).toEqual(['before', 'after']);
        expect(again.log.peekNextSeq()).toBe(5);
        await again.log.close();
      }
    });
  });

  describe('a damaged marker of an import', () => {
    /** Two events, a reset, an import (with a replacing reset or not) of three, then a beacon after its answer. */
    async function imported(replace: boolean, after = true) {
      const dir = dataDir();
      const first = await open(dir);
      await first.log.append(draft('before', 1));
      await first.log.reset();
      await first.log.append(draft('before', 2));
      const id = await first.log.beginImport();
      if (replace) await first.log.reset(undefined, id);
      for (const n of [3, 4, 5]) await first.log.append(draft('imported', n), id);
      await first.log.endImport(id, 'commit');
      if (after) await first.log.append(draft('after', 6));
      await first.log.close();
      return dir;
    }
    async function reopened(dir: string, damage: (line: string, i: number) => string) {
      const file = path.join(dir, JOURNAL_FILE);
      rewriteUnsealed(file, damage);
      const again = await open(dir);
      const sites = again.log.all().map((e) => e.siteId);
      const warnings = again.log.loadWarnings();
      const next = (await again.log.append(draft())).seq;
      await again.log.close();
      return { sites, warnings, next };
    }
    const garble = (l: string) => l.replace('{"', '{!"');

    it('a garbled commit marker keeps the acknowledged import, and says so', async () => {
      const dir = await imported(false);
      const r = await reopened(dir, (l) => (l.includes('"commit":true') ? garble(l) : l));
      expect(r.sites).toEqual(['before', 'imported', 'imported', 'imported', 'after']);
      expect(r.warnings.join('\n')).toMatch(/commit marker/);
      expect(r.warnings.join('\n')).toMatch(/its 3 events are kept/);
      expect(r.warnings.join('\n')).not.toMatch(/undone|reset/);
      expect(r.next).toBe(7);
    });

    it('a commit marker zeroed beyond reading keeps the import too, with the doubt said', async () => {
      const dir = await imported(true);
      const r = await reopened(dir, (l) =>
        l.includes('"commit":true') ? '\u0000'.repeat(l.length) : l,
      );
      expect(r.sites).toEqual(['imported', 'imported', 'imported', 'after']);
      expect(r.warnings.join('\n')).toMatch(/its 3 events and its reset are kept/);
    });

    it('an import whose last record stands at the end (the process stopped) is still undone', async () => {
      const dir = await imported(false, false);
      const r = await reopened(dir, (l) => (l.includes('"commit":true') ? '' : l));
      expect(r.sites).toEqual(['before']);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toMatch(/undone: its 3 events are not restored/);
      expect(r.warnings[0]).not.toMatch(/reset/);
    });

    it('an import undone at one start stays undone when a line after it is damaged later', async () => {
      const dir = await imported(false, false);
      const file = path.join(dir, JOURNAL_FILE);
      // the process stopped before the commit marker: the next start undoes the import
      writeFileSync(file, readFileSync(file, 'utf8').replace(/.*"commit":true.*\n/, ''));
      const second = await open(dir);
      expect(second.log.all().map((e) => e.siteId)).toEqual(['before']);
      await second.log.append(draft('later', 7));
      await second.log.append(draft('later', 8));
      await second.log.close();
      const r = await reopened(dir, (l) => (l.includes('"p7"') ? garble(l) : l));
      expect(r.sites).toEqual(['before', 'later']);
      // the damaged line is named; the import, undone and said at the start before, is not again
      expect(r.warnings.join('\n')).toMatch(/not valid JSON .*; skipped/);
      expect(r.warnings.join('\n')).not.toMatch(/undone/);
    });

    it('a garbled abort marker still undoes the import', async () => {
      const dir = dataDir();
      const first = await open(dir);
      await first.log.append(draft('before', 1));
      const id = await first.log.beginImport();
      await first.log.append(draft('imported', 2), id);
      await first.log.endImport(id, 'abort');
      await first.log.append(draft('after', 3));
      await first.log.close();
      const r = await reopened(dir, (l) => (l.includes('"abort":true') ? garble(l) : l));
      expect(r.sites).toEqual(['before', 'after']);
      expect(r.warnings.join('\n')).toMatch(
        /undone: its 1 event are not restored|undone: its 1 event is not restored/,
      );
    });

    it('a garbled reset record is read back as the reset it was', async () => {
      const dir = await imported(false);
      const r = await reopened(dir, (l, i) => (i > 0 && l.startsWith('{"reset"') ? garble(l) : l));
      expect(r.sites).toEqual(['before', 'imported', 'imported', 'imported', 'after']);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toMatch(
        /line 3: a damaged reset record .*read as a reset of every site; kept/,
      );
    });

    it('a reset record whose site was damaged is not read as a reset of another site', async () => {
      const dir = dataDir();
      const first = await open(dir);
      await first.log.append(draft('aaaaaa', 1));
      await first.log.reset('aaaaaa');
      await first.log.append(draft('bbbbbb', 2));
      await first.log.close();
      const r = await reopened(dir, (l) =>
        l.replace('"siteId":"aaaaaa"}', '"siteId":"aa\u0000aaa"}'),
      );
      expect(r.sites).toEqual(['aaaaaa', 'bbbbbb']);
      expect(r.warnings[0]).toMatch(
        /line 3: .*a reset record that could not be read: events it removed may be back/,
      );
      expect(r.warnings[0]).not.toContain('\0');
    });

    it('a reset record damaged beyond reading: the warning says removed events may be back', async () => {
      const dir = await imported(false);
      const r = await reopened(dir, (l) =>
        l.startsWith('{"reset"') ? l.replace('"nextSeq":', '"nextS#q"') : l,
      );
      expect(r.sites).toEqual(['before', 'before', 'imported', 'imported', 'imported', 'after']);
      expect(r.warnings[0]).toMatch(
        /line 3: .*a reset record that could not be read: events it removed may be back/,
      );
    });
  });

  it('keeps resets across restarts and never reuses an id', async () => {
    const dir = dataDir();
    const first = await open(dir);
    await first.log.append(draft('aaaaaa'));
    const b = await first.log.append(draft('bbbbbb'));
    await first.log.reset('aaaaaa');
    await first.log.close();

    const second = await open(dir);
    expect(second.log.all()).toEqual([b]);
    await second.log.reset();
    await second.log.close();

    const third = await open(dir);
    expect(third.log.size()).toBe(0);
    expect((await third.log.append(draft())).id).toBe('ev_000000003');
    await third.log.close();
  });

  it('applies retention on reload and compacts the file in the background', async () => {
    const dir = dataDir();
    const first = await open(dir, 10, { compactSlack: 5, compactChunk: 3 });
    for (let i = 0; i < 100; i++) await first.log.append(draft('demo42', i));
    await first.journal.settled();
    expect(first.journal.stats.compactions).toBeGreaterThan(0);
    expect(fileLines(dir).length).toBeLessThanOrEqual(2 * 10 + 5 + 1);
    await first.log.close();
    expect(existsSync(path.join(dir, `${JOURNAL_FILE}.compact`))).toBe(false);

    const second = await open(dir, 10);
    expect(second.log.all().map((e) => e.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => 91 + i),
    );
    expect((await second.log.append(draft())).seq).toBe(101);
    await second.log.close();
  });

  it('loses no acknowledged event when appends and resets race a compaction', async () => {
    const dir = dataDir();
    const first = await open(dir, 50, { compactSlack: 20, compactChunk: 7 });
    let resetAt = 0;
    for (let round = 0; round < 60; round++) {
      const batch = Array.from({ length: 1 + (round % 9) }, (_, i) =>
        first.log.append(draft(round % 4 ? 'keep01' : 'drop01', i)),
      );
      if (round === 40) {
        await first.log.reset('drop01');
        resetAt = first.log.peekNextSeq();
      }
      await Promise.all(batch);
    }
    // the one under way finishes (its file reaches the disk on another thread) while appends go on
    for (let i = 0; first.journal.compacting; i++)
      await first.log.append(draft(i % 4 ? 'keep01' : 'drop01', i));
    const live = first.log.all().map((e) => e.seq);
    await first.log.close();
    expect(first.journal.stats.compactions).toBeGreaterThan(0);
    expect(first.journal.stats.writtenDuringCompaction).toBeGreaterThan(0);

    const second = await open(dir, 50);
    expect(second.log.all().map((e) => e.seq)).toEqual(live);
    const dropped = second.log.query({ siteId: 'drop01' }).map((e) => e.seq);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((seq) => seq >= resetAt)).toBe(true);
    await second.log.close();
  });

  it('compacts and reloads events kept compact (cold) as the events they were', async () => {
    const dir = dataDir();
    // every event but the newest is cold as soon as a block of them is
    const first = await open(dir, 300, { compactSlack: 10, compactChunk: 50 }, 0);
    for (let i = 0; i < 700; i++) await first.log.append(draft(i % 2 ? 'demo42' : 'other9', i));
    await first.journal.settled();
    expect(first.journal.stats.compactions).toBeGreaterThan(0);
    const live = first.log.all();
    expect((first.log as unknown as { cold: number }).cold).toBeGreaterThan(100);
    await first.log.close();
    const second = await open(dir, 300, {}, 0);
    expect(second.log.all()).toEqual(live);
    // the compacted file holds each event's line as JSON.stringify wrote it when it was appended
    expect(fileLines(dir).slice(-300)).toEqual(live.map((e) => JSON.stringify(e)));
    await second.log.close();
  });

  it('reloads a line that carries the real service’s answer inline as the event, cold or not', async () => {
    // the store compacts a line the journal read back as it was read, except one with the answer in it:
    // the answer is kept beside the compact line, so that line is made again without it
    const dir = dataDir();
    const first = await open(dir, 300, {}, 0);
    for (let i = 0; i < 40; i++) await first.log.append(draft('demo42', i));
    await first.log.close();
    const answer = {
      url: 'https://beacon.example/x',
      outcome: 'accepted',
      status: 200,
      body: null,
      at: '2026-11-21T05:00:00.003Z',
      ms: 3,
    };
    const lines = fileLines(dir);
    const withAnswer = lines.map((line, i) =>
      i === 3 ? `${line.slice(0, -1)},"upstream":${JSON.stringify(answer)}}` : line,
    );
    writeFileSync(path.join(dir, JOURNAL_FILE), `${withAnswer.join('\n')}\n`);
    const second = await open(dir, 300, {}, 0);
    expect((second.log as unknown as { cold: number }).cold).toBeGreaterThanOrEqual(32);
    const events = second.log.all();
    expect(events[2]!.upstream).toEqual(answer);
    expect(events.filter((e) => e.upstream !== undefined)).toHaveLength(1);
    const snapshot = second.log.snapshot();
    expect(snapshot.lines(0, snapshot.length)).toEqual(events.map((e) => JSON.stringify(e)));
    await second.log.close();
  });

  it('carries the writes made during a compaction into the compacted file', async () => {
    const dir = dataDir();
    // each append synced for real, and acknowledged on the next turn: a slow disk could otherwise let the
    // compaction end before the appends below are written
    const nextTurn = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      fdatasyncSync(fd);
      setImmediate(() => done(null));
    };
    const first = await open(dir, 20, { compactSlack: 10, compactChunk: 5, datasync: nextTurn });
    // 50 events + header exceed 2 × 20 + 10 lines: a compaction of the 20 retained starts after this.
    for (let i = 0; i < 50; i++) await first.log.append(draft('demo42', i));
    expect(first.journal.compacting).toBe(true);
    for (let i = 50; i < 60; i++) await first.log.append(draft('demo42', i));
    await first.journal.settled();
    expect(first.journal.stats).toMatchObject({ compactions: 1 });
    expect(first.journal.stats.writtenDuringCompaction).toBeGreaterThan(0);
    await first.log.close();

    const second = await open(dir, 20);
    expect(second.log.all().map((e) => e.seq)).toEqual(
      Array.from({ length: 20 }, (_, i) => 41 + i),
    );
    await second.log.close();
  });

  it('after a failed compaction tries again once the file has grown by the slack, not at every write', async () => {
    const dir = dataDir();
    const first = await open(dir, 10, { compactSlack: 20, compactChunk: 5 });
    // the temp file cannot be made (a directory stands in its place), as on a full or read-only disk
    mkdirSync(path.join(dir, `${JOURNAL_FILE}.compact`));
    const failed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const attempts = () =>
        failed.mock.calls.filter((c) => String(c[0]).includes('compacting')).length;
      // 1 header + 40 records: over 2 × 10 + 20 lines, the first compaction starts and fails
      for (let i = 0; i < 40; i++) await first.log.append(draft('demo42', i));
      await first.journal.settled();
      expect(attempts()).toBe(1);
      expect(String(failed.mock.calls[0]![0])).toMatch(/intact; tried again after 20 more records/);
      // 19 more writes, each of which would have started one: none until 20 more lines are in the file
      for (let i = 40; i < 59; i++) await first.log.append(draft('demo42', i));
      await first.journal.settled();
      expect(attempts()).toBe(1);
      await first.log.append(draft('demo42', 59));
      await first.journal.settled();
      expect(attempts()).toBe(2);
      // the disk is back: the next try compacts, and every acknowledged retained event is still there
      rmSync(path.join(dir, `${JOURNAL_FILE}.compact`), { recursive: true });
      for (let i = 60; i < 80; i++) await first.log.append(draft('demo42', i));
      await first.journal.settled();
      expect(first.journal.stats.compactions).toBe(1);
      expect(fileLines(dir).length).toBeLessThanOrEqual(2 * 10 + 20 + 1);
    } finally {
      failed.mockRestore();
    }
    const live = first.log.all().map((e) => e.seq);
    await first.log.close();
    const second = await open(dir, 10);
    expect(second.log.all().map((e) => e.seq)).toEqual(live);
    await second.log.close();
  });

  it('removes a compaction temp file left by a crash, and openEventStore with dataDir null writes nothing', async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, `${JOURNAL_FILE}.compact`), 'half a compaction');
    const { log } = await open(dir);
    expect(existsSync(path.join(dir, `${JOURNAL_FILE}.compact`))).toBe(false);
    await log.close();

    const memory = await openEventStore({ dataDir: null, retention: 5 });
    await memory.append(draft());
    expect(memory.size()).toBe(1);
    await memory.close();
  });
});

describe('Journal durability', () => {
  it('acknowledges an append only once an fdatasync begun after its write returned; one sync at a time', async () => {
    const dir = dataDir();
    const syncs: Array<{ lines: number; done: (err: NodeJS.ErrnoException | null) => void }> = [];
    const held = (_fd: number, done: (err: NodeJS.ErrnoException | null) => void) =>
      void syncs.push({ lines: fileLines(dir).length, done });
    const { log, journal } = await open(dir, 100, { datasync: held });
    let acked = 0;
    const first = log.append(draft('demo42', 1)).then(() => acked++);
    await new Promise((r) => setTimeout(r, 20));
    // written, its sync under way: not acknowledged, not visible
    expect(fileLines(dir)).toHaveLength(2);
    expect(syncs.map((s) => s.lines)).toEqual([2]);
    expect(acked).toBe(0);
    expect(log.all()).toEqual([]);
    // written while that sync runs: waits for a second sync, begun only after the first ended
    const second = log.append(draft('demo42', 2)).then(() => acked++);
    await new Promise((r) => setTimeout(r, 20));
    expect(fileLines(dir)).toHaveLength(3);
    expect(syncs).toHaveLength(1);
    syncs[0]!.done(null);
    await first;
    expect(acked).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(syncs.map((s) => s.lines)).toEqual([2, 3]);
    expect(acked).toBe(1);
    syncs[1]!.done(null);
    await second;
    expect(log.all().map((e) => e.seq)).toEqual([1, 2]);
    expect(journal.stats.syncs).toBe(2);
    await log.close();
  });

  it('refuses the records of a failed sync as the data directory’s problem, and goes on', async () => {
    const dir = dataDir();
    let failNext = false;
    const flaky = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      if (!failNext) return fdatasync(fd, done);
      failNext = false;
      done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    };
    const { log } = await open(dir, 100, { datasync: flaky });
    const a = await log.append(draft('demo42', 1));
    failNext = true;
    const failed = await log.append(draft('demo42', 2)).catch((err: unknown) => err);
    expect(String(failed)).toMatch(/events\.ndjson cannot be written/);
    expect(log.all()).toEqual([a]);
    const b = await log.append(draft('demo42', 3));
    expect(log.all()).toEqual([a, b]);
    await log.close();
  });
});

describe('Journal write failures', () => {
  it('rejects a batch whose write fails (disk full), cuts it off the file, and keeps going', async () => {
    const dir = dataDir();
    let failNext = false;
    const flaky = (fd: number, buf: Buffer, off: number, len: number) => {
      if (!failNext) return writeSync(fd, buf, off, len);
      failNext = false;
      writeSync(fd, buf, off, Math.floor(len / 2)); // half of the batch reaches the disk, then it is full
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    const first = await open(dir, 100, { writeSync: flaky });
    const a = await first.log.append(draft('demo42', 1));
    failNext = true;
    const failed = await Promise.allSettled([
      first.log.append(draft('demo42', 2)),
      first.log.append(draft('demo42', 3)),
    ]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(
      /events\.ndjson cannot be written: the disk is full \(ENOSPC\)/,
    );
    expect(first.log.all()).toEqual([a]);
    const b = await first.log.append(draft('demo42', 4));
    await first.log.close();

    const second = await open(dir, 100);
    // The failed batch was cut off the file: not acknowledged, so not resurrected either.
    expect(second.log.all()).toEqual([a, b]);
    expect(second.log.loadWarnings()).toEqual([]);
    await second.log.close();
  });
});
