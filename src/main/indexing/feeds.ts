// The feeds' engine: every state change goes through `transition()` (checked against the one table),
// autopilot steps and scheduled starts are timers on the sandbox clock, each change lands in the feed's
// history and on the bus. Moves are synchronous so that advancing the clock fires whole chains in order.
import type { Bus } from '../bus';
import type { Clock } from '../clock';
import type {
  FeedState,
  FeedView,
  HistoryEntry,
  ParseProgress,
  TransitionCause,
} from '../../shared/indexing';
import { type AccountConfig, type FeedConfig } from '../accounts/config';
import { FeedCatalog, type CatalogStore } from './catalog';
import {
  fixtureRecord,
  HISTORY_LIMIT,
  type FeedRecord,
  type IndexingDb,
  type RunInfo,
} from './feed-db';
import type { UploadStash } from './upload-stash';
import { executeRun, stepDuration, type RunResult } from './feed-runs';
import {
  cartSource,
  regenerationFailedRecord,
  runOutcome,
  runRecord,
  sendStatusMail,
  supersededBy,
  supersededNote,
} from './run-outcome';
import type { DecodeLimits } from './feed-file';
import { feedView } from './feed-view';
import { autopilotStep, scheduledStart } from './autopilot';
import { bringTimesWithinReach, scheduleBack } from './clock-back';
import type { Outbox } from './outbox';
import { nextAfter } from '../durations';
import { plural } from '../../shared/text';
import {
  allowedTargets,
  canTransition,
  feedTraits,
  RESTING_STATES,
  startTarget,
  TransitionRefused,
  type FeedTraits,
  type Trigger,
} from './state-machine';

export interface EngineDeps {
  accounts: readonly AccountConfig[];
  clock: Clock;
  bus: Bus;
  db: IndexingDb;
  stash: UploadStash;
  catalogs: CatalogStore;
  outbox: Outbox;
  limits?: DecodeLimits;
}

interface ParseTask {
  runId: string;
  promise: Promise<RunResult>;
  result: RunResult | null;
  /** how far the parse has read, while it runs */
  progress: ParseProgress | null;
}

/** The board hears of a parse's progress at most this often (real time): a view per slice would flood it. */
const PROGRESS_EVERY_MS = 250;

/** The longest (real time) a clock move's answer waits for the indexes it reached to be parsed. */
const SETTLE_LIMIT_MS = 30_000;

const key = (siteId: string, feedId: number) => `${siteId}/${feedId}`;

export class FeedEngine {
  private readonly timers = new Map<string, () => void>();
  private readonly parses = new Map<string, ParseTask>();
  private closed = false;
  /** catalogs of finished indexes being written (each settles once written, or its loss recorded) */
  private readonly catalogWrites = new Set<Promise<void>>();
  /** each feed's last change under way (see `committed`), by feed key */
  private readonly feedChanges = new Map<string, Promise<void>>();
  /** the feeds whose change is being committed: whether it was stored, once known (see `deferSaves`) */
  private readonly committing = new Map<FeedRecord, Promise<boolean>>();
  /** stores asked for so far, and the last of them known to be on disk */
  private changes = 0;
  private storedChanges = 0;
  /** the feed messages asked for, each told once its change is stored (see `tell`) */
  private telling: Promise<void> = Promise.resolve();

  constructor(readonly deps: EngineDeps) {
    // a feed indexed makes the catalog search serves another feed's: every card of the site says so
    deps.catalogs.onChange((siteId) => {
      if (this.closed) return;
      for (const rec of this.records(siteId)) this.tell(rec);
    });
  }

  get now(): number {
    return this.deps.clock.now();
  }

  feedConfig(siteId: string, feedId: number): FeedConfig | undefined {
    return this.deps.accounts.find((a) => a.siteId === siteId)?.feeds.find((f) => f.id === feedId);
  }

