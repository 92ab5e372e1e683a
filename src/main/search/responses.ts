// What every issued search response contained, by responseId: the provenance rules check later beacons
// against it. Bounded (oldest forgotten first); mirrored to an append-only file when there is a data dir.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Slot } from './config';
import { dataDirFailure } from '../store/data-dir-error';
import { AppendFile, replaceFile } from '../store/durable';
import { makePrivateDir } from '../store/private-files';
import { asideFor, type ResetFiles } from '../store/reset-commit';
import { excerpt } from '../store/journal-reader';
import { requesterProblem, type Requester } from './requester';

export type IssuedKind = 'search' | 'category' | 'autocomplete' | 'recommendations' | 'bundles';
/** The kinds the search endpoints issue (the recommend API issues the other two). */
export type SearchKind = Exclude<IssuedKind, 'recommendations' | 'bundles'>;

export interface IssuedResult {
  uid: string;
  sku: string | null;
  /** the group's parent id when the catalog has parent ids, else null */
  parentId: string | null;
  children: Array<{ uid: string; sku: string | null; price?: number }>;
  /**
   * the price the result carried (the one a storefront shows and its quick add sends), when above 0; absent
   * in files written before prices were kept
   */
  price?: number;
}

export interface IssuedResponse {
  responseId: string;
  siteId: string;
  /**
   * the endpoint that issued it: search.json, category.json or autocomplete.json (absent in older files:
   * search), or the recommend API for a widget (`recommendations`, `bundles` for a bundle profile)
   */
  kind?: IssuedKind;
  /** a widget's profile tag (recommendations and bundles only) */
  tag?: string;
  query: string;
  page: number;
  perPage: number;
  /** sandbox time the response was issued, ms */
  issuedAt: number;
  results: IssuedResult[];
  /** inline banners of the response (all pages), with their index among the whole result list */
  inline: Array<{ uid: string; index: number }>;
  slots: Record<Slot, string[]>;
  redirect: string | null;
  /** the request carried test=true (development traffic) */
  test: boolean;
  /**
   * the request asked redirectResponse=full: the client's merchandising redirects are off, or its results
   * were already shown (SearchController asks full then, and renders a redirect response); absent: minimal
   */
  full?: true;
  /** the request carried filters (filter.*; background filters are the page's own, not the shopper's) */
  filtered?: true;
  /**
   * the background filters the request carried, as its parameters (`bgfilter.category=Jackets`): what a
   * category page's listing is of (its request usually has no q); absent when it carried none
   */
  bgfilters?: string[];
  /**
   * the tracking context the request carried (search, category and autocomplete requests of the Snap
   * client): who asked, from which page load and URL; absent when the request carried none
   */
  requester?: Requester;
  /**
   * the search the request asked: the parameters that choose its results (query, filters, background
   * filters, sort, page and page size), in one order, not the tracking context, modes or formats. Two
   * responses with the same value answer the same search, which one document of the client does not ask
   * twice in a row (SC search(): no parameter change, no search). Absent in older files and for widgets.
   */
  asked?: string;
  /** set when the response came from the real search service (pass-through): the origin it came from */
  upstream?: string;
}

/** the request parameters that choose a search's results: what `asked` keeps */
const ASKS = /^(q|page|resultsPerPage|filter\..+|bgfilter\..+|sort\..+)$/;

/** The `asked` of a request's parameters: those that choose its results, sorted. */
export function askedSearch(params: Iterable<readonly [string, string]>): string {
  const kept: string[] = [];
  for (const [k, v] of params)
    if (ASKS.test(k)) kept.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return kept.sort().join('&');
}

/** How many issued responses are remembered; older ones are forgotten first. */
export const RESPONSE_MEMORY = 10_000;

/** The endpoint that issued a response (files written before kinds were kept hold search responses only). */
export function issuedKind(r: Pick<IssuedResponse, 'kind'>): IssuedKind {
  return r.kind ?? 'search';
}

const NONE: readonly IssuedResponse[] = [];

/** The key a page load's responses are found by (a pageLoadId is unique within its site only). */
export function pageLoadKey(siteId: string, pageLoadId: string): string {
  return `${siteId}\u0000${pageLoadId}`;
}

