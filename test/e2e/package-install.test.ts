// The install path users take: `npm pack` of this repository, the tarball installed into an empty project
// (the Playwright example, copied out), and everything run from there: npx, the ready line, the API from a
// plain script, the types under `module: nodenext`, and the example's Playwright suite in Chromium.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnProcess } from '../api/cli-process';
import { tempDir } from '../helpers/sandbox';
import { CHROMIUM, skipReason } from './helpers/ui';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = path.join(ROOT, 'examples/playwright-storefront');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};
const run = promisify(execFile);

// npm's own variables from an outer `npm test` (npm_config_*, npm_package_*) must not steer the inner
// installs, nor SEARCH_SANDBOX_* from the developer's shell what is tested
const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(npm_|SEARCH_SANDBOX_)/i.test(k)),
);

const tmp = tempDir('search-sandbox-pack-');
const project = path.join(tmp.dir, 'project');
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };

function sh(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return run(command, args, {
    cwd: project,
    env: { ...ENV, ...env },
    maxBuffer: 32 * 1024 * 1024,
    timeout: 300_000,
  });
}

function duBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += duBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

beforeAll(async () => {
  for (const built of [
    'out/main/api.js',
    'out/types/main/api/index.d.ts',
    'out/renderer/index.html',
  ])
    if (!existsSync(path.join(ROOT, built)))
      throw new Error(`${built} is missing: run "npm run build" (npm test does) before this test`);
  // --ignore-scripts: `npm test` has just built out/; a second build here would rewrite out/ under
  // the other test files running beside this one. `prepack` builds the same way for `npm pack`.
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp.dir],
    { cwd: ROOT, env: ENV, maxBuffer: 16 * 1024 * 1024 },
  );
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  cpSync(EXAMPLE, project, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|test-results)$/.test(src),
  });
  // from the registry (cache first): the example's own devDependencies, and typescript for the types check
  await sh('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--save-dev',
    path.join(tmp.dir, packed.filename),
    'typescript@5.9.3',
  ]);
  const installed = duBytes(path.join(project, 'node_modules/search-sandbox'));
  console.log(
    `search-sandbox ${version}: tarball ${packed.size} bytes, unpacked ${packed.unpackedSize} bytes, installed package ${installed} bytes`,
  );
}, 600_000);

afterAll(() => tmp.cleanup());

