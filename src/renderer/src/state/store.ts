// The UI's one store: loads snapshots from the admin API, applies SSE messages on top (batched per
// frame so a burst of events is one render), and reloads what it may have missed after a reconnect.
import { adminPath } from '../../../shared/admin-api';
import { useSyncExternalStore } from 'react';
import { admin } from '../api/client';
import type {
  ClockState,
  Health,
  RecordedEvent,
  StreamMessage,
  UpstreamAnswer,
} from '../api/types';
import type { FeedView, OutboxMessage } from '../../../shared/indexing';
import type { IndexRequestNotice } from '../../../shared/stream';
import { StreamConnection, type ConnectionStatus } from './stream';
import { applyPageMessages, emptyPages, loadPages, resetPages, type PageStore } from './pages';

export type LoadState =
  { phase: 'loading' } | { phase: 'ready' } | { phase: 'error'; message: string };

/** How many recorded requests the UI keeps; older ones stay in the sandbox and its export. */
export const EVENT_WINDOW = 20_000;
/**
 * A snapshot is loaded in two steps when it is big: the newest this many first (a view paints them at
 * once), then the whole window. With a million stored events the first paint waits for 1,000 pages, not
 * 100,000 (and not for 20,000 events with their bodies).
 */
const FIRST_SLICE = 1_000;
/** How many bulk index request notices the UI keeps (they live only in this window's memory). */
const INDEX_REQUEST_WINDOW = 200;

/** A bulk index request notice as the stream delivered it, numbered in arrival order by this UI. */
export type IndexRequestSeen = IndexRequestNotice & { seq: number };

export interface SandboxState {
  connection: ConnectionStatus;
  health: Health | null;
  load: { events: LoadState; pages: LoadState; feeds: LoadState; outbox: LoadState };
  /** arrival order, oldest first, at most EVENT_WINDOW */
  events: readonly RecordedEvent[];
  eventsById: ReadonlyMap<string, RecordedEvent>;
  pages: PageStore;
  feeds: readonly FeedView[];
  outbox: readonly OutboxMessage[];
  /** bulk index requests answered since this UI connected, oldest first (not kept by the sandbox) */
  indexRequests: readonly IndexRequestSeen[];
  /** sandbox clock plus the real time it was read, so a running clock can be shown ticking */
  clock: { state: ClockState; readAt: number } | null;
}

const loading: LoadState = { phase: 'loading' };

function errorState(err: unknown): LoadState {
  return { phase: 'error', message: err instanceof Error ? err.message : String(err) };
}

