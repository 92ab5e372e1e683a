// The user's own @playwright/test, which `search-sandbox/playwright` extends: an optional peer dependency
// (only that entry point needs it), so a project without it is told what to install, where a static import
// failed with Node's bare "Cannot find package".

type Runner = typeof import('@playwright/test');

/** @playwright/test, or an Error that names it and how to install it when the project has none. */
export async function importRunner(
  load: () => Promise<Runner> = () => import('@playwright/test'),
): Promise<Runner> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      "search-sandbox/playwright needs Playwright's test runner, which this project does not have: install it beside search-sandbox (npm i -D @playwright/test), or use startSandbox from 'search-sandbox' with another runner",
      { cause: err },
    );
  }
}
