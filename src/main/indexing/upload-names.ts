// The names of the feeds' kept uploads in `<dataDir>/uploads/`. Each accepted upload has a file of its
// own, `<siteId>-<feedId>.<16 hex digits>.feed`, so that storing a new one never replaces the one the
// feed's stored state names (upload-stash.ts). Older versions kept one per feed, `<siteId>-<feedId>.feed`,
// with the client's file name beside it in `<siteId>-<feedId>.feed.name`.
import { randomBytes } from 'node:crypto';

/** An upload file of the sandbox's, its `.name` (older versions), or the temp file of either. */
const UPLOAD_FILE = /^(\.?)([a-z0-9]+)-(\d+)(\.[0-9a-f]{16})?\.feed(\.name)?(\.tmp)?$/;

/** A fresh name for an upload of the feed: never one in use (64 random bits). */
export function newUploadFile(siteId: string, feedId: number): string {
  return `${siteId}-${feedId}.${randomBytes(8).toString('hex')}.feed`;
}

/** Where older versions kept the feed's one upload (its name in `<this>.name`). */
export function legacyUploadFile(siteId: string, feedId: number): string {
  return `${siteId}-${feedId}.feed`;
}

/**
 * Whether `file` can be the feed's own upload, as a record in indexing.json names it: a plain name in
 * `uploads/` of this feed's (never a path, nor another feed's file, which a replacement would remove).
 */
export function isFeedUpload(siteId: string, feedId: number, file: string): boolean {
  const m = UPLOAD_FILE.exec(file);
  return !!m && !m[1] && !m[5] && !m[6] && m[2] === siteId && m[3] === String(feedId);
}

/** Whether `file` is an upload file an older version named (its client's name beside it, in `.name`). */
export function isLegacyUpload(file: string): boolean {
  const m = UPLOAD_FILE.exec(file);
  return !!m && !m[1] && !m[4] && !m[5] && !m[6];
}

/** The feed an upload file (or its `.name`, or a temp file of either) belongs to; null: not one of ours. */
export function uploadFileFeed(
  name: string,
): { siteId: string; feedId: number; temp: boolean } | null {
  const m = UPLOAD_FILE.exec(name);
  // a temp file starts with a dot and ends in .tmp (durable.ts), and only it
  if (!m || !m[1] !== !m[6]) return null;
  return { siteId: m[2]!, feedId: Number(m[3]), temp: !!m[6] };
}
