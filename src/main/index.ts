// Electron entry: the only main-process file that imports 'electron' (filled in by the desktop-app work).
export {};
