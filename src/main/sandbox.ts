// Composition root: builds the sandbox's domain (clock, bus, stores, tracking, timelines, indexing)
// from a config, and serves it over HTTP. The CLI, the Electron shell and the tests all start here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxClock } from './clock';
import { Bus } from './bus';
import type { SandboxConfig } from './config';
import { createApp, findRendererDir } from './http/app';
import { allowedHosts } from './http/security';
import { VERSION } from './version';
import { lockEventStore } from './store/open-events';
import { RESERVED_KEYS, type ExportSection } from './store/export-format';
import { TrackingIngest } from './tracking/ingest';
import { storeTimelines } from './store-timelines';
import { IndexingService } from './indexing/service';
import { SearchService } from './search/service';
import { IssuedResponses } from './search/responses';
import { createHttpsServer, ensureCertificate } from './http/https';
import { asDataDirError } from './store/data-dir-error';
import { SearchUpstream, type UpstreamSite } from './search/upstream';
import { BeaconForwarder, type ForwardSite } from './tracking/forward';
import { UpstreamLog } from './store/upstream-log';
import { looseDirWarning } from './store/private-files';
import { writeProblemProbe } from './store/durable';
import type { ResetScope, SandboxCore } from './core';
import { ListenError } from './listen-error';

export { ListenError };

export type { ResetScope, SandboxCore };

export interface CoreOptions {
  clock?: SandboxClock;
  /** start-up notices from whoever starts the sandbox (e.g. the desktop app's port fallback), shown in health and the UI */
  warnings?: string[];
  /**
   * told how many stored events were replayed at start, once they were (`compactAfterReplay` of heap.ts,
   * where the sandbox owns the process: `serve`, the desktop app)
   */
  afterReplay?: (replayed: number) => void;
}

export async function createCore(
  config: SandboxConfig,
  options: CoreOptions = {},
): Promise<SandboxCore> {
  const closers: Array<() => Promise<void> | void> = [];
  try {
    return await openCore(config, options, closers);
  } catch (err) {
    // Whatever was opened (the journal and its lock first) is closed again, so a failed start leaves
    // the data directory as it found it; an fs error on one of its files is said as a DataDirError.
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => undefined);
    throw asDataDirError(err);
  }
}

