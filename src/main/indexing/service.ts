// The indexing interface as the HTTP layer sees it: status reads, bulk index requests (with the
// workflow scorecard), the admin's views, patches and hand moves, reset to the fixtures.
import path from 'node:path';
import type { Bus } from '../bus';
import type { Clock } from '../clock';
import type { FeedState, FeedView, IndexStatus } from '../../shared/indexing';
import type { AccountConfig } from '../accounts/config';
import { CatalogStore, FeedCatalog, type CatalogReader } from './catalog';
import { INDEXING_FILE, openIndexingDb, UploadStash, type FeedRecord } from './feed-db';
import { asDataDirError } from '../store/data-dir-error';
import type { DecodeLimits } from './feed-file';
import { executeRun } from './feed-runs';
import { FeedEngine } from './feeds';
import { humanDuration, statusTime } from '../durations';
import { isEmail, Outbox, type SmtpConfig } from './outbox';
import { applyPatch, moveByHand, type FeedPatch } from './admin';
import { scoreRequest, type RequestOutcome } from './workflow';
import {
  BadIndexRequest,
  FeedAlreadyQueued,
  FeedNeverIndexed,
  NoUploadYet,
  ReindexTooSoon,
  UnknownFeed,
  type IndexRequestRefused,
} from './refusals';

/** Feed states a request can start from. */
const RESTING: ReadonlySet<string> = new Set(['done', 'error', 'regen_error']);

/** One accepted re-index per feed per hour (sandbox clock). */
export const REINDEX_WINDOW_MS = 3_600_000;

export interface StatusFeed {
  id: number;
  lastIndexed: string | null;
  nextIndexTime: string | null;
  indexStatus: IndexStatus;
}

export interface IndexRequest {
  account: AccountConfig;
  method: 'PUT' | 'POST';
  feedId: string | undefined;
  requestedBy: string | undefined;
  upload?: { data: Buffer; name: string };
  /** credentials arrived over plain HTTP */
  plainHttp: boolean;
  /** the status the interface answers with, accepted (null) or refused: the feed's history records it */
  answeredWith: (refusal: IndexRequestRefused | null) => number;
}

/** A queued (or pausing) request: what the feed's history says of it, and the scorecard's first finding. */
export interface IndexRequestQueued {
  detail: string;
  /** the first workflow finding, when the request did not follow the recommended workflow */
  workflow: string | null;
}

/** What indexing takes of the sandbox's config (src/main/config.ts composes it). */
export interface IndexingSettings {
  /** null: in memory */
  dataDir: string | null;
  smtp: SmtpConfig | null;
  accounts: readonly AccountConfig[];
}

export class IndexingService {
  private constructor(
    readonly engine: FeedEngine,
    readonly catalogs: CatalogStore,
    readonly outbox: Outbox,
    private readonly stash: UploadStash,
    private readonly accounts: readonly AccountConfig[],
  ) {}