  /**
   * A feed the config names. indexing.json also keeps the feeds of sites (or feed ids) the config no
   * longer names, as they were: dormant, never served or moved, back when an account names them again.
   */
  record(siteId: string, feedId: number): FeedRecord | undefined {
    return this.deps.db.data.feeds.find(
      (r) => r.siteId === siteId && r.feedId === feedId && this.configured(r),
    );
  }

  /** The feeds the config names (of one site, or all). */
  records(siteId?: string): FeedRecord[] {
    return this.deps.db.data.feeds.filter(
      (r) => (siteId === undefined || r.siteId === siteId) && this.configured(r),
    );
  }

  /** The kept feeds no account of the config names (dormant). */
  dormantRecords(): FeedRecord[] {
    return this.deps.db.data.feeds.filter((r) => !this.configured(r));
  }

  private configured(rec: FeedRecord): boolean {
    return this.feedConfig(rec.siteId, rec.feedId) !== undefined;
  }

  /** Configured settings with the admin's overrides applied. */
  settings(rec: FeedRecord): {
    interval: number | 'Never';
    autopilot: boolean;
    regeneration: boolean;
    config: FeedConfig;
  } {
    const config = this.feedConfig(rec.siteId, rec.feedId)!;
    return {
      interval: rec.overrides.interval ?? config.interval,
      autopilot: rec.overrides.autopilot ?? config.autopilot,
      regeneration: rec.overrides.regeneration ?? config.regeneration,
      config,
    };
  }

  /** What the transition table asks of the feed: its regeneration, and whether anything may start it. */
  traits(rec: FeedRecord): FeedTraits {
    return feedTraits(this.settings(rec));
  }

  /** The fixtures' starting point (see feed-db.ts). */
  fixtureRecord(siteId: string, feed: FeedConfig): FeedRecord {
    return fixtureRecord(siteId, feed, this.now);
  }

  // ---- moves ----------------------------------------------------------------------------------

  /** Move along the table (throws TransitionRefused otherwise), record and publish the change. */
  transition(
    rec: FeedRecord,
    to: FeedState,
    trigger: Trigger | 'hand',
    cause: TransitionCause,
    detail: string,
    at = this.now,
  ): void {
    const traits = this.traits(rec);
    if (!canTransition(rec.state, to, traits, trigger))
      throw new TransitionRefused(rec.state, to, allowedTargets(rec.state, traits));
    const from = rec.state;
    rec.state = to;
    if (to !== 'paused') rec.pausedReason = null;
    rec.stepStartedAt = at;
    // a resumed index keeps the running time it had before the pause
    if (!(from === 'paused' && to === 'running')) rec.stepElapsedMs = 0;
    this.addHistory(rec, {
      kind: 'transition',
      at: new Date(at).toISOString(),
      cause,
      detail,
      from,
      to,
    });
    if (to === 'running') this.ensureParse(rec);
    this.arm(rec);
    this.changed(rec);
  }

  /** Start a resting feed (request, schedule or hand): regeneration first when the feed has it. */
  start(
    rec: FeedRecord,
    run: Omit<RunInfo, 'id'>,
    detail: string,
    at = this.now,
    target?: FeedState,
  ): void {
    const to = target ?? startTarget(rec.state, this.traits(rec));
    if (!to)
      throw new TransitionRefused(
        rec.state,
        'waiting',
        allowedTargets(rec.state, this.traits(rec)),
      );
    rec.run = this.newRun(rec, run);
    this.parses.delete(key(rec.siteId, rec.feedId));
    this.transition(rec, to, run.cause === 'hand' ? 'hand' : 'start', run.cause, detail, at);
  }

