// The indexing interface as the HTTP layer sees it: status reads, bulk index requests (with the
// workflow scorecard), the admin's views, patches and hand moves, reset to the fixtures.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Bus } from '../bus';
import type { Clock } from '../clock';
import type {
  FeedState,
  FeedView,
  IndexStatus,
  OutboxMessage,
  PatchedFeed,
} from '../../shared/indexing';
import type { AccountConfig } from '../accounts/config';
import { SiteNotFound } from '../accounts/site-not-found';
import {
  CatalogStore,
  damageNote,
  FeedCatalog,
  type CatalogReader,
  type DamagedCatalog,
  type OrphanedCatalog,
} from './catalog';
import { INDEXING_FILE, openIndexingDb, type FeedRecord, type IndexingData } from './feed-db';
import { UploadStash } from './upload-stash';
import { PrivateJsonFile } from '../store/private-files';
import { asideFor, type ResetFiles } from '../store/reset-commit';
import { asDataDirError } from '../store/data-dir-error';
import type { DecodeLimits } from './feed-file';
import { executeRun } from './feed-runs';
import { cartSource, runRecord, sourceChanged } from './run-outcome';
import { FeedEngine } from './feeds';
import { catalogMissing, configEdited, repairSchedule, uploadLost } from './kept-feeds';
import { statusTime } from '../durations';
import { plural } from '../../shared/text';
import { Outbox, type SmtpConfig } from './outbox';
import { applyPatch, moveByHand, type FeedPatch } from './admin';
import { requestIndex, type IndexRequest, type IndexRequestQueued } from './index-request';
import { FeedMovesNotStored } from './moves-not-stored';

export { REINDEX_WINDOW_MS, type IndexRequest, type IndexRequestQueued } from './index-request';

/** The feeds' part of a reset (see `IndexingService.prepareReset`). */
export interface PreparedFeedsReset {
  /** indexing.json's new state written aside, and the uploads and catalogs removed (null: in memory) */
  files: ResetFiles | null;
  apply(): Promise<void>;
  abandon(): Promise<void>;
}

export interface StatusFeed {
  id: number;
  lastIndexed: string | null;
  nextIndexTime: string | null;
  indexStatus: IndexStatus;
}

/** What indexing takes of the sandbox's config (src/main/config.ts composes it). */
export interface IndexingSettings {
  /** null: in memory */
  dataDir: string | null;
  smtp: SmtpConfig | null;
  accounts: readonly AccountConfig[];
}

export class IndexingService {
  /** the clock's time at its last move: a move to before it is the clock going back */
  private clockSeen: number;

  private constructor(
    readonly engine: FeedEngine,
    readonly catalogs: CatalogStore,
    readonly outbox: Outbox,
    private readonly stash: UploadStash,
    private readonly accounts: readonly AccountConfig[],
  ) {
    this.clockSeen = engine.now;
  }

  static async open(
    config: IndexingSettings,
    clock: Clock,
    bus: Bus,
    options: { limits?: DecodeLimits } = {},
  ): Promise<{ service: IndexingService; warnings: string[] }> {
    const dir = config.dataDir;
    const { db, found } = await openIndexingDb(dir);
    const stash = new UploadStash(dir ? path.join(dir, 'uploads') : null);
    const catalogs = new CatalogStore(dir ? path.join(dir, 'catalogs') : null);
    const warnings = await catalogs.load((siteId, feedId) =>
      config.accounts.some((a) => a.siteId === siteId && a.feeds.some((f) => f.id === feedId)),
    );
    const outbox = new Outbox(db, clock, bus, config.smtp);
    const engine = new FeedEngine({
      accounts: config.accounts,
      clock,
      bus,
      db,
      stash,
      catalogs,
      outbox,
      limits: options.limits,
    });
    const service = new IndexingService(engine, catalogs, outbox, stash, config.accounts);
    try {
      // a cart source that cannot be indexed at start-up is said where the sandbox says it is ready
      await service.initialise(undefined, warnings, found);
      // once the records name their uploads on disk: what none names is an unanswered request's
      warnings.push(...(await stash.sweep(db.data.feeds, found)));
    } catch (err) {
      // the start-up write of indexing.json fails on a full or read-only disk; say which file
      throw asDataDirError(err, 'write', dir ? path.resolve(dir, INDEXING_FILE) : undefined);
    }
    return { service, warnings };
  }