  static async open(
    config: IndexingSettings,
    clock: Clock,
    bus: Bus,
    options: { limits?: DecodeLimits } = {},
  ): Promise<{ service: IndexingService; warnings: string[] }> {
    const dir = config.dataDir;
    const db = await openIndexingDb(dir);
    const stash = new UploadStash(dir ? path.join(dir, 'uploads') : null);
    const catalogs = new CatalogStore(dir ? path.join(dir, 'catalogs') : null);
    const warnings = await catalogs.load();
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
      await service.initialise();
    } catch (err) {
      // the start-up write of indexing.json fails on a full or read-only disk; say which file
      throw asDataDirError(err, 'write', dir ? path.resolve(dir, INDEXING_FILE) : undefined);
    }
    return { service, warnings };
  }

  /** Records for every configured feed (kept ones as they were, new ones from the fixtures), timers armed. */
  private async initialise(siteId?: string): Promise<void> {
    const data = this.engine.deps.db.data;
    const configured = new Set(
      this.accounts.flatMap((a) => a.feeds.map((f) => `${a.siteId}/${f.id}`)),
    );
    data.feeds = data.feeds.filter((r) => configured.has(`${r.siteId}/${r.feedId}`));
    for (const account of this.accounts) {
      if (siteId !== undefined && account.siteId !== siteId) continue;
      for (const feed of account.feeds) {
        await this.stash.load(account.siteId, feed.id);
        let rec = this.engine.record(account.siteId, feed.id);
        if (!rec) {
          rec = this.engine.fixtureRecord(account.siteId, feed);
          data.feeds.push(rec);
          await this.seedCatalog(rec);
        }
        this.engine.arm(rec);
      }
    }
    await this.engine.deps.db.write();
  }

  /** A cart feed starts `done`: index its source once, so its catalog matches the state the fixtures claim. */
  private async seedCatalog(rec: FeedRecord): Promise<void> {
    const { config } = this.engine.settings(rec);
    if (config.source.kind !== 'cart') return;
    const result = await executeRun(
      { kind: 'cart', feed: config },
      config.idField,
      this.engine.deps.limits,
    );
    rec.lastRun = result.summary;
    rec.products = result.products.length;
    if (!result.summary.error)
      await this.catalogs.replace(
        new FeedCatalog(
          rec.siteId,
          rec.feedId,
          new Date(rec.lastIndexed ?? this.engine.now).toISOString(),
          result.products,
          result.byUid,
        ),
      );
    else
      this.engine.note(
        rec,
        'hand',
        `the cart source could not be indexed at start-up: ${result.summary.error}`,
      );
  }

  get catalog(): CatalogReader {
    return this.catalogs;
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

  /**
   * PUT|POST /api/index/feed: queued (or the running index paused), exactly when the real service says
   * `success`; otherwise throws the IndexRequestRefused that says why (recorded in the feed's history when
   * the request reached a feed).
   */
  async requestIndex(req: IndexRequest): Promise<IndexRequestQueued> {
    const raw = req.feedId?.trim();
    if (!raw) throw new BadIndexRequest('missing feedId: add ?feedId=<the feed id> to the URL');
    if (!/^\d+$/.test(raw))
      throw new BadIndexRequest(
        `feedId ${JSON.stringify(raw)} is not a feed id: use the numeric id GET /api/index/status lists`,
      );
    if (req.requestedBy !== undefined && !isEmail(req.requestedBy)) {
      throw new BadIndexRequest(
        `requestedBy ${JSON.stringify(req.requestedBy)} is not an e-mail address: use one address, e.g. requestedBy=dev%40shop.example, or leave it out`,
      );
    }
    const feedId = Number(raw);
    const rec = this.engine.record(req.account.siteId, feedId);
    if (!rec) {
      const ids = req.account.feeds.map((f) => f.id).join(', ');
      throw new UnknownFeed(
        `feed ${feedId} does not exist for site ${req.account.siteId}; its feeds are ${ids || 'none'}`,
      );
    }
    const now = this.engine.now;
    const s = this.engine.settings(rec);
    const input: 'upload' | 'cart' =
      req.method === 'POST' ? 'upload' : s.config.source.kind === 'cart' ? 'cart' : 'upload';
    let outcome: RequestOutcome;
    let refusal: IndexRequestRefused | null = null;
    if (s.interval === 'Never') {
      outcome = 'refused-never';
      refusal = new FeedNeverIndexed(
        `feed ${feedId} has interval "Never": it is not indexed, by request or by schedule; change its interval to index it`,
      );
    } else if (!RESTING.has(rec.state) && rec.state !== 'running') {
      // still queued (waiting, paused, regenerating): nothing is queued twice — refused,
      // whatever the hour window says
      outcome = 'refused-waiting';
      refusal = new FeedAlreadyQueued(
        `feed ${feedId} is already queued (status "${this.engine.view(rec).indexStatus}"): nothing is queued twice; wait until it is done`,
      );
    } else if (
      rec.lastAcceptedAt !== null &&
      // an accepted request "in the future" (the sandbox clock was set back since) opens no window:
      // time travel must never lock a feed
      rec.lastAcceptedAt <= now &&
      now - rec.lastAcceptedAt < REINDEX_WINDOW_MS
    ) {
      const wait = rec.lastAcceptedAt + REINDEX_WINDOW_MS - now;
      outcome = 'refused-hour';
      refusal = new ReindexTooSoon(
        `feed ${feedId} was already queued at ${statusTime(rec.lastAcceptedAt)}: one re-index per hour; try again in ${humanDuration(wait)} (in the sandbox, advancing its clock skips the wait: POST /_sandbox/clock {"advance":"PT1H"}, or +1 h on the Feeds board)`,
        Math.ceil(wait / 1000),
      );
    } else if (input === 'upload' && req.method === 'PUT' && !this.stash.get(rec.siteId, feedId)) {
      outcome = 'refused-no-file';
      refusal = new NoUploadYet(
        `feed ${feedId} takes uploaded files and none was uploaded yet: POST the file as multipart field feedFile`,
      );
    } else if (rec.state === 'running') {
      outcome = 'paused';
    } else {
      outcome = 'accepted';
    }

    // `success` only once the request and the state it changed are on disk (else a DataDirError: 503,
    // and the feed is as it was)
    const refused = refusal;
    const queued = await this.engine.committed(rec, async () => {
      const scorecard = scoreRequest({
        feedId,
        now,
        statusRead: this.engine.deps.db.data.statusReads[rec.siteId],
        outcome,
        plainHttp: req.plainHttp,
      });
      const accepted = !refused;
      // the upload is stored before anything changes: a full disk refuses the request and changes nothing
      if (accepted && req.upload)
        await this.stash.put(rec.siteId, feedId, req.upload.data, req.upload.name);
      if (accepted) rec.lastAcceptedAt = now;
      const detail = refused
        ? refused.message
        : outcome === 'paused'
          ? `${req.method} while running: the index was paused; resuming it indexes ${input === 'cart' ? 'the cart source' : req.upload ? `upload ${req.upload.name}` : 'the last upload'}`
          : `${req.method} accepted: ${input === 'cart' ? 'reading the cart source' : `indexing ${req.upload ? `upload ${req.upload.name} (${req.upload.data.length} bytes)` : 'the last upload'}`}`;
      this.engine.addHistory(rec, {
        kind: 'request',
        at: new Date(now).toISOString(),
        cause: 'api',
        detail,
        method: req.method,
        status: req.answeredWith(refused),
        accepted,
        requestedBy: req.requestedBy ?? null,
        scorecard,
      });
      // the state may have moved while the upload was being kept
      if (outcome === 'paused' && rec.state === 'running') {
        const what = input === 'cart' ? 'the cart source' : `the file it uploaded`;
        this.engine.pause(
          rec,
          `a bulk index request (${req.method}) arrived while the feed was running; resume it by hand: the index starts again with ${what}`,
          'api',
          now,
        );
        // An accepted request is never lost: the paused run gives way to the request that paused it, so
        // resuming indexes its file (not the one of before) and tells its requester (or the earlier one).
        this.engine.supersedeRun(rec, {
          cause: 'api',
          requestedBy: req.requestedBy ?? rec.run?.requestedBy ?? null,
          requestedAt: now,
          input,
        });
      } else if (
        outcome === 'accepted' &&
        (rec.state === 'done' || rec.state === 'error' || rec.state === 'regen_error')
      ) {
        this.engine.start(
          rec,
          { cause: 'api', requestedBy: req.requestedBy ?? null, requestedAt: now, input },
          detail,
          now,
        );
      } else {
        this.engine.changed(rec);
      }
      return {
        detail,
        workflow: scorecard.followed ? null : (scorecard.findings[0]?.message ?? null),
      };
    });
    if (refused) {
      refused.workflow = queued.workflow;
      throw refused;
    }
    return queued;
  }

  feeds(siteId?: string): FeedView[] {
    return this.engine.records(siteId).map((r) => this.engine.view(r));
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
  async patch(siteId: string, feedId: number, patch: FeedPatch): Promise<FeedView> {
    const rec = this.engine.record(siteId, feedId);
    if (!rec) return applyPatch(this.engine, siteId, feedId, patch); // throws FeedNotFound
    return this.engine.committed(rec, () => applyPatch(this.engine, siteId, feedId, patch));
  }

  /** Move a feed by hand, stored before it resolves; throws FeedNotFound, TransitionRefused or HandMoveConflict. */
  async transition(siteId: string, feedId: number, to: FeedState): Promise<FeedView> {
    const rec = this.engine.record(siteId, feedId);
    if (!rec) return moveByHand(this.engine, siteId, feedId, to); // throws FeedNotFound
    return this.engine.committed(rec, () => moveByHand(this.engine, siteId, feedId, to));
  }

  /** Back to the fixtures: feed states, uploads, catalogs, outbox (of one site, or all). */
  async reset(siteId?: string): Promise<void> {
    const data = this.engine.deps.db.data;
    this.engine.close();
    this.engine.reopen();
    for (const rec of this.engine.records(siteId)) this.engine.dropParse(rec);
    data.feeds = data.feeds.filter((r) => siteId !== undefined && r.siteId !== siteId);
    data.outbox = data.outbox.filter((m) => siteId !== undefined && m.siteId !== siteId);
    if (siteId === undefined) data.statusReads = {};
    else delete data.statusReads[siteId];
    await this.stash.clear(siteId);
    await this.catalogs.clear(siteId);
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

function time(ms: number | null): string | null {
  return ms === null ? null : statusTime(ms);
}