  /**
   * A paused run gives way to a newer request: resuming starts the index again from the start, with
   * that request's input and requester (its parse is made anew, for the run's new id). The requesters
   * it supersedes are carried on the new run, so they are told how it ends, and the history says so.
   */
  supersedeRun(rec: FeedRecord, run: Omit<RunInfo, 'id'>, at = this.now): void {
    const earlier = rec.run;
    rec.run = this.newRun(rec, run);
    rec.run.superseded = supersededBy(earlier, rec.run, at);
    this.parses.delete(key(rec.siteId, rec.feedId));
    rec.stepElapsedMs = 0;
    this.note(rec, run.cause, supersededNote(earlier, rec.run, at), at);
  }

  /** A run with a new id, naming the upload it indexes (the stash keeps one per feed). */
  private newRun(rec: FeedRecord, run: Omit<RunInfo, 'id'>): RunInfo {
    this.deps.db.data.seq++;
    const file = run.input === 'upload' ? (this.deps.stash.get(rec)?.name ?? null) : null;
    return { ...run, file, id: `run_${this.deps.db.data.seq}` };
  }

  pause(rec: FeedRecord, reason: string, cause: TransitionCause, at = this.now): void {
    const elapsed = rec.stepStartedAt === null ? 0 : Math.max(0, at - rec.stepStartedAt);
    const before = rec.stepElapsedMs + elapsed;
    this.transition(rec, 'paused', cause === 'hand' ? 'hand' : 'pause', cause, reason, at);
    rec.pausedReason = reason;
    rec.stepElapsedMs = before;
    rec.stepStartedAt = null;
    this.changed(rec);
  }

  note(rec: FeedRecord, cause: TransitionCause, detail: string, at = this.now): void {
    this.addHistory(rec, { kind: 'note', at: new Date(at).toISOString(), cause, detail });
    this.changed(rec);
  }

  addHistory(rec: FeedRecord, entry: HistoryEntry): void {
    rec.history.push(entry);
    if (rec.history.length > HISTORY_LIMIT)
      rec.history.splice(0, rec.history.length - HISTORY_LIMIT);
  }

  /** End the running index: done with the parsed catalog, or error (parse failure, injected fault, by hand). */
  finishRunning(
    rec: FeedRecord,
    result: RunResult,
    at: number,
    cause: TransitionCause,
    forced?: 'done' | 'error',
  ): void {
    const run = rec.run;
    const { to, reason, why } = runOutcome(rec, result, cause, forced);
    // a file posted to a cart feed is what its run read, not the cart source
    const source = run?.input === 'upload' ? null : cartSource(this.settings(rec).config);
    const summary = {
      ...runRecord(result, to, to === 'error' ? reason : null, at),
      ...(source === null ? {} : { source }),
    };
    rec.lastRun = summary;
    if (to === 'done') {
      const before = { lastIndexed: rec.lastIndexed, products: rec.products };
      rec.lastIndexed = at;
      rec.products = result.products.length;
      this.trackCatalogWrite(
        this.deps.catalogs
          .replace(
            new FeedCatalog(
              rec.siteId,
              rec.feedId,
              new Date(at).toISOString(),
              result.products,
              result.byUid,
            ),
          )
          .catch((err: Error) => this.catalogLost(rec, at, before, err)),
      );
    }
    this.advanceNextIndexTime(rec, at);
    this.parses.delete(key(rec.siteId, rec.feedId));
    rec.run = null;
    const detail =
      to === 'done'
        ? `indexed ${plural(summary.products, 'product')}${summary.rowErrorCount ? `, ${plural(summary.rowErrorCount, 'row')} with errors` : ''}${summary.rowWarningCount ? `, ${plural(summary.rowWarningCount, 'row')} with warnings` : ''}${summary.charsetNote ? `; ${summary.charsetNote}` : ''}`
        : reason!;
    this.transition(rec, to, cause === 'hand' ? 'hand' : 'step', why, detail, at);
    this.notify(rec, to, reason, run, at);
  }

