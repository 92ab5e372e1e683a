// The whole desktop shell against a fake Electron and the real sandbox: single instance, the secure
// window on the sandbox URL, port fallback, notifications, remembered window state, quit that flushes.
import type { FeedView } from '../../src/shared/indexing';
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runDesktopApp } from '../../src/main/desktop/app';
import { IPC } from '../../src/main/desktop/ipc-channels';
import { menuPaths } from '../../src/main/desktop/menu';
import { createSandbox } from '../../src/main/sandbox';
import { SETTINGS_FILE, WINDOW_STATE_FILE } from '../../src/main/desktop/settings';
import { DEV_HANDOFF_ENV } from '../../src/main/desktop/dev-proxy';
import {
  FakeBrowserWindow,
  FakeNotification,
  fakeElectron,
  launchDesktop,
  preventable,
  type FakeElectron,
} from './desktop-fake-electron';
import { postBeacon, tempDir } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function userDataDir(): string {
  const t = tempDir('desktop-app-');
  cleanups.push(t.cleanup);
  return t.dir;
}

async function launch(
  electron: FakeElectron,
  env: NodeJS.ProcessEnv = {},
  platform: NodeJS.Platform = 'linux',
) {
  const runtime = await launchDesktop(electron, env, platform);
  if (runtime) cleanups.push(() => runtime.shutdown());
  return runtime;
}

async function refused(url: string): Promise<boolean> {
  return fetch(`${url}/_sandbox/health`).then(
    () => false,
    () => true,
  );
}

function renderBeacon(pageLoadId: string) {
  return {
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=shoes',
      userId: 'u-1',
      sessionId: 's-1',
      pageLoadId,
      initiator: 'desktop-test',
    },
    data: { responseId: 'r-1' },
  };
}

