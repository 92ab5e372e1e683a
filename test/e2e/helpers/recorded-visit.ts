// A visit of a storefront page recorded by Chromium as a HAR (playwright-core's recordHar): a sandbox, the
// storefront's server on 127.0.0.1, the page opened at `pathAndQuery` and its `run()` awaited, the HAR
// written when the browser context closes. What `check` and `diff` of a recorded HAR are tested on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Sandbox } from '../../../src/main/sandbox';
import { startSandbox, tempDir } from '../../helpers/sandbox';
import { fileBrowser } from './ui';

export interface RecordedVisit {
  sandbox: Sandbox;
  harFile: string;
  /** the browser, the storefront, the sandbox and the HAR's folder */
  close(): Promise<void>;
}

export async function recordVisit(
  storefront: (sandboxUrl: string) => http.Server,
  pathAndQuery: string,
  content?: 'attach' | 'embed' | 'omit',
): Promise<RecordedVisit> {
  const sandbox = await startSandbox();
  const store = storefront(sandbox.url);
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const b = await fileBrowser();
  const dir = tempDir();
  const harFile = path.join(dir.dir, 'visit.har');
  const close = async () => {
    await b.close();
    await new Promise((resolve) => store.close(resolve));
    await sandbox.close();
    dir.cleanup();
  };
  try {
    const context = await b.browser.newContext({
      recordHar: { path: harFile, ...(content && { content }) },
    });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(store.address() as AddressInfo).port}${pathAndQuery}`);
    await page.evaluate('window.run()');
    await context.close(); // writes the HAR
  } catch (err) {
    await close();
    throw err;
  }
  return { sandbox, harFile, close };
}