  /**
   * The catalog of a finished index could not be written (a full disk, a file in the way): the feed did
   * not index. It was `done` a moment ago; it ends in `error` with the reason, its lastIndexed, product
   * count and catalog as they were, so the status API and the search never claim a catalog a restart would lose.
   */
  private catalogLost(
    rec: FeedRecord,
    finishedAt: number,
    before: { lastIndexed: number | null; products: number },
    err: Error,
  ): void {
    if (rec.state !== 'done' || rec.lastIndexed !== finishedAt) return; // a newer run moved it on
    const reason = `the catalog could not be saved (${err.message}): the index did not complete; fix the data directory and index again`;
    rec.state = 'error';
    rec.lastIndexed = before.lastIndexed;
    rec.products = before.products;
    if (rec.lastRun) rec.lastRun = { ...rec.lastRun, error: reason, outcome: 'error', indexed: 0 };
    // nothing was injected: the data directory refused the write
    this.addHistory(rec, {
      kind: 'transition',
      at: new Date(this.now).toISOString(),
      cause: 'sandbox',
      detail: reason,
      from: 'done',
      to: 'error',
    });
    this.arm(rec);
    this.changed(rec);
  }

  /** regen_running → regen_error: the run ends (nextIndexTime moves on, requestedBy gets told). */
  failRegeneration(rec: FeedRecord, at: number, cause: TransitionCause, reason: string): void {
    const run = rec.run;
    rec.run = null;
    rec.lastRun = regenerationFailedRecord(reason, at);
    this.advanceNextIndexTime(rec, at);
    this.transition(rec, 'regen_error', cause === 'hand' ? 'hand' : 'step', cause, reason, at);
    this.notify(rec, 'regen_error', reason, run, at);
  }

  /** The next index counted again from the last one by the feed's interval (none when it is Never). */
  recountNext(rec: FeedRecord): void {
    const { interval } = this.settings(rec);
    rec.nextIndexTime =
      interval === 'Never' ? null : nextAfter(rec.lastIndexed ?? this.now, interval, this.now);
  }

  /**
   * The clock went back (reset, set back, or a restart on real time): a step or a next index time measured
   * on the advanced clock is brought within reach (clock-back.ts), said in the history, and re-armed.
   * `wentBack` false: the clock moved on, and what stays as it was is not said again.
   */
  clockWentBack(rec: FeedRecord, wentBack = true): void {
    const said = bringTimesWithinReach(rec, this.settings(rec).interval, this.now, wentBack);
    if (said.length === 0) return;
    for (const detail of said) this.note(rec, 'sandbox', detail);
    this.arm(rec);
  }

  /**
   * nextIndexTime moves by whole intervals to the first time of its schedule after the finish time: on,
   * and back when an index ends before the time the clock going back left it at (clock-back.ts).
   */
  advanceNextIndexTime(rec: FeedRecord, at: number): void {
    const { interval } = this.settings(rec);
    if (interval === 'Never') {
      rec.nextIndexTime = null;
      return;
    }
    const next = rec.nextIndexTime ?? at + interval;
    rec.nextIndexTime =
      next > at ? scheduleBack(next, interval, at) : nextAfter(next, interval, at);
  }

  private notify(
    rec: FeedRecord,
    outcome: FeedState,
    reason: string | null,
    run: RunInfo | null,
    at: number,
  ): void {
    sendStatusMail(this.deps.outbox, rec, this.settings(rec).config, { outcome, reason, run, at });
  }

  // ---- parsing ----------------------------------------------------------------------------------