/** A clearing written aside: applied once the reset it is part of is committed, else abandoned. */
export interface PreparedClear {
  /** the file written aside, to put in place of the responses' file (null: in memory) */
  files: ResetFiles | null;
  apply(): Promise<void>;
  abandon(): Promise<void>;
}

/**
 * Issued responses by who asked for them, oldest first: a page load's (its requester's pageLoadId) and a
 * session's merchandising redirects (its requester's sessionId), each within its site. The sandbox's memory
 * and an export read back offline keep the same index.
 */
export class IssuedIndex {
  private readonly byPageLoad = new Map<string, IssuedResponse[]>();
  private readonly redirectsBySession = new Map<string, IssuedResponse[]>();

  add(r: IssuedResponse): void {
    const { pageLoadId, sessionId } = r.requester ?? {};
    if (pageLoadId !== undefined) listed(this.byPageLoad, pageLoadKey(r.siteId, pageLoadId), r);
    if (r.redirect !== null && sessionId !== undefined)
      listed(this.redirectsBySession, pageLoadKey(r.siteId, sessionId), r);
  }

  remove(r: IssuedResponse): void {
    const { pageLoadId, sessionId } = r.requester ?? {};
    if (pageLoadId !== undefined) unlisted(this.byPageLoad, pageLoadKey(r.siteId, pageLoadId), r);
    if (r.redirect !== null && sessionId !== undefined)
      unlisted(this.redirectsBySession, pageLoadKey(r.siteId, sessionId), r);
  }

  /** the responses a page load of the site asked for */
  issuedTo(siteId: string, pageLoadId: string): readonly IssuedResponse[] {
    return this.byPageLoad.get(pageLoadKey(siteId, pageLoadId)) ?? NONE;
  }

  /** the responses with a merchandising redirect that a session of the site asked for */
  redirectsTo(siteId: string, sessionId: string): readonly IssuedResponse[] {
    return this.redirectsBySession.get(pageLoadKey(siteId, sessionId)) ?? NONE;
  }
}

/** `r` added to the list under `key`. */
function listed(lists: Map<string, IssuedResponse[]>, key: string, r: IssuedResponse): void {
  const list = lists.get(key);
  if (list) list.push(r);
  else lists.set(key, [r]);
}

/** `r` taken out of the list under `key` (the list goes with its last one). */
function unlisted(lists: Map<string, IssuedResponse[]>, key: string, r: IssuedResponse): void {
  const list = lists.get(key);
  const at = list ? list.indexOf(r) : -1;
  if (at < 0) return;
  if (list!.length === 1) lists.delete(key);
  else list!.splice(at, 1);
}

export class IssuedResponses {
  private readonly byId = new Map<string, IssuedResponse>();
  /** the remembered responses by the page load, or the session's redirects, that asked for them */
  private readonly asked = new IssuedIndex();
  /** sandbox time from which every issued response is still remembered */
  private completeSince: number;
  private file: AppendFile | null = null;
  private lines = 0;

  private constructor(
    private readonly dir: string | null,
    private readonly limit: number,
    startedAt: number,
  ) {
    this.completeSince = startedAt;
  }

