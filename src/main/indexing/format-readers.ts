// The readers of the feed formats that need a package (CSV/TSV, XML), loaded with the first feed of their
// format: `check` and `serve` load the indexing code at every start, and these packages (with yauzl, which
// base/zip.ts loads the same way) cost each start ~50 ms (~85 ms of CPU) though most runs read no CSV, XML
// or zip feed.
import { lazily } from '../lazy-require';

export const csvParse = lazily<typeof import('csv-parse')>('csv-parse');
export const saxes = lazily<typeof import('saxes')>('saxes');
