// Catalogs kept in the data directory: saves of one feed's catalog never overlap (each writes through the
// same temp file), the newest catalog is what stays on disk, on disk before the save resolves, and a reload
// reads it back.
import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
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
});
