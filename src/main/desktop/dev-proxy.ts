// `npm run app` (electron-vite dev) only: the renderer comes from the vite dev server (HMR), but its
// API calls (/_sandbox, /api, /beacon, /v1) must reach the sandbox in the Electron main process, whose
// port is known only once it listens (it may have fallen back). The main process writes its URL to a
// hand-off file; this middleware, mounted in the vite dev server, reads it per request and forwards.
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';

export const DEV_HANDOFF_ENV = 'SEARCH_SANDBOX_DEV_HANDOFF';
export const PROXIED_PREFIXES = ['/_sandbox', '/api/', '/beacon/', '/v1/'];

/** Main process side: say where the sandbox listens (no-op outside `electron-vite dev`). */
export function announceDevSandbox(env: NodeJS.ProcessEnv, url: string): () => void {
  const file = env[DEV_HANDOFF_ENV];
  if (!file) return () => {};
  writeFileSync(file, JSON.stringify({ url, pid: process.pid }));
  return () => rmSync(file, { force: true });
}

export function readDevSandboxUrl(file: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { url?: unknown };
    return typeof parsed.url === 'string' && /^http:\/\/[^/]+$/.test(parsed.url)
      ? parsed.url
      : null;
  } catch {
    return null;
  }
}

export function isProxiedPath(url: string): boolean {
  return PROXIED_PREFIXES.some(
    (prefix) => url === prefix || url.startsWith(prefix) || url.startsWith(`${prefix}?`),
  );
}

type Next = (err?: unknown) => void;

/**
 * Connect-style middleware forwarding the API paths to the sandbox. It streams both ways (uploads,
 * Server-Sent Events). The request is re-addressed to the sandbox (Host) and loses its Origin: the
 * admin API's same-origin guard protects the sandbox from other pages, and this page is the sandbox's
 * own UI served by a dev server — dev only, never in a build.
 */
export function devSandboxProxy(handoffFile: string) {
  return (req: http.IncomingMessage, res: http.ServerResponse, next: Next): void => {
    if (!req.url || !isProxiedPath(req.url)) return next();
    const target = readDevSandboxUrl(handoffFile);
    if (!target) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          error: 'SandboxStarting',
          message:
            'the sandbox in the Electron main process is not listening yet; the UI retries by itself',
        }),
      );
      return;
    }
    const { host } = new URL(target);
    const headers = { ...req.headers, host };
    delete headers.origin;
    delete headers.referer;
    const upstream = http.request(
      `${target}${req.url}`,
      { method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (res.headersSent) {
        res.destroy(err);
        return;
      }
      res.statusCode = 502;
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          error: 'SandboxUnreachable',
          message: `cannot reach the sandbox at ${target}: ${err.message}`,
        }),
      );
    });
    // a closed browser tab must not leave an SSE stream open on the sandbox
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
}

/** The React refresh preamble vite injects in dev is an inline script; the UI's CSP meta allows none. */
export function relaxCspForDevServer(html: string): string {
  return html.replace(
    /(http-equiv="Content-Security-Policy"\s+content="[^"]*script-src 'self')/,
    "$1 'unsafe-inline'",
  );
}

/**
 * The vite plugin for `electron-vite dev` (renderer dev server only, never the build): forwards API
 * paths to the sandbox in the main process and lets the dev preamble run.
 */
export function desktopDevServerPlugin(handoffFile: string) {
  return {
    name: 'search-sandbox:desktop-dev-server',
    apply: 'serve' as const,
    configureServer(server: {
      middlewares: { use(fn: ReturnType<typeof devSandboxProxy>): void };
    }) {
      // inherited by the Electron process electron-vite spawns next: that is how main finds the file
      process.env[DEV_HANDOFF_ENV] = handoffFile;
      rmSync(handoffFile, { force: true });
      server.middlewares.use(devSandboxProxy(handoffFile));
    },
    transformIndexHtml(html: string) {
      return relaxCspForDevServer(html);
    },
  };
}
