// An upload's one commit point: its bytes are stored under a file of their own, and the feed's record in
// indexing.json naming that file is what commits the request. A sandbox stopped between the two (its
// db write never comes, as under kill -9) restarts with the feed's last acknowledged upload, the stored
// bytes of the unanswered one removed and said; stopped after it, with the new one, the replaced one
// removed. Before, the upload replaced the feed's one fixed file first, and the next PUT indexed the file
// whose client was told the connection failed. Data directories of older versions (the fixed names) still read.
import { copyFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/main/bus';
import { SandboxClock } from '../../src/main/clock';
import { IndexingService } from '../../src/main/indexing/service';
import { TIMINGS } from '../../src/main/indexing/feed-runs';
import { testConfig, tempDir } from '../helpers/sandbox';

const START = Date.parse('2026-11-21T04:36:00Z');
const HOUR = 3_600_000;
const A = Buffer.from('id,name,price\nA1,first upload,1\n');
const B = Buffer.from('id,name,price\nB1,second upload,2\nB2,second upload,3\n');

const open: IndexingService[] = [];
const dirs: Array<() => void> = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.stored(); // the background saves of its last steps, before its directory goes
    await s.close();
  }
  for (const cleanup of dirs.splice(0)) cleanup();
});

function dataDir(): string {
  const { dir, cleanup } = tempDir('upload-commit-');
  dirs.push(cleanup);
  return dir;
}

/** The indexing of `dir` opened on a frozen clock at `start`, with its start-up warnings. */
async function setup(dir: string, start = START) {
  const clock = new SandboxClock({ frozen: true, start });
  const config = testConfig({ dataDir: dir });
  const { service, warnings } = await IndexingService.open(config, clock, new Bus());
  open.push(service);
  const account = config.accounts[0]!;
  const rec = () => service.engine.record('demo42', 42)!;
  const request = (method: 'PUT' | 'POST', upload?: { data: Buffer; name: string }) =>
    service.requestIndex({
      account,
      method,
      feedId: '42',
      requestedBy: 'dev@shop.example',
      upload,
      plainHttp: false,
      fromSandboxUi: false,
      answeredWith: (refusal) => (refusal ? 409 : 200),
    });
  /** the feed's queued run through to done: the catalog's product ids */
  const indexed = async () => {
    clock.advance(TIMINGS.waitingMs);
    await service.engine.parseResult(rec());
    await new Promise((r) => setImmediate(r));
    clock.advance(HOUR);
    expect(rec().state).toBe('done');
    return service.catalog.feed('demo42', 42)!.products.map((p) => p.uid);
  };
  return { clock, service, warnings, rec, request, indexed };
}

/** Stopped as kill -9 stops it: no timer fires and nothing more is written (never closed). */
function killed(service: IndexingService): void {
  service.engine.close();
  open.splice(open.indexOf(service), 1);
}

const uploads = (dir: string) => readdirSync(path.join(dir, 'uploads')).sort();
const stored = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'indexing.json'), 'utf8')) as {
    feeds: Array<{ feedId: number; upload?: { file: string; name: string } | null }>;
  };
const named = (dir: string) => stored(dir).feeds.find((f) => f.feedId === 42)!.upload;

/** Feed 42 with upload A accepted and indexed; the sandbox still open, an hour past A's window. */
async function acknowledgedA(dir: string) {
  const first = await setup(dir);
  await first.request('POST', { data: A, name: 'A.csv' });
  expect(await first.indexed()).toEqual(['A1']);
  first.clock.advance(HOUR);
  // its catalog and states on disk: no background save of them is under way when B comes
  await first.service.stored();
  return first;
}

/** What a restart later in time indexes with a PUT (the last upload), and the run's file name. */
async function reindexAfterRestart(dir: string) {
  const second = await setup(dir, START + 5 * HOUR);
  await second.request('PUT');
  const file = second.rec().run?.file;
  return { second, file, ids: await second.indexed() };
}

describe('an upload stopped by kill -9 between storing its bytes and storing its record', () => {
  it('restarts with the acknowledged upload as the source; the unanswered bytes are removed and said', async () => {
    const dir = dataDir();
    const first = await acknowledgedA(dir);
    const kept = named(dir)!;
    // the process stops at its commit: the record naming B is never written
    let reached!: () => void;
    const atCommit = new Promise<void>((resolve) => (reached = resolve));
    const { db } = first.service.engine.deps;
    db.write = () => {
      if (db.data.feeds.find((f) => f.feedId === 42)?.upload?.name === 'B.csv') reached();
      return new Promise<void>(() => undefined);
    };
    void first.request('POST', { data: B, name: 'B.csv' });
    await atCommit;
    expect(uploads(dir)).toHaveLength(2); // B's bytes are on disk, beside A's
    killed(first.service);

    const { second, file, ids } = await reindexAfterRestart(dir);
    // the source is the acknowledged upload A, not the unanswered B
    expect(file).toBe('A.csv');
    expect(ids).toEqual(['A1']);
    expect(second.warnings).toContainEqual(
      expect.stringMatching(
        /^feed 42 of demo42: an upload whose request was never stored \(the sandbox stopped, or the disk failed, before it was, so its client had no success answer\) removed at start-up \(uploads\/demo42-42\.[0-9a-f]{16}\.feed, 52 bytes\): the feed keeps its last accepted upload, A\.csv; send the file again to index it$/,
      ),
    );
    expect(uploads(dir)).toEqual([kept.file]);
    expect(readFileSync(path.join(dir, 'uploads', kept.file))).toEqual(A);
  });

  it('stopped after its record was stored, before the replaced upload was removed: the new one, the old one removed quietly', async () => {
    const dir = dataDir();
    const first = await acknowledgedA(dir);
    const old = named(dir)!.file;
    const copy = path.join(dir, 'old-copy');
    copyFileSync(path.join(dir, 'uploads', old), copy);
    await first.request('POST', { data: B, name: 'B.csv' });
    killed(first.service);
    // as if the process had stopped before removing A's file
    renameSync(copy, path.join(dir, 'uploads', old));
    expect(uploads(dir)).toHaveLength(2);

    const { second, file, ids } = await reindexAfterRestart(dir);
    expect(second.warnings.join('\n')).not.toMatch(/upload/);
    expect(file).toBe('B.csv');
    expect(ids).toEqual(['B1', 'B2']);
    expect(uploads(dir)).toEqual([named(dir)!.file]);
  });
});

