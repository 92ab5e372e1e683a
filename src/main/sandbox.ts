// Composition root: opens the sandbox's areas (recordings, indexing, search, tracking, baselines) from a
// config, in order, and serves them over HTTP. The CLI, the Electron shell and the tests all start here.
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
import { createHttpsServer, ensureCertificate } from './http/https';
import { asDataDirError, ResetNotFinished } from './store/data-dir-error';
import { writeProblemProbe } from './store/durable';
import type { ResetScope, SandboxCore } from './core';
import { ListenError, listenProblem, type Listener } from './listen-error';
import { OpenAreas, type AnyArea } from './areas/open-areas';
import { recordingsArea } from './areas/recordings';
import { indexingArea } from './areas/indexing';
import { searchArea } from './areas/search';
import { trackingArea } from './areas/tracking';
import { baselinesArea } from './areas/baselines';
import { answerClientErrors } from './http/client-errors';
import { keepAlive } from './http/keep-alive';

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

/**
 * The areas in the order they open: each after the areas it needs (declared by each, checked as it
 * opens). The event store locks the data directory before anything else keeps files in it; the journal is
 * read back by tracking, once the search responses and catalogs the timelines judge against are open.
 */
function sandboxAreas(options: CoreOptions): AnyArea[] {
  return [recordingsArea, indexingArea, searchArea, trackingArea(options), baselinesArea];
}

export async function createCore(
  config: SandboxConfig,
  options: CoreOptions = {},
): Promise<SandboxCore> {
  const clock = options.clock ?? new SandboxClock();
  const bus = new Bus();
  const areas = new OpenAreas();
  areas.onClose(() => clock.dispose());
  try {
    for (const area of sandboxAreas(options)) await areas.open(area, { config, clock, bus });
  } catch (err) {
    // whatever was opened (the journal and its lock first) is closed again, so a failed start leaves
    // the data directory as it found it; an fs error on one of its files is said as a DataDirError
    await areas.close({ quiet: true });
    throw asDataDirError(err);
  }
  const warnings = [...(options.warnings ?? []), ...areas.warnings];
  clock.onChange((now) =>
    bus.emit({
      type: 'clock',
      data: { now: new Date(now).toISOString(), offsetMs: clock.offset, frozen: clock.frozen },
    }),
  );
  const { tracking, timelines, forwarding } = areas.service('tracking');
  const search = areas.service('search');
  const core: SandboxCore = {
    config,
    clock,
    bus,
    version: VERSION,
    events: areas.service('recordings').events,
    tracking,
    timelines,
    indexing: areas.service('indexing'),
    search: search.search,
    searchUpstream: search.upstream,
    forwarding,
    async reset(scope, importId) {
      const reset = async () => {
        try {
          await areas.reset(scope, importId);
        } catch (err) {
          // committed, with a part after it failed: the events are reset, and the screens are told
          if (err instanceof ResetNotFinished) bus.emit({ type: 'reset', data: scope });
          throw err;
        }
        bus.emit({ type: 'reset', data: scope });
      };
      // a reset of its own waits for an import under way (and the resets and imports before it); a
      // replacing import's reset is part of that import's turn
      await (importId === undefined ? core.events.exclusive(reset) : reset());
    },
    onReset: (handler) => areas.onReset(handler),
    addExportSection: (name, section) => areas.addSection(name, section),
    exportSections: () => areas.sections,
    routes: () => areas.routes(core),
    warnings: () => [...warnings],
    storageProblem: config.dataDir
      ? writeProblemProbe(config.dataDir)
      : () => Promise.resolve(null),
    close: () => areas.close(),
  };
  return core;
}

/** How long a close waits for the imports and uploads under way to answer before it closes their connections. */
const CLOSE_ANSWER_MS = 3_000;

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
  let server: http.Server;
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp(core, {
      allowedHosts: () => allowedHosts(config.host, ports),
      rendererDir:
        options.rendererDir === undefined
          ? findRendererDir(path.dirname(fileURLToPath(import.meta.url)))
          : options.rendererDir,
    });
    server = http.createServer(app);
    keepAlive(server);
    answerClientErrors(server);
    await listen(server, config.port, config.host);
  } catch (err) {
    // whatever failed before the sandbox listens, what opened (the data directory's lock first) closes
    await core.close().catch(() => undefined);
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
      await listen(httpsServer, config.httpsPort, config.host, 'https-port');
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
  const sending = bodiesUnderWay(httpsServer ? [server, httpsServer] : [server]);
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
        const servers = httpsServer ? [server, httpsServer] : [server];
        // no new connection; then the long-polls under way are answered (503, the sandbox is closing)
        // before the connections close, so a test's waitForEvents says why it ended
        const closed = servers.map(
          (srv) => new Promise<void>((resolve) => srv.close(() => resolve())),
        );
        core.events.endWaits();
        // an import under way stops at its next batch and is answered (503 Closing), and a request still
        // sending its body (a feed upload, a beacon) is read, stored and answered, before connections
        // close; one stalled on a client that stopped sending is not waited for past a bound
        let bound: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all([core.events.writesDone(), sending.done()]),
          new Promise((resolve) => (bound = setTimeout(resolve, CLOSE_ANSWER_MS))),
        ]);
        clearTimeout(bound);
        await new Promise((resolve) => setImmediate(resolve));
        for (const srv of servers) srv.closeAllConnections();
        await Promise.all(closed);
        await core.close();
      })();
      return closing;
    },
  };
}

/**
 * The requests that send a body (every method but GET and HEAD) until they are answered: a close waits for
 * them (bounded), so Ctrl-C while a feed file uploads answers it instead of cutting it. Reads are not
 * waited for: streams and long-polls stay open by design, and a close ends them itself.
 */
function bodiesUnderWay(servers: http.Server[]): { done(): Promise<void> } {
  const open = new Set<http.ServerResponse>();
  let idle: Array<() => void> = [];
  for (const srv of servers)
    srv.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.method === 'GET' || req.method === 'HEAD') return;
      open.add(res);
      res.once('close', () => {
        open.delete(res);
        if (open.size > 0) return;
        const waiting = idle;
        idle = [];
        for (const resolve of waiting) resolve();
      });
    });
  return {
    done: () =>
      open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)),
  };
}

/** Listen, turning "port taken" and friends into ListenErrors. */
export function listen(
  server: http.Server,
  port: number,
  host: string,
  /** the flag that sets this listener's port, named in the error */
  flag: Listener = 'port',
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const reason = listenProblem(err.code, port, host, flag);
      reject(reason ? new ListenError(err.code!, port, host, flag, reason) : err);
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
