// The built desktop bundle (out/main/index.js from `electron-vite build`), run in plain Node with a fake
// 'electron' module resolved in place of the real one (a module-resolution hook): it starts the sandbox,
// opens the secure window on the sandbox's URL where the UI is served, and quits cleanly (journal
// flushed, port closed). The built preload is checked the way a sandboxed renderer loads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { postBeacon, tempDir } from '../helpers/sandbox';

/**
 * What Electron starts for `npm run app` (electron-vite dev --entry out/main) and `npx electron out/main`:
 * the folder, whose package.json (written by the build) names the app and its entry.
 */
const APP_DIR = path.resolve('out/main');
const APP_MANIFEST = path.join(APP_DIR, 'package.json');
const MAIN = path.resolve('out/main/index.js');
const PRELOAD = path.resolve('out/preload/index.cjs');
const RENDERER_INDEX = path.resolve('out/renderer/index.html');

// The fake Electron the bundle imports: records what the app asks for as JSON lines on stdout, plays a
// browser for loadURL (fetches the page, applies the session's header hook), and quits on "quit" (stdin).
const FAKE_ELECTRON = String.raw`
const say = (kind, data) => process.stdout.write('@@fake-electron ' + JSON.stringify({ kind, data }) + '\n');
class Emitter {
  constructor() { this.listeners = {}; }
  on(event, fn) { (this.listeners[event] ??= []).push(fn); return this; }
  emit(event, ...args) { for (const fn of this.listeners[event] ?? []) fn(...args); }
}
const headerHooks = [];
export const session = { defaultSession: {
  webRequest: { onHeadersReceived: (fn) => headerHooks.push(fn) },
  setPermissionRequestHandler: () => say('permission-request-handler', true),
  setPermissionCheckHandler: () => say('permission-check-handler', true),
} };
class WebContents extends Emitter { setWindowOpenHandler(fn) { this.openHandler = fn; say('window-open-handler', true); } reload() {} toggleDevTools() {} }
export class BrowserWindow extends Emitter {
  constructor(options) { super(); this.webContents = new WebContents(); this.destroyed = false; say('window', options); }
  async loadURL(url) {
    const res = await fetch(url);
    const html = await res.text();
    let headers = Object.fromEntries([...res.headers].map(([k, v]) => [k, [v]]));
    for (const hook of headerHooks) hook({ url, resourceType: 'mainFrame', responseHeaders: headers }, (r) => { if (r.responseHeaders) headers = r.responseHeaders; });
    const navigationBlocked = (target) => { let blocked = false; this.webContents.emit('will-navigate', { preventDefault() { blocked = true; } }, target); return blocked; };
    say('loaded', { url, status: res.status, hasRoot: html.includes('id="root"'), csp: headers['Content-Security-Policy'],
      blocksExternal: navigationBlocked('https://example.com/'), keepsOwn: !navigationBlocked(url),
      windowOpen: this.webContents.openHandler({ url: 'https://example.com/' }) });
    this.emit('ready-to-show');
  }
  show() { say('shown', true); } focus() {} isMinimized() { return false; } restore() {} isMaximized() { return false; } maximize() {}
  getNormalBounds() { return { x: 10, y: 10, width: 1280, height: 800 }; } isDestroyed() { return this.destroyed; } setTitle() {}
}
class App extends Emitter {
  requestSingleInstanceLock() { return true; }
  whenReady() { return Promise.resolve(); }
  getPath(name) { if (name !== 'userData') throw new Error('unexpected path ' + name); return process.env.FAKE_ELECTRON_USER_DATA; }
  getVersion() { return '0.0.0-fake'; }
  setAppUserModelId() {}
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault() { prevented = true; } });
    say('quit', { prevented });
    if (!prevented) { this.emit('will-quit', {}); process.exit(0); }
  }
  exit(code) { say('exit', code); process.exit(code); }
}
export const app = new App();
export const Menu = { buildFromTemplate: (t) => t, setApplicationMenu: (t) => say('menu', t.map((m) => m.label ?? m.role)) };
export const dialog = { showErrorBox: (title, content) => say('error-box', { title, content }), showOpenDialog: async () => ({ canceled: true, filePaths: [] }), showSaveDialog: async () => ({ canceled: true }), showMessageBox: async () => ({ response: 0 }) };
export const shell = { openExternal: async (url) => say('open-external', url), openPath: async () => '', showItemInFolder: () => {} };
export class Notification { static isSupported() { return true; } constructor(o) { this.o = o; } show() { say('notification', this.o); } }
export const ipcMain = { handle: (channel) => say('ipc', channel) };
export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => { if (text.includes('quit')) app.quit(); });
export default { app, BrowserWindow, Menu, dialog, shell, Notification, ipcMain, session, screen };
`;

