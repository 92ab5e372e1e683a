// The desktop app's files in userData: settings and window state survive restarts, and a corrupt or
// hand-edited file falls back to defaults with a warning instead of crashing the app.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  SETTINGS_FILE,
  WINDOW_STATE_FILE,
  placeWindow,
  readSettings,
  readWindowState,
  writeSettings,
  writeWindowState,
} from '../../src/main/desktop/settings';
import { tempDir } from '../helpers/sandbox';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function dir(): string {
  const t = tempDir('desktop-settings-');
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('desktop settings', () => {
  it('defaults to notifications on and the config port when there is no file', () => {
    const warnings: string[] = [];
    expect(readSettings(dir(), (w) => warnings.push(w))).toEqual({ notifications: true });
    expect(warnings).toEqual([]);
  });

  it('round-trips what was written, leaving no temp file behind', () => {
    const d = dir();
    writeSettings(d, { port: 5000, notifications: false });
    expect(readSettings(d, () => {})).toEqual({ port: 5000, notifications: false });
    expect(readdirSync(d)).toEqual([SETTINGS_FILE]);
  });

  it('falls back to defaults, with a warning, on a corrupt file', () => {
    const d = dir();
    writeFileSync(path.join(d, SETTINGS_FILE), '{"port": 50');
    const warnings: string[] = [];
    expect(readSettings(d, (w) => warnings.push(w))).toEqual({ notifications: true });
    expect(warnings.join('\n')).toMatch(/not valid JSON; using defaults/);
  });

  it('rejects each bad value on its own and keeps the good ones', () => {
    const d = dir();
    writeFileSync(
      path.join(d, SETTINGS_FILE),
      JSON.stringify({ port: 70000, notifications: false }),
    );
    const warnings: string[] = [];
    expect(readSettings(d, (w) => warnings.push(w))).toEqual({ notifications: false });
    expect(warnings).toEqual([expect.stringMatching(/port 70000 is not a port/)]);

    writeFileSync(
      path.join(d, SETTINGS_FILE),
      JSON.stringify({ port: 4600, notifications: 'yes' }),
    );
    warnings.length = 0;
    expect(readSettings(d, (w) => warnings.push(w))).toEqual({ port: 4600, notifications: true });
    expect(warnings).toEqual([expect.stringMatching(/notifications "yes" must be true or false/)]);
  });

  it('treats a JSON value that is not an object as corrupt', () => {
    const d = dir();
    writeFileSync(path.join(d, SETTINGS_FILE), '[1,2]');
    const warnings: string[] = [];
    expect(readSettings(d, (w) => warnings.push(w))).toEqual({ notifications: true });
    expect(warnings).toHaveLength(1);
  });
});

describe('window state', () => {
  it('round-trips bounds and maximized', () => {
    const d = dir();
    writeWindowState(d, { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true });
    expect(readWindowState(d, () => {})).toEqual({
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: true,
    });
    expect(JSON.parse(readFileSync(path.join(d, WINDOW_STATE_FILE), 'utf8'))).toMatchObject({
      maximized: true,
    });
  });

  it('ignores garbage and too-small or non-numeric bounds', () => {
    const d = dir();
    const warnings: string[] = [];
    for (const text of [
      'garbage',
      '{"bounds": {"x": "a", "y": 0, "width": 900, "height": 700}}',
      '{"bounds": {"x": 0, "y": 0, "width": 10, "height": 10}}',
      'null',
    ]) {
      writeFileSync(path.join(d, WINDOW_STATE_FILE), text);
      expect(
        readWindowState(d, (w) => warnings.push(w)),
        text,
      ).toEqual({ bounds: null, maximized: false });
    }
    expect(warnings.length).toBe(2); // garbage and null; well-formed objects with bad bounds are just ignored
  });

  it('places the window where it was when that spot is still on a display', () => {
    const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    expect(
      placeWindow(
        { bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: false },
        displays,
      ),
    ).toEqual({ x: 100, y: 80, width: 1200, height: 800 });
  });

  it('forgets a position on a display that is gone, and shrinks a window bigger than any display', () => {
    const laptop = [{ x: 0, y: 0, width: 1440, height: 900 }];
    // last time on a second monitor to the right
    expect(
      placeWindow(
        { bounds: { x: 2000, y: 100, width: 1200, height: 800 }, maximized: false },
        laptop,
      ),
    ).toBeNull();
    // title bar above the top of the screen
    expect(
      placeWindow(
        { bounds: { x: 100, y: -900, width: 1200, height: 800 }, maximized: false },
        laptop,
      ),
    ).toBeNull();
    expect(
      placeWindow({ bounds: { x: 0, y: 0, width: 2500, height: 1400 }, maximized: false }, laptop),
    ).toEqual({ x: 0, y: 0, width: 1440, height: 900 });
    expect(placeWindow({ bounds: null, maximized: false }, laptop)).toBeNull();
  });
});
