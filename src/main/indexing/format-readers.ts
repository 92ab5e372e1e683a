// The readers of the feed formats that need a package (CSV/TSV, XML, zip), loaded the first time a feed of
// that format is read: `check` and `serve` load the indexing code at every start, and these three packages
// cost each start ~50 ms (~85 ms of CPU) though most runs read no CSV, XML or zip feed.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `name` as `require` gives it, loaded on the first call and kept. */
function lazily<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}

export const csvParse = lazily<typeof import('csv-parse')>('csv-parse');
export const saxes = lazily<typeof import('saxes')>('saxes');
export const yauzl = lazily<typeof import('yauzl')>('yauzl');
