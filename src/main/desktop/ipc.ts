// Main-process side of `window.sandboxDesktop`: one handler per channel, answering only the app's own
// pages, and checking every argument as if it came from a hostile page (it crossed a process boundary).
import type {
  FeedUploadRequest,
  FeedUploadResult,
  OpenDataDirectoryResult,
} from '../../preload/index.d';
import type { IpcMainInvokeEventLike, IpcMainLike } from './electron-api';
import { IPC } from './ipc-channels';
import type { AppOrigins } from './window-security';
import { SITE_ID_PATTERN } from '../../shared/site-id';

/** What the handlers do; the shell's actions implement it. */
export interface DesktopApiHandlers {
  uploadFeedFile(request: FeedUploadRequest): Promise<FeedUploadResult>;
  openDataDirectory(): Promise<OpenDataDirectoryResult>;
  getAppVersion(): string;
  getNotificationsEnabled(): boolean;
  setNotificationsEnabled(enabled: boolean): boolean;
}

export class IpcArgumentError extends Error {}

export function registerDesktopIpc(
  ipcMain: IpcMainLike,
  handlers: DesktopApiHandlers,
  origins: AppOrigins,
): void {
  const handle = (channel: string, fn: (...args: unknown[]) => unknown) => {
    ipcMain.handle(channel, (event: IpcMainInvokeEventLike, ...args: unknown[]) => {
      const from = event.senderFrame?.url ?? '';
      // a page that is not the sandbox UI (should it ever get a preload) gets nothing
      if (!origins.has(from))
        throw new Error(
          `refused: ${channel} is only for the Search Sandbox UI, not ${from || 'an unknown frame'}`,
        );
      return fn(...args);
    });
  };
  handle(IPC.uploadFeedFile, (request) => handlers.uploadFeedFile(parseFeedUploadRequest(request)));
  handle(IPC.openDataDirectory, () => handlers.openDataDirectory());
  handle(IPC.getAppVersion, () => handlers.getAppVersion());
  handle(IPC.getNotificationsEnabled, () => handlers.getNotificationsEnabled());
  handle(IPC.setNotificationsEnabled, (enabled) => {
    if (typeof enabled !== 'boolean')
      throw new IpcArgumentError(`enabled must be true or false, got ${JSON.stringify(enabled)}`);
    return handlers.setNotificationsEnabled(enabled);
  });
}

// RFC 5321 caps an address at 254 characters; the sandbox validates the address itself.
const MAX_REQUESTED_BY = 254;

export function parseFeedUploadRequest(raw: unknown): FeedUploadRequest {
  if (typeof raw !== 'object' || raw === null)
    throw new IpcArgumentError('uploadFeedFile needs {siteId, feedId, requestedBy?}');
  const r = raw as Record<string, unknown>;
  if (typeof r.siteId !== 'string' || !SITE_ID_PATTERN.test(r.siteId)) {
    throw new IpcArgumentError(
      `siteId ${JSON.stringify(r.siteId)} is not a siteId: 6 lowercase letters or digits, e.g. "demo42"`,
    );
  }
  if (typeof r.feedId !== 'number' || !Number.isInteger(r.feedId) || r.feedId < 1) {
    throw new IpcArgumentError(`feedId ${JSON.stringify(r.feedId)} must be a whole number >= 1`);
  }
  const out: FeedUploadRequest = { siteId: r.siteId, feedId: r.feedId };
  if (r.requestedBy !== undefined && r.requestedBy !== '') {
    if (typeof r.requestedBy !== 'string' || r.requestedBy.length > MAX_REQUESTED_BY) {
      throw new IpcArgumentError(
        `requestedBy must be an e-mail address of at most ${MAX_REQUESTED_BY} characters`,
      );
    }
    out.requestedBy = r.requestedBy;
  }
  return out;
}