const HOOKS = String.raw`
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./fake-electron.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
`;

interface Said {
  kind: string;
  data: unknown;
}

class BundleProcess {
  readonly said: Said[] = [];
  /** what the app itself printed (not the fake's records) */
  readonly printed: string[] = [];
  stdout = '';
  stderr = '';
  exitCode: number | null = null;
  private waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.stdout += chunk;
      const lines = this.stdout.split('\n');
      this.stdout = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('@@fake-electron ')) this.said.push(JSON.parse(line.slice(16)) as Said);
        else this.printed.push(line);
      }
      this.wake();
    });
    child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    child.on('exit', (code) => {
      this.exitCode = code ?? -1;
      this.wake();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Wait until the bundle said `kind` (or exited, which fails the wait with its stderr). */
  async waitFor(kind: string): Promise<Said> {
    for (;;) {
      const found = this.said.find((s) => s.kind === kind);
      if (found) return found;
      if (this.exitCode !== null)
        throw new Error(`bundle exited (${this.exitCode}) before "${kind}":\n${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async exited(): Promise<number> {
    while (this.exitCode === null) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.exitCode;
  }
}

let bundle: BundleProcess;
let userData: string;
const cleanups: Array<() => void> = [];

beforeAll(() => {
  for (const file of [APP_MANIFEST, MAIN, PRELOAD, RENDERER_INDEX]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npx electron-vite build\` first (npm test does)`);
  }
  const hooksDir = tempDir('electron-bundle-hooks-');
  const data = tempDir('electron-bundle-userdata-');
  cleanups.push(hooksDir.cleanup, data.cleanup);
  userData = data.dir;
  writeFileSync(path.join(hooksDir.dir, 'fake-electron.mjs'), FAKE_ELECTRON);
  writeFileSync(path.join(hooksDir.dir, 'hooks.mjs'), HOOKS);
  writeFileSync(
    path.join(hooksDir.dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
  const child = spawn(
    process.execPath,
    ['--import', pathToFileURL(path.join(hooksDir.dir, 'register.mjs')).href, MAIN],
    {
      env: {
        ...process.env,
        FAKE_ELECTRON_USER_DATA: userData,
        SEARCH_SANDBOX_PORT: '0',
        ELECTRON_RENDERER_URL: '',
      },
      stdio: 'pipe',
    },
  );
  bundle = new BundleProcess(child);
});

afterAll(async () => {
  if (bundle && bundle.exitCode === null) {
    bundle.child.kill('SIGKILL');
    await bundle.exited();
  }
  for (const c of cleanups) c();
});

describe('the app folder Electron is started on (out/main)', () => {
  it("names the app as the repository does and its entry, which Electron's resolution finds", () => {
    const root = JSON.parse(readFileSync('package.json', 'utf8')) as {
      name: string;
      version: string;
      type: string;
    };
    // Electron's default app reads the folder's package.json (name: userData's folder, version:
    // app.getVersion()) and loads what Node's resolution of the folder gives (Module._resolveFilename)
    expect(JSON.parse(readFileSync(APP_MANIFEST, 'utf8'))).toEqual({
      name: root.name,
      version: root.version,
      private: true,
      type: root.type,
      main: 'index.js',
    });
    expect(createRequire(import.meta.url).resolve(APP_DIR)).toBe(MAIN);
  });
});

describe('built desktop bundle (out/main/index.js) with a fake electron', () => {
  let sandboxUrl = '';

  it('starts the sandbox in userData and prints where it listens', async () => {
    const loaded = await bundle.waitFor('loaded');
    sandboxUrl = new URL((loaded.data as { url: string }).url).origin;
    expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = (await (await fetch(`${sandboxUrl}/_sandbox/health`)).json()) as {
      status: string;
      dataDir: string;
      configSource: string;
    };
    expect(health).toMatchObject({
      status: 'ok',
      dataDir: userData,
      configSource: 'demo fixtures',
    });
    expect(bundle.printed).toContain(`search-sandbox listening on ${sandboxUrl}`);
  });

  it('creates the window with the secure options and the built CommonJS preload', async () => {
    const options = (await bundle.waitFor('window')).data as {
      show: boolean;
      webPreferences: Record<string, unknown>;
    };
    expect(options.show).toBe(false);
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      webSecurity: true,
    });
    expect(options.webPreferences.preload).toBe(PRELOAD);
    expect((await bundle.waitFor('shown')).data).toBe(true);
    for (const kind of [
      'permission-request-handler',
      'permission-check-handler',
      'window-open-handler',
    ])
      expect(bundle.said.map((s) => s.kind)).toContain(kind);
  });

  it('loads the UI from the sandbox URL, under the strict CSP, with the navigation policy on', async () => {
    const loaded = (await bundle.waitFor('loaded')).data as Record<string, unknown>;
    expect(loaded).toMatchObject({
      url: `${sandboxUrl}/`,
      status: 200,
      hasRoot: true,
      blocksExternal: true,
      keepsOwn: true,
      windowOpen: { action: 'deny' },
    });
    expect(loaded.csp).toEqual([expect.stringMatching(/^default-src 'self'; script-src 'self';/)]);
    // the page's script is served too: the UI really comes from the sandbox, not from disk
    const html = await (await fetch(`${sandboxUrl}/`)).text();
    const script = /src="([^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(new URL(script, `${sandboxUrl}/`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.said.filter((s) => s.kind === 'open-external').map((s) => s.data)).toContain(
      'https://example.com/',
    );
  });

  it('installs the menu and the five preload channels', async () => {
    expect((await bundle.waitFor('menu')).data).toEqual(['File', 'editMenu', 'View', 'Help']);
    const channels = bundle.said.filter((s) => s.kind === 'ipc').map((s) => s.data);
    expect(channels).toHaveLength(5);
  });

  it('on quit: flushes the journal and closes the port, then exits 0', async () => {
    const res = await postBeacon(sandboxUrl, 'demo42/search/render', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'https://shop.example/',
        userId: 'u',
        sessionId: 's',
        pageLoadId: 'bundle-quit-page',
        initiator: 'electron-bundle-test',
      },
      data: { responseId: 'r' },
    });
    expect(res.status).toBe(200);
    bundle.child.stdin.write('quit\n');
    expect(await bundle.exited()).toBe(0);
    // the first quit was held back for the shutdown; the second went through
    expect(bundle.said.filter((s) => s.kind === 'quit').map((s) => s.data)).toEqual([
      { prevented: true },
      { prevented: false },
    ]);
    expect(allText(userData)).toContain('bundle-quit-page');
    const closed = await fetch(`${sandboxUrl}/_sandbox/health`).then(
      () => false,
      () => true,
    );
    expect(closed).toBe(true);
  });
});

