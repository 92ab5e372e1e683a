// The one way the sandbox keeps what it acknowledges outside the journal: a file replaced whole (its temp
// file synced under its temp name before the rename, then the directory), an append-only file whose
// appends are synced before they resolve, and failures that leave the old file and no temp file.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppendFile,
  removeFile,
  replaceFile,
  replaceFileSync,
  replaceOwnFile,
} from '../../src/main/store/durable';
import { tempDir } from '../helpers/sandbox';
import { watchSyncs, type SyncWatch } from '../helpers/synced-files';

const cleanups: Array<() => void> = [];
let watch: SyncWatch | undefined;
afterEach(() => {
  watch?.stop();
  watch = undefined;
  cleanups.splice(0).forEach((c) => c());
});

function dir(): string {
  const { dir, cleanup } = tempDir('durable-');
  cleanups.push(cleanup);
  return realpathSync(dir);
}

describe('durable files', () => {
  it('replaces a file whole: the temp file synced before its rename, then the directory', async () => {
    const d = dir();
    const file = path.join(d, 'answers.json');
    writeFileSync(file, 'old');
    watch = await watchSyncs();
    await replaceFile(file, 'new text');
    expect(readFileSync(file, 'utf8')).toBe('new text');
    expect(watch.synced).toEqual([`sync ${path.join(d, '.answers.json.tmp')}`, `sync ${d}`]);
    expect(readdirSync(d)).toEqual(['answers.json']);
  });

  it('writes a file given in pieces whole, pieces made as they are written', async () => {
    const d = dir();
    const file = path.join(d, 'catalog.ndjson');
    const made: number[] = [];
    function* pieces() {
      for (let i = 0; i < 3; i++) {
        made.push(i);
        yield `line ${i}\n`;
      }
    }
    watch = await watchSyncs();
    await replaceFile(file, pieces());
    expect(readFileSync(file, 'utf8')).toBe('line 0\nline 1\nline 2\n');
    expect(made).toEqual([0, 1, 2]);
    expect(watch.synced[0]).toBe(`sync ${path.join(d, '.catalog.ndjson.tmp')}`);
  });

  it('leaves the old file and no temp file when the rename fails', async () => {
    const d = dir();
    // a directory where the file should go: the rename fails after the temp file was written
    const file = path.join(d, 'taken');
    mkdirSync(file);
    await expect(replaceFile(file, 'text')).rejects.toThrow(file);
    expect(readdirSync(d)).toEqual(['taken']);
    const sync = () => replaceFileSync(file, 'text');
    expect(sync).toThrow();
    expect(readdirSync(d)).toEqual(['taken']);
  });

  it("replaces a user's own file with the same steps, made as their files are, the system's error on failure", async () => {
    const d = dir();
    const file = path.join(d, 'checkout.json');
    writeFileSync(file, 'old');
    watch = await watchSyncs();
    const umask = process.umask(0o022);
    try {
      await replaceOwnFile(file, 'new');
    } finally {
      process.umask(umask);
    }
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(watch.synced).toEqual([`sync ${path.join(d, '.checkout.json.tmp')}`, `sync ${d}`]);
    // a baseline beside a user's tests is readable as their other files are, not private to the sandbox
    expect(statSync(file).mode & 0o777).toBe(0o644);
    const taken = path.join(d, 'taken');
    mkdirSync(taken);
    // not a data directory's advice (the sandbox's --data): the system's own error, naming the file
    await expect(replaceOwnFile(taken, 'text')).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(d).sort()).toEqual(['checkout.json', 'taken']);
  });

  it('replaces a small file synchronously with the same steps', async () => {
    const d = dir();
    const file = path.join(d, 'settings.json');
    watch = await watchSyncs();
    replaceFileSync(file, '{"port": 4545}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"port": 4545}\n');
    expect(watch.synced).toEqual([`sync ${path.join(d, '.settings.json.tmp')}`, `sync ${d}`]);
    expect(readdirSync(d)).toEqual(['settings.json']);
  });

  it('syncs each append before it resolves, and a removal’s directory', async () => {
    const d = dir();
    const file = path.join(d, 'log.ndjson');
    const log = await AppendFile.open(file);
    watch = await watchSyncs();
    await log.append('a\n');
    expect(watch.synced).toEqual([`datasync ${file}`]);
    await log.replace(() => 'b\n');
    await log.append('c\n');
    expect(watch.synced.slice(1)).toEqual([
      `sync ${path.join(d, '.log.ndjson.tmp')}`,
      `sync ${d}`,
      `datasync ${file}`,
    ]);
    await log.close();
    expect(readFileSync(file, 'utf8')).toBe('b\nc\n');
    await removeFile(file);
    expect(watch.synced.at(-1)).toBe(`sync ${d}`);
    expect(readdirSync(d)).toEqual([]);
  });
});
