// IPC channel names shared by the preload (renderer side) and the shell (main side). One channel
// per named function of `window.sandboxDesktop`; nothing generic is ever exposed.
export const IPC = {
  uploadFeedFile: 'sandbox-desktop:upload-feed-file',
  openDataDirectory: 'sandbox-desktop:open-data-directory',
  getAppVersion: 'sandbox-desktop:get-app-version',
  getNotificationsEnabled: 'sandbox-desktop:get-notifications-enabled',
  setNotificationsEnabled: 'sandbox-desktop:set-notifications-enabled',
} as const;
