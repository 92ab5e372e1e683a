// The window's security policy, driven through a fake Electron: web preferences, CSP, navigation,
// window.open, webviews and permissions.
import { describe, expect, it } from 'vitest';
import {
  AppOrigins,
  contentSecurityPolicy,
  decideNavigation,
  guardSession,
  guardWebContents,
  secureWebPreferences,
} from '../../src/main/desktop/window-security';
import { FakeSession, FakeShell, FakeWebContents, preventable } from './desktop-fake-electron';

const SANDBOX = 'http://127.0.0.1:4545';
const origins = new AppOrigins([SANDBOX]);

function directive(csp: string, name: string): string[] {
  const found = csp
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found ? found.slice(1) : [];
}

describe('secure web preferences', () => {
  it('isolates the page from Node and keeps the renderer sandboxed', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
  });
});

describe('content security policy', () => {
  it('allows only the app origin in production: no inline or remote scripts, no plugins, no framing', () => {
    const csp = contentSecurityPolicy();
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(directive(csp, 'connect-src')).toEqual(["'self'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(csp, 'base-uri')).toEqual(["'none'"]);
  });

  it('lets the vite dev server (scripts, HMR socket) in, in dev only', () => {
    const csp = contentSecurityPolicy('http://localhost:5173');
    expect(directive(csp, 'script-src')).toEqual([
      "'self'",
      "'unsafe-inline'",
      'http://localhost:5173',
    ]);
    expect(directive(csp, 'connect-src')).toEqual([
      "'self'",
      'http://localhost:5173',
      'ws://localhost:5173',
    ]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
  });
});

describe('navigation policy', () => {
  it('keeps the sandbox origin in the window, sends web links to the browser, blocks the rest', () => {
    expect(decideNavigation(`${SANDBOX}/#/timelines`, origins)).toBe('stay');
    expect(decideNavigation('http://127.0.0.1:4546/', origins)).toBe('open-externally');
    expect(decideNavigation('https://docs.example.com/beacon', origins)).toBe('open-externally');
    expect(decideNavigation('mailto:qa@example.com', origins)).toBe('open-externally');
    expect(decideNavigation('file:///etc/passwd', origins)).toBe('block');
    expect(decideNavigation('javascript:alert(1)', origins)).toBe('block');
    expect(decideNavigation('not a url', origins)).toBe('block');
  });

  it('stops navigation away from the sandbox and opens web links in the system browser', () => {
    const contents = new FakeWebContents();
    const shell = new FakeShell();
    guardWebContents(contents, origins, shell);

    expect(contents.navigate(`${SANDBOX}/#/feeds`)).toBe(false);
    expect(contents.navigate('https://example.com/help')).toBe(true);
    expect(contents.navigate('file:///home/user/.ssh/id_rsa')).toBe(true);
    expect(contents.navigate('https://evil.example/', 'will-redirect')).toBe(true);
    expect(shell.external).toEqual(['https://example.com/help', 'https://evil.example/']);
  });

  it('denies every window.open; web URLs open in the system browser instead', () => {
    const contents = new FakeWebContents();
    const shell = new FakeShell();
    guardWebContents(contents, origins, shell);

    expect(contents.windowOpen('https://example.com/')).toEqual({ action: 'deny' });
    expect(contents.windowOpen(`${SANDBOX}/_sandbox/report?format=html`)).toEqual({
      action: 'deny',
    });
    expect(contents.windowOpen('file:///tmp/x.html')).toEqual({ action: 'deny' });
    expect(contents.windowOpen('javascript:void(0)')).toEqual({ action: 'deny' });
    expect(shell.external).toEqual([
      'https://example.com/',
      `${SANDBOX}/_sandbox/report?format=html`,
    ]);
  });

  it('refuses to attach webviews', () => {
    const contents = new FakeWebContents();
    guardWebContents(contents, origins, new FakeShell());
    const event = preventable();
    contents.emit('will-attach-webview', event);
    expect(event.prevented).toBe(true);
  });
});

describe('session policy', () => {
  it('puts the CSP on the app origin responses, replacing any sent by the server', () => {
    const session = new FakeSession();
    guardSession(session, origins, "default-src 'self'");
    const headers = session.headersFor(`${SANDBOX}/`, {
      'content-security-policy': ['default-src *'],
      'x-frame-options': ['SAMEORIGIN'],
      'Content-Type': ['text/html'],
    });
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ["default-src 'self'"],
      'X-Frame-Options': ['DENY'],
    });
  });

  it('leaves responses of other origins alone', () => {
    const session = new FakeSession();
    guardSession(session, origins, "default-src 'self'");
    expect(
      session.headersFor('https://example.com/', { 'Content-Type': ['text/html'] }),
    ).toBeUndefined();
  });

  it('denies permission requests: camera, notifications, geolocation, clipboard reads', () => {
    const session = new FakeSession();
    guardSession(session, origins, "default-src 'self'");
    for (const permission of [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'unknown',
    ]) {
      expect(session.request(permission, `${SANDBOX}/`), permission).toBe(false);
      expect(session.checkHandler!(null, permission, SANDBOX), permission).toBe(false);
    }
  });

  it('lets only the sandbox UI write to the clipboard (its "copy as curl" buttons)', () => {
    const session = new FakeSession();
    guardSession(session, origins, "default-src 'self'");
    expect(session.request('clipboard-sanitized-write', `${SANDBOX}/#/events`)).toBe(true);
    expect(session.request('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(session.checkHandler!(null, 'clipboard-sanitized-write', 'https://example.com')).toBe(
      false,
    );
  });
});