describe('an upload whose record cannot be stored (the disk refuses it)', () => {
  it('is refused and leaves the feed with its previous upload, its own bytes removed', async () => {
    const dir = dataDir();
    const first = await acknowledgedA(dir);
    const kept = named(dir)!;
    const { db } = first.service.engine.deps;
    const write = db.write.bind(db);
    // the write of the record naming B fails (the next, of the feed put back, is stored)
    db.write = () => {
      if (db.data.feeds.find((f) => f.feedId === 42)?.upload?.name !== 'B.csv') return write();
      db.write = write;
      return Promise.reject(new Error('ENOSPC (test)'));
    };
    await expect(first.request('POST', { data: B, name: 'B.csv' })).rejects.toThrow(/ENOSPC/);
    expect(first.rec().upload).toEqual(kept);
    expect(uploads(dir)).toEqual([kept.file]);
    await first.request('PUT');
    expect(first.rec().run?.file).toBe('A.csv');
    expect(await first.indexed()).toEqual(['A1']);
  });
});

describe('the uploads of an older version (one fixed file per feed, its name in .name)', () => {
  /** A data directory as an older version left it: feed 42's upload at the fixed names, none named. */
  async function olderDataDir(): Promise<string> {
    const dir = dataDir();
    const first = await acknowledgedA(dir);
    await first.service.close();
    open.splice(open.indexOf(first.service), 1);
    renameSync(
      path.join(dir, 'uploads', named(dir)!.file),
      path.join(dir, 'uploads', 'demo42-42.feed'),
    );
    writeFileSync(path.join(dir, 'uploads', 'demo42-42.feed.name'), 'old.csv');
    const data = stored(dir);
    for (const f of data.feeds) delete f.upload;
    // a feed the config no longer names, with its upload: kept as it is, dormant
    const dormant = { ...data.feeds.find((f) => f.feedId === 42)!, feedId: 99 };
    data.feeds.push(dormant);
    writeFileSync(path.join(dir, 'indexing.json'), JSON.stringify(data, null, 2));
    writeFileSync(path.join(dir, 'uploads', 'demo42-99.feed'), A);
    return dir;
  }

  it('reads the stored upload, names it, and PUT re-indexes it; a new upload then replaces it', async () => {
    const dir = await olderDataDir();
    const { second, file, ids } = await reindexAfterRestart(dir);
    expect(second.warnings.join('\n')).not.toMatch(/upload/);
    expect(file).toBe('old.csv');
    expect(ids).toEqual(['A1']);
    expect(named(dir)).toEqual({ file: 'demo42-42.feed', name: 'old.csv' });
    expect(uploads(dir)).toEqual(['demo42-42.feed', 'demo42-42.feed.name', 'demo42-99.feed']);

    second.clock.advance(HOUR);
    await second.request('POST', { data: B, name: 'B.csv' });
    expect(uploads(dir)).toEqual([named(dir)!.file, 'demo42-99.feed'].sort());
    expect(await second.indexed()).toEqual(['B1', 'B2']);
  });

  it('a reset names (in reset.json) and removes the file the record names, with its .name', async () => {
    const dir = await olderDataDir();
    const second = await setup(dir, START + 5 * HOUR);
    const prepared = await second.service.prepareReset('demo42', 'r-1');
    const u = (name: string) => path.join(dir, 'uploads', name);
    expect(prepared.files!.remove).toEqual(
      expect.arrayContaining([u('demo42-42.feed'), u('demo42-42.feed.name')]),
    );
    await prepared.abandon();
    await second.service.reset('demo42');
    // the dormant feed's upload stays, as its record does
    expect(uploads(dir)).toEqual(['demo42-99.feed']);
  });
});

describe('a record naming an upload file', () => {
  it("that is a path, or another feed's file, is refused at start and nothing is changed", async () => {
    for (const file of ['../indexing.json', 'demo42-43.0123456789abcdef.feed']) {
      const dir = dataDir();
      const first = await acknowledgedA(dir);
      await first.service.close();
      open.splice(open.indexOf(first.service), 1);
      const data = stored(dir);
      data.feeds.find((f) => f.feedId === 42)!.upload = { file, name: 'x.csv' };
      const text = JSON.stringify(data, null, 2);
      writeFileSync(path.join(dir, 'indexing.json'), text);
      await expect(setup(dir)).rejects.toThrow(
        `feeds[0].upload.file ${JSON.stringify(file)} (feed demo42/42), which must be a file name of this feed's upload in uploads/`,
      );
      expect(readFileSync(path.join(dir, 'indexing.json'), 'utf8')).toBe(text);
    }
  });
});