describe('built preload (out/preload/index.cjs)', () => {
  it('runs as a CommonJS script that requires only electron and exposes exactly the named API', () => {
    const exposed: Record<string, unknown> = {};
    const invoked: unknown[][] = [];
    const required: string[] = [];
    const fakeElectron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: { invoke: async (...args: unknown[]) => invoked.push(args) },
    };
    const module = { exports: {} };
    // what a sandboxed preload gets: a require limited to a few modules, no import statements
    vm.runInNewContext(readFileSync(PRELOAD, 'utf8'), {
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return fakeElectron;
      },
      module,
      exports: module.exports,
    });
    expect(required).toEqual(['electron']);
    expect(Object.keys(exposed)).toEqual(['sandboxDesktop']);
    const api = exposed.sandboxDesktop as Record<string, (...a: unknown[]) => unknown>;
    expect(Object.keys(api).sort()).toEqual([
      'getAppVersion',
      'getNotificationsEnabled',
      'openDataDirectory',
      'setNotificationsEnabled',
      'uploadFeedFile',
    ]);
    void api.setNotificationsEnabled!(true);
    expect(invoked).toEqual([['sandbox-desktop:set-notifications-enabled', true]]);
  });
});

function allText(dir: string): string {
  return readdirSync(dir)
    .map((name) => path.join(dir, name))
    .map((full) => (statSync(full).isDirectory() ? allText(full) : readFileSync(full, 'utf8')))
    .join('\n');
}
