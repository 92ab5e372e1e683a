// A data directory received from elsewhere ("here is my .search-sandbox", a backup) whose reset.json names
// files outside it: a start that finishes that reset must never remove or move them. Each such entry is
// refused and named in a start-up warning; the sandbox starts, and the rest of the reset is finished.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  appendFileSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanups, json, runCleanups, tempDir } from './fault-helpers';
import { startSandbox } from '../helpers/sandbox';

afterEach(runCleanups);

/** A data directory a sandbox started on and closed, beside files of the user's outside it. */
async function received(): Promise<{ dir: string; data: string }> {
  const dir = tempDir('reset-confined-');
  const data = path.join(dir, 'data');
  const first = await startSandbox({ dataDir: data });
  await first.close();
  return { dir, data };
}

/**
 * A committed reset with `names` to place and remove: its record in the journal, after the length
 * reset.json gives, as a reset that stopped after its commit point leaves them.
 */
function committedReset(data: string, names: { place: unknown[]; remove: unknown[] }): void {
  const journal = path.join(data, 'events.ndjson');
  const journalBytes = statSync(journal).size;
  appendFileSync(journal, '{"reset":{"siteId":"zzz999"},"nextSeq":1,"id":"0123abcd-e"}\n');
  writeFileSync(
    path.join(data, 'reset.json'),
    JSON.stringify({ id: '0123abcd-e', journalBytes, ...names }),
  );
}

/** A sandbox started on `data`: its start-up warnings, then closed. */
async function startWarnings(data: string): Promise<string[]> {
  const sandbox = await startSandbox({ dataDir: data });
  cleanups.push(() => sandbox.close());
  const { warnings } = await json<{ warnings: string[] }>(fetch(`${sandbox.url}/_sandbox/health`));
  return warnings;
}

describe('reset.json names a file outside the data directory', () => {
  it('by .., by an absolute path, or a file that is no upload or catalog: refused, named, and the rest finished', async () => {
    const { dir, data } = await received();
    const victim = path.join(dir, 'victim.txt');
    const absolute = path.join(dir, 'absolute.txt');
    const outsideAside = path.join(dir, 'outside-aside');
    for (const file of [victim, absolute, outsideAside]) writeFileSync(file, 'the user’s\n');
    const indexing = readFileSync(path.join(data, 'indexing.json'), 'utf8');
    mkdirSync(path.join(data, 'catalogs'), { recursive: true });
    writeFileSync(
      path.join(data, 'catalogs', 'demo42-99.removed'),
      'a catalog the reset removes\n',
    );
    committedReset(data, {
      place: [
        { aside: '../outside-aside', file: 'indexing.json' },
        { aside: outsideAside, file: 'search-responses.ndjson' },
      ],
      remove: [
        '../victim.txt',
        absolute,
        'catalogs/../../victim.txt',
        'indexing.json',
        'catalogs/demo42-99.removed',
      ],
    });

    const warnings = await startWarnings(data);
    // nothing outside was removed or moved in; what was refused inside stays as it was
    for (const file of [victim, absolute, outsideAside]) expect(existsSync(file), file).toBe(true);
    expect(readFileSync(path.join(data, 'indexing.json'), 'utf8')).toBe(indexing);
    const said = warnings.find((w) => w.includes('reset stopped midway'));
    expect(said, JSON.stringify(warnings)).toBeDefined();
    for (const entry of [
      `{"aside":"../outside-aside","file":"indexing.json"} in place: outside the data directory`,
      `${JSON.stringify({ aside: outsideAside, file: 'search-responses.ndjson' })} in place: an absolute path, outside the data directory`,
      `"../victim.txt" in remove: outside the data directory`,
      `${JSON.stringify(absolute)} in remove: an absolute path, outside the data directory`,
      `"catalogs/../../victim.txt" in remove: outside the data directory`,
      '"indexing.json" in remove: not a file in uploads/ or catalogs/, the only files a reset removes',
    ])
      expect(said).toContain(entry);
    expect(said).toContain(
      `${path.join(data, 'reset.json')} also named what no reset of the sandbox changes, which was left alone`,
    );
    expect(said).toMatch(
      /this reset\.json was edited, or came with a data directory from elsewhere/,
    );
    // the rest of the reset was finished, and its record is gone
    expect(existsSync(path.join(data, 'catalogs', 'demo42-99.removed'))).toBe(false);
    expect(existsSync(path.join(data, 'reset.json'))).toBe(false);
  });

  it('through a folder of the data directory that is a link to one outside it: refused', async () => {
    const { dir, data } = await received();
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'victim.txt'), 'the user’s\n');
    rmSync(path.join(data, 'catalogs'), { recursive: true, force: true });
    symlinkSync(elsewhere, path.join(data, 'catalogs'));
    committedReset(data, { place: [], remove: ['catalogs/victim.txt'] });

    const warnings = await startWarnings(data);
    expect(existsSync(path.join(elsewhere, 'victim.txt'))).toBe(true);
    expect(warnings.join('\n')).toContain(
      `"catalogs/victim.txt" in remove: its folder catalogs leads outside the data directory (to ${elsewhere})`,
    );
  });
});