export class SandboxStore {
  private state: SandboxState = {
    connection: { state: 'connecting', attempt: 0 },
    health: null,
    load: { events: loading, pages: loading, feeds: loading, outbox: loading },
    events: [],
    eventsById: new Map(),
    pages: emptyPages(),
    feeds: [],
    outbox: [],
    indexRequests: [],
    clock: null,
  };
  private indexRequestSeq = 0;
  private listeners = new Set<() => void>();
  private pending: StreamMessage[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** messages that arrive while a snapshot is loading are held, then replayed on top of it */
  private snapshotLoading = 0;
  /**
   * Which load is the newest: a load begun later (the stream reconnected, perhaps to a sandbox started
   * again) makes the answers of an earlier one stale, however late they come back
   */
  private generation = 0;
  private stream: StreamConnection;
  private started = false;

  constructor(private readonly base = '') {
    this.stream = new StreamConnection(`${base}${adminPath('stream')}`, {
      onMessage: (m) => this.enqueue(m),
      onOpen: (reconnected) => void this.loadAll(reconnected),
      onStatus: (connection) => this.set({ connection }),
    });
  }

  /** Connect (once; the UI starts it before its first render, so the snapshots are asked for at once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stream.start();
  }

  stop(): void {
    this.started = false;
    this.stream.stop();
    if (this.flushTimer) clearTimeout(this.flushTimer);
  }

  retryNow(): void {
    this.stream.retryNow();
  }

  getState = (): SandboxState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<SandboxState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /**
   * Load every snapshot. After a reconnect events are fetched incrementally (`since` the last seq). A big
   * snapshot comes in two steps: the newest slices of events and pages first, then — once they are
   * painted, and one after the other — the rest of the window, whose answers take the browser and the
   * sandbox a while (20,000 events, 100,000 page summaries) and must not delay the first rows.
   */
  async loadAll(reconnected = false): Promise<void> {
    this.snapshotLoading += 1;
    const generation = ++this.generation;
    const current = (): boolean => generation === this.generation;
    try {
      const rest = await Promise.all([
        this.loadHealth(current),
        // the rest of the pages is loaded before the rest of the events: Timelines is the first screen
        this.loadPagesSnapshot(current),
        this.loadEvents(reconnected, current),
        this.loadFeeds(current),
        this.loadOutbox(current),
        this.loadClock(current),
      ]);
      const more = rest.filter((r): r is () => Promise<void> => typeof r === 'function');
      if (more.length) await afterPaint();
      for (const load of more) if (current()) await load();
    } finally {
      this.snapshotLoading -= 1;
      this.scheduleFlush();
    }
  }

  private async loadHealth(current: () => boolean): Promise<void> {
    try {
      const health = (await admin('health', { base: this.base })) as Health;
      if (current()) this.set({ health });
    } catch {
      /* the connection pill already says the sandbox is unreachable */
    }
  }

  /**
   * The newest events (or those missed); the rest of the window to load after, if there is more. Nothing
   * is applied once `current` says a later load began.
   */
  private async loadEvents(
    incremental: boolean,
    current: () => boolean,
  ): Promise<(() => Promise<void>) | undefined> {
    const last = this.state.events.at(-1);
    // Catch up only if the sandbox still has the history we hold (it may have restarted in memory).
    const catchUp = incremental && last !== undefined && (await this.stillHas(last));
    if (!current()) return undefined;
    if (!catchUp) this.set({ load: { ...this.state.load, events: loading } });
    try {
      // caught up at once; else the newest FIRST_SLICE first (painted), then the whole window
      const query = catchUp
        ? { since: String(last!.seq), limit: EVENT_WINDOW }
        : { limit: FIRST_SLICE };
      const { events: list } = await admin('events', { base: this.base, query });
      if (!current()) return undefined;
      if (catchUp) this.appendEvents(list);
      else this.replaceEvents(list);
      this.set({ load: { ...this.state.load, events: { phase: 'ready' } } });
      if (catchUp || list.length < FIRST_SLICE) return undefined;
      return async () => {
        try {
          const all = { limit: EVENT_WINDOW };
          const { events } = await admin('events', { base: this.base, query: all });
          if (current()) this.replaceEvents(events);
        } catch (err) {
          if (current()) this.set({ load: { ...this.state.load, events: errorState(err) } });
        }
      };
    } catch (err) {
      if (current()) this.set({ load: { ...this.state.load, events: errorState(err) } });
      return undefined;
    }
  }

  private async stillHas(event: RecordedEvent): Promise<boolean> {
    try {
      const same = await admin('event', { base: this.base, params: { id: event.id } });
      return same.seq === event.seq && same.receivedAt === event.receivedAt;
    } catch {
      return false;
    }
  }

  /** The newest page summaries; the rest to load after, if there are more. */
  private async loadPagesSnapshot(
    current: () => boolean,
  ): Promise<(() => Promise<void>) | undefined> {
    try {
      const first = await loadPages(this.base, FIRST_SLICE);
      if (!current()) return undefined;
      this.set({ pages: first.store, load: { ...this.state.load, pages: { phase: 'ready' } } });
      if (first.total <= FIRST_SLICE) return undefined;
      return async () => {
        try {
          const all = await loadPages(this.base);
          if (current()) this.set({ pages: all.store });
        } catch (err) {
          if (current()) this.set({ load: { ...this.state.load, pages: errorState(err) } });
        }
      };
    } catch (err) {
      if (current()) this.set({ load: { ...this.state.load, pages: errorState(err) } });
      return undefined;
    }
  }

  async loadFeeds(current: () => boolean = always): Promise<void> {
    try {
      const { feeds } = await admin('feeds', { base: this.base });
      if (!current()) return;
      this.set({
        feeds,
        load: { ...this.state.load, feeds: { phase: 'ready' } },
      });
    } catch (err) {
      if (current()) this.set({ load: { ...this.state.load, feeds: errorState(err) } });
    }
  }

  private async loadOutbox(current: () => boolean): Promise<void> {
    try {
      const { messages } = await admin('outbox', { base: this.base });
      if (!current()) return;
      this.set({
        outbox: messages,
        load: { ...this.state.load, outbox: { phase: 'ready' } },
      });
    } catch (err) {
      if (current()) this.set({ load: { ...this.state.load, outbox: errorState(err) } });
    }
  }

  async loadClock(current: () => boolean = always): Promise<void> {
    try {
      const clock = await admin('clock', { base: this.base });
      if (current()) this.setClock(clock);
    } catch {
      /* shown as "unknown" by the clock control */
    }
  }

  /** Apply a clock answer from a POST right away (the SSE echo may come a moment later). */
  setClock(state: ClockState): void {
    this.set({ clock: { state, readAt: Date.now() } });
  }

  /** Apply a feed answer from a PATCH or transition right away. */
  upsertFeed(feed: FeedView): void {
    this.set({ feeds: upsertFeedList(this.state.feeds, feed) });
  }

  private enqueue(message: StreamMessage): void {
    this.pending.push(message);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.snapshotLoading > 0 || this.pending.length === 0) return;
    // One render per ~frame however many messages arrived: 10,000 events must not mean 10,000 renders.
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      if (this.snapshotLoading === 0) this.flush();
    }, 16);
  }

  private flush(): void {
    const messages = this.pending;
    this.pending = [];
    const newEvents: RecordedEvent[] = [];
    const pageMessages: unknown[] = [];
    let feeds = this.state.feeds;
    let outbox = this.state.outbox;
    let clock = this.state.clock;
    let indexRequests = this.state.indexRequests;
    let reset = false;
    const answers = new Map<string, UpstreamAnswer>();
    for (const m of messages) {
      switch (m.type) {
        case 'event':
          newEvents.push(m.data);
          break;
        case 'timeline':
          pageMessages.push(m.data);
          break;
        case 'feed':
          feeds = upsertFeedList(feeds, m.data);
          break;
        case 'outbox':
          outbox = upsertById(outbox, m.data);
          break;
        case 'clock':
          clock = { state: m.data, readAt: Date.now() };
          break;
        case 'indexRequest':
          indexRequests = [
            ...indexRequests.slice(-(INDEX_REQUEST_WINDOW - 1)),
            { ...m.data, seq: ++this.indexRequestSeq },
          ];
          break;
        case 'reset':
          reset = true;
          break;
        case 'upstream': {
          const { eventId, upstream } = m.data;
          answers.set(eventId, upstream);
          break;
        }
      }
    }
    const pages = applyPageMessages(this.state.pages, pageMessages);
    this.state = { ...this.state, pages, feeds, outbox, clock, indexRequests };
    if (newEvents.length) this.appendEvents(newEvents, false);
    if (answers.size) this.attachUpstream(answers);
    for (const l of this.listeners) l();
    if (reset) {
      // What a reset forgot differs by scope (one site, all, feeds too): re-read rather than guess.
      this.replaceEvents([]);
      this.set({ pages: resetPages() });
      void this.loadAll(false);
    }
  }

  /** The real service answered forwarded events (after they were shown): put the answers on them. */
  private attachUpstream(answers: ReadonlyMap<string, UpstreamAnswer>): void {
    const events = this.state.events.map((e) => {
      const upstream = answers.get(e.id);
      return upstream ? { ...e, upstream } : e;
    });
    this.state = { ...this.state, events, eventsById: new Map(events.map((e) => [e.id, e])) };
  }

  private replaceEvents(list: RecordedEvent[]): void {
    const events = list.slice(-EVENT_WINDOW);
    this.set({ events, eventsById: new Map(events.map((e) => [e.id, e])) });
  }

  private appendEvents(list: RecordedEvent[], notify = true): void {
    const lastSeq = this.state.events.at(-1)?.seq ?? -1;
    const fresh = list.filter((e) => e.seq > lastSeq).sort((a, b) => a.seq - b.seq);
    if (!fresh.length) return;
    let events = this.state.events.concat(fresh);
    let eventsById = new Map(this.state.eventsById);
    if (events.length > EVENT_WINDOW) {
      events = events.slice(-EVENT_WINDOW);
      eventsById = new Map(events.map((e) => [e.id, e]));
    } else {
      for (const e of fresh) eventsById.set(e.id, e);
    }
    if (notify) this.set({ events, eventsById });
    else this.state = { ...this.state, events, eventsById };
  }
}

/** A load on its own (a retry of the feeds, the clock read again) is never stale. */
const always = (): boolean => true;

/**
 * After the next frame is painted (a frame and a task), or after 100 ms in a window that paints no
 * frames (a hidden tab, where requestAnimationFrame waits until it is shown).
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => setTimeout(resolve, 0);
    const timer = setTimeout(done, 100);
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => {
        clearTimeout(timer);
        done();
      });
  });
}

function upsertFeedList(list: readonly FeedView[], feed: FeedView): FeedView[] {
  const i = list.findIndex((f) => f.siteId === feed.siteId && f.id === feed.id);
  if (i === -1) return [...list, feed];
  const copy = list.slice();
  copy[i] = feed;
  return copy;
}

function upsertById<T extends { id: string }>(list: readonly T[], item: T): T[] {
  const i = list.findIndex((x) => x.id === item.id);
  if (i === -1) return [...list, item];
  const copy = list.slice();
  copy[i] = item;
  return copy;
}

export const store = new SandboxStore();

export function useSandbox<T>(select: (s: SandboxState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