  /** The parse of the current run, started once when the feed starts running. */
  ensureParse(rec: FeedRecord): ParseTask {
    const k = key(rec.siteId, rec.feedId);
    const runId = rec.run?.id ?? 'hand';
    const existing = this.parses.get(k);
    if (existing && existing.runId === runId) return existing;
    const { config } = this.settings(rec);
    const source =
      rec.run?.input === 'cart'
        ? ({ kind: 'cart', feed: config } as const)
        : ({
            kind: 'upload',
            data: this.deps.stash.get(rec)?.data,
            lost: this.deps.stash.lostOf(rec),
          } as const);
    const task: ParseTask = {
      runId,
      result: null,
      progress: null,
      promise: Promise.resolve(null as unknown as RunResult),
    };
    let told = -Infinity; // the first slice is told at once, later ones at most every PROGRESS_EVERY_MS
    const onProgress = (progress: ParseProgress) => {
      task.progress = progress;
      if (performance.now() - told < PROGRESS_EVERY_MS || this.parses.get(k) !== task) return;
      told = performance.now();
      this.tell(rec);
    };
    task.promise = executeRun(source, config.idField, this.deps.limits, onProgress).then(
      (result) => {
        task.result = result;
        task.progress = null;
        // the board drops its progress line (the record itself changes when the run ends)
        if (this.parses.get(k) === task && !this.closed) this.tell(rec);
        return result;
      },
    );
    this.parses.set(k, task);
    return task;
  }

  /** How far the current run's parse has read, while it runs. */
  parseProgress(rec: FeedRecord): ParseProgress | null {
    const task = this.parses.get(key(rec.siteId, rec.feedId));
    return task && !task.result ? (task.progress ?? { bytes: 0, products: 0 }) : null;
  }

  /** The catalog the site's search answers from now. */
  servedCatalog(siteId: string): FeedCatalog | undefined {
    return this.deps.catalogs.served(siteId);
  }

  /** The current run's parse, if it started. */
  parseTask(rec: FeedRecord): ParseTask | undefined {
    return this.parses.get(key(rec.siteId, rec.feedId));
  }

