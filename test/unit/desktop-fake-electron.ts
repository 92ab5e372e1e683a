// A fake of the slice of Electron the desktop shell uses (src/main/desktop/electron-api.ts): it records
// what the shell asks for and lets a test play the user (click, navigate, quit) — no Electron binary.
import type {
  AppLike,
  BrowserWindowLike,
  DesktopElectron,
  DialogLike,
  HeadersReceivedDetails,
  IpcMainInvokeEventLike,
  MenuItemOptions,
  MessageBoxOptionsLike,
  OpenDialogOptionsLike,
  PreventableEvent,
  Rectangle,
  SaveDialogOptionsLike,
  WebContentsLike,
  WindowOpenDetails,
  WindowOptionsLike,
} from '../../src/main/desktop/electron-api';

import path from 'node:path';
import { runDesktopApp, type DesktopRuntime } from '../../src/main/desktop/app';
import { createSandbox } from '../../src/main/sandbox';

type Listener = (...args: never[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => unknown)(...args);
  }
}

export function preventable(): PreventableEvent & { prevented: boolean } {
  return {
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
  };
}

export class FakeWebContents extends Emitter implements WebContentsLike {
  openHandler: ((d: WindowOpenDetails) => { action: 'deny' } | { action: 'allow' }) | null = null;
  setWindowOpenHandler(
    handler: (d: WindowOpenDetails) => { action: 'deny' } | { action: 'allow' },
  ): void {
    this.openHandler = handler;
  }
  reload(): void {}
  toggleDevTools(): void {}
  /** what a click on a link does: returns true when the shell stopped the navigation */
  navigate(url: string, event = 'will-navigate'): boolean {
    const e = preventable();
    this.emit(event, e, url);
    return e.prevented;
  }
  windowOpen(url: string) {
    return this.openHandler!({ url });
  }
}

export class FakeBrowserWindow extends Emitter implements BrowserWindowLike {
  static instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loadedUrls: string[] = [];
  shown = false;
  focused = 0;
  destroyed = false;
  maximized = false;
  minimized = false;
  bounds: Rectangle;

  constructor(readonly options: WindowOptionsLike) {
    super();
    this.bounds = {
      x: options.x ?? 100,
      y: options.y ?? 100,
      width: options.width ?? 800,
      height: options.height ?? 600,
    };
    FakeBrowserWindow.instances.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused++;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  getNormalBounds(): Rectangle {
    return { ...this.bounds };
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setTitle(): void {}
  /** the user closes the window */
  close(): void {
    this.emit('close');
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeApp extends Emitter implements AppLike {
  gotLock = true;
  quitCalls = 0;
  exitCode: number | null = null;
  /** set once the app really quit (a quit nobody prevented) */
  quitted = false;
  appUserModelId: string | null = null;
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));

  constructor(
    readonly userData: string,
    readonly version = '9.9.9',
  ) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  becomeReady(): void {
    this.readyResolve();
  }
  getPath(): string {
    return this.userData;
  }
  getVersion(): string {
    return this.version;
  }
  setAppUserModelId(id: string): void {
    this.appUserModelId = id;
  }
  /** like Electron: before-quit first; only an unprevented quit goes through */
  quit(): void {
    this.quitCalls++;
    const e = preventable();
    this.emit('before-quit', e);
    if (!e.prevented) this.quitted = true;
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
}

export interface DialogCall {
  kind: 'open' | 'save' | 'message' | 'error';
  window: unknown;
  options:
    | OpenDialogOptionsLike
    | SaveDialogOptionsLike
    | MessageBoxOptionsLike
    | { title: string; content: string };
}

/** Dialogs answer from queues the test fills (what the user would pick). */
export class FakeDialog implements DialogLike {
  calls: DialogCall[] = [];
  openAnswers: Array<{ canceled: boolean; filePaths: string[] }> = [];
  saveAnswers: Array<{ canceled: boolean; filePath?: string }> = [];
  messageAnswers: number[] = [];
  async showOpenDialog(window: unknown, options: OpenDialogOptionsLike) {
    this.calls.push({ kind: 'open', window, options });
    return this.openAnswers.shift() ?? { canceled: true, filePaths: [] };
  }
  async showSaveDialog(window: unknown, options: SaveDialogOptionsLike) {
    this.calls.push({ kind: 'save', window, options });
    return this.saveAnswers.shift() ?? { canceled: true };
  }
  async showMessageBox(window: unknown, options: MessageBoxOptionsLike) {
    this.calls.push({ kind: 'message', window, options });
    return { response: this.messageAnswers.shift() ?? 0 };
  }
  showErrorBox(title: string, content: string): void {
    this.calls.push({ kind: 'error', window: null, options: { title, content } });
  }
  messages(): MessageBoxOptionsLike[] {
    return this.calls
      .filter((c) => c.kind === 'message')
      .map((c) => c.options as MessageBoxOptionsLike);
  }
}

export class FakeShell {
  external: string[] = [];
  opened: string[] = [];
  openPathAnswer = '';
  async openExternal(url: string): Promise<void> {
    this.external.push(url);
  }
  async openPath(path: string): Promise<string> {
    this.opened.push(path);
    return this.openPathAnswer;
  }
  showItemInFolder(path: string): void {
    this.opened.push(path);
  }
}

export class FakeIpcMain {
  handlers = new Map<string, (event: IpcMainInvokeEventLike, ...args: unknown[]) => unknown>();
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEventLike, ...args: unknown[]) => unknown,
  ): void {
    this.handlers.set(channel, listener);
  }
  /** what ipcRenderer.invoke from a frame at `url` gets */
  async invoke(url: string, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ senderFrame: { url } }, ...args);
  }
}

