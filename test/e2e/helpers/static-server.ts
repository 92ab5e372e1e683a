// Serves a built storefront from its own origin on 127.0.0.1 (port 0), as a real storefront is served: the
// sandbox is cross-origin to it. Pages are sent `no-store`, so the back button loads them again (no
// back/forward cache), as most storefront pages behave.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** `fallback` answers paths with no file (e.g. a redirect target); otherwise 404. */
export async function serveDir(
  dir: string,
  fallback?: (pathname: string) => string | null,
): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const name = path.normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
    readFile(path.join(dir, name || 'index.html'))
      .then((data) =>
        res
          .writeHead(200, {
            'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream',
            'cache-control': 'no-store',
          })
          .end(data),
      )
      .catch(() => {
        const html = fallback?.(pathname);
        if (html === null || html === undefined) res.writeHead(404).end();
        else
          res
            .writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' })
            .end(html);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