  /**
   * Records for every configured feed (kept ones as they were, new ones from the fixtures), timers armed.
   * `stateFound` false: indexing.json was missing (the start-up's warnings say so).
   */
  private async initialise(
    siteId?: string,
    warnings: string[] = [],
    stateFound = true,
  ): Promise<void> {
    const data = this.engine.deps.db.data;
    // the feeds of sites the config no longer names stay in indexing.json as they were (dormant)
    const dormant = dormantNote(this.engine.dormantRecords(), this.siteIds());
    if (dormant && siteId === undefined) warnings.push(dormant);
    /** the damaged catalogs a feed's own warning names */
    const said = new Set<DamagedCatalog>();
    for (const account of this.accounts) {
      if (siteId !== undefined && account.siteId !== siteId) continue;
      for (const feed of account.feeds) {
        let rec = this.engine.record(account.siteId, feed.id);
        if (!rec) {
          rec = this.engine.fixtureRecord(account.siteId, feed);
          data.feeds.push(rec);
          const orphaned = await this.catalogs.orphan(account.siteId, feed.id);
          if (orphaned) {
            const note = orphanNote(orphaned, stateFound);
            this.engine.note(rec, 'sandbox', note);
            warnings.push(`feed ${feed.id} of ${account.siteId}: ${note}`);
          }
          await this.stash.load(rec);
          const problem = await this.seedCatalog(rec);
          if (problem) warnings.push(`feed ${feed.id} of ${account.siteId}: ${problem}`);
        } else {
          await this.stash.load(rec);
          configEdited(this.engine, rec);
          repairSchedule(this.engine, rec);
          const missing = catalogMissing(this.engine, rec);
          if (missing) warnings.push(`feed ${feed.id} of ${account.siteId}: ${missing}`);
          const damaged = this.catalogs.damaged(account.siteId, feed.id);
          if (missing && damaged) said.add(damaged);
          const lost = uploadLost(this.engine, rec);
          if (lost) warnings.push(`feed ${feed.id} of ${account.siteId}: ${lost}`);
          const changed = sourceChanged(rec, feed);
          if (changed) this.engine.note(rec, 'sandbox', changed);
          // the clock starts at real time again: times kept from an advanced clock come within reach
          this.engine.clockWentBack(rec);
        }
        this.engine.arm(rec);
      }
    }
    // a damaged catalog its feed did not claim (already in error, or dormant) is said at every start
    // while it is there: it is not served, and only the user can decide what becomes of the file
    if (siteId === undefined)
      for (const d of this.catalogs.allDamaged())
        if (!said.has(d)) warnings.push(`feed ${d.feedId} of ${d.siteId}: ${damageNote(d)}`);
    await this.engine.deps.db.write();
  }

  /**
   * A cart feed starts `done`: index its source once, so its catalog matches the state the fixtures claim.
   * Resolves with what went wrong, when its source could not be indexed (null otherwise).
   */
  private async seedCatalog(rec: FeedRecord): Promise<string | null> {
    const { config } = this.engine.settings(rec);
    if (config.source.kind !== 'cart') return null;
    const result = await executeRun(
      { kind: 'cart', feed: config },
      config.idField,
      this.engine.deps.limits,
    );
    const failed = result.summary.error !== null;
    rec.lastRun = runRecord(
      result,
      failed ? 'error' : 'done',
      result.summary.error,
      rec.lastIndexed ?? this.engine.now,
    );
    rec.lastRun.source = cartSource(config)!;
    rec.products = failed ? 0 : result.products.length;
    const problem = result.summary.error
      ? `the cart source could not be indexed at start-up: ${result.summary.error}`
      : null;
    if (!problem)
      await this.catalogs.replace(
        new FeedCatalog(
          rec.siteId,
          rec.feedId,
          new Date(rec.lastIndexed ?? this.engine.now).toISOString(),
          result.products,
          result.byUid,
        ),
      );
    else this.engine.note(rec, 'sandbox', problem);
    return problem;
  }

