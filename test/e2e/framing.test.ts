// Clickjacking: a page of another origin frames the sandbox UI (and an admin answer) in real Chromium.
// Nothing of the sandbox loads in the frames (no UI, no admin call made from them), while a page of the
// framing origin itself loads in a third frame: the harness does see a frame that loads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUi, skipReason, type UiSession } from './helpers/ui';
import { serveDir, type StaticServer } from './helpers/static-server';
import { tempDir } from '../helpers/sandbox';

const skip = skipReason();

describe.skipIf(skip)('framing by another origin', () => {
  let s: UiSession;
  let attacker: StaticServer;
  let cleanup: () => void;

  beforeAll(async () => {
    s = await openUi();
    const dir = tempDir('framing-');
    cleanup = dir.cleanup;
    const ui = s.sandbox.url;
    attacker = await serveDir(dir.dir, (pathname) => {
      if (pathname === '/own') return '<!doctype html><p id="own">a page of this origin</p>';
      if (pathname !== '/') return null;
      return `<!doctype html><script>window.loaded = 0;</script>
        <iframe id="ui" src="${ui}/" onload="window.loaded++"></iframe>
        <iframe id="admin" src="${ui}/_sandbox/health" onload="window.loaded++"></iframe>
        <iframe id="own" src="/own" onload="window.loaded++"></iframe>`;
    });
  });
  afterAll(async () => {
    // the browser first: it holds keep-alive connections to the framing server
    await s?.close();
    await attacker?.close();
    cleanup?.();
  });

  it('shows nothing of the UI or the admin API inside another origin’s frames', async () => {
    const calls: string[] = [];
    s.page.on('request', (r) => {
      // the frames' own document requests are sent (and their answers refused); a UI that loaded
      // would then call the admin API itself
      if (r.url().startsWith(`${s.sandbox.url}/_sandbox/`) && !r.isNavigationRequest())
        calls.push(r.url());
    });
    const answers = new Map<string, Record<string, string>>();
    s.page.on('response', (r) => answers.set(r.url(), r.headers()));
    await s.page.goto(`${attacker.url}/`);
    await s.page.waitForFunction(() => (globalThis as unknown as { loaded: number }).loaded === 3);

    const byId = async (id: string) => (await s.page.$(`#${id}`))!.contentFrame();
    const own = await byId('own');
    expect(await own!.locator('#own').textContent()).toBe('a page of this origin');
    for (const id of ['ui', 'admin']) {
      const f = await byId(id);
      // a refused frame holds Chromium's error page, not the sandbox's document
      expect(f?.url(), id).not.toContain(s.sandbox.url);
      expect(await f!.locator('[data-testid]').count(), id).toBe(0);
    }
    expect(calls).toEqual([]);
    expect(answers.get(`${s.sandbox.url}/`)?.['content-security-policy']).toContain(
      "frame-ancestors 'none'",
    );
    expect(answers.get(`${s.sandbox.url}/_sandbox/health`)?.['x-frame-options']).toBe('DENY');
  });
});
