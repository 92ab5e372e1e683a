// The desktop shell's life: one instance, the sandbox started in this process (data in userData), one
// locked-down window on the sandbox's own URL, menus, notifications, and a quit that flushes first.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../sandbox';
import { DesktopActions, findReadme } from './actions';
import { AdminClient } from './admin-client';
import { announceDevSandbox } from './dev-proxy';
import type { BrowserWindowLike, DesktopElectron } from './electron-api';
import { registerDesktopIpc } from './ipc';
import { buildMenuTemplate } from './menu';
import { NotificationThrottle, NotificationWatcher } from './notifications';
import { desktopConfig, startWithPortFallback, type StartSandbox } from './sandbox-start';
import { showStartupError } from './startup-error';
import {
  DEFAULT_WINDOW,
  SETTINGS_FILE,
  placeWindow,
  readSettings,
  readWindowState,
  writeSettings,
  writeWindowState,
  type DesktopSettings,
} from './settings';
import {
  AppOrigins,
  contentSecurityPolicy,
  guardSession,
  guardWebContents,
  secureWebPreferences,
} from './window-security';

export interface DesktopOptions {
  /** directory of the built main bundle (out/main): preload and renderer are found beside it */
  mainDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** createSandbox, the same function the CLI uses */
  startSandbox: StartSandbox;
  /** extra places to look for the README (e.g. Electron's resourcesPath in a packaged app) */
  resourcesDir?: string;
  /** how long a quit waits for the sandbox to close before exiting anyway (default 10 s) */
  quitTimeoutMs?: number;
}

/** What a running desktop app holds; returned for tests and for index.ts's signal handling. */
export interface DesktopRuntime {
  sandbox: Sandbox;
  settings: DesktopSettings;
  portNotice: string | null;
  window(): BrowserWindowLike | null;
  /** bring the window to the front, creating it if it was closed (macOS dock click, second launch) */
  openWindow(): BrowserWindowLike;
  actions: DesktopActions;
  /** resolves once the sandbox is closed (journal flushed, servers closed) */
  shutdown(): Promise<void>;
}

export interface DesktopHandle {
  /** the runtime once started; null when another instance already runs */
  started: Promise<DesktopRuntime | null>;
}

export const APP_ID = 'dev.search-sandbox.app';

