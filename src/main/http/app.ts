// The express app of one sandbox: each area's routers (the provider's interfaces at /, the admin API under
// /_sandbox), the sandbox's own health and clock, the UI at /.
// Routers are thin: parse the request, call one domain method, map the result to the real service's body.
import express, { type Express, type Request, type Response, type NextFunction } from 'express';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { SandboxCore } from '../core';
import { refuseFraming, sameOriginGuard } from './security';
import { DataDirError, storageCause } from '../store/data-dir-error';
import { SandboxClosing } from '../store/import-events';
import { healthRouter } from './routes/health';
import { beaconLane } from './routes/tracking';
import { adminClockRouter } from './routes/admin-clock';
import { clipped } from '../../shared/text';
import { allowedMethods, undecodablePathParameter } from './admin-paths';

export interface AppOptions {
  /** Host values (host:port) the admin API and UI answer to; read per request. */
  allowedHosts: () => Set<string>;
  /** built renderer (index.html + assets); null when not built */
  rendererDir: string | null;
}

/**
 * The request listener of one sandbox's ports: beacons through their lane (see `beaconLane`), everything
 * else through the express app.
 */
export function createApp(
  core: SandboxCore,
  options: AppOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const app = createExpressApp(core, options);
  const beacons = beaconLane(core.tracking, core.forwarding, (res) => stampClock(core, res));
  return (req, res) => {
    if (!beacons(req, res)) app(req, res);
  };
}

/** Every answer says what time the sandbox's clock shows. */
function stampClock(core: SandboxCore, res: ServerResponse): void {
  res.setHeader('X-Sandbox-Now', new Date(core.clock.now()).toISOString());
}

/** Every route of the sandbox, beacons too; on its own only in tests that compare it with the lane. */
export function createExpressApp(core: SandboxCore, options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use((_req: Request, res: Response, next: NextFunction) => {
    stampClock(core, res);
    next();
  });

  const routes = core.routes();
  // Provider interfaces: open to storefront origins, each answers like the real service (tracking:
  // /beacon/v2 and /v1/preflight; indexing: /api/index; search: /api/search, /api/meta, /v1/recommend)
  for (const area of routes) for (const router of area.provider ?? []) app.use(router);

  // Admin API and UI: same-origin only, and never in another page's frame (every answer past the
  // provider interfaces above, which answer as the real services do: the UI, the admin API, 404s).
  // Each endpoint's body is read by its declaration's mount (body-reader.ts), or by its own handler.
  app.use(refuseFraming);
  const guard = sameOriginGuard(options.allowedHosts);
  // No body parser here: each admin endpoint's body is read as its declaration says (admin-body.ts), so
  // the order of the routers below does not matter.
  app.use('/_sandbox', guard, ...routes.flatMap((area) => area.admin ?? []));
  // the sandbox's own: health, the API's description, its clock (a move answers once its steps are taken)
  const clock = adminClockRouter(core.clock, (move) => core.indexing.moveClock(move));
  app.use('/_sandbox', guard, healthRouter(core), clock);
  // a path parameter the routers above could not decode: named in the admin API's shape
  app.use('/_sandbox', undecodablePathParameter);
  app.use('/_sandbox', guard, (req: Request, res: Response) => {
    const allowed = allowedMethods(req.path);
    if (allowed.length > 0) {
      res.setHeader('Allow', allowed.join(', '));
      res.status(405).json({
        error: 'MethodNotAllowed',
        message: `${req.method} is not a method of /_sandbox${clipped(req.path)}: it takes ${allowed.join(', ')}`,
      });
      return;
    }
    res.status(404).json({
      error: 'NotFound',
      message: `no admin endpoint ${req.method} /_sandbox${clipped(req.path)}; see the README for the admin API`,
    });
  });

  if (options.rendererDir) {
    const dir = options.rendererDir;
    app.use(guard, express.static(dir, { index: 'index.html', maxAge: 0 }));
    // SPA fallback: client-side routes load the UI shell.
    app.get(/^\/(?!_sandbox|api|beacon|v1).*/, guard, (_req: Request, res: Response) =>
      res.sendFile(path.join(dir, 'index.html')),
    );
  }

  app.use((req: Request, res: Response) => {
    res
      .status(404)
      .json({ error: 'NotFound', message: `nothing at ${req.method} ${clipped(req.path)}` });
  });

  // Last resort: a bug must answer 500 with a reason, never crash the process.
  app.use(
    (
      err: Error & { status?: number; type?: string },
      req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      if (err instanceof DataDirError)
        return storageFailed(
          req,
          res,
          `nothing was stored, so nothing is acknowledged: ${err.message}`,
        );
      // a failure that says itself what was stored and what was not (an import undone, a reset whose
      // last part failed), caused by the data directory
      if (storageCause(err)) return storageFailed(req, res, err.message);
      if (err.cause instanceof SandboxClosing) {
        // answered before the connection closes: the caller reads what became of its request
        res.setHeader('Connection', 'close');
        return void res.status(503).json({ error: 'Closing', message: err.message });
      }
      const status = err.status && err.status >= 400 && err.status < 600 ? err.status : 500;
      if (status >= 500) console.error('search-sandbox: request failed:', err);
      if (!res.headersSent)
        res
          .status(status)
          .json({ error: status >= 500 ? 'InternalError' : 'BadRequest', message: err.message });
    },
  );
  return app;
}

/**
 * What could not be stored was not acknowledged: 503 with the data directory's problem in one line (which
 * file, why, what to do), logged as that line, not as a stack trace: it is the disk, not a bug.
 */
function storageFailed(req: Request, res: Response, message: string): void {
  console.error(`search-sandbox: ${req.method} ${req.path} failed: ${message}`);
  if (res.headersSent) return void res.end();
  res
    .status(503)
    .json(
      req.path.startsWith('/_sandbox')
        ? { error: 'StorageFailed', message }
        : { success: false, error: 'StorageFailed', message },
    );
}

/** The built renderer next to the running code (out/renderer), or null when the UI was not built. */
export function findRendererDir(fromDir: string): string | null {
  for (const candidate of [
    path.resolve(fromDir, '../renderer'),
    path.resolve(fromDir, '../../out/renderer'),
    path.resolve(fromDir, '../../../out/renderer'),
  ]) {
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return null;
}
