// The desktop shell's API when the UI runs inside the Electron window (absent in a plain browser).
/** The desktop shell's API, or undefined in a plain browser (every native action is optional). */
export function desktopApi(): Window['sandboxDesktop'] {
  return typeof window !== 'undefined' ? window.sandboxDesktop : undefined;
}
