// The desktop app's start-up failures, with `electron` injected (a fake): instead of vanishing, the app
// opens a window that names the file, the problem and the fix; closing it exits 1; nothing is left
// locked and no data file is touched.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE } from '../../src/main/store/dir-lock';
import {
  FakeBrowserWindow,
  fakeElectron,
  launchDesktop,
  type FakeElectron,
} from './desktop-fake-electron';
import { tempDir } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  vi.restoreAllMocks();
});

function userDataDir(): string {
  const t = tempDir('desktop-startup-error-');
  cleanups.push(t.cleanup);
  return t.dir;
}

async function launch(electron: FakeElectron, env: NodeJS.ProcessEnv = {}) {
  const runtime = await launchDesktop(electron, env);
  if (runtime) cleanups.push(() => runtime.shutdown());
  return runtime;
}

/** The text of the page the error window shows (a data: URL). */
function shownPage(win: FakeBrowserWindow): string {
  const url = win.loadedUrls[0]!;
  expect(url.startsWith('data:text/html;charset=utf-8,')).toBe(true);
  return decodeURIComponent(url.slice('data:text/html;charset=utf-8,'.length));
}

/** The app logs its one line with console.error: keep the test output clean. */
function quietErrors(): void {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
}

describe('desktop start-up failures show in a window', () => {
  it('a damaged indexing.json: file, problem and fix in the window; exit 1 once it is closed; nothing touched', async () => {
    const userData = userDataDir();
    const file = path.join(userData, 'indexing.json');
    writeFileSync(file, '{"version":1,"feeds":[');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const electron = fakeElectron(userData);
    expect(await launch(electron)).toBeNull();

    expect(FakeBrowserWindow.instances).toHaveLength(1);
    const win = FakeBrowserWindow.instances[0]!;
    expect(win.options.title).toBe('Search Sandbox could not start');
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true });
    expect(win.options.webPreferences?.preload).toBeUndefined();
    const page = shownPage(win);
    expect(page).toContain(`<dt>File</dt><dd><code>${file}</code></dd>`);
    expect(page).toMatch(/<dt>Problem<\/dt><dd>is not valid JSON \(/);
    expect(page).toContain(
      '<dt>What to do</dt><dd>fix it, or move it away to start the feeds and the outbox again from the fixtures (the sandbox changed nothing)</dd>',
    );
    expect(page).toContain('Nothing in the data directory was changed.');
    // one line on stderr, as the CLI prints it
    expect(errors.mock.calls.map((c) => c.join(' '))).toEqual([
      expect.stringMatching(
        new RegExp(`^search-sandbox desktop: cannot start: ${file} is not valid JSON`),
      ),
    ]);
    expect(existsSync(path.join(userData, LOCK_FILE))).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"feeds":[');

    // the app stays up while the message is shown; closing the window ends it with exit code 1
    expect(electron.app.exitCode).toBeNull();
    expect(electron.dialog.calls.filter((c) => c.kind === 'error')).toEqual([]);
    win.close();
    expect(electron.app.exitCode).toBe(1);
  });

  it('a data directory another live sandbox holds: names the lock file and its pid', async () => {
    const userData = userDataDir();
    writeFileSync(path.join(userData, LOCK_FILE), `${process.ppid}\n`);
    quietErrors();
    const electron = fakeElectron(userData);
    expect(await launch(electron)).toBeNull();
    const page = shownPage(FakeBrowserWindow.instances[0]!);
    expect(page).toContain(`<code>${path.join(userData, LOCK_FILE)}</code>`);
    expect(page).toContain(`is in use by another sandbox (pid ${process.ppid}, still running)`);
    // what to do instead, in the app's words: it takes no --data or --ephemeral flag
    expect(page).toContain(
      '<dt>What to do</dt><dd>stop that one, or start the app with SEARCH_SANDBOX_DATA set to another directory, or with SEARCH_SANDBOX_EPHEMERAL=true to keep everything in memory</dd>',
    );
    expect(page).not.toMatch(/--data|--ephemeral/);
    // the other sandbox's lock stays
    expect(readFileSync(path.join(userData, LOCK_FILE), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('a broken config file: its message, escaped, with no file/fix rows', async () => {
    const userData = userDataDir();
    writeFileSync(path.join(userData, 'search-sandbox.config.json'), '{"port": "<many>"}');
    quietErrors();
    const electron = fakeElectron(userData);
    expect(await launch(electron, { SEARCH_SANDBOX_PORT: undefined })).toBeNull();
    const page = shownPage(FakeBrowserWindow.instances[0]!);
    expect(page).toMatch(/<dt>Problem<\/dt><dd>.*port: &#34;&#60;many&#62;&#34; is not a port/);
    expect(page).not.toContain('<dt>File</dt>');
    expect(page).not.toContain('<many>');
    // the page cannot navigate anywhere or open windows
    const win = FakeBrowserWindow.instances[0]!;
    expect(win.webContents.navigate('https://example.com/')).toBe(true);
    expect(win.webContents.windowOpen('https://example.com/')).toEqual({ action: 'deny' });
    win.close();
    expect(electron.app.exitCode).toBe(1);
  });

  it('a data directory path blocked by a file', async () => {
    const userData = userDataDir();
    writeFileSync(path.join(userData, 'blocker'), 'x');
    quietErrors();
    const electron = fakeElectron(userData);
    expect(
      await launch(electron, { SEARCH_SANDBOX_DATA: path.join(userData, 'blocker', 'data') }),
    ).toBeNull();
    const page = shownPage(FakeBrowserWindow.instances[0]!);
    expect(page).toContain(`<code>${path.join(userData, 'blocker')}</code>`);
    expect(page).toContain('is a file where the sandbox needs a directory (ENOTDIR)');
    expect(page).not.toMatch(/--data|--ephemeral/);
  });
});
