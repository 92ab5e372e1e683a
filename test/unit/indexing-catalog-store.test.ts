// Catalogs kept in the data directory: saves of one feed's catalog never overlap (each writes through the
// same temp file), the newest catalog is what stays on disk, on disk before the save resolves, and a reload
// reads it back.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogStore, FeedCatalog, ProductMapper } from '../../src/main/indexing/catalog';
import { tempDir } from '../helpers/sandbox';
import { watchSyncs } from '../helpers/synced-files';

function catalog(n: number, tag: string): FeedCatalog {
  const mapper = new ProductMapper();
  const products = Array.from({ length: n }, (_, i) =>
    mapper.map(String(i), { id: String(i), name: `${tag} product ${i}`, price: '9.99' }, i + 2),
  );
  return new FeedCatalog('shop01', 7, `2026-11-21T05:00:0${tag.length}.000Z`, products);
}

let cleanup = () => undefined as void;
afterEach(() => cleanup());

describe('CatalogStore', () => {
  it('saves one feed’s catalogs one after another; the last one stays on disk and reloads', async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dir = path.join(tmp.dir, 'catalogs');
    const store = new CatalogStore(dir);
    // three index runs finishing while the first save is still writing its 20,000 lines
    const saves = [
      store.replace(catalog(20_000, 'a')),
      store.replace(catalog(10, 'bb')),
      store.replace(catalog(3, 'ccc')),
    ];
    await expect(Promise.all(saves)).resolves.toBeDefined();
    expect(readdirSync(dir)).toEqual(['shop01-7.ndjson']);
    const reloaded = new CatalogStore(dir);
    await reloaded.load();
    const kept = reloaded.feed('shop01', 7)!;
    expect(kept.size).toBe(3);
    expect(kept.get('2')!.name).toBe('ccc product 2');
  });

  it('clear waits for a save under way, so the file does not come back', async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dir = path.join(tmp.dir, 'catalogs');
    const store = new CatalogStore(dir);
    const save = store.replace(catalog(20_000, 'a'));
    await store.clear('shop01');
    await save;
    expect(existsSync(path.join(dir, 'shop01-7.ndjson'))).toBe(false);
    expect(store.feed('shop01', 7)).toBeUndefined();
  });

  it('has a catalog on disk before its save resolves (temp file synced, renamed, directory synced)', async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dir = path.join(realpathSync(tmp.dir), 'catalogs');
    const store = new CatalogStore(dir);
    const watch = await watchSyncs();
    try {
      await store.replace(catalog(20_000, 'a'));
      expect(watch.synced).toEqual([`sync ${dir}/.shop01-7.ndjson.tmp`, `sync ${dir}`]);
      await store.clear('shop01');
      expect(watch.synced.slice(2)).toEqual([`sync ${dir}`]);
    } finally {
      watch.stop();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes a catalog of many pieces whole, and keeps the one before when the write fails', async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dir = path.join(tmp.dir, 'catalogs');
    const store = new CatalogStore(dir);
    await store.replace(catalog(20_000, 'a'));
    const reloaded = new CatalogStore(dir);
    await reloaded.load();
    expect(reloaded.feed('shop01', 7)!.size).toBe(20_000);
    expect(reloaded.feed('shop01', 7)!.get('19999')!.name).toBe('a product 19999');

    // a directory in the way of another feed's file: its save fails, nothing of it stays
    mkdirSync(path.join(dir, 'shop01-8.ndjson'));
    const other = new FeedCatalog(
      'shop01',
      8,
      '2026-11-21T05:00:00.000Z',
      catalog(3, 'b').products,
    );
    await expect(store.replace(other)).rejects.toThrow(path.join(dir, 'shop01-8.ndjson'));
    expect(store.feed('shop01', 8)).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual(['shop01-7.ndjson', 'shop01-8.ndjson']);
  });

  it('a damaged catalog is not served, is left as it is, and the next index of its feed replaces it', async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dir = path.join(tmp.dir, 'catalogs');
    await new CatalogStore(dir).replace(catalog(5, 'a'));
    const file = path.join(dir, 'shop01-7.ndjson');
    const damaged = readFileSync(file, 'utf8').replace(/\n\{"/, '\n{!"');
    writeFileSync(file, damaged);
    // and a file that is no feed's at all
    writeFileSync(path.join(dir, 'notes.ndjson'), 'hello\n');
    const store = new CatalogStore(dir);
    const warnings = await store.load();
    expect(warnings).toEqual([
      `${path.join(dir, 'notes.ndjson')} line 1 is not the catalog's header (${jsonError('hello')}), and its name is not <siteId>-<feedId>.ndjson: it is no feed's catalog, and was not read; move it out of ${dir}`,
    ]);
    expect(store.feed('shop01', 7)).toBeUndefined();
    expect(store.hasCatalog('shop01')).toBe(false);
    expect(store.damaged('shop01', 7)).toEqual({
      siteId: 'shop01',
      feedId: 7,
      file,
      problem: expect.stringMatching(/^line 2 is not a product \(.*JSON.*\)$/),
    });
    expect(readFileSync(file, 'utf8')).toBe(damaged);
    await store.replace(catalog(2, 'bb'));
    expect(store.damaged('shop01', 7)).toBeUndefined();
    const again = new CatalogStore(dir);
    await again.load();
    expect(again.feed('shop01', 7)?.size).toBe(2);
    expect(again.damaged('shop01', 7)).toBeUndefined();
  });

  it('orphan moves a catalog to catalogs/orphaned/ and stops serving it; a later load does not read it', async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    const dir = path.join(tmp.dir, 'catalogs');
    await new CatalogStore(dir).replace(catalog(4, 'a'));
    const bytes = readFileSync(path.join(dir, 'shop01-7.ndjson'), 'utf8');
    const store = new CatalogStore(dir);
    await store.load();
    const moved = await store.orphan('shop01', 7);
    expect(moved).toMatchObject({
      file: path.join(dir, 'shop01-7.ndjson'),
      products: 4,
      indexedAt: '2026-11-21T05:00:01.000Z',
    });
    expect(path.dirname(moved!.movedTo)).toBe(path.join(dir, 'orphaned'));
    expect(readFileSync(moved!.movedTo, 'utf8')).toBe(bytes);
    expect(store.feed('shop01', 7)).toBeUndefined();
    expect(await store.orphan('shop01', 7)).toBeNull();
    const again = new CatalogStore(dir);
    expect(await again.load()).toEqual([]);
    expect(again.feed('shop01', 7)).toBeUndefined();
  });
});

/** The message JSON.parse gives for `text`. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}