export class FakeSession {
  headersListener:
    | ((
        d: HeadersReceivedDetails,
        cb: (r: { responseHeaders?: Record<string, string[] | string> }) => void,
      ) => void)
    | null = null;
  requestHandler:
    | ((
        c: unknown,
        p: string,
        cb: (granted: boolean) => void,
        d: { requestingUrl?: string },
      ) => void)
    | null = null;
  checkHandler: ((c: unknown, p: string, origin: string) => boolean) | null = null;
  webRequest = {
    onHeadersReceived: (listener: NonNullable<FakeSession['headersListener']>) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: NonNullable<FakeSession['requestHandler']>): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: NonNullable<FakeSession['checkHandler']>): void {
    this.checkHandler = handler;
  }
  /** the response headers the page would see for `url` */
  headersFor(
    url: string,
    responseHeaders: Record<string, string[]> = {},
  ): Record<string, string[] | string> | undefined {
    let out: Record<string, string[] | string> | undefined;
    this.headersListener!(
      { url, resourceType: 'mainFrame', responseHeaders },
      (r) => (out = r.responseHeaders),
    );
    return out;
  }
  request(permission: string, requestingUrl: string): boolean {
    let granted: boolean | null = null;
    this.requestHandler!(null, permission, (g) => (granted = g), { requestingUrl });
    if (granted === null) throw new Error('permission request left unanswered');
    return granted;
  }
}

export class FakeMenu {
  current: MenuItemOptions[] | null = null;
  buildFromTemplate(template: MenuItemOptions[]): unknown {
    return template;
  }
  setApplicationMenu(menu: unknown): void {
    this.current = menu as MenuItemOptions[];
  }
}

export class FakeNotification {
  static shown: Array<{ title: string; body: string }> = [];
  static instances: FakeNotification[] = [];
  static supported = true;
  onClick: (() => void) | null = null;
  constructor(readonly options: { title: string; body: string }) {
    FakeNotification.instances.push(this);
  }
  on(_event: 'click', listener: () => void): this {
    this.onClick = listener;
    return this;
  }
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  show(): void {
    FakeNotification.shown.push(this.options);
  }
}

export interface FakeElectron extends DesktopElectron {
  app: FakeApp;
  dialog: FakeDialog;
  shell: FakeShell;
  ipcMain: FakeIpcMain;
  session: { defaultSession: FakeSession };
  Menu: FakeMenu;
}

export function fakeElectron(
  userData: string,
  displays: Rectangle[] = [{ x: 0, y: 0, width: 1920, height: 1080 }],
): FakeElectron {
  FakeBrowserWindow.instances = [];
  FakeNotification.shown = [];
  FakeNotification.instances = [];
  FakeNotification.supported = true;
  return {
    app: new FakeApp(userData),
    BrowserWindow: FakeBrowserWindow,
    Menu: new FakeMenu(),
    dialog: new FakeDialog(),
    shell: new FakeShell(),
    Notification: FakeNotification,
    ipcMain: new FakeIpcMain(),
    session: { defaultSession: new FakeSession() },
    screen: { getAllDisplays: () => displays.map((workArea) => ({ workArea })) },
  };
}

/**
 * Start the desktop shell on the fake the way Electron would (the app becomes ready): the real sandbox
 * on port 0 unless `env` says otherwise, without the renderer. Resolves with the runtime, or null.
 */
export function launchDesktop(
  electron: FakeElectron,
  env: NodeJS.ProcessEnv = {},
  platform: NodeJS.Platform = 'linux',
): Promise<DesktopRuntime | null> {
  const handle = runDesktopApp(electron, {
    mainDir: path.resolve('out/main'),
    env: { SEARCH_SANDBOX_PORT: '0', ...env },
    platform,
    startSandbox: (config, opts) => createSandbox(config, { ...opts, rendererDir: null }),
  });
  electron.app.becomeReady();
  return handle.started;
}