export function runDesktopApp(electron: DesktopElectron, options: DesktopOptions): DesktopHandle {
  const { app } = electron;
  if (!app.requestSingleInstanceLock()) {
    // the first instance gets 'second-instance' and comes to the front
    app.quit();
    return { started: Promise.resolve(null) };
  }
  if (options.platform === 'win32') app.setAppUserModelId(APP_ID);

  let runtime: DesktopRuntime | null = null;
  let closed = false;

  app.on('second-instance', () => {
    if (runtime && !closed) runtime.openWindow();
  });
  app.on('activate', () => {
    if (runtime && !closed) runtime.openWindow();
  });
  app.on('window-all-closed', () => {
    // macOS apps stay alive without windows; the sandbox keeps serving until Quit
    if (options.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (closed || !runtime) return;
    event.preventDefault();
    closed = true;
    void shutdownWithin(runtime, options.quitTimeoutMs ?? 10_000).then(() => app.quit());
  });

  const started = app
    .whenReady()
    .then(async () => {
      runtime = await startDesktop(electron, options);
      return runtime;
    })
    .catch((err: unknown) => {
      // the window says why (file, problem, fix); closing it ends the app with exit code 1
      showStartupError(electron, err);
      return null;
    });
  return { started };
}

/** Close the sandbox, but never let a stuck close keep the app from quitting. */
async function shutdownWithin(runtime: DesktopRuntime, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const outcome = await Promise.race([runtime.shutdown().then(() => 'closed' as const), timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout')
    console.error(
      `search-sandbox desktop: the sandbox did not close within ${ms} ms; quitting anyway`,
    );
}

async function startDesktop(
  electron: DesktopElectron,
  options: DesktopOptions,
): Promise<DesktopRuntime> {
  const userData = electron.app.getPath('userData');
  mkdirSync(userData, { recursive: true });
  const startupWarnings: string[] = [];
  const warn = (message: string) => {
    console.warn(`search-sandbox desktop: ${message}`);
    startupWarnings.push(message);
  };
  const settings = readSettings(userData, warn);
  const settingsFile = path.join(userData, SETTINGS_FILE);
  const config = desktopConfig(userData, settings, options.env);
  const { sandbox, portNotice } = await startWithPortFallback(
    config,
    { rendererDir: path.resolve(options.mainDir, '../renderer'), warnings: startupWarnings },
    options.startSandbox,
    settingsFile,
  );
  if (portNotice) console.warn(`search-sandbox desktop: ${portNotice}`);
  console.log(`search-sandbox listening on ${sandbox.url}`);
  try {
    return new DesktopShell(electron, options, sandbox, settings, portNotice, userData, warn);
  } catch (err) {
    // the window could not be set up: do not leave the sandbox's journal open behind the error box
    await sandbox.close();
    throw err;
  }
}

/** The window title names the address storefronts must use, and flags a port fallback. */
export function windowTitle(url: string, portNotice: string | null): string {
  return `Search Sandbox — ${url}${portNotice ? ' (fallback port: the configured one was taken)' : ''}`;
}

/** A started app: the sandbox plus everything Electron shows of it. */
class DesktopShell implements DesktopRuntime {
  readonly actions: DesktopActions;
  private readonly origins: AppOrigins;
  private readonly devServerUrl: string | undefined;
  private readonly forgetDevHandoff: () => void;
  private readonly stopNotifications: () => void;
  private current: BrowserWindowLike | null = null;
  private shuttingDown: Promise<void> | null = null;

  constructor(
    private readonly electron: DesktopElectron,
    private readonly options: DesktopOptions,
    readonly sandbox: Sandbox,
    readonly settings: DesktopSettings,
    readonly portNotice: string | null,
    private readonly userData: string,
    private readonly warn: (message: string) => void,
  ) {
    const { config } = sandbox.core;
    this.devServerUrl = options.env.ELECTRON_RENDERER_URL || undefined;
    this.forgetDevHandoff = this.devServerUrl
      ? announceDevSandbox(options.env, sandbox.url)
      : () => {};
    this.origins = new AppOrigins(
      this.devServerUrl ? [sandbox.url, this.devServerUrl] : [sandbox.url],
    );
    guardSession(
      electron.session.defaultSession,
      this.origins,
      contentSecurityPolicy(this.devServerUrl),
    );
    this.actions = new DesktopActions({
      dialog: electron.dialog,
      shell: electron.shell,
      window: () => this.window(),
      sandboxUrl: sandbox.url,
      accounts: config.accounts,
      reset: (scope) => sandbox.core.reset(scope),
      admin: new AdminClient(sandbox.url),
      dataDir: config.dataDir ?? userData,
      readmePath: findReadme([
        path.resolve(options.mainDir, '../../README.md'),
        ...(options.resourcesDir ? [path.join(options.resourcesDir, 'README.md')] : []),
      ]),
      now: () => new Date(),
    });
    this.installMenu();
    registerDesktopIpc(
      electron.ipcMain,
      {
        uploadFeedFile: (request) => this.actions.uploadFeedFile(request),
        openDataDirectory: () => this.actions.openDataDirectory(),
        getAppVersion: () => electron.app.getVersion(),
        getNotificationsEnabled: () => settings.notifications,
        setNotificationsEnabled: (enabled) => this.setNotifications(enabled),
      },
      this.origins,
    );
    this.stopNotifications = this.startNotifications();
    this.createWindow();
    // besides health and the UI: a port fallback is news the user should get even with the window hidden
    if (portNotice && electron.Notification.isSupported()) {
      new electron.Notification({
        title: 'Search Sandbox is on another port',
        body: portNotice,
      }).show();
    }
  }

  window(): BrowserWindowLike | null {
    return this.current && !this.current.isDestroyed() ? this.current : null;
  }

  openWindow(): BrowserWindowLike {
    const win = this.window();
    if (!win) return this.createWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    return win;
  }

  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      this.stopNotifications();
      const win = this.window();
      if (win) this.saveWindowState(win);
      try {
        await this.sandbox.close();
      } catch (err) {
        console.error(
          `search-sandbox desktop: error while closing the sandbox: ${(err as Error).message}`,
        );
      }
      this.forgetDevHandoff();
    })();
    return this.shuttingDown;
  }

  private createWindow(): BrowserWindowLike {
    const { electron, options } = this;
    const state = readWindowState(this.userData, this.warn);
    const bounds = placeWindow(
      state,
      electron.screen.getAllDisplays().map((d) => d.workArea),
    );
    const win = new electron.BrowserWindow({
      ...(bounds ?? { width: DEFAULT_WINDOW.width, height: DEFAULT_WINDOW.height }),
      minWidth: DEFAULT_WINDOW.minWidth,
      minHeight: DEFAULT_WINDOW.minHeight,
      // shown once painted: no white flash
      show: false,
      title: windowTitle(this.sandbox.url, this.portNotice),
      webPreferences: secureWebPreferences(path.resolve(options.mainDir, '../preload/index.cjs')),
    });
    guardWebContents(win.webContents, this.origins, electron.shell);
    if (state.maximized) win.maximize();
    win.on('ready-to-show', () => win.show());
    // the title bar keeps the sandbox's address (the page's <title> would replace it)
    win.on('page-title-updated', (event) => event.preventDefault());
    win.on('close', () => this.saveWindowState(win));
    win.on('closed', () => {
      if (this.current === win) this.current = null;
    });
    this.current = win;
    const url = this.devServerUrl ?? `${this.sandbox.url}/`;
    win
      .loadURL(url)
      .catch((err: unknown) =>
        console.error(`search-sandbox desktop: cannot load ${url}: ${(err as Error).message}`),
      );
    return win;
  }

  private saveWindowState(win: BrowserWindowLike): void {
    if (win.isDestroyed()) return;
    try {
      writeWindowState(this.userData, {
        bounds: win.getNormalBounds(),
        maximized: win.isMaximized(),
      });
    } catch (err) {
      console.error(
        `search-sandbox desktop: cannot remember the window position: ${(err as Error).message}`,
      );
    }
  }

  private setNotifications(enabled: boolean): boolean {
    this.settings.notifications = enabled;
    try {
      writeSettings(this.userData, this.settings);
    } catch (err) {
      console.error(
        `search-sandbox desktop: cannot save ${SETTINGS_FILE}: ${(err as Error).message}`,
      );
    }
    // the View menu's checkbox shows the new state
    this.installMenu();
    return enabled;
  }

  private startNotifications(): () => void {
    const { Notification } = this.electron;
    const watcher = new NotificationWatcher();
    const throttle = new NotificationThrottle(() => Date.now());
    return this.sandbox.core.bus.on(
      (message) => {
        const notice = watcher.handle(message);
        if (!notice || !this.settings.notifications || !Notification.isSupported()) return;
        const admitted = throttle.admit(notice);
        if (!admitted) return;
        const notification = new Notification(admitted);
        // a click brings the app forward, where the page or feed is live in the UI
        notification.on('click', () => this.openWindow());
        notification.show();
      },
      { wants: (type) => NotificationWatcher.takes(type) },
    );
  }

  private installMenu(): void {
    const { actions, sandbox, electron } = this;
    const { config } = sandbox.core;
    const template = buildMenuTemplate(
      {
        importTraffic: () => void actions.importTraffic(),
        exportReport: (format) => void actions.exportReport(format),
        resetSandbox: () => void actions.resetSandbox(),
        openDataDirectory: () => void actions.openDataDirectory(),
        setNotificationsEnabled: (enabled) => this.setNotifications(enabled),
        openReadme: () => void actions.openReadme(),
        openInBrowser: () => void actions.openInBrowser(),
        showAbout: () =>
          void electron.dialog.showMessageBox(this.window(), {
            type: 'info',
            title: 'About Search Sandbox',
            message: `Search Sandbox ${electron.app.getVersion()}`,
            detail: `Sandbox: ${sandbox.url}\nData: ${config.dataDir ?? 'in memory'}\nConfig: ${config.configSource}`,
            buttons: ['OK'],
          }),
      },
      {
        platform: this.options.platform,
        notificationsEnabled: this.settings.notifications,
        sandboxUrl: sandbox.url,
      },
    );
    electron.Menu.setApplicationMenu(electron.Menu.buildFromTemplate(template));
  }
}