  get catalog(): CatalogReader {
    return this.catalogs;
  }

  /** The sandbox clock moved: after it went back, every feed's times measured on the old clock come within reach. */
  clockMoved(): void {
    const wentBack = this.engine.now < this.clockSeen;
    this.clockSeen = this.engine.now;
    for (const rec of this.engine.records()) this.engine.clockWentBack(rec, wentBack);
  }

  /**
   * Move the sandbox clock with `move`, then wait until the feed steps it reached are taken and stored
   * (catalogs, then indexing.json): what the clock's answer and the reads after it show, a restart finds.
   * Throws FeedMovesNotStored, naming each feed that moved, when they cannot be stored.
   */
  async moveClock(move: () => void): Promise<void> {
    const before = new Map(this.engine.records().map((r) => [feedName(r), r.state]));
    move();
    await this.engine.settled();
    try {
      await this.engine.stored();
    } catch (err) {
      const moves = this.engine
        .records()
        .filter((r) => before.get(feedName(r)) !== r.state)
        .map((r) => ({ feed: feedName(r), from: before.get(feedName(r))!, to: r.state }));
      throw new FeedMovesNotStored(new Date(this.engine.now).toISOString(), moves, err as Error);
    }
  }

  /**
   * Resolves once every feed change made so far is stored (a step the clock took on its own, a parse that
   * ended): a read shows only what a restart would find. Rejects with the data directory's failure.
   */
  stored(): Promise<void> {
    return this.engine.stored();
  }

  /** GET /api/index/status: every feed of the account; remembered for the workflow scorecard. */
  status(account: AccountConfig): StatusFeed[] {
    const feeds = this.engine.records(account.siteId).map((rec) => {
      const view = this.engine.view(rec);
      return {
        id: rec.feedId,
        lastIndexed: time(rec.lastIndexed),
        nextIndexTime: time(rec.nextIndexTime),
        indexStatus: view.indexStatus,
      };
    });
    this.engine.deps.db.data.statusReads[account.siteId] = {
      at: this.engine.now,
      seen: Object.fromEntries(feeds.map((f) => [String(f.id), f.indexStatus])),
    };
    this.engine.save();
    return feeds;
  }

  /** PUT|POST /api/index/feed (index-request.ts): queued, or throws the IndexRequestRefused that says why. */
  requestIndex(req: IndexRequest): Promise<IndexRequestQueued> {
    return requestIndex({ engine: this.engine, stash: this.stash }, req);
  }

  /** Every feed, or one site's; SiteNotFound for a siteId no account has (it can have no feeds). */
  feeds(siteId?: string): FeedView[] {
    if (siteId !== undefined)
      this.accountSite(
        siteId,
        "feeds are those of the config's accounts (accounts[].feeds), and no account has this siteId",
      );
    return this.engine.records(siteId).map((r) => this.engine.view(r));
  }

  /**
   * The outbox's messages, newest last, of one site, feed or address (`to`, any case); SiteNotFound for a
   * siteId no account has: only an account's feeds send mail (one that sent none answers []).
   */
  messages(filter: { siteId?: string; feedId?: number; to?: string }): OutboxMessage[] {
    const { siteId, feedId } = filter;
    if (siteId !== undefined)
      this.accountSite(
        siteId,
        "the outbox holds the mails of the config's accounts' feeds, and no account has this siteId",
      );
    const to = filter.to?.toLowerCase();
    return this.outbox
      .list()
      .filter(
        (m) =>
          (siteId === undefined || m.siteId === siteId) &&
          (feedId === undefined || m.feedId === feedId) &&
          (to === undefined || m.to.toLowerCase() === to),
      );
  }

  /**
   * A siteId asked of indexing (feeds, outbox) is an account's: else SiteNotFound with the configured
   * sites, the nearest first, and `rule`, what the request reads. The one check each such request shares.
   */
  accountSite(siteId: string, rule: string): void {
    if (!this.accounts.some((a) => a.siteId === siteId))
      throw new SiteNotFound(siteId, this.siteIds(), rule);
  }

