// When the desktop app cannot start (a damaged data file, a data directory in use, a bad config), the
// user sees why in the app's own window — which file, what is wrong, what to do — instead of an app that
// vanishes. The page is static HTML in a data: URL: no preload, no scripts, nowhere to navigate.
import { DataDirError } from '../store/data-dir-error';
import type { BrowserWindowLike, DesktopElectron } from './electron-api';
import { secureWebPreferences } from './window-security';

export const STARTUP_ERROR_TITLE = 'Search Sandbox could not start';

/** What the window says, in parts: a data-directory problem is split into file, problem and fix. */
export interface StartupErrorText {
  summary: string;
  file: string | null;
  problem: string;
  fix: string | null;
}

/**
 * What the app's user can do instead of a data directory it cannot use: the app takes no flags, but the
 * environment it starts in may move its data or keep it in memory.
 */
const OTHER_DATA_DIR =
  'or start the app with SEARCH_SANDBOX_DATA set to another directory, or with SEARCH_SANDBOX_EPHEMERAL=true to keep everything in memory';

/** A start-up error in the app's words: what to do instead names no CLI flag. */
function inAppWords(err: unknown): unknown {
  return err instanceof DataDirError ? err.otherwise(OTHER_DATA_DIR) : err;
}

export function startupErrorText(failure: unknown): StartupErrorText {
  const err = inAppWords(failure);
  if (err instanceof DataDirError)
    return {
      summary:
        'A file in its data directory is in the way. Nothing in the data directory was changed.',
      file: err.file,
      problem: err.problem,
      fix: err.fix,
    };
  const message = err instanceof Error ? err.message : String(err);
  return {
    summary: 'Its configuration or environment is in the way.',
    file: null,
    problem: message,
    fix: null,
  };
}

/** The one line for stderr, the same words the CLI uses. */
export function startupErrorLine(failure: unknown): string {
  const err = inAppWords(failure);
  const message = err instanceof Error ? err.message : String(err);
  return `search-sandbox desktop: cannot start: ${message}`;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function startupErrorHtml(err: unknown): string {
  const t = startupErrorText(err);
  const rows = [
    t.file && `<dt>File</dt><dd><code>${escape(t.file)}</code></dd>`,
    `<dt>Problem</dt><dd>${escape(t.problem)}</dd>`,
    t.fix && `<dt>What to do</dt><dd>${escape(t.fix)}</dd>`,
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${STARTUP_ERROR_TITLE}</title>
<style>
  :root { color-scheme: light dark; font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
  body { margin: 0; padding: 40px; }
  main { max-width: 720px; margin: 0 auto; }
  h1 { font-size: 20px; margin: 0 0 4px; color: #c0282d; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 8px 16px; margin: 24px 0; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  code { font: 13px ui-monospace, Menlo, Consolas, monospace; }
  .note { opacity: 0.75; }
</style></head>
<body><main data-testid="startup-error">
<h1>${STARTUP_ERROR_TITLE}</h1>
<p>${escape(t.summary)}</p>
<dl>${rows.join('')}</dl>
<p class="note">Fix it, then start the app again. Closing this window quits the app.</p>
</main></body></html>`;
}

export function startupErrorUrl(err: unknown): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(startupErrorHtml(err))}`;
}

/**
 * Show the error in a window; closing it ends the app with exit code 1. If even a window cannot be
 * made, the native error box says it.
 */
export function showStartupError(
  electron: DesktopElectron,
  err: unknown,
): BrowserWindowLike | null {
  console.error(startupErrorLine(err));
  const { app } = electron;
  try {
    const win = new electron.BrowserWindow({
      width: 760,
      height: 460,
      title: STARTUP_ERROR_TITLE,
      // the page is static: no preload, and nothing in it may navigate or open windows
      webPreferences: secureWebPreferences(),
    });
    win.webContents.on('will-navigate', (event) => event.preventDefault());
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    win.on('page-title-updated', (event) => event.preventDefault());
    win.on('closed', () => app.exit(1));
    win.loadURL(startupErrorUrl(err)).catch(() => {
      electron.dialog.showErrorBox(STARTUP_ERROR_TITLE, startupErrorText(err).problem);
      app.exit(1);
    });
    return win;
  } catch {
    electron.dialog.showErrorBox(
      STARTUP_ERROR_TITLE,
      err instanceof Error ? err.message : String(err),
    );
    app.exit(1);
    return null;
  }
}