describe('the packed package, installed into an empty project', () => {
  it('installs without a build step: the installed package.json has no prepare or install script', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(project, 'node_modules/search-sandbox/package.json'), 'utf8'),
    ) as { scripts?: Record<string, string> };
    for (const hook of ['prepare', 'preinstall', 'install', 'postinstall'])
      expect(manifest.scripts?.[hook], hook).toBeUndefined();
  });

  it('ships the built sandbox, UI, types and demo fixtures; no sources, tests or screenshots', () => {
    const files = packed.files.map((f) => f.path);
    for (const needed of [
      'bin/search-sandbox.js',
      'out/main/cli.js',
      'out/main/api.js',
      'out/main/playwright.js',
      'out/renderer/index.html',
      'out/types/main/api/index.d.ts',
      'out/types/main/api/playwright.d.ts',
      'out/types/shared/timeline.d.ts',
      'fixtures/demo.config.json',
      'fixtures/feeds/cart-products.csv',
      'README.md',
    ])
      expect(files).toContain(needed);
    const unwanted = files.filter((f) =>
      /^(src|test|scripts|examples|docs\/screenshots|out\/preload)\/|^out\/main\/index\.js$|\.map$/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it('installs runtime dependencies only: no Electron, React, Vite or build tools', () => {
    const modules = readdirSync(path.join(project, 'node_modules'));
    for (const dev of ['electron', 'react', 'react-dom', 'vite', 'electron-vite', 'vitest', 'tsx'])
      expect(modules).not.toContain(dev);
    expect(modules).toEqual(expect.arrayContaining(['express', 'lowdb', 'ajv']));
  });

  it('answers --version and --help through npx', async () => {
    expect((await sh('npx', ['search-sandbox', '--version'])).stdout.trim()).toBe(version);
    const help = (await sh('npx', ['search-sandbox', '--help'])).stdout;
    expect(help).toMatch(/search-sandbox \[serve\] \[--port N\]/);
    expect(help).toMatch(/search-sandbox check FILE\.\.\./);
  });

  it('serves the demo fixtures from the project folder: the ready line, with or without "serve"', async () => {
    const bin = path.join(project, 'node_modules/.bin/search-sandbox');
    for (const args of [
      ['serve', '--port', '0', '--ephemeral'],
      ['--port=0', '--ephemeral'],
    ]) {
      const proc = spawnProcess(bin, args, project);
      try {
        const url = await proc.ready;
        expect(proc.stdout()).toBe(`search-sandbox listening on ${url}\n`);
        const health = (await (await fetch(`${url}/_sandbox/health`)).json()) as {
          version: string;
          configSource: string;
        };
        expect(health).toMatchObject({ version, configSource: 'demo fixtures' });
        expect((await fetch(`${url}/`)).headers.get('content-type')).toMatch(/text\/html/);
      } finally {
        await proc.kill();
      }
    }
  });

  it('runs startSandbox, expectClean, connectSandbox and check from a plain Node project', async () => {
    writeFileSync(
      path.join(project, 'api-check.mjs'),
      `import { startSandbox, connectSandbox } from 'search-sandbox';
const sandbox = await startSandbox();
const remote = connectSandbox(sandbox.url);
const context = { timestamp: new Date().toISOString(), pageUrl: 'https://shop.example/search?q=jacket',
  userId: 'u1', sessionId: 's1', pageLoadId: 'p1', initiator: 'api-check' };
const post = (event, data, pageLoadId = 'p1') => fetch(sandbox.url + '/beacon/v2/demo42/search/' + event,
  { method: 'POST', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ context: { ...context, pageLoadId }, data }) });
await post('render', { responseId: 'r1' });
await remote.waitForEvents({ event: 'render' });
const clean = await sandbox.expectClean({ siteId: 'demo42' });
await post('impression', { responseId: 'r2', results: [{ type: 'product', uid: '7', parentId: '7' }], banners: [] }, 'p2');
const failure = await remote.expectClean({ siteId: 'demo42' }).catch((err) => err.message);
await fetch(sandbox.url + '/beacon/v2/demo42/order/transaction', { method: 'POST',
  headers: { 'content-type': 'text/plain' },
  body: JSON.stringify({ context: { ...context, pageLoadId: 'p3' },
    data: { orderId: '', transactionTotal: 7, total: 7, results: [{ uid: '7', parentId: '7', qty: 1, price: 7 }] } }) });
const orders = await remote.orders({ siteId: 'demo42' });
const visits = await sandbox.visits({ sessionId: 's1' });
const orderFailure = await remote.expectClean({ pageLoadId: 'p3' }).catch((err) => err.message);
const rules = await remote.rules();
const { writeFile } = await import('node:fs/promises');
await writeFile('beacons.json', await (await fetch(sandbox.url + '/_sandbox/export')).text());
await sandbox.close();
console.log(JSON.stringify({ clean, failure, orders, visits, orderFailure, rules }));
`,
    );
    const { stdout } = await sh('node', ['api-check.mjs']);
    const result = JSON.parse(stdout) as {
      clean: { pages: number };
      failure: string;
      orders: Array<{
        orderId: string;
        lines: Array<{ credit: unknown; noCreditReason?: string }>;
      }>;
      visits: Array<{ pages: Array<{ kind: string }> }>;
      orderFailure: string;
      rules: Array<{ id: string; defaultSeverity: string; fix: string; appliesTo: string[] }>;
    };
    expect(result.clean.pages).toBe(1);
    // the rules as the sandbox declares them, through the installed package
    expect(result.rules.find((r) => r.id === 'order-id-missing')).toMatchObject({
      defaultSeverity: 'error',
      appliesTo: ['order'],
    });
    expect(result.rules.every((r) => r.fix.length > 0)).toBe(true);
    // the whole visit through the installed package: the order, its uncredited line and its finding
    expect(result.orders).toHaveLength(1);
    expect(result.orders[0]!.lines[0]!.credit).toBeNull();
    expect(result.orders[0]!.lines[0]!.noCreditReason).toMatch(/no clickthrough or addtocart/);
    expect(result.visits[0]!.pages.map((p) => p.kind)).toEqual(['search', 'search', 'order']);
    expect(result.orderFailure).toMatch(/\n {2}error order-id-missing: /);
    expect(result.failure).toMatch(
      /^expectClean failed \(siteId=demo42, failOn=error\): 1 finding on 1 of 2 pages\n/,
    );
    expect(result.failure).toMatch(
      /\n {2}pageLoadId p2 · site demo42 · session s1 · verdict fail\n/,
    );
    expect(result.failure).toMatch(/\n {2}error missing-render: .*"r2"/);
    // the CI recipe: the export, checked offline by the installed CLI (exit 1: a failing page)
    const check = await sh('npx', ['search-sandbox', 'check', 'beacons.json']).then(
      (ok) => ({ code: 0, stdout: ok.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    expect(check.code, check.stdout).toBe(1);
    expect(check.stdout).toMatch(/missing-render/);
    // CommonJS projects (Node >= 20.19 loads ES modules with require)
    const cjs = await sh('node', [
      '-e',
      "console.log(Object.keys(require('search-sandbox')).sort().join(' '))",
    ]);
    expect(cjs.stdout.trim()).toBe('SandboxApiError SandboxClient connectSandbox startSandbox');
  });

  it('gives TypeScript types that resolve under module nodenext', async () => {
    writeFileSync(
      path.join(project, 'types-check.mts'),
      `import { startSandbox, connectSandbox, type PageTimelineDto, type OrderDto, type VisitDto, type RuleInfoDto } from 'search-sandbox';
import { test, routeToSandbox } from 'search-sandbox/playwright';
const sandbox = await startSandbox({ port: 0 });
const port: number = sandbox.port;
const pages: PageTimelineDto[] = await sandbox.timelines({ siteId: 'demo42', kind: 'search' });
const ruled: PageTimelineDto[] = await sandbox.timelines({ rule: 'missing-render', event: 'render' });
const declared: RuleInfoDto[] = await sandbox.rules();
const orders: OrderDto[] = await sandbox.orders({ siteId: 'demo42', orderId: 'o-1' });
const visits: VisitDto[] = await sandbox.visits({ userId: 'u1' });
// @ts-expect-error orders are filtered by siteId, sessionId, userId and orderId only
await sandbox.orders({ verdict: 'fail' });
// @ts-expect-error failOn is 'error', 'warning' or 'info' (unused if the types had resolved to any)
await sandbox.expectClean({ failOn: 'warn' });
const junit: string = await sandbox.report('junit', { failOn: 'info', rule: 'missing-render' });
// @ts-expect-error the report's failOn is a severity too
await sandbox.report('junit', { failOn: 'warn' });
await connectSandbox(sandbox.url).waitForEvents({ event: 'render', count: 1, timeout: 100 });
test('routes', async ({ sandbox: perTest, page }) => void (await routeToSandbox(page, perTest)));
console.log(port, pages.length, ruled.length, declared.length, orders.length, visits.length, junit.length);
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['types-check.mts'],
      }),
    );
    const result = await sh('npx', ['tsc', '-p', 'tsconfig.json']).catch(
      (err: { stdout: string }) => ({ stdout: err.stdout }),
    );
    expect(result.stdout).toBe('');
  });

  it.skipIf(skipReason())(
    "runs the example's Playwright suite: the clean journey passes, the planted bug fails with its finding",
    async () => {
      const result = await sh('npx', ['playwright', 'test'], {
        CHROMIUM_PATH: CHROMIUM,
        PLANT_BUG: '1',
        CI: '1',
      }).then(
        (ok) => ({ code: 0, stdout: ok.stdout }),
        (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
      );
      expect(result.code, result.stdout).toBe(1);
      // two workers, two sandboxes: the clean journey's expectClean over all of demo42 passes while the
      // other worker's page fails, so neither saw the other's events
      expect(result.stdout).toMatch(/Running 2 tests using 2 workers/);
      expect(result.stdout).toMatch(/✓ .*search\.spec\.js.*a search page tracks cleanly/);
      expect(result.stdout).toMatch(/✘ .*planted-bug\.spec\.js.*a search page with a planted bug/);
      expect(result.stdout).toMatch(
        /Error: expectClean failed \(siteId=demo42, failOn=warning\): 1 finding on 1 of 1 page/,
      );
      expect(result.stdout).toMatch(
        /error missing-render: .* but this page sent no search\/render/,
      );
      expect(result.stdout).toMatch(/1 failed[^]*1 passed/);
      // the failed test keeps the sandbox's timelines report as an attachment
      const attached = /(test-results\/\S*search-sandbox-report\S*\.html)/.exec(result.stdout);
      expect(attached, result.stdout).not.toBeNull();
      expect(readFileSync(path.join(project, attached![1]!), 'utf8')).toMatch(/missing-render/);
    },
    300_000,
  );
});
