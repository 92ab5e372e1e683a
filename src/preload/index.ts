// Preload: the few native things the UI may ask of the desktop shell (filled in by the desktop-app work).
export {};
