// The desktop app's own small files in userData: settings (port, notifications) and the window's
// size and position. Read defensively: a missing, corrupt or hand-edited file gives defaults, never a crash.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Rectangle } from './electron-api';
import { isObject } from '../../shared/values';
import { replaceFileSync } from '../store/durable';

export const SETTINGS_FILE = 'desktop-settings.json';
export const WINDOW_STATE_FILE = 'window-state.json';

export interface DesktopSettings {
  /** the sandbox's port; absent = the config's (4545 by default) */
  port?: number;
  /** desktop notifications when a page turns fail or a feed ends in error */
  notifications: boolean;
}

export interface WindowState {
  bounds: Rectangle | null;
  maximized: boolean;
}

export const DEFAULT_WINDOW = { width: 1280, height: 800, minWidth: 720, minHeight: 480 };

/** A problem with one of these files, worth telling the user once (it is then replaced by defaults). */
export type SettingsWarning = (message: string) => void;

export function readSettings(dir: string, warn: SettingsWarning): DesktopSettings {
  const raw = readJson(path.join(dir, SETTINGS_FILE), warn);
  const settings: DesktopSettings = { notifications: true };
  if (raw === undefined) return settings;
  if (!isObject(raw)) {
    warn(
      `${SETTINGS_FILE} must hold a JSON object like {"port": 4545, "notifications": true}; using defaults`,
    );
    return settings;
  }
  if (raw.port !== undefined) {
    if (
      typeof raw.port === 'number' &&
      Number.isInteger(raw.port) &&
      raw.port >= 0 &&
      raw.port <= 65535
    )
      settings.port = raw.port;
    else
      warn(
        `${SETTINGS_FILE}: port ${JSON.stringify(raw.port)} is not a port (a whole number from 0 to 65535); using the default`,
      );
  }
  if (raw.notifications !== undefined) {
    if (typeof raw.notifications === 'boolean') settings.notifications = raw.notifications;
    else
      warn(
        `${SETTINGS_FILE}: notifications ${JSON.stringify(raw.notifications)} must be true or false; using true`,
      );
  }
  return settings;
}

export function writeSettings(dir: string, settings: DesktopSettings): void {
  writeJsonAtomic(path.join(dir, SETTINGS_FILE), settings);
}

export function readWindowState(dir: string, warn: SettingsWarning): WindowState {
  const raw = readJson(path.join(dir, WINDOW_STATE_FILE), warn);
  const state: WindowState = { bounds: null, maximized: false };
  if (raw === undefined) return state;
  if (!isObject(raw)) {
    warn(`${WINDOW_STATE_FILE} is not a JSON object; the window opens at its default size`);
    return state;
  }
  state.maximized = raw.maximized === true;
  const b = raw.bounds;
  if (
    isObject(b) &&
    [b.x, b.y, b.width, b.height].every((n) => typeof n === 'number' && Number.isFinite(n))
  ) {
    const bounds = {
      x: b.x as number,
      y: b.y as number,
      width: b.width as number,
      height: b.height as number,
    };
    if (bounds.width >= DEFAULT_WINDOW.minWidth && bounds.height >= DEFAULT_WINDOW.minHeight)
      state.bounds = bounds;
  }
  return state;
}

export function writeWindowState(dir: string, state: WindowState): void {
  writeJsonAtomic(path.join(dir, WINDOW_STATE_FILE), state);
}

/**
 * The remembered bounds, if the window would still be reachable: at least a 100×50 corner of its
 * title area must lie on a display that exists now (a monitor unplugged since last time).
 */
export function placeWindow(state: WindowState, displays: Rectangle[]): Rectangle | null {
  const b = state.bounds;
  if (!b) return null;
  const visible = displays.some(
    (d) => overlap(b.x, b.width, d.x, d.width) >= 100 && overlap(b.y, 50, d.y, d.height) >= 50,
  );
  if (!visible) return null;
  // never larger than the biggest display: a window taller than the screen hides its own controls
  const maxW = Math.max(...displays.map((d) => d.width));
  const maxH = Math.max(...displays.map((d) => d.height));
  return { x: b.x, y: b.y, width: Math.min(b.width, maxW), height: Math.min(b.height, maxH) };
}

function overlap(a: number, aLen: number, b: number, bLen: number): number {
  return Math.max(0, Math.min(a + aLen, b + bLen) - Math.max(a, b));
}

function readJson(file: string, warn: SettingsWarning): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      warn(
        `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}); using defaults`,
      );
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    warn(`${file} is not valid JSON; using defaults (the file is rewritten on the next change)`);
    return undefined;
  }
}

/** Replaced whole or not at all, and on disk once this returns (durable.ts). */
function writeJsonAtomic(file: string, value: unknown): void {
  replaceFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
