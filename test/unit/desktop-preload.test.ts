// The preload exposes exactly the named API on window.sandboxDesktop, each function on its own channel,
// and the main side answers only the app's own pages with checked arguments.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IPC } from '../../src/main/desktop/ipc-channels';
import { registerDesktopIpc, type DesktopApiHandlers } from '../../src/main/desktop/ipc';
import { AppOrigins } from '../../src/main/desktop/window-security';
import { FakeIpcMain } from './desktop-fake-electron';

const exposed: Array<[string, unknown]> = [];
const invoked: Array<[string, unknown[]]> = [];

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
  ipcRenderer: {
    invoke: async (channel: string, ...args: unknown[]) => {
      invoked.push([channel, args]);
      return `answer of ${channel}`;
    },
    // must never be reachable from the page
    send: () => {
      throw new Error('send is not part of the API');
    },
  },
}));

const API_NAMES = [
  'getAppVersion',
  'getNotificationsEnabled',
  'openDataDirectory',
  'setNotificationsEnabled',
  'uploadFeedFile',
];

afterEach(() => {
  invoked.length = 0;
});

describe('preload', () => {
  it('exposes exactly the named functions as window.sandboxDesktop, nothing of ipcRenderer', async () => {
    await import('../../src/preload/index');
    expect(exposed.map(([key]) => key)).toEqual(['sandboxDesktop']);
    const api = exposed[0]![1] as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(API_NAMES);
    for (const name of API_NAMES) expect(typeof api[name], name).toBe('function');
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('on');
  });

  it('sends each function on its own channel with plain copies of the arguments', async () => {
    await import('../../src/preload/index');
    const api = exposed[0]![1] as Window['sandboxDesktop'] & object;
    await api.getAppVersion();
    await api.getNotificationsEnabled();
    await api.setNotificationsEnabled(false);
    await api.openDataDirectory();
    // a page passing an object with extra keys and a getter gets only the three fields across
    const sneaky = {
      siteId: 'demo42',
      feedId: 42,
      requestedBy: 'qa@example.com',
      extra: 'x',
      get evil() {
        return 'y';
      },
    };
    await api.uploadFeedFile(sneaky);
    // anything but `true` turns notifications off, never on
    await api.setNotificationsEnabled('yes' as unknown as boolean);
    expect(invoked).toEqual([
      [IPC.getAppVersion, []],
      [IPC.getNotificationsEnabled, []],
      [IPC.setNotificationsEnabled, [false]],
      [IPC.openDataDirectory, []],
      [IPC.uploadFeedFile, [{ siteId: 'demo42', feedId: 42, requestedBy: 'qa@example.com' }]],
      [IPC.setNotificationsEnabled, [false]],
    ]);
  });

  it('has a channel for every function, one each', () => {
    expect(Object.keys(IPC).sort()).toEqual(API_NAMES);
    expect(new Set(Object.values(IPC)).size).toBe(API_NAMES.length);
  });
});

describe('main-side IPC handlers', () => {
  const APP = 'http://127.0.0.1:4545/#/feeds';

  function setup() {
    const ipc = new FakeIpcMain();
    const calls: unknown[] = [];
    let notifications = true;
    const handlers: DesktopApiHandlers = {
      uploadFeedFile: async (request) => {
        calls.push(request);
        return { outcome: 'canceled' };
      },
      openDataDirectory: async () => ({ path: '/data', error: null }),
      getAppVersion: () => '1.2.3',
      getNotificationsEnabled: () => notifications,
      setNotificationsEnabled: (enabled) => (notifications = enabled),
    };
    registerDesktopIpc(ipc, handlers, new AppOrigins(['http://127.0.0.1:4545']));
    return { ipc, calls };
  }

  it('answers the sandbox UI', async () => {
    const { ipc, calls } = setup();
    expect(await ipc.invoke(APP, IPC.getAppVersion)).toBe('1.2.3');
    expect(await ipc.invoke(APP, IPC.setNotificationsEnabled, false)).toBe(false);
    expect(await ipc.invoke(APP, IPC.getNotificationsEnabled)).toBe(false);
    expect(await ipc.invoke(APP, IPC.openDataDirectory)).toEqual({ path: '/data', error: null });
    expect(
      await ipc.invoke(APP, IPC.uploadFeedFile, { siteId: 'demo42', feedId: 42, requestedBy: '' }),
    ).toEqual({ outcome: 'canceled' });
    expect(calls).toEqual([{ siteId: 'demo42', feedId: 42 }]);
  });

  it('refuses any other page', async () => {
    const { ipc } = setup();
    await expect(ipc.invoke('https://evil.example/', IPC.getAppVersion)).rejects.toThrow(
      /only for the Search Sandbox UI, not https:\/\/evil.example\//,
    );
    await expect(ipc.invoke('http://127.0.0.1:4546/', IPC.openDataDirectory)).rejects.toThrow(
      /refused/,
    );
    await expect(ipc.invoke('', IPC.getAppVersion)).rejects.toThrow(/unknown frame/);
  });

  it('checks arguments and names what is wrong', async () => {
    const { ipc, calls } = setup();
    await expect(
      ipc.invoke(APP, IPC.uploadFeedFile, { siteId: '../etc', feedId: 42 }),
    ).rejects.toThrow(/siteId "..\/etc" is not a siteId/);
    await expect(
      ipc.invoke(APP, IPC.uploadFeedFile, { siteId: 'demo42', feedId: 4.2 }),
    ).rejects.toThrow(/feedId 4.2 must be a whole number/);
    await expect(
      ipc.invoke(APP, IPC.uploadFeedFile, {
        siteId: 'demo42',
        feedId: 1,
        requestedBy: 'x'.repeat(300),
      }),
    ).rejects.toThrow(/requestedBy/);
    await expect(ipc.invoke(APP, IPC.uploadFeedFile, null)).rejects.toThrow(
      /needs \{siteId, feedId/,
    );
    await expect(ipc.invoke(APP, IPC.setNotificationsEnabled, 'on')).rejects.toThrow(
      /true or false/,
    );
    expect(calls).toEqual([]);
  });
});
