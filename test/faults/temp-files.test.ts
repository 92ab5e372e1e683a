// A process killed mid-write leaves the temp file of a durable write (durable.ts: `.<name>.tmp`, synced,
// then renamed into place). It held nothing acknowledged, and stayed until the same file was written
// again, through any number of restarts. The next start removes those in the data directory, catalogs/
// and tls/ (uploads/ has its own sweep, which says whose upload each was), and nothing else.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanups, runCleanups, tempDir } from './fault-helpers';
import { startSandbox } from '../helpers/sandbox';

afterEach(runCleanups);

describe('temp files a killed process left', () => {
  it('are removed at the next start; other files, folders and links with such names are not', async () => {
    const dir = tempDir('temp-files-');
    const data = path.join(dir, 'data');
    const first = await startSandbox({ dataDir: data });
    await first.close();
    mkdirSync(path.join(data, 'catalogs'), { recursive: true });
    const left = [
      '.reset.json.tmp',
      '.indexing.json.tmp',
      '.search-responses.ndjson.tmp',
      '.health-probe.4242.tmp',
      'catalogs/.demo42-42.ndjson.tmp',
    ];
    const kept = ['notes.tmp', '.tmp', '.notes', 'catalogs/demo42-42.ndjson.tmp.txt'];
    for (const name of [...left, ...kept]) writeFileSync(path.join(data, name), 'x');
    // a folder, or a link, at a temp name is not a leftover of the sandbox's writes
    mkdirSync(path.join(data, '.folder.tmp'));
    symlinkSync(path.join(dir, 'nowhere'), path.join(data, '.link.tmp'));
    // a folder of the sandbox's that is a link elsewhere is not looked into
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, '.key.pem.tmp'), 'not the sandbox’s');
    symlinkSync(elsewhere, path.join(data, 'tls'));

    const second = await startSandbox({ dataDir: data });
    cleanups.push(() => second.close());
    for (const name of left) expect(existsSync(path.join(data, name)), name).toBe(false);
    for (const name of [...kept, '.folder.tmp'])
      expect(existsSync(path.join(data, name)), name).toBe(true);
    expect(() => symlinkSync('x', path.join(data, '.link.tmp'))).toThrow(/EEXIST/);
    expect(existsSync(path.join(elsewhere, '.key.pem.tmp'))).toBe(true);
  });
});
