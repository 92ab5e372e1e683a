// The application menu: what is in it on each platform and which action each item runs.
import { describe, expect, it } from 'vitest';
import { buildMenuTemplate, menuPaths, type MenuActions } from '../../src/main/desktop/menu';

function recordingActions() {
  const calls: string[] = [];
  const actions: MenuActions = {
    importTraffic: () => calls.push('importTraffic'),
    exportReport: (format) => calls.push(`exportReport:${format}`),
    resetSandbox: () => calls.push('resetSandbox'),
    openDataDirectory: () => calls.push('openDataDirectory'),
    setNotificationsEnabled: (enabled) => calls.push(`setNotificationsEnabled:${enabled}`),
    openReadme: () => calls.push('openReadme'),
    openInBrowser: () => calls.push('openInBrowser'),
    showAbout: () => calls.push('showAbout'),
  };
  return { calls, actions };
}

const URL = 'http://127.0.0.1:4545';

describe('application menu', () => {
  it('has File, Edit, View and Help on Linux and Windows, with Quit and About', () => {
    const { actions } = recordingActions();
    const template = buildMenuTemplate(actions, {
      platform: 'linux',
      notificationsEnabled: true,
      sandboxUrl: URL,
    });
    expect(template.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'Help']);
    expect([...menuPaths(template).keys()]).toEqual([
      'File/Import HAR or Events…',
      'File/Export Report/HTML…',
      'File/Export Report/JUnit XML…',
      'File/Export Report/JSON…',
      'File/Reset Sandbox…',
      'File/Open Data Folder',
      'File/quit',
      'editMenu',
      'View/reload',
      'View/forceReload',
      'View/toggleDevTools',
      'View/resetZoom',
      'View/zoomIn',
      'View/zoomOut',
      'View/togglefullscreen',
      'View/Desktop Notifications',
      'Help/README',
      `Help/Open ${URL} in the Browser`,
      'Help/About Search Sandbox',
    ]);
  });

  it('follows macOS conventions: app menu and window menu, Quit and About in the app menu', () => {
    const { actions } = recordingActions();
    const template = buildMenuTemplate(actions, {
      platform: 'darwin',
      notificationsEnabled: true,
      sandboxUrl: URL,
    });
    expect(template.map((m) => m.label ?? m.role)).toEqual([
      'appMenu',
      'File',
      'editMenu',
      'View',
      'windowMenu',
      'Help',
    ]);
    const paths = [...menuPaths(template).keys()];
    expect(paths).not.toContain('File/quit');
    expect(paths).not.toContain('Help/About Search Sandbox');
  });

  it('runs the matching action for each item', () => {
    const { actions, calls } = recordingActions();
    const items = menuPaths(
      buildMenuTemplate(actions, {
        platform: 'win32',
        notificationsEnabled: true,
        sandboxUrl: URL,
      }),
    );
    for (const path of [
      'File/Import HAR or Events…',
      'File/Export Report/HTML…',
      'File/Export Report/JUnit XML…',
      'File/Export Report/JSON…',
      'File/Reset Sandbox…',
      'File/Open Data Folder',
      'View/Desktop Notifications',
      'Help/README',
      `Help/Open ${URL} in the Browser`,
      'Help/About Search Sandbox',
    ]) {
      items.get(path)!.click!();
    }
    expect(calls).toEqual([
      'importTraffic',
      'exportReport:html',
      'exportReport:junit',
      'exportReport:json',
      'resetSandbox',
      'openDataDirectory',
      'setNotificationsEnabled:false',
      'openReadme',
      'openInBrowser',
      'showAbout',
    ]);
  });

  it('shows the notifications switch as it is, and flips it', () => {
    const { actions, calls } = recordingActions();
    const off = menuPaths(
      buildMenuTemplate(actions, {
        platform: 'linux',
        notificationsEnabled: false,
        sandboxUrl: URL,
      }),
    ).get('View/Desktop Notifications')!;
    expect(off).toMatchObject({ type: 'checkbox', checked: false });
    off.click!();
    expect(calls).toEqual(['setNotificationsEnabled:true']);
  });

  it('gives the common actions keyboard shortcuts', () => {
    const items = menuPaths(
      buildMenuTemplate(recordingActions().actions, {
        platform: 'linux',
        notificationsEnabled: true,
        sandboxUrl: URL,
      }),
    );
    expect(items.get('File/Import HAR or Events…')!.accelerator).toBe('CmdOrCtrl+O');
    expect(items.get('File/Export Report/HTML…')!.accelerator).toBe('CmdOrCtrl+E');
  });
});
