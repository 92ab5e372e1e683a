// search-sandbox/playwright in a project without @playwright/test (an optional peer dependency): its
// import says what to install, not Node's bare "Cannot find package"; any other failure is left as it is.
import { expect, it } from 'vitest';
import { importRunner } from '../../src/main/api/playwright-runner';

const failing = (code: string) => () =>
  Promise.reject(Object.assign(new Error(`Cannot find package '@playwright/test'`), { code }));

it('names the missing test runner and how to install it', async () => {
  for (const code of ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])
    await expect(importRunner(failing(code))).rejects.toThrow(
      "search-sandbox/playwright needs Playwright's test runner, which this project does not have: install it beside search-sandbox (npm i -D @playwright/test), or use startSandbox from 'search-sandbox' with another runner",
    );
  await expect(importRunner(failing('ERR_SOMETHING_ELSE'))).rejects.toThrow(
    "Cannot find package '@playwright/test'",
  );
  expect(typeof (await importRunner()).test.extend).toBe('function');
});
