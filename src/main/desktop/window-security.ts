// The window's security: locked-down web preferences, the Content-Security-Policy, where the page may
// navigate, what happens to window.open and links, and which permission requests are refused.
import type {
  HeadersReceivedDetails,
  PreventableEvent,
  SessionLike,
  ShellLike,
  WebContentsLike,
  WebPreferencesLike,
} from './electron-api';

/** Every switch that lets page script reach Node or escape the renderer sandbox, turned off. */
export function secureWebPreferences(preloadPath?: string): WebPreferencesLike {
  return {
    ...(preloadPath !== undefined && { preload: preloadPath }),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    // a feed file dropped outside the UI's drop zone must not replace the UI with the file's contents
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

/**
 * The policy the shell adds to every response the window loads. The UI needs only its own origin;
 * the vite dev server (dev only) also needs inline scripts (React refresh preamble) and its HMR socket.
 */
export function contentSecurityPolicy(devServerUrl?: string): string {
  const dev = devServerUrl ? new URL(devServerUrl) : null;
  const devOrigin = dev ? dev.origin : '';
  const devSocket = dev ? `${dev.protocol === 'https:' ? 'wss:' : 'ws:'}//${dev.host}` : '';
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', dev ? ["'self'", "'unsafe-inline'", devOrigin] : ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', dev ? ["'self'", devOrigin, devSocket] : ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Origins the window's own pages may come from: the sandbox, plus the vite dev server in dev. */
export class AppOrigins {
  private readonly origins = new Set<string>();

  constructor(urls: string[]) {
    for (const url of urls) this.origins.add(new URL(url).origin);
  }

  has(url: string): boolean {
    try {
      return this.origins.has(new URL(url).origin);
    } catch {
      return false;
    }
  }
}

/** Only web and mail links leave the app, and only to the system's own handler. */
export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' || protocol === 'mailto:';
  } catch {
    return false;
  }
}

export type NavigationDecision = 'stay' | 'open-externally' | 'block';

/** In-app navigation only within the app's origins; web links go to the system browser. */
export function decideNavigation(url: string, origins: AppOrigins): NavigationDecision {
  if (origins.has(url)) return 'stay';
  return isExternalLink(url) ? 'open-externally' : 'block';
}

/**
 * window.open and target=_blank never create an Electron window: a web link (the sandbox's own URL
 * included, e.g. an HTML report) opens in the system browser, anything else (file:, javascript:) is refused.
 */
export function decideWindowOpen(url: string): 'open-externally' | 'block' {
  return isExternalLink(url) ? 'open-externally' : 'block';
}

/** Apply the navigation and window-open policy to one window's web contents. */
export function guardWebContents(
  contents: WebContentsLike,
  origins: AppOrigins,
  shell: ShellLike,
): void {
  const onNavigate = (event: PreventableEvent, url: string) => {
    const decision = decideNavigation(url, origins);
    if (decision === 'stay') return;
    event.preventDefault();
    if (decision === 'open-externally') openExternally(shell, url);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (decideWindowOpen(url) === 'open-externally') openExternally(shell, url);
    return { action: 'deny' };
  });
}

function openExternally(shell: ShellLike, url: string): void {
  shell.openExternal(url).catch((err: unknown) => {
    console.error(`search-sandbox desktop: could not open ${url} in the system browser:`, err);
  });
}

// Writing to the clipboard is what the UI's "copy as curl" buttons do; nothing else is ever granted.
const GRANTED_TO_APP = new Set(['clipboard-sanitized-write']);

/** Refuse every permission request, except clipboard writes from the app's own pages. */
export function decidePermission(
  permission: string,
  requestingUrl: string | undefined,
  origins: AppOrigins,
): boolean {
  return (
    GRANTED_TO_APP.has(permission) && requestingUrl !== undefined && origins.has(requestingUrl)
  );
}

/** Session-wide rules: the CSP header on the app's documents, and the permission policy. */
export function guardSession(session: SessionLike, origins: AppOrigins, csp: string): void {
  session.webRequest.onHeadersReceived((details: HeadersReceivedDetails, callback) => {
    if (!origins.has(details.url)) {
      callback({});
      return;
    }
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      // one CSP only: ours replaces whatever the server sent, whatever the header's case
      const lower = name.toLowerCase();
      if (lower !== 'content-security-policy' && lower !== 'x-frame-options') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [csp];
    // the CSP says frame-ancestors 'none'; this says it to engines that predate it
    headers['X-Frame-Options'] = ['DENY'];
    callback({ responseHeaders: headers });
  });
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(decidePermission(permission, details.requestingUrl, origins));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    decidePermission(permission, requestingOrigin, origins),
  );
}