  /** The config's siteIds, in config order. */
  siteIds(): string[] {
    return this.accounts.map((a) => a.siteId);
  }

  feed(siteId: string, feedId: number): FeedView | undefined {
    const rec = this.engine.record(siteId, feedId);
    return rec && this.engine.view(rec);
  }

  /** A page of the feed's last indexed catalog (`limit` products from `offset`); undefined: no such feed. */
  catalogPage(siteId: string, feedId: number, offset: number, limit: number) {
    if (!this.feed(siteId, feedId)) return undefined;
    const catalog = this.catalogs.feed(siteId, feedId);
    return {
      siteId,
      feedId,
      indexedAt: catalog?.indexedAt ?? null,
      total: catalog?.size ?? 0,
      products: catalog ? catalog.products.slice(offset, offset + limit) : [],
    };
  }

  /** Change a feed's settings and faults, stored before it resolves; throws FeedNotFound or FeedSettingRefused. */
  async patch(siteId: string, feedId: number, patch: FeedPatch): Promise<PatchedFeed> {
    const rec = this.engine.record(siteId, feedId);
    if (!rec) return applyPatch(this.engine, siteId, feedId, patch); // throws FeedNotFound
    return this.engine.committed(rec, () => applyPatch(this.engine, siteId, feedId, patch));
  }

  /** Move a feed by hand, stored before it resolves; throws FeedNotFound, TransitionRefused or HandMoveConflict. */
  async transition(siteId: string, feedId: number, to: FeedState): Promise<FeedView> {
    const rec = this.engine.record(siteId, feedId);
    if (!rec) return moveByHand(this.engine, siteId, feedId, to); // throws FeedNotFound
    await this.engine.committed(rec, () => moveByHand(this.engine, siteId, feedId, to));
    // as stored: a move to done whose catalog could not be written ended the feed in error meanwhile
    return this.engine.view(rec);
  }

  /**
   * Back to the fixtures (of one site, or all), as one part of reset `resetId`: indexing.json without the
   * sites' feeds, mail and status reads is written aside now, and the live file and memory stay as they
   * are (writes asked for meanwhile wait). `apply`, once the reset committed, forgets them in memory, puts
   * that file in place and removes the sites' uploads and catalogs; `refill` then makes their feeds from
   * the fixtures again, as a start does for a feed indexing.json does not hold.
   */
  async prepareReset(siteId: string | undefined, resetId: string): Promise<PreparedFeedsReset> {
    // what is reset is the configured sites': dormant feeds (and their mail) are kept as they were
    const sites = siteId === undefined ? this.siteIds() : [siteId];
    const adapter = this.engine.deps.db.adapter;
    const file = adapter instanceof PrivateJsonFile ? adapter : null;
    const aside = file
      ? await file.prepareReplace(
          () => {
            const data = this.engine.deps.db.data;
            return JSON.stringify({ ...data, ...withoutSites(data, this.engine, sites) }, null, 2);
          },
          asideFor(file.file, resetId),
        )
      : null;
    const records = sites.flatMap((site) => this.engine.records(site));
    // the uploads the records name now: reset.json names their files, for a start to finish the reset
    const uploads = records.map((r) => r.upload);
    const removed = records.flatMap((r) => [
      ...this.catalogs.filesOf(r.siteId, r.feedId),
      ...this.stash.filesOf(r),
    ]);
    return {
      files:
        aside && file
          ? { place: [{ aside: aside.aside, file: file.file }], remove: removed }
          : null,
      apply: async () => {
        // in memory first: the writes waiting on the file put in place write the reset's data
        this.engine.close();
        this.engine.reopen();
        for (const rec of this.engine.records(siteId)) this.engine.dropParse(rec);
        Object.assign(
          this.engine.deps.db.data,
          withoutSites(this.engine.deps.db.data, this.engine, sites),
        );
        await aside?.place();
        // and those named since (a request stored meanwhile)
        await this.stash.forget([...uploads, ...records.map((r) => r.upload)]);
        for (const site of sites) await this.catalogs.clear(site);
      },
      abandon: async () => aside?.drop(),
    };
  }