  /**
   * Resolves once the steps the clock has reached are taken: an index running while its file is still
   * being parsed (real time) is waited on, its end then fires at its own sandbox time, and so on down the
   * chain (a scheduled index the end makes due). A clock move answers after it, so what it shows is where
   * the feeds are. Bounded by `limitMs` of real time: a longer chain goes on after the answer. Awaits only:
   * the event loop stays free.
   */
  async settled(limitMs = SETTLE_LIMIT_MS): Promise<void> {
    const until = performance.now() + limitMs;
    while (!this.closed && performance.now() < until) {
      const parsing = [...this.parses.values()].filter((t) => !t.result).map((t) => t.promise);
      if (parsing.length === 0) return;
      await Promise.allSettled(parsing);
      // the ends armed as the parses finished fire on microtasks; let them, and what they start, run
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Wait for the running index's parse (hand moves to done/error need its result). */
  async parseResult(rec: FeedRecord): Promise<RunResult> {
    return this.ensureParse(rec).promise;
  }

  // ---- timers -----------------------------------------------------------------------------------

  /** (Re)arm the feed's one timer: the scheduled start when resting, the end of the step otherwise. */
  arm(rec: FeedRecord): void {
    const k = key(rec.siteId, rec.feedId);
    // a record replaced by a reset may still have a parse finishing: it must not touch the new one's timer
    if (this.closed || this.record(rec.siteId, rec.feedId) !== rec) return;
    this.timers.get(k)?.();
    this.timers.delete(k);
    const s = this.settings(rec);
    if (!s.autopilot || rec.state === 'paused') return;
    if (RESTING_STATES.includes(rec.state)) {
      if (s.interval === 'Never' || rec.nextIndexTime === null) return;
      const when = rec.nextIndexTime;
      this.timers.set(
        k,
        this.deps.clock.at(when, () =>
          this.fire(k, rec.state, () => scheduledStart(this, rec, when)),
        ),
      );
      return;
    }
    const end = this.stepEndsAt(rec);
    const state = rec.state;
    if (end === null) {
      // only a running index has an end not known yet: its parse's; armed once the parse is done. Any
      // other step without an end is a state this engine cannot time, said, never waited on (a promise
      // already resolved would re-arm on microtasks for ever)
      const task = state === 'running' && rec.stepStartedAt !== null ? this.ensureParse(rec) : null;
      if (!task || task.result)
        throw new Error(
          `feed ${k} is in "${String(state)}" with no end to its step (started at ${String(rec.stepStartedAt)}): only a running index waits for its parse`,
        );
      void task.promise.then(() => {
        if (rec.state !== state || rec.run?.id !== task.runId || this.closed) return;
        try {
          this.arm(rec);
        } catch (err) {
          console.error(stuckFeed(k, state, rec.state, err));
        }
      });
      return;
    }
    this.timers.set(
      k,
      this.deps.clock.at(end, () => this.fire(k, state, () => autopilotStep(this, rec, end))),
    );
  }

  /** When the current step ends on autopilot; null when unknown (parse running) or not timed. */
  stepEndsAt(rec: FeedRecord): number | null {
    if (rec.stepStartedAt === null) return null;
    if (rec.state === 'running') {
      const task = this.parses.get(key(rec.siteId, rec.feedId));
      if (!task?.result) return null;
      return (
        rec.stepStartedAt +
        Math.max(0, stepDuration('running', task.result.products.length)! - rec.stepElapsedMs)
      );
    }
    const d = stepDuration(rec.state, rec.products);
    return d === null ? null : rec.stepStartedAt + d;
  }

  private fire(k: string, expected: FeedState, fn: () => void): void {
    this.timers.delete(k);
    const rec = this.records().find((r) => key(r.siteId, r.feedId) === k);
    if (!rec || rec.state !== expected || this.closed) return;
    try {
      fn();
    } catch (err) {
      console.error(stuckFeed(k, expected, rec.state, err));
    }
  }

  // ---- views and housekeeping ------------------------------------------------------------------

  view(rec: FeedRecord): FeedView {
    return feedView(this, rec);
  }

  /** Store the feed's change, then tell it on the bus as it was made (see `tell`). */
  changed(rec: FeedRecord): void {
    // in a commit, stored by the commit alone (see `deferSaves`)
    this.tell(rec, this.committing.get(rec) ?? this.saved());
  }

  /** Store the feed states in the background (a change nobody waits on: a timed step, a status read). */
  save(): void {
    void this.saved();
  }

  /** `persist`, a failure said here: true once stored. */
  private saved(): Promise<boolean> {
    return this.persist().then(
      () => true,
      (err: Error) => {
        console.error(`search-sandbox: could not save the feed states: ${err.message}`);
        return false;
      },
    );
  }

  /**
   * Tell the feed as it is now (a change, its parse's progress, the catalog it serves) once `stored` (by
   * default: every change made so far) is on disk: the message carries the whole feed, and a client
   * that saw a state finds it after a restart. Messages keep the order they were asked for in; one whose
   * store failed is not told (a later one that was stored tells the feed then).
   */
  private tell(
    rec: FeedRecord,
    stored = this.stored().then(
      () => true,
      () => false,
    ),
  ): void {
    // as it is now: the view shares the record's history, which goes on growing
    const view = structuredClone(this.view(rec));
    this.telling = this.telling.then(async () => {
      if (await stored) this.deps.bus.emit({ type: 'feed', data: view });
    });
  }

  /**
   * Store the feed states; resolves once on disk (before a request that changed them is answered). The
   * catalogs of finished indexes are written first: indexing.json never says `done` of a catalog that a
   * restart would not find (a catalog that could not be written has ended its feed in `error` by then).
   */
  async persist(): Promise<void> {
    const version = ++this.changes;
    await this.catalogsWritten();
    await this.deps.db.write();
    this.storedChanges = Math.max(this.storedChanges, version);
  }

  /**
   * Resolves once every change made so far is on disk (catalogs, then the feed states), writing them
   * again when a background save failed; rejects with the data directory's failure. What a read shows, a
   * restart finds: reads and the clock's answer wait for it. Nothing to store: resolves at once.
   */
  async stored(): Promise<void> {
    await this.catalogsWritten();
    if (this.storedChanges < this.changes) await this.persist();
  }

  private async catalogsWritten(): Promise<void> {
    while (this.catalogWrites.size > 0) await Promise.all([...this.catalogWrites]);
  }

  /** A finished index's catalog write (its loss recorded when it fails): stores wait for it. */
  private trackCatalogWrite(write: Promise<void>): void {
    const tracked = write
      .catch((err: Error) =>
        console.error(`search-sandbox: a finished index's catalog write failed: ${err.message}`),
      )
      .finally(() => this.catalogWrites.delete(tracked));
    this.catalogWrites.add(tracked);
  }

  /**
   * Run `change` on the feed, then store the states; when they cannot be stored (a full disk) the feed is
   * put back as it was, so that a request refused for it leaves no trace, now or after a restart.
   *
   * One feed's changes run one after the other, each from the state the one before stored: a change that
   * awaits (an upload being stored) would otherwise be judged on the state another was about to leave,
   * and two uploads sent at once would both be accepted, one of them lost (its request answered 200, its
   * file never indexed), where one after the other the second is refused as already queued.
   *
   * `settle`, when given, runs in the feed's turn once the change was stored or put back (not when the
   * change itself threw): what the change left unnamed goes (the upload a stored request replaced).
   */
  committed<T>(
    rec: FeedRecord,
    change: () => T | Promise<T>,
    settle?: () => Promise<void>,
  ): Promise<T> {
    const k = key(rec.siteId, rec.feedId);
    const run = (this.feedChanges.get(k) ?? Promise.resolve()).then(() =>
      this.commit(rec, change, settle),
    );
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.feedChanges.set(k, settled);
    void settled.then(() => {
      if (this.feedChanges.get(k) === settled) this.feedChanges.delete(k);
    });
    return run;
  }

  private async commit<T>(
    rec: FeedRecord,
    change: () => T | Promise<T>,
    settle?: () => Promise<void>,
  ): Promise<T> {
    const before = structuredClone(rec);
    const decide = this.deferSaves(rec);
    let result: T;
    try {
      result = await change();
    } catch (err) {
      decide(this.saved()); // what it changed before it threw is stored as any move is
      throw err;
    }
    try {
      await this.persist();
      decide(Promise.resolve(true));
    } catch (err) {
      Object.assign(rec, before);
      decide(Promise.resolve(false));
      this.arm(rec);
      this.deps.bus.emit({ type: 'feed', data: this.view(rec) });
      throw err;
    } finally {
      await settle?.();
    }
    return result;
  }

  /**
   * While a change of the feed is committed, its moves' saves (`changed`) wait for the commit's own
   * store: a save of theirs would store the change before the commit decides it, and a request refused
   * for a failed store would be on disk after all. Answers how to end it, with the commit's outcome.
   */
  private deferSaves(rec: FeedRecord): (stored: Promise<boolean>) => void {
    let decide!: (stored: Promise<boolean>) => void;
    this.committing.set(rec, new Promise<boolean>((resolve) => (decide = resolve)));
    return (stored) => {
      this.committing.delete(rec);
      decide(stored);
    };
  }

  dropParse(rec: FeedRecord): void {
    this.parses.delete(key(rec.siteId, rec.feedId));
  }

  close(): void {
    this.closed = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  reopen(): void {
    this.closed = false;
  }
}

/**
 * The one line a feed step that failed after start-up prints: the feed, the state it was leaving and
 * the one it is left in, what went wrong, and what to do (its timer is gone: it moves no further by itself).
 */
function stuckFeed(k: string, from: FeedState, now: FeedState, err: unknown): string {
  const what = (err instanceof Error ? `${err.name}: ${err.message}` : `${String(err)}`).replace(
    /\s*\n\s*/g,
    ' ',
  );
  return `search-sandbox: feed ${k} could not move on from "${from}" (${what}): its autopilot stopped with the feed "${now}"; move it by hand (the UI's Feeds page, or POST /_sandbox/feeds/${k}/transition), or restart the sandbox to try again`;
}
