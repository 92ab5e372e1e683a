// The API object the preload hands to the page: one function per IPC channel, arguments copied into
// plain values so the page can never pass objects with getters or prototypes across the bridge.
import { IPC } from '../main/desktop/ipc-channels';
import type { FeedUploadRequest, SandboxDesktopApi } from './index.d';

/** The one thing the API needs from ipcRenderer: `invoke` (so it can be tested with a fake). */
export interface IpcInvoker {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

export function createDesktopApi(ipc: IpcInvoker): SandboxDesktopApi {
  return {
    uploadFeedFile: (request: FeedUploadRequest) =>
      ipc.invoke(IPC.uploadFeedFile, {
        siteId: String(request?.siteId ?? ''),
        feedId: Number(request?.feedId),
        ...(request?.requestedBy === undefined ? {} : { requestedBy: String(request.requestedBy) }),
      }) as ReturnType<SandboxDesktopApi['uploadFeedFile']>,
    openDataDirectory: () =>
      ipc.invoke(IPC.openDataDirectory) as ReturnType<SandboxDesktopApi['openDataDirectory']>,
    getAppVersion: () => ipc.invoke(IPC.getAppVersion) as Promise<string>,
    getNotificationsEnabled: () => ipc.invoke(IPC.getNotificationsEnabled) as Promise<boolean>,
    setNotificationsEnabled: (enabled: boolean) =>
      ipc.invoke(IPC.setNotificationsEnabled, enabled === true) as Promise<boolean>,
  };
}
