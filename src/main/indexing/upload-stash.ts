// The feeds' kept uploads: in memory, mirrored to `<dataDir>/uploads/` when persistent. A feed's record
// (indexing.json) names its upload (`FeedRecord.upload`: the file and the client's name for it), and that
// name is the one commit point. A new upload's bytes are stored first, durably, under a file of their
// own (upload-names.ts), which replaces nothing; storing the record that names them commits the request;
// only then is the upload it replaced removed. A process stopped anywhere in between leaves the feed as its
// last stored record says, with the upload of its last acknowledged request, and at most a file no record
// names, which the next start removes (`sweep`).
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDirFailure } from '../store/data-dir-error';
import { makePrivateDir } from '../store/private-files';
import { removeFile, replaceFile } from '../store/durable';
import { INDEXING_FILE, type FeedRecord, type KeptUpload } from './feed-db';
import { isLegacyUpload, legacyUploadFile, newUploadFile, uploadFileFeed } from './upload-names';

const feedKey = (rec: FeedRecord) => `${rec.siteId}/${rec.feedId}`;

export class UploadStash {
  /** the bytes of the uploads records name (and of one whose request is being stored), by file */
  private readonly bytes = new Map<string, Buffer>();
  /** why a named upload could not be read at start (its file missing or unreadable), by file */
  private readonly lost = new Map<string, string>();
  /** per feed, the uploads its change under way may leave unnamed: the new one, the one it replaces */
  private readonly swaps = new Map<string, KeptUpload[]>();

  constructor(private readonly dir: string | null) {}

  /** The upload the feed's record names, with its bytes (undefined: none, or its bytes are lost). */
  get(rec: FeedRecord): { data: Buffer; name: string } | undefined {
    const data = rec.upload ? this.bytes.get(rec.upload.file) : undefined;
    return data && rec.upload ? { data, name: rec.upload.name } : undefined;
  }

  /**
   * Keep an upload: its bytes on disk first (when persistent) under a file of their own, then named in the
   * feed's record. Nothing is replaced until that record is stored, and `settle` runs once it is stored or
   * put back. A failed write (a full disk) leaves the feed as it was and no file, as a DataDirError.
   */
  async store(rec: FeedRecord, data: Buffer, name: string): Promise<void> {
    const file = newUploadFile(rec.siteId, rec.feedId);
    if (this.dir) {
      try {
        await makePrivateDir(this.dir);
      } catch (err) {
        throw dataDirFailure(this.dir, err, 'create');
      }
      await replaceFile(path.join(this.dir, file), data);
    }
    this.bytes.set(file, data);
    const upload = { file, name };
    this.swaps.set(feedKey(rec), rec.upload ? [upload, rec.upload] : [upload]);
    rec.upload = upload;
  }

  /**
   * The feed's change that stored an upload was stored (the upload it replaced goes) or refused and put
   * back (the new one goes). Run in the feed's turn, so that no other change names either meanwhile. A
   * file goes only once `stored` (every change so far on disk) says no stored state names it any more;
   * when that fails, it is left to the next start's sweep.
   */
  async settle(rec: FeedRecord, stored: () => Promise<void>): Promise<void> {
    const swapped = this.swaps.get(feedKey(rec)) ?? [];
    this.swaps.delete(feedKey(rec));
    const unnamed = swapped.filter((u) => u.file !== rec.upload?.file);
    if (unnamed.length === 0) return;
    for (const u of unnamed) this.bytes.delete(u.file);
    const known = await stored().then(
      () => true,
      () => false,
    );
    if (known) await this.drop(unnamed);
  }

  /**
   * The upload the feed's record names, read at start. A record of an older version names none: it is made
   * to name the upload kept at the older fixed name (see `legacyUpload`). One whose file is missing or
   * cannot be read is lost, and `lostOf` says why (the sandbox's copy, not the client's file, failed).
   */
  async load(rec: FeedRecord): Promise<void> {
    if (rec.upload === undefined) rec.upload = await this.legacyUpload(rec);
    if (!rec.upload || !this.dir || this.bytes.has(rec.upload.file)) return;
    const file = path.join(this.dir, rec.upload.file);
    try {
      this.bytes.set(rec.upload.file, await readFile(file));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? `${file} is missing` : `${file} could not be read (${code})`;
      this.lost.set(rec.upload.file, why);
    }
  }

  /**
   * What an older version kept for the feed, at `<siteId>-<feedId>.feed` (its name in `.name`), or null.
   * It is named when either file is there, or when the feed's run waits for an upload (then a loss).
   */
  private async legacyUpload(rec: FeedRecord): Promise<KeptUpload | null> {
    if (!this.dir) return null;
    const file = legacyUploadFile(rec.siteId, rec.feedId);
    const at = path.join(this.dir, file);
    const name = await readFile(`${at}.name`, 'utf8').catch(() => null);
    const there = await lstat(at).then(
      () => true,
      () => false,
    );
    if (name === null && !there && rec.run?.input !== 'upload') return null;
    return { file, name: name ?? rec.run?.file ?? 'upload' };
  }

  /** Why the upload the feed names is lost, if it is (see `load`). */
  lostOf(rec: FeedRecord): string | undefined {
    return rec.upload ? this.lost.get(rec.upload.file) : undefined;
  }