async function openCore(
  config: SandboxConfig,
  options: CoreOptions,
  closers: Array<() => Promise<void> | void>,
): Promise<SandboxCore> {
  const clock = options.clock ?? new SandboxClock();
  closers.push(() => clock.dispose());
  const bus = new Bus();
  const warnings: string[] = [...(options.warnings ?? [])];

  // The data dir is locked first; its journal is read once the timelines can take each event as it is
  // read back (they need the search responses and catalogs, opened in between).
  const store = await lockEventStore({
    dataDir: config.dataDir,
    retention: config.retention.events,
  });
  closers.push(() => store.close());
  const events = store.log;
  events.onAppend((event) => bus.emit({ type: 'event', data: event }));
  // The real service's answers to forwarded beacons are put back on their events as the journal is read,
  // before the timelines take them, so `upstream-disagrees` survives a restart.
  const storedAnswers = await UpstreamLog.read(config.dataDir);
  const resetHandlers = new Set<(scope: ResetScope) => void | Promise<void>>();

  // Timelines are derived from the events: rebuilt from the store at start, then fed each append.
  const timelines = storeTimelines(config, clock, events, {
    onChange: (summary) => bus.emit({ type: 'timeline', data: summary }),
    reportChanges: () => bus.wants('timeline'),
  });
  resetHandlers.add((scope) => timelines.reset(scope.siteId));
  closers.push(() => timelines.dispose());
  const exportSections = new Map<string, ExportSection>();

  const { service: indexing, warnings: indexingWarnings } = await IndexingService.open(
    config,
    clock,
    bus,
  );
  closers.push(() => indexing.close());
  resetHandlers.add((scope) => (scope.what === 'all' ? indexing.reset(scope.siteId) : undefined));
  // feeds (state, history with scorecards, last run) and the outbox go into exports for bug reports; not imported
  exportSections.set('indexing', {
    export: () => ({ feeds: indexing.feeds(), outbox: indexing.outbox.list() }),
  });

  // Companion search: its memory of issued responses feeds the search-provenance timeline rules.
  const { responses, warnings: searchWarnings } = await IssuedResponses.open(
    config.dataDir,
    clock.now(),
  );
  closers.push(() => responses.close());
  const search = new SearchService({
    accounts: config.accounts,
    catalogs: indexing.catalog,
    responses,
    clock,
    // what the recommendation strategies read: accepted beacons of one endpoint, each read when reached
    traffic: {
      *bodies(siteId, category, event, max) {
        for (const e of events.select({ siteId, category, event, accepted: true, limit: max }))
          yield e.body;
      },
    },
  });
  timelines.setProvenance(search.provenance());
  // A re-indexed catalog changes what `item-not-in-catalog` says about that site's pages (only that:
  // a feed's progress, told several times a second while it parses, leaves them as they are). Told
  // before the journal is read, which gives the event loop turns: a feed indexed meanwhile re-judges its pages.
  indexing.catalog.onChange((siteId) => timelines.invalidate(siteId));
  events.onDrop((event) => timelines.storeDropped(event));

  // The stored events go to the timelines as the journal is read back, each while it is still held as
  // parsed (read back from the compact store afterwards, a million events took ~18 s more to start), and
  // what the journal did to the store the timelines do too: a reset forgets the site's pages, an event
  // retention drops forgets its page once let go — as a sandbox that had taken the same beacons live.
  // Pages judged now (letGoReplayed) are judged as they will be read: the search responses they name are
  // known, so the provenance rules need not judge them again. The journal is read a megabyte at a time,
  // each read a turn of the event loop: the heap's growth cap (heap.ts) is decided there, after each full
  // collection (a load that never gave the loop a turn grew the heap uncapped: 2 GB of RSS).
  let replayed = 0;
  // An event the timelines cannot take (a bug in a rule) must not stop the sandbox from starting: the
  // live path logs such an error and keeps the 200; here the start-up warnings say so (health, the UI).
  const unreplayed = { count: 0, first: '' };
  timelines.beginReplay();
  await store.load({
    upstream: (eventId) => storedAnswers.answers.get(eventId),
    event(event) {
      try {
        timelines.apply(event, { quiet: true });
      } catch (err) {
        if (unreplayed.count++ === 0) unreplayed.first = `${event.id}: ${(err as Error).message}`;
      }
      if (++replayed % 50_000 === 0) timelines.letGoReplayed(10_000);
    },
    reset: (siteId) => timelines.reset(siteId),
  });
  // the quiet pages of the newest events too: judged now, rather than let go unjudged by their idle timers
  timelines.endReplay();
  warnings.push(...events.loadWarnings());
  const loose = config.dataDir ? await looseDirWarning(config.dataDir) : null;
  if (loose) warnings.push(loose);
  const { log: upstreamLog, warnings: upstreamWarnings } = await UpstreamLog.start(
    config.dataDir,
    events,
    config.retention.events,
    storedAnswers,
  );
  warnings.push(...upstreamWarnings, ...indexingWarnings, ...searchWarnings);
  // closed after forwarding stops (closers run in reverse): answers still in flight are written first
  closers.push(() => upstreamLog.close());
  const forwarding = new BeaconForwarder({
    sites: forwardSites(config),
    clock,
    record(event, upstream) {
      void upstreamLog.add(event, upstream);
      timelines.upstreamAnswered(event);
      bus.emit({ type: 'upstream', data: { eventId: event.id, upstream } });
    },
  });
  // stopping aborts requests in flight; their outcome is recorded before the answers' file closes
  closers.push(() => forwarding.close());
  resetHandlers.add(() => upstreamLog.pruned());
  options.afterReplay?.(replayed);
  if (unreplayed.count > 0)
    warnings.push(
      `${unreplayed.count} stored event${unreplayed.count === 1 ? '' : 's'} could not be replayed into the timelines (first: ${unreplayed.first}); their pages are judged without them. This is a bug in search-sandbox: please report it with the event (GET /_sandbox/events/{id})`,
    );
  events.onAppend((event) => {
    try {
      timelines.apply(event, { live: true });
    } catch (err) {
      // a bug in a rule must never cost the storefront its 200
      console.error('search-sandbox: timeline update failed:', err);
    }
  });
  const searchUpstream = new SearchUpstream({ sites: upstreamSites(config), responses, clock });
  resetHandlers.add((scope) => (scope.what === 'all' ? responses.clear(scope.siteId) : undefined));
  // what each responseId contained travels with exports, and comes back on import (sections are
  // imported before events), so imported beacons are checked against the responses they name
  exportSections.set('search', {
    // with the sites' settings, so that `check` of the export judges as the sandbox did
    export: () => ({ responses: responses.list(), sites: search.siteSettings() }),
    import: async (data) => void (await responses.importAll(data)),
  });

  clock.onChange((now) =>
    bus.emit({
      type: 'clock',
      data: { now: new Date(now).toISOString(), offsetMs: clock.offset, frozen: clock.frozen },
    }),
  );

  return {
    config,
    clock,
    bus,
    version: VERSION,
    events,
    tracking: new TrackingIngest(events, clock),
    timelines,
    indexing,
    search,
    searchUpstream,
    forwarding,
    async reset(scope, importId) {
      await events.reset(scope.siteId, importId);
      for (const handler of resetHandlers) await handler(scope);
      bus.emit({ type: 'reset', data: scope });
    },
    onReset(handler) {
      resetHandlers.add(handler);
      return () => resetHandlers.delete(handler);
    },
    addExportSection(name, section) {
      if ((RESERVED_KEYS as readonly string[]).includes(name) || exportSections.has(name))
        throw new Error(`export section "${name}" is taken`);
      exportSections.set(name, section);
    },
    exportSections: () => exportSections,
    warnings: () => [...warnings],
    storageProblem: config.dataDir
      ? writeProblemProbe(config.dataDir)
      : () => Promise.resolve(null),
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** Sites whose search requests go to the real service (`accounts[i].search.upstream`). */
function upstreamSites(config: SandboxConfig): Map<string, UpstreamSite> {
  const sites = new Map<string, UpstreamSite>();
  config.accounts.forEach((a, i) => {
    if (a.search?.upstream)
      sites.set(a.siteId, {
        origin: a.search.upstream,
        timeoutMs: a.search.upstreamTimeoutMs,
        key: `accounts[${i}].search.upstream`,
      });
  });
  return sites;
}

/** Sites whose beacons are forwarded to the real service (`accounts[i].tracking.forward`). */
function forwardSites(config: SandboxConfig): Map<string, ForwardSite> {
  const sites = new Map<string, ForwardSite>();
  for (const a of config.accounts)
    if (a.tracking?.forward)
      sites.set(a.siteId, {
        base: a.tracking.forward,
        timeoutMs: a.tracking.forwardTimeoutMs,
        queue: a.tracking.forwardQueue,
      });
  return sites;
}

export interface Sandbox {
  readonly core: SandboxCore;
  /** http://host:port of the plain-HTTP listener */
  readonly url: string;
  readonly port: number;
  /** https://host:port when config.httpsPort is set (self-signed certificate), else null */
  readonly httpsUrl: string | null;
  close(): Promise<void>;
}

export interface SandboxOptions extends CoreOptions {
  /** built renderer directory; default: found next to the running code */
  rendererDir?: string | null;
}

/** Start a sandbox: the domain plus its HTTP listener on config.host:config.port (0 = a free port). */
export async function createSandbox(
  config: SandboxConfig,
  options: SandboxOptions = {},
): Promise<Sandbox> {
  const core = await createCore(config, options);
  const ports: number[] = [];
  const app = createApp(core, {
    allowedHosts: () => allowedHosts(config.host, ports),
    rendererDir:
      options.rendererDir === undefined
        ? findRendererDir(path.dirname(fileURLToPath(import.meta.url)))
        : options.rendererDir,
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 5_000;
  try {
    await listen(server, config.port, config.host);
  } catch (err) {
    await core.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  ports.push(port);
  let httpsServer: http.Server | null = null;
  if (config.httpsPort !== null) {
    try {
      httpsServer = createHttpsServer(
        await ensureCertificate(config.dataDir),
        app,
      ) as unknown as http.Server;
      await listen(httpsServer, config.httpsPort, config.host);
    } catch (err) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await core.close();
      throw asDataDirError(err);
    }
    ports.push((httpsServer.address() as AddressInfo).port);
  }
  const hostForUrl =
    config.host === '0.0.0.0' || config.host === '::'
      ? '127.0.0.1'
      : config.host.includes(':')
        ? `[${config.host}]`
        : config.host;
  let closing: Promise<void> | null = null;
  return {
    core,
    url: `http://${hostForUrl}:${port}`,
    port,
    httpsUrl: httpsServer
      ? `https://${hostForUrl}:${(httpsServer.address() as AddressInfo).port}`
      : null,
    close() {
      closing ??= (async () => {
        for (const srv of httpsServer ? [server, httpsServer] : [server]) {
          await new Promise<void>((resolve) => {
            srv.close(() => resolve());
            srv.closeAllConnections();
          });
        }
        await core.close();
      })();
      return closing;
    },
  };
}

/** Why a listener could not start, in one line a user can act on; `code` is the socket error's. */

/** Listen, turning "port taken" and friends into ListenErrors. */
export function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const reason = listenFailure(err.code, port, host);
      reject(reason ? new ListenError(err.code!, reason) : err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function listenFailure(code: string | undefined, port: number, host: string): string | null {
  if (code === 'EADDRINUSE')
    return `port ${port} on ${host} is already in use: stop the other process or pass --port 0 for a free port`;
  if (code === 'EACCES') return `not allowed to listen on ${host}:${port}: pick a port above 1023`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot listen on host ${host}: it is not an address of this machine (use 127.0.0.1)`;
  return null;
}
