// `npm run app` wiring: the vite dev server forwards the API paths to the sandbox in the main process
// (found through the hand-off file), streaming both ways, so the dev UI talks to the real sandbox.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import path from 'node:path';
import { createServer } from 'vite';
import react from '@vitejs/plugin-react';
import {
  announceDevSandbox,
  DEV_HANDOFF_ENV,
  desktopDevServerPlugin,
  devSandboxProxy,
  isProxiedPath,
  relaxCspForDevServer,
} from '../../src/main/desktop/dev-proxy';
import { startSandbox, tempDir, postBeacon } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A stand-in for the vite dev server: the proxy middleware, then a page for everything else. */
async function devServer(handoffFile: string): Promise<string> {
  const proxy = devSandboxProxy(handoffFile);
  const server = http.createServer((req, res) =>
    proxy(req, res, () => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>vite</title>');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

function handoffPath(): string {
  const t = tempDir('desktop-dev-');
  cleanups.push(t.cleanup);
  return path.join(t.dir, 'handoff.json');
}

describe('dev server proxy', () => {
  it('forwards admin calls from the dev UI to the sandbox, past its same-origin guard', async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    const file = handoffPath();
    const forget = announceDevSandbox({ [DEV_HANDOFF_ENV]: file }, sandbox.url);
    const dev = await devServer(file);

    // the browser sends the dev server's own Origin: the sandbox would refuse it if it got through
    const res = await fetch(`${dev}/_sandbox/health`, { headers: { Origin: dev } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('ok');

    // a beacon posted through the dev server is recorded by the sandbox
    expect((await postBeacon(dev, 'demo42/search/render', { bad: true })).status).toBe(400);
    const events = (await (await fetch(`${sandbox.url}/_sandbox/events`)).json()) as {
      events: unknown[];
    };
    expect(events.events).toHaveLength(1);

    // other paths are the dev server's own
    expect(await (await fetch(`${dev}/#/timelines`)).text()).toContain('<title>vite</title>');
    forget();
  });

  it('streams Server-Sent Events through', async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    const file = handoffPath();
    announceDevSandbox({ [DEV_HANDOFF_ENV]: file }, sandbox.url);
    const dev = await devServer(file);
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const res = await fetch(`${dev}/_sandbox/stream`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    await postBeacon(sandbox.url, 'demo42/search/render', { streamed: 'through the dev proxy' });
    let text = '';
    while (!text.includes('through the dev proxy')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    expect(text).toContain('through the dev proxy');
  });

  it('answers 503 with a reason before the sandbox has announced itself, 502 when it is gone', async () => {
    const file = handoffPath();
    const dev = await devServer(file);
    const before = await fetch(`${dev}/_sandbox/health`);
    expect(before.status).toBe(503);
    expect(((await before.json()) as { error: string }).error).toBe('SandboxStarting');

    const sandbox = await startSandbox();
    const url = sandbox.url;
    await sandbox.close();
    announceDevSandbox({ [DEV_HANDOFF_ENV]: file }, url);
    const gone = await fetch(`${dev}/_sandbox/health`);
    expect(gone.status).toBe(502);
    expect(((await gone.json()) as { message: string }).message).toContain(
      `cannot reach the sandbox at ${url}`,
    );
  });

  it('is a no-op outside electron-vite dev', () => {
    expect(announceDevSandbox({}, 'http://127.0.0.1:4545')).toBeTypeOf('function');
  });

  it('proxies exactly the sandbox interfaces', () => {
    for (const p of [
      '/_sandbox/health',
      '/api/index/status',
      '/beacon/v2/demo42/search/render',
      '/v1/preflight',
    ])
      expect(isProxiedPath(p), p).toBe(true);
    for (const p of [
      '/',
      '/index.html',
      '/src/main.tsx',
      '/@vite/client',
      '/apidocs',
      '/@react-refresh',
    ])
      expect(isProxiedPath(p), p).toBe(false);
  });
});

describe('with the real vite dev server (as electron-vite dev runs it)', () => {
  it('serves the renderer with its React preamble allowed, and the sandbox API through the plugin', async () => {
    const file = handoffPath();
    const before = process.env[DEV_HANDOFF_ENV];
    cleanups.push(() => {
      if (before === undefined) delete process.env[DEV_HANDOFF_ENV];
      else process.env[DEV_HANDOFF_ENV] = before;
    });
    const vite = await createServer({
      configFile: false,
      root: path.resolve('src/renderer'),
      plugins: [react(), desktopDevServerPlugin(file)],
      server: { port: 0, host: '127.0.0.1' },
      logLevel: 'silent',
    });
    await vite.listen();
    cleanups.push(() => vite.close());
    // what the Electron process electron-vite spawns next inherits
    expect(process.env[DEV_HANDOFF_ENV]).toBe(file);
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    announceDevSandbox({ [DEV_HANDOFF_ENV]: file }, sandbox.url);
    const dev = `http://127.0.0.1:${(vite.httpServer!.address() as { port: number }).port}`;

    const html = await (await fetch(`${dev}/`)).text();
    expect(html).toContain('injectIntoGlobalHook');
    expect(html).toMatch(/script-src 'self' 'unsafe-inline';/);
    const health = await fetch(`${dev}/_sandbox/health`, { headers: { Origin: dev } });
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
  });
});

describe('dev CSP', () => {
  it("adds 'unsafe-inline' to the meta CSP's script-src for vite's inline preamble, nothing else", () => {
    const html = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'" />`;
    expect(relaxCspForDevServer(html)).toBe(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'" />`,
    );
    expect(relaxCspForDevServer('<p>no csp</p>')).toBe('<p>no csp</p>');
  });
});
