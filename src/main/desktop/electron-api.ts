// The slice of Electron's API the desktop shell uses, as plain interfaces: `index.ts` hands the real
// module in, tests hand a fake in, so every line of shell logic runs without Electron's binary.

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebPreferencesLike {
  preload?: string;
  contextIsolation?: boolean;
  sandbox?: boolean;
  nodeIntegration?: boolean;
  nodeIntegrationInWorker?: boolean;
  nodeIntegrationInSubFrames?: boolean;
  webSecurity?: boolean;
  allowRunningInsecureContent?: boolean;
  webviewTag?: boolean;
  navigateOnDragDrop?: boolean;
  spellcheck?: boolean;
}

export interface WindowOptionsLike {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  minWidth?: number;
  minHeight?: number;
  show?: boolean;
  title?: string;
  backgroundColor?: string;
  webPreferences?: WebPreferencesLike;
}

export interface WindowOpenDetails {
  url: string;
}

export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: PreventableEvent, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(
    handler: (details: WindowOpenDetails) => { action: 'deny' } | { action: 'allow' },
  ): void;
  reload(): void;
  toggleDevTools(): void;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  on(event: 'close' | 'closed' | 'ready-to-show', listener: () => void): unknown;
  on(event: 'page-title-updated', listener: (event: PreventableEvent) => void): unknown;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
  isMaximized(): boolean;
  maximize(): void;
  getNormalBounds(): Rectangle;
  isDestroyed(): boolean;
  setTitle(title: string): void;
}

export interface AppLike {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  whenReady(): Promise<void>;
  getPath(name: 'userData'): string;
  getVersion(): string;
  setAppUserModelId(id: string): void;
  quit(): void;
  exit(code?: number): void;
}

export type MenuRole =
  | 'about'
  | 'quit'
  | 'close'
  | 'minimize'
  | 'zoom'
  | 'front'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'services'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'appMenu'
  | 'editMenu'
  | 'windowMenu';

export interface MenuItemOptions {
  label?: string;
  role?: MenuRole;
  type?: 'separator' | 'normal' | 'submenu' | 'checkbox';
  accelerator?: string;
  checked?: boolean;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemOptions[];
}

export interface FileFilter {
  name: string;
  extensions: string[];
}

export interface OpenDialogOptionsLike {
  title?: string;
  buttonLabel?: string;
  filters?: FileFilter[];
  properties?: Array<'openFile'>;
}

export interface SaveDialogOptionsLike {
  title?: string;
  defaultPath?: string;
  filters?: FileFilter[];
}

export interface MessageBoxOptionsLike {
  type?: 'none' | 'info' | 'error' | 'question' | 'warning';
  title?: string;
  message: string;
  detail?: string;
  buttons?: string[];
  defaultId?: number;
  cancelId?: number;
}

// `window` is typed unknown: only windows made by the same BrowserWindow constructor are passed in.
export interface DialogLike {
  showOpenDialog(
    window: unknown,
    options: OpenDialogOptionsLike,
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(
    window: unknown,
    options: SaveDialogOptionsLike,
  ): Promise<{ canceled: boolean; filePath?: string }>;
  showMessageBox(window: unknown, options: MessageBoxOptionsLike): Promise<{ response: number }>;
  showErrorBox(title: string, content: string): void;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
  /** resolves to '' on success, else an error message */
  openPath(path: string): Promise<string>;
  showItemInFolder(path: string): void;
}

export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

export interface NotificationConstructor {
  new (options: { title: string; body: string }): NotificationLike;
  isSupported(): boolean;
}

export interface BrowserWindowConstructor {
  new (options: WindowOptionsLike): BrowserWindowLike;
}

export interface IpcMainInvokeEventLike {
  readonly senderFrame: { readonly url: string } | null;
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEventLike, ...args: unknown[]) => unknown,
  ): void;
}

export interface HeadersReceivedDetails {
  url: string;
  resourceType: string;
  responseHeaders?: Record<string, string[]>;
}

export interface SessionLike {
  webRequest: {
    onHeadersReceived(
      listener: (
        details: HeadersReceivedDetails,
        callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
      ) => void,
    ): void;
  };
  setPermissionRequestHandler(
    handler: (
      contents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string },
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (contents: unknown, permission: string, requestingOrigin: string) => boolean,
  ): void;
}

export interface MenuLike {
  buildFromTemplate(template: MenuItemOptions[]): unknown;
  setApplicationMenu(menu: unknown): void;
}

export interface ScreenLike {
  getAllDisplays(): Array<{ workArea: Rectangle }>;
}

/** Everything the shell needs from Electron, passed in as one value. */
export interface DesktopElectron {
  app: AppLike;
  BrowserWindow: BrowserWindowConstructor;
  Menu: MenuLike;
  dialog: DialogLike;
  shell: ShellLike;
  Notification: NotificationConstructor;
  ipcMain: IpcMainLike;
  session: { defaultSession: SessionLike };
  screen: ScreenLike;
}
