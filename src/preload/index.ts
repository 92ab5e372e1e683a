// Preload: the few native things the UI may ask of the desktop shell, exposed as `window.sandboxDesktop`
// through contextBridge (the page never sees ipcRenderer). Built as CommonJS: sandboxed preloads are.
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopApi } from './api';

contextBridge.exposeInMainWorld('sandboxDesktop', createDesktopApi(ipcRenderer));
