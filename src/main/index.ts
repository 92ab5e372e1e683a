// Electron entry: the only main-process file that imports 'electron'. It hands the real API to the
// desktop shell (src/main/desktop, which tests drive with a fake) and starts the same sandbox the CLI runs.
import {
  app,
  BrowserWindow,
  Menu,
  dialog,
  shell,
  Notification,
  ipcMain,
  session,
  screen,
} from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDesktopApp } from './desktop/app';
import type { DesktopElectron } from './desktop/electron-api';
import { createSandbox } from './sandbox';
import { capHeapGrowth, compactAfterReplay } from './heap';

// the sandbox lives in this process: its heap is capped as `serve` caps it (src/main/heap.ts)
capHeapGrowth();

// The assignment is the compile-time proof that the real module fits the shell's narrow interface.
const electron: DesktopElectron = {
  app,
  BrowserWindow,
  Menu,
  dialog,
  shell,
  Notification,
  ipcMain,
  session,
  screen,
};

const handle = runDesktopApp(electron, {
  mainDir: path.dirname(fileURLToPath(import.meta.url)),
  env: process.env,
  platform: process.platform,
  startSandbox: (config, options) =>
    createSandbox(config, { ...options, afterReplay: compactAfterReplay }),
  resourcesDir: (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath,
});

// Ctrl-C in a terminal (npm run app) quits like the menu does: flush, close, exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void handle.started.then(() => app.quit());
  });
}
