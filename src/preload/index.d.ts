// The desktop shell's API on `window.sandboxDesktop`, present only inside the Electron window.
// The UI must feature-detect it (`window.sandboxDesktop?.…`) and keep working in a plain browser.

/** Which feed to upload to, as in `POST /api/index/feed?feedId=…&requestedBy=…`. */
export interface FeedUploadRequest {
  siteId: string;
  feedId: number;
  /** e-mail for the status message (the real API's `requestedBy`) */
  requestedBy?: string;
}

export type FeedUploadResult =
  /** the user closed the file dialog */
  | { outcome: 'canceled' }
  /** the request reached the sandbox: `status` and `body` are the real endpoint's answer */
  | { outcome: 'sent'; fileName: string; status: number; body: unknown }
  /** the request could not be made (unknown siteId, unreadable file); `message` says why and what to do */
  | { outcome: 'failed'; message: string };

export interface OpenDataDirectoryResult {
  path: string;
  /** null when the folder was opened in the file manager */
  error: string | null;
}

export interface SandboxDesktopApi {
  /** Choose a feed file in the native dialog and upload it through the real bulk-index endpoint. */
  uploadFeedFile(request: FeedUploadRequest): Promise<FeedUploadResult>;
  /** Open the sandbox's data directory in the system file manager. */
  openDataDirectory(): Promise<OpenDataDirectoryResult>;
  /** The desktop app's version. */
  getAppVersion(): Promise<string>;
  /** Whether desktop notifications (page turns fail, feed ends in error) are on. */
  getNotificationsEnabled(): Promise<boolean>;
  /** Turn desktop notifications on or off (remembered); resolves to the new setting. */
  setNotificationsEnabled(enabled: boolean): Promise<boolean>;
}

declare global {
  interface Window {
    /** only inside the desktop app */
    sandboxDesktop?: SandboxDesktopApi;
  }
}