  /** The feed's upload is expected and is not there: `why` is said by every run that needed it. */
  markLost(rec: FeedRecord, why: string): void {
    if (rec.upload) this.lost.set(rec.upload.file, why);
  }

  /** Where the upload the feed names is kept (null: none, or in memory). */
  pathOf(rec: FeedRecord): string | null {
    return this.dir && rec.upload ? path.join(this.dir, rec.upload.file) : null;
  }

  /** The files of the upload the feed names (with an older version's `.name`), there or not. */
  filesOf(rec: FeedRecord): string[] {
    const at = this.pathOf(rec);
    if (!at) return [];
    return isLegacyUpload(rec.upload!.file) ? [at, `${at}.name`] : [at];
  }

  /** Forget these uploads (a reset's feeds'), in memory and on disk. */
  async forget(uploads: ReadonlyArray<KeptUpload | null | undefined>): Promise<void> {
    await this.drop(uploads.filter((u): u is KeptUpload => !!u));
  }

  private async drop(uploads: readonly KeptUpload[]): Promise<void> {
    for (const upload of uploads) {
      this.bytes.delete(upload.file);
      this.lost.delete(upload.file);
      if (!this.dir) continue;
      const at = path.join(this.dir, upload.file);
      try {
        await removeFile(at);
        if (isLegacyUpload(upload.file)) await removeFile(`${at}.name`);
      } catch (err) {
        // no record names it any more: the next start's sweep removes it
        console.error(`search-sandbox: ${(err as Error).message}; removed at the next start`);
      }
    }
  }

  /**
   * At start, once the records are read (and an older version's named): the upload files no record
   * names are removed. Each is an upload stored for a request that was never stored itself (the process
   * stopped, or the disk failed, before its record was), or one a stored request replaced (the process
   * stopped before removing it). Answers the start-up warnings: the first kind is said per feed, the
   * second is housekeeping.
   * `stateFound` false: indexing.json was missing, so the feeds started from the fixtures and name none.
   */
  async sweep(records: readonly FeedRecord[], stateFound: boolean): Promise<string[]> {
    if (!this.dir) return [];
    const named = new Set(records.flatMap((r) => namedFiles(r)));
    const said = new Map<FeedRecord | string, string[]>();
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const feed = uploadFileFeed(name);
      if (!feed || named.has(name)) continue;
      const rec = records.find((r) => r.siteId === feed.siteId && r.feedId === feed.feedId);
      const left = await this.removeLeftover(name, feed.temp, rec);
      if (!left || (stateFound && !left.unanswered)) continue;
      const key = rec ?? `feed ${feed.feedId} of ${feed.siteId}`;
      said.set(key, [...(said.get(key) ?? []), left.shown]);
    }
    return [...said].map(([feed, files]) => leftoverNote(feed, files, stateFound));
  }

  /**
   * Remove a file no record names; answers how it is shown and whether it was stored after the upload
   * the feed names (or the feed names none): an unanswered request's, not a replaced one. null: not a
   * file, or an older version's `.name`, which says nothing of its own.
   */
  private async removeLeftover(
    name: string,
    temp: boolean,
    rec: FeedRecord | undefined,
  ): Promise<{ shown: string; unanswered: boolean } | null> {
    const at = path.join(this.dir!, name);
    const found = await lstat(at).catch(() => null);
    if (!found?.isFile()) return null;
    const unanswered = temp || found.mtimeMs > (await this.storedAt(rec));
    await removeFile(at);
    if (name.endsWith('.name') || name.endsWith('.name.tmp')) return null;
    return { shown: `uploads/${name}, ${found.size} bytes`, unanswered };
  }

  /** When the upload the feed names was stored (-Infinity: none, or not there). */
  private async storedAt(rec: FeedRecord | undefined): Promise<number> {
    const at = rec && this.pathOf(rec);
    if (!at) return -Infinity;
    return (await lstat(at).catch(() => null))?.mtimeMs ?? -Infinity;
  }
}

/** The files in `uploads/` a record names (an older version's, not read yet: its fixed names). */
function namedFiles(rec: FeedRecord): string[] {
  const file =
    rec.upload === undefined ? legacyUploadFile(rec.siteId, rec.feedId) : rec.upload?.file;
  return file ? [file, `${file}.name`] : [];
}

/** The start-up warning on the files removed of one feed (a record, or a feed no record names). */
function leftoverNote(feed: FeedRecord | string, files: string[], stateFound: boolean): string {
  const shown = typeof feed === 'string' ? feed : `feed ${feed.feedId} of ${feed.siteId}`;
  if (!stateFound)
    return `${shown}: ${INDEXING_FILE} was missing, so the feed started again from the fixtures, and the uploads it named were removed at start-up (${files.join('; ')})`;
  const kept =
    typeof feed !== 'string' && feed.upload
      ? `its last accepted upload, ${feed.upload.name}`
      : 'no upload';
  const what = files.length === 1 ? 'an upload' : `${files.length} uploads`;
  return `${shown}: ${what} whose request was never stored (the sandbox stopped, or the disk failed, before it was, so its client had no success answer) removed at start-up (${files.join('; ')}): the feed keeps ${kept}; send the file again to index it`;
}