  /** Back to the fixtures on their own (outside a sandbox's reset): the same steps, one after the other. */
  async reset(siteId?: string): Promise<void> {
    await (await this.prepareReset(siteId, randomUUID())).apply();
    await this.refill(siteId);
  }

  /** After a reset's `apply`: the sites' feeds from the fixtures again, every feed's timer armed. */
  async refill(siteId?: string): Promise<void> {
    await this.initialise();
    for (const rec of this.engine.records(siteId)) this.engine.changed(rec);
  }

  private closing: Promise<void> | null = null;

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.engine.close();
    this.outbox.close();
    await this.engine.deps.db.write();
  }
}

/** The feeds' data without the configured feeds, mail and status reads of `sites` (a reset's). */
function withoutSites(
  data: IndexingData,
  engine: FeedEngine,
  sites: readonly string[],
): Pick<IndexingData, 'feeds' | 'outbox' | 'statusReads'> {
  const reset = new Set(sites.flatMap((site) => engine.records(site)));
  return {
    feeds: data.feeds.filter((r) => !reset.has(r)),
    outbox: data.outbox.filter((m) => !sites.includes(m.siteId)),
    statusReads: Object.fromEntries(
      Object.entries(data.statusReads).filter(([site]) => !sites.includes(site)),
    ),
  };
}

/**
 * The start-up's one line on the kept feeds no account names, or null: by site, with the feed ids, and
 * what brings them back. Nothing of them is served, moved or rewritten away meanwhile.
 */
function dormantNote(dormant: readonly FeedRecord[], named: readonly string[]): string | null {
  if (dormant.length === 0) return null;
  const bySite = new Map<string, number[]>();
  for (const r of dormant) bySite.set(r.siteId, [...(bySite.get(r.siteId) ?? []), r.feedId]);
  const list = (sites: string[]) =>
    sites
      .map((site) => {
        const ids = bySite.get(site)!.sort((a, b) => a - b);
        return `${site} (${ids.length === 1 ? 'feed' : 'feeds'} ${ids.join(', ')})`;
      })
      .join(', ');
  const unnamed = [...bySite.keys()].filter((s) => !named.includes(s));
  const ofNamed = [...bySite.keys()].filter((s) => named.includes(s));
  const parts = [
    unnamed.length > 0 &&
      `feeds of sites no account names: ${list(unnamed)}; they come back when an account names the site again`,
    ofNamed.length > 0 &&
      `feeds their account no longer names: ${list(ofNamed)}; they come back when the account names them again`,
  ].filter((p): p is string => typeof p === 'string');
  return `${INDEXING_FILE} keeps ${parts.join('; and ')} (nothing of them is served meanwhile)`;
}

/**
 * What became of the catalog kept for a feed that indexing.json holds no record of, as the feed's history
 * and the start-up say it. The feed starts from the fixtures, so that catalog is not its index: serving it
 * would have the search answer from products the feed says it does not have. It is moved, not removed:
 * it may be all that is left of an index someone needs.
 */
function orphanNote(o: OrphanedCatalog, stateFound: boolean): string {
  const why = stateFound
    ? `${INDEXING_FILE} holds no record of this feed`
    : `${INDEXING_FILE} was missing`;
  const held =
    o.products === null
      ? 'a damaged one'
      : `${plural(o.products, 'product')}, indexed at ${o.indexedAt}`;
  return `${why}, so the feed started again from the fixtures, and the catalog the data directory kept for it (${held}) is not its index: not served, and moved from ${o.file} to ${o.movedTo}. To serve it again, stop the sandbox and put back both the ${INDEXING_FILE} that named it and that file as ${o.file}; else index the feed again, and delete the file when you no longer need it`;
}

function feedName(rec: FeedRecord): string {
  return `${rec.siteId}/${rec.feedId}`;
}

function time(ms: number | null): string | null {
  return ms === null ? null : statusTime(ms);
}
