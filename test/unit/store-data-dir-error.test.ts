// Data-directory problems in one line: which file, what is wrong, what to do, for every fs error code
// the start-up can meet (some, like a full or read-only disk, cannot be produced on demand in a test).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asDataDirError, dataDirFailure, DataDirError } from '../../src/main/store/data-dir-error';
import { createCore } from '../../src/main/sandbox';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../../src/main/store/dir-lock';
import { tempDir, testConfig } from '../helpers/sandbox';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function fsError(code: string, syscall: string, file?: string): NodeJS.ErrnoException {
  const err = new Error(
    `${code}: some words, ${syscall}${file ? ` '${file}'` : ''}`,
  ) as NodeJS.ErrnoException;
  err.code = code;
  err.syscall = syscall;
  if (file) err.path = file;
  return err;
}

const OR_ELSEWHERE =
  'or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory';

describe('dataDirFailure', () => {
  it('says what to use instead in the words of whoever started the sandbox', () => {
    const err = dataDirFailure('/d/events.ndjson', fsError('EROFS', 'open'), 'write');
    const reworded = err.otherwise('or pass another dataDir');
    expect(reworded).toBeInstanceOf(DataDirError);
    expect(reworded.message).toBe(
      '/d/events.ndjson cannot be written: the file system is read-only (EROFS): put the data directory on a writable disk, or pass another dataDir',
    );
    expect([reworded.file, reworded.problem]).toEqual([err.file, err.problem]);
  });

  it('says a read-only file system, a full disk and a quota in the user’s words', () => {
    expect(dataDirFailure('/d/events.ndjson', fsError('EROFS', 'open'), 'write').message).toBe(
      `/d/events.ndjson cannot be written: the file system is read-only (EROFS): put the data directory on a writable disk, ${OR_ELSEWHERE}`,
    );
    expect(dataDirFailure('/d/indexing.json', fsError('ENOSPC', 'write'), 'write').message).toBe(
      `/d/indexing.json cannot be written: the disk is full (ENOSPC): free some space on that disk, ${OR_ELSEWHERE}`,
    );
    expect(dataDirFailure('/d/indexing.json', fsError('EDQUOT', 'write'), 'write').message).toBe(
      `/d/indexing.json cannot be written: the disk is full (EDQUOT): free some space on that disk, ${OR_ELSEWHERE}`,
    );
  });

  it('keeps the system’s words for a code it has no sentence for', () => {
    expect(dataDirFailure('/d/x', fsError('EMFILE', 'open', '/d/x'), 'read').message).toBe(
      `/d/x cannot be read (EMFILE: some words): check the file and its directory, ${OR_ELSEWHERE}`,
    );
  });

  it('names the file a temp file stands for, uses the fallback for a path-less write, and lets bugs through', () => {
    const tmp = asDataDirError(fsError('ENOSPC', 'open', '/d/.indexing.json.tmp')) as Error;
    expect(tmp).toBeInstanceOf(DataDirError);
    expect((tmp as DataDirError).file).toBe('/d/indexing.json');
    const handleWrite = asDataDirError(fsError('ENOSPC', 'write'), 'write', '/d/indexing.json');
    expect((handleWrite as DataDirError).file).toBe('/d/indexing.json');
    const bug = new TypeError('x is undefined');
    expect(asDataDirError(bug)).toBe(bug);
    expect(asDataDirError(fsError('ENOSPC', 'write'))).not.toBeInstanceOf(DataDirError);
  });
});

/** A data dir whose indexing.json is cut short (removed after the test). */
function damagedDataDir(): string {
  const t = tempDir('data-dir-error-');
  cleanups.push(t.cleanup);
  const data = path.join(t.dir, 'data');
  mkdirSync(data);
  writeFileSync(path.join(data, 'indexing.json'), '{"version":1,');
  return data;
}

describe('createCore on a damaged data directory', () => {
  it('closes what it opened: the lock is gone, the journal and the damaged file are as they were', async () => {
    const data = damagedDataDir();
    await expect(createCore(testConfig({ dataDir: data }))).rejects.toThrow(
      `${path.join(data, 'indexing.json')} is not valid JSON (`,
    );
    expect(existsSync(path.join(data, LOCK_FILE))).toBe(false);
    expect(readFileSync(path.join(data, 'indexing.json'), 'utf8')).toBe('{"version":1,');
    // the dir was locked first and the journal is read last (the timelines take its events as it is
    // read, once catalogs and responses are open): a start that failed before made no journal
    expect(readdirSync(data).sort()).toEqual(['indexing.json']);
  });

  it('locks the dir before it reads anything in it: a dir in use is said so, not its damaged files', async () => {
    const data = damagedDataDir();
    const release = lockDataDir(data);
    try {
      await expect(createCore(testConfig({ dataDir: data }))).rejects.toThrow(DataDirInUseError);
    } finally {
      release();
    }
    expect(readdirSync(data).sort()).toEqual(['indexing.json']);
  });
});
