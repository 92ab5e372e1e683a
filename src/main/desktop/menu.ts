// The application menu as plain data: File (import, export report, reset, data folder), Edit, View
// (incl. the notifications switch), Window, Help (README, open in browser). Clicks call MenuActions.
import type { ReportFormat } from './admin-client';
import type { MenuItemOptions } from './electron-api';

export interface MenuActions {
  importTraffic(): void;
  exportReport(format: ReportFormat): void;
  resetSandbox(): void;
  openDataDirectory(): void;
  setNotificationsEnabled(enabled: boolean): void;
  openReadme(): void;
  openInBrowser(): void;
  /** non-macOS "About" (macOS has the role) */
  showAbout(): void;
}

export interface MenuState {
  platform: NodeJS.Platform;
  notificationsEnabled: boolean;
  /** shown in the Help menu so it can be read and copied without opening the UI */
  sandboxUrl: string;
}

export function buildMenuTemplate(actions: MenuActions, state: MenuState): MenuItemOptions[] {
  const mac = state.platform === 'darwin';
  const file: MenuItemOptions = {
    label: 'File',
    submenu: [
      {
        label: 'Import HAR or Events…',
        accelerator: 'CmdOrCtrl+O',
        click: () => actions.importTraffic(),
      },
      {
        label: 'Export Report',
        submenu: [
          { label: 'HTML…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportReport('html') },
          { label: 'JUnit XML…', click: () => actions.exportReport('junit') },
          { label: 'JSON…', click: () => actions.exportReport('json') },
        ],
      },
      { type: 'separator' },
      { label: 'Reset Sandbox…', click: () => actions.resetSandbox() },
      { type: 'separator' },
      { label: 'Open Data Folder', click: () => actions.openDataDirectory() },
      ...(mac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
    ],
  };
  const view: MenuItemOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      { role: 'forceReload' },
      { role: 'toggleDevTools' },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      { type: 'separator' },
      {
        label: 'Desktop Notifications',
        type: 'checkbox',
        checked: state.notificationsEnabled,
        click: () => actions.setNotificationsEnabled(!state.notificationsEnabled),
      },
    ],
  };
  const help: MenuItemOptions = {
    label: 'Help',
    submenu: [
      { label: 'README', click: () => actions.openReadme() },
      { label: `Open ${state.sandboxUrl} in the Browser`, click: () => actions.openInBrowser() },
      ...(mac
        ? []
        : [
            { type: 'separator' as const },
            { label: 'About Search Sandbox', click: () => actions.showAbout() },
          ]),
    ],
  };
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    file,
    { role: 'editMenu' },
    view,
    ...(mac ? [{ role: 'windowMenu' as const }] : []),
    help,
  ];
}

/** Every clickable item, by its path of labels ("File/Export Report/HTML…"): for tests and docs. */
export function menuPaths(template: MenuItemOptions[], prefix = ''): Map<string, MenuItemOptions> {
  const out = new Map<string, MenuItemOptions>();
  for (const item of template) {
    const name = item.label ?? item.role ?? '';
    const here = prefix ? `${prefix}/${name}` : name;
    if (item.submenu) for (const [k, v] of menuPaths(item.submenu, here)) out.set(k, v);
    else if (item.type !== 'separator') out.set(here, item);
  }
  return out;
}