describe('desktop app', () => {
  it('starts the sandbox in userData and opens one secure window on its URL', async () => {
    const userData = userDataDir();
    const electron = fakeElectron(userData);
    const runtime = (await launch(electron))!;

    const health = (await (await fetch(`${runtime.sandbox.url}/_sandbox/health`)).json()) as {
      dataDir: string;
    };
    expect(health.dataDir).toBe(userData);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    const win = FakeBrowserWindow.instances[0]!;
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
    expect(win.options.webPreferences!.preload).toBe(path.resolve('out/preload/index.cjs'));
    expect(win.options).toMatchObject({
      show: false,
      width: 1280,
      height: 800,
      title: `Search Sandbox — ${runtime.sandbox.url}`,
    });
    expect(FakeNotification.shown).toEqual([]);
    const titleEvent = preventable();
    win.emit('page-title-updated', titleEvent);
    expect(titleEvent.prevented).toBe(true);
    expect(win.loadedUrls).toEqual([`${runtime.sandbox.url}/`]);
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);
    // the navigation policy is on the window, the CSP and permission policy on the session
    expect(win.webContents.navigate('https://example.com/')).toBe(true);
    expect(electron.shell.external).toEqual(['https://example.com/']);
    expect(
      electron.session.defaultSession.headersFor(`${runtime.sandbox.url}/`)![
        'Content-Security-Policy'
      ],
    ).toEqual([expect.stringContaining("script-src 'self';")]);
    expect(electron.session.defaultSession.request('media', `${runtime.sandbox.url}/`)).toBe(false);
    // the menu is installed and its items reach the sandbox
    expect(menuPaths(electron.Menu.current!).has('File/Reset Sandbox…')).toBe(true);
  });

  it('quits a second instance at once, and the first comes to the front', async () => {
    const electron = fakeElectron(userDataDir());
    electron.app.gotLock = false;
    expect(await launch(electron)).toBeNull();
    expect(electron.app.quitCalls).toBe(1);
    expect(FakeBrowserWindow.instances).toHaveLength(0);

    const first = fakeElectron(userDataDir());
    const runtime = (await launch(first))!;
    const win = FakeBrowserWindow.instances[0]!;
    win.minimized = true;
    first.app.emit('second-instance');
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(1);
    expect(runtime.window()).toBe(win);
  });

  it('on quit: stops the quit, flushes the journal and closes the server, then quits for real', async () => {
    const userData = userDataDir();
    const electron = fakeElectron(userData);
    const runtime = (await launch(electron))!;
    const res = await postBeacon(
      runtime.sandbox.url,
      'demo42/search/render',
      renderBeacon('desktop-quit-page'),
    );
    expect(res.status).toBe(200);

    electron.app.quit();
    // the first quit was held back for the shutdown…
    expect(electron.app.quitted).toBe(false);
    await runtime.shutdown();
    await waitFor(() => electron.app.quitted);
    // …then the app quit by itself, with the port closed and the event on disk
    expect(electron.app.quitCalls).toBe(2);
    expect(await refused(runtime.sandbox.url)).toBe(true);
    const onDisk = readDataDir(userData);
    expect(onDisk).toContain('desktop-quit-page');
  });

  it('quits anyway when the sandbox cannot close', async () => {
    const electron = fakeElectron(userDataDir());
    let closes = 0;
    const handle = runDesktopApp(electron, {
      mainDir: path.resolve('out/main'),
      env: { SEARCH_SANDBOX_PORT: '0', SEARCH_SANDBOX_EPHEMERAL: 'true' },
      platform: 'linux',
      quitTimeoutMs: 20,
      startSandbox: async (config, opts) => {
        const real = await createSandbox(config, { ...opts, rendererDir: null });
        cleanups.push(() => real.close());
        // a close that never finishes (a stuck disk)
        return { ...real, core: real.core, close: () => (closes++, new Promise<void>(() => {})) };
      },
    });
    electron.app.becomeReady();
    await handle.started;
    electron.app.quit();
    await waitFor(() => electron.app.quitted);
    expect(closes).toBe(1);
  });

  it('closing the last window quits on Linux and Windows, but not on macOS', async () => {
    const linux = fakeElectron(userDataDir());
    const runtime = (await launch(linux))!;
    FakeBrowserWindow.instances[0]!.close();
    linux.app.emit('window-all-closed');
    await runtime.shutdown();
    await waitFor(() => linux.app.quitted);

    const mac = fakeElectron(userDataDir());
    const macRuntime = (await launch(mac, {}, 'darwin'))!;
    FakeBrowserWindow.instances[0]!.close();
    mac.app.emit('window-all-closed');
    expect(mac.app.quitCalls).toBe(0);
    expect(macRuntime.window()).toBeNull();
    // a dock click opens the window again on the same sandbox
    mac.app.emit('activate');
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    expect(FakeBrowserWindow.instances[1]!.loadedUrls).toEqual([`${macRuntime.sandbox.url}/`]);
  });

  it('remembers the window size and position across launches', async () => {
    const userData = userDataDir();
    const first = fakeElectron(userData);
    const runtime = (await launch(first))!;
    const win = FakeBrowserWindow.instances[0]!;
    win.bounds = { x: 40, y: 30, width: 1100, height: 720 };
    win.maximized = true;
    win.close();
    expect(JSON.parse(readFileSync(path.join(userData, WINDOW_STATE_FILE), 'utf8'))).toEqual({
      bounds: { x: 40, y: 30, width: 1100, height: 720 },
      maximized: true,
    });
    await runtime.shutdown();

    const second = fakeElectron(userData);
    await launch(second);
    const again = FakeBrowserWindow.instances[0]!;
    expect(again.options).toMatchObject({ x: 40, y: 30, width: 1100, height: 720 });
    expect(again.maximized).toBe(true);
  });

  it('opens at the default size when the window-state file is corrupt', async () => {
    const userData = userDataDir();
    writeFileSync(path.join(userData, WINDOW_STATE_FILE), '{"bounds": {"x": 1');
    await launch(fakeElectron(userData));
    expect(FakeBrowserWindow.instances[0]!.options).toMatchObject({ width: 1280, height: 800 });
    expect(FakeBrowserWindow.instances[0]!.options.x).toBeUndefined();
  });

  it('falls back to a free port when the settings port is taken, and the UI can read why', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const taken = (holder.address() as net.AddressInfo).port;
    const userData = userDataDir();
    writeFileSync(path.join(userData, SETTINGS_FILE), JSON.stringify({ port: taken }));

    const runtime = (await launch(fakeElectron(userData), { SEARCH_SANDBOX_PORT: undefined }))!;
    expect(runtime.sandbox.port).not.toBe(taken);
    expect(runtime.portNotice).toMatch(
      new RegExp(
        `^Port ${taken} was already in use, so the sandbox started on port ${runtime.sandbox.port} instead`,
      ),
    );
    const health = (await (await fetch(`${runtime.sandbox.url}/_sandbox/health`)).json()) as {
      warnings: string[];
    };
    expect(health.warnings).toContain(runtime.portNotice);
    // also said by a notification and in the title bar
    expect(FakeNotification.shown).toEqual([
      { title: 'Search Sandbox is on another port', body: runtime.portNotice },
    ]);
    expect(FakeBrowserWindow.instances[0]!.options.title).toBe(
      `Search Sandbox — ${runtime.sandbox.url} (fallback port: the configured one was taken)`,
    );
    expect(FakeBrowserWindow.instances[0]!.loadedUrls).toEqual([`${runtime.sandbox.url}/`]);
  });

  it('shows a notification when a feed ends in error, only while notifications are on', async () => {
    const electron = fakeElectron(userDataDir());
    const runtime = (await launch(electron))!;
    const UI = `${runtime.sandbox.url}/`;
    const bus = runtime.sandbox.core.bus;
    bus.emit({
      type: 'feed',
      data: { siteId: 'demo42', id: 42, name: 'Custom CSV feed', state: 'error' } as FeedView,
    });
    expect(FakeNotification.shown).toEqual([
      { title: 'Feed 42 (Custom CSV feed) of demo42 is error', body: expect.any(String) },
    ]);
    // clicking it brings the window back (here: after the user closed it)
    FakeBrowserWindow.instances[0]!.close();
    FakeNotification.instances[0]!.onClick!();
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    expect(runtime.window()).toBe(FakeBrowserWindow.instances[1]);

    // switched off from the UI through the preload API: remembered in the settings file
    expect(await electron.ipcMain.invoke(UI, IPC.setNotificationsEnabled, false)).toBe(false);
    expect(
      JSON.parse(readFileSync(path.join(electron.app.userData, SETTINGS_FILE), 'utf8')),
    ).toEqual({ notifications: false });
    expect(menuPaths(electron.Menu.current!).get('View/Desktop Notifications')!.checked).toBe(
      false,
    );
    bus.emit({
      type: 'feed',
      data: { siteId: 'demo42', id: 43, state: 'regen_error' } as FeedView,
    });
    expect(FakeNotification.shown).toHaveLength(1);
    expect(await electron.ipcMain.invoke(UI, IPC.getAppVersion)).toBe('9.9.9');
  });

  it('resets the sandbox from the File menu through core.reset', async () => {
    const electron = fakeElectron(userDataDir());
    const runtime = (await launch(electron))!;
    await postBeacon(runtime.sandbox.url, 'demo42/search/render', renderBeacon('before-reset'));
    const count = async () =>
      (
        (await (await fetch(`${runtime.sandbox.url}/_sandbox/events`)).json()) as {
          events: unknown[];
        }
      ).events.length;
    expect(await count()).toBe(1);
    electron.dialog.messageAnswers.push(1);
    menuPaths(electron.Menu.current!).get('File/Reset Sandbox…')!.click!();
    await waitFor(async () => (await count()) === 0);
  });

  it('uploads a feed file chosen in the native dialog through the real bulk-index endpoint', async () => {
    const electron = fakeElectron(userDataDir());
    const runtime = (await launch(electron))!;
    electron.dialog.openAnswers.push({
      canceled: false,
      filePaths: [path.resolve('fixtures/feeds/products.csv')],
    });
    const result = await electron.ipcMain.invoke(`${runtime.sandbox.url}/`, IPC.uploadFeedFile, {
      siteId: 'demo42',
      feedId: 42,
      requestedBy: 'qa@example.com',
    });
    expect(result).toEqual({
      outcome: 'sent',
      fileName: 'products.csv',
      status: 200,
      body: { success: true },
    });
    // the real service's rule: no second index inside the hour
    electron.dialog.openAnswers.push({
      canceled: false,
      filePaths: [path.resolve('fixtures/feeds/products.csv')],
    });
    const again = (await electron.ipcMain.invoke(`${runtime.sandbox.url}/`, IPC.uploadFeedFile, {
      siteId: 'demo42',
      feedId: 42,
    })) as { status: number; body: { success: boolean } };
    expect(again.body.success).toBe(false);
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it('exports the JUnit report from the File menu to the chosen file', async () => {
    const electron = fakeElectron(userDataDir());
    const runtime = (await launch(electron))!;
    await postBeacon(runtime.sandbox.url, 'demo42/search/render', renderBeacon('exported-page'));
    const target = path.join(electron.app.userData, 'report.xml');
    electron.dialog.saveAnswers.push({ canceled: false, filePath: target });
    menuPaths(electron.Menu.current!).get('File/Export Report/JUnit XML…')!.click!();
    // written by the action after the HTTP round trip: wait for the complete document
    await waitFor(
      () => existsSync(target) && readFileSync(target, 'utf8').trimEnd().endsWith('</testsuites>'),
    );
    const xml = readFileSync(target, 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain('exported-page');
  });

  it('in dev, loads the vite dev server and tells it where the sandbox listens', async () => {
    const userData = userDataDir();
    const handoff = path.join(userData, 'dev-handoff.json');
    const runtime = (await launch(fakeElectron(userData), {
      ELECTRON_RENDERER_URL: 'http://localhost:5173',
      [DEV_HANDOFF_ENV]: handoff,
    }))!;
    expect(FakeBrowserWindow.instances[0]!.loadedUrls).toEqual(['http://localhost:5173']);
    expect(JSON.parse(readFileSync(handoff, 'utf8'))).toMatchObject({ url: runtime.sandbox.url });
    // the dev server is an app origin in dev: no navigation block, and its responses get the dev CSP
    expect(
      FakeBrowserWindow.instances[0]!.webContents.navigate('http://localhost:5173/#/feeds'),
    ).toBe(false);
    await runtime.shutdown();
    expect(existsSync(handoff)).toBe(false);
  });
});

/** Everything the sandbox wrote to its data directory, as text. */
function readDataDir(dir: string): string {
  return listFiles(dir)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

/** Poll until the condition holds (the test's own timeout is the limit). */
async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}
