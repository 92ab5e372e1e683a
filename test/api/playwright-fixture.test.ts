// The Playwright fixture's options (`search-sandbox/playwright`, the built bundle) in a real Playwright run:
// a sandboxReset that is no reset scope is refused in the option's words before any sandbox starts, and
// the fixture's sandbox works with a valid one. No browser: the tests use only the `sandbox` fixture.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURE = path.join(ROOT, 'out/main/playwright.js');
const project = tempDir('search-sandbox-fixture-');
afterAll(() => project.cleanup());

function spec(file: string, use: string, body: string): void {
  writeFileSync(
    path.join(project.dir, file),
    `import { test } from ${JSON.stringify(FIXTURE)};
test.use(${use});
test(${JSON.stringify(file)}, async ({ sandbox }) => {
  ${body}
});
`,
  );
}

async function playwright(): Promise<{ code: number; out: string }> {
  writeFileSync(
    path.join(project.dir, 'pw.config.mjs'),
    `export default { testDir: '.', testMatch: /\\.spec\\.mjs$/, workers: 1, reporter: 'list', outputDir: './results' };\n`,
  );
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const run = promisify(execFile)(process.execPath, [cli, 'test', '--config', 'pw.config.mjs'], {
    cwd: project.dir,
    env: { ...process.env, CI: '1', FORCE_COLOR: '0' },
  });
  return run.then(
    (ok) => ({ code: 0, out: ok.stdout }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      out: err.stdout + err.stderr,
    }),
  );
}

it('refuses a sandboxReset that is no reset scope, naming the option, before the worker starts a sandbox; a valid one resets', async () => {
  // a port no sandbox can start on: its error would show if the sandbox were started first
  spec(
    'bad-reset.spec.mjs',
    "{ sandboxReset: 'everything', sandboxOptions: { port: -1 } }",
    'throw new Error("the test ran");',
  );
  spec(
    'events-reset.spec.mjs',
    "{ sandboxReset: 'events' }",
    `const res = await fetch(sandbox.url + '/_sandbox/health');
  if (res.status !== 200) throw new Error('no sandbox');`,
  );
  const { code, out } = await playwright();
  expect(code, out).toBe(1);
  expect(out).toContain(
    `sandboxReset: "everything" is not one of 'events', 'all': what is reset before each test; e.g. test.use({ sandboxReset: 'events' })`,
  );
  expect(out).not.toMatch(/answered 400|body field|_sandbox\/reset|the test ran|startSandbox/);
  expect(out).toMatch(/1 failed[^]*1 passed/);
}, 120_000);