  /**
   * Open the memory; with a data dir, what earlier runs issued is read back, so beacons replayed from the
   * journal after a restart are checked against the responses they really came from.
   */
  static async open(
    dir: string | null,
    startedAt: number,
    limit = RESPONSE_MEMORY,
  ): Promise<{ responses: IssuedResponses; warnings: string[] }> {
    const responses = new IssuedResponses(dir, limit, startedAt);
    const warnings: string[] = [];
    if (dir) {
      const file = path.join(dir, 'search-responses.ndjson');
      // only a missing file starts empty: one that cannot be read must not be replaced by compact() below
      const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw dataDirFailure(file, err, 'read');
      });
      if (text !== null) responses.read(file, text, warnings);
      await responses.compact();
    }
    return { responses, warnings };
  }

  /** The file's lines read back; each that holds no response is skipped and named (its line, what it is). */
  private read(file: string, text: string, warnings: string[]): void {
    let header = false;
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line) return;
      let v: (IssuedResponse & { completeSince?: number }) | null = null;
      try {
        v = JSON.parse(line) as IssuedResponse & { completeSince?: number };
      } catch {
        /* said below */
      }
      if (v && !header && typeof v.completeSince === 'number') {
        // complete since the first run that wrote the file; evictions while reading move it on
        header = true;
        this.completeSince = v.completeSince;
        return;
      }
      if (v && typeof v.responseId === 'string') return this.remember(v);
      // that one response is lost, the rest stays
      const torn = i === lines.length - 1 && line.startsWith('{');
      const what = torn
        ? 'an incomplete record at the end of the file (the process stopped while writing it)'
        : v === null
          ? 'not valid JSON (a damaged line)'
          : 'JSON that is no issued response (no responseId)';
      warnings.push(`search responses ${file}, line ${i + 1}: ${what}; skipped (${excerpt(line)})`);
    });
  }

  get size(): number {
    return this.byId.size;
  }

  /** How many responses it remembers at most (RESPONSE_MEMORY unless opened with another limit). */
  get capacity(): number {
    return this.limit;
  }

  /** Sandbox time from which the memory is complete: an unknown responseId used after it was never issued. */
  get rememberedSince(): number {
    return this.completeSince;
  }

  get(responseId: string): IssuedResponse | undefined {
    return this.byId.get(responseId);
  }

  /** The remembered responses that a page load of the site asked for (by its request's pageLoadId), oldest first. */
  issuedTo(siteId: string, pageLoadId: string): readonly IssuedResponse[] {
    return this.asked.issuedTo(siteId, pageLoadId);
  }

  /** The remembered responses with a merchandising redirect that a session of the site asked for, oldest first. */
  redirectsTo(siteId: string, sessionId: string): readonly IssuedResponse[] {
    return this.asked.redirectsTo(siteId, sessionId);
  }

  /**
   * Remember a response, once it is on disk when there is a data dir: a failed write (a full disk) throws
   * a DataDirError, the response is not remembered and its request is answered 503.
   */
  async add(r: IssuedResponse): Promise<void> {
    // remembered first, so that a compaction queued meanwhile writes it too
    this.remember(r);
    if (!this.file) return;
    try {
      await this.file.append(`${JSON.stringify(r)}\n`);
    } catch (err) {
      if (this.byId.get(r.responseId) === r) this.byId.delete(r.responseId);
      throw err;
    }
    if (++this.lines > this.limit * 2) await this.compact();
  }

  /** The newest remembered responses of a site (newest first), at most `max`. */
  *recent(siteId: string, max = 500): Generator<IssuedResponse> {
    const all = [...this.byId.values()];
    let n = 0;
    for (let i = all.length - 1; i >= 0 && n < max; i--) {
      if (all[i]!.siteId !== siteId) continue;
      n++;
      yield all[i]!;
    }
  }

  /** Remembered responses, newest first (of one site, or all), at most `limit`. */
  list(siteId?: string, limit = Infinity): IssuedResponse[] {
    const out: IssuedResponse[] = [];
    const all = [...this.byId.values()];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--)
      if (siteId === undefined || all[i]!.siteId === siteId) out.push(all[i]!);
    return out;
  }

  /**
   * The admin's list: `list(siteId, limit)`, or by responseId the one issued response of the site, or none;
   * with a pageLoadId, only the responses that page load asked for (newest first).
   */
  find(filter: {
    siteId?: string;
    limit?: number;
    responseId?: string;
    pageLoadId?: string;
  }): IssuedResponse[] {
    const { siteId, limit = Infinity, responseId, pageLoadId } = filter;
    const asked = (r: IssuedResponse) =>
      pageLoadId === undefined || r.requester?.pageLoadId === pageLoadId;
    if (responseId !== undefined) {
      const one = this.get(responseId);
      return one && (siteId === undefined || one.siteId === siteId) && asked(one) ? [one] : [];
    }
    if (pageLoadId === undefined) return this.list(siteId, limit);
    if (siteId !== undefined)
      return [...this.issuedTo(siteId, pageLoadId)].reverse().slice(0, limit);
    return this.list(undefined).filter(asked).slice(0, limit);
  }

  /** Restore responses from an export (`{responses: [...]}`), so imported beacons are checked against them. */
  async importAll(data: unknown): Promise<number> {
    const list = (data as { responses?: unknown } | null)?.responses;
    if (!Array.isArray(list))
      throw new Error('expected {"responses": [...]} as GET /_sandbox/export writes it');
    list.forEach((r, i) => {
      const v = r as Partial<IssuedResponse> | null;
      if (
        !v ||
        typeof v.responseId !== 'string' ||
        typeof v.siteId !== 'string' ||
        typeof v.issuedAt !== 'number' ||
        !Number.isFinite(v.issuedAt) ||
        !Array.isArray(v.results) ||
        !Array.isArray(v.inline) ||
        typeof v.slots !== 'object'
      )
        throw new Error(
          `responses[${i}] is not an issued search response (it needs responseId, siteId, issuedAt (ms), results, inline and slots, as GET /_sandbox/export writes them)`,
        );
      const problem = requesterProblem(v.requester);
      if (problem) throw new Error(`responses[${i}].${problem}`);
    });
    // The imported beacons are older than this memory: it covers them from the earliest response the
    // export holds (as `check` of the export judges them), or a responseId that export never issued would
    // read as one issued before the memory began. Lowered first: evicting an import bigger than the
    // memory moves it on again.
    for (const r of list as IssuedResponse[])
      this.completeSince = Math.min(this.completeSince, r.issuedAt);
    // oldest first, so the newest stay when the import is bigger than the memory
    for (const r of [...(list as IssuedResponse[])].reverse()) await this.add(r);
    await this.compact();
    return list.length;
  }

  /** Forget the responses of one site, or all (written aside first, then put in place). */
  async clear(siteId?: string): Promise<void> {
    await (await this.prepareClear(siteId, randomUUID())).apply();
  }

  /**
   * Forget the responses of one site, or all, as one part of a reset: the file without them is written
   * aside now, for reset `resetId` (a full disk refuses here, and nothing changed); `apply`, once the
   * reset is committed, forgets them and puts that file in place; `abandon` leaves everything as it was.
   * Responses issued meanwhile are kept.
   */
  async prepareClear(siteId: string | undefined, resetId: string): Promise<PreparedClear> {
    const gone = new Set(
      [...this.byId.values()].filter((r) => siteId === undefined || r.siteId === siteId),
    );
    const forget = () => {
      for (const r of gone)
        if (this.byId.get(r.responseId) === r) {
          this.byId.delete(r.responseId);
          this.asked.remove(r);
        }
    };
    if (!this.file)
      return { files: null, apply: async () => forget(), abandon: async () => undefined };
    const file = this.file.file;
    const aside = await this.file.prepareReplace(
      () => this.text((r) => !gone.has(r)),
      asideFor(file, resetId),
    );
    return {
      files: { place: [{ aside: aside.aside, file }], remove: [] },
      apply: async () => {
        forget();
        await aside.place();
        this.lines = this.byId.size;
      },
      abandon: () => aside.drop(),
    };
  }

  async close(): Promise<void> {
    await this.file?.close();
    this.file = null;
  }

  private remember(r: IssuedResponse): void {
    const before = this.byId.get(r.responseId);
    if (before) {
      this.byId.delete(r.responseId);
      this.asked.remove(before);
    }
    this.byId.set(r.responseId, r);
    this.asked.add(r);
    while (this.byId.size > this.limit) {
      const oldest = this.byId.values().next().value!;
      this.byId.delete(oldest.responseId);
      this.asked.remove(oldest);
      // beacons of responses issued before the next-oldest one can no longer be judged
      const next = this.byId.values().next().value;
      this.completeSince = Math.max(this.completeSince, next ? next.issuedAt : oldest.issuedAt + 1);
    }
  }

  /** The file's text: a header line says since when the memory is complete, then the responses kept. */
  private text(keep: (r: IssuedResponse) => boolean): string {
    const lines = [JSON.stringify({ completeSince: this.completeSince })];
    for (const r of this.byId.values()) if (keep(r)) lines.push(JSON.stringify(r));
    return `${lines.join('\n')}\n`;
  }

  /** Rewrite the file with what is remembered (a header line says since when the memory is complete). */
  private async compact(): Promise<void> {
    if (!this.dir) return;
    // made when its turn comes, after the appends queued before it: it holds what they wrote
    const text = () => this.text(() => true);
    if (this.file) await this.file.replace(text);
    else {
      await makePrivateDir(this.dir);
      const file = path.join(this.dir, 'search-responses.ndjson');
      await replaceFile(file, text());
      this.file = await AppendFile.open(file);
    }
    this.lines = this.byId.size;
  }
}
