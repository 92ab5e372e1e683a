// The install path users take: `npm pack` of this repository, the tarball installed into an empty project
// (the Playwright example, copied out), and everything run from there: npx, the ready line, the API from a
// plain script, the types under `module: nodenext`, and the example's Playwright suite in Chromium.
import { execFile, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnProcess } from '../api/cli-process';
import { tempDir } from '../helpers/sandbox';
import { CHROMIUM_LAUNCH, skipReason } from './helpers/ui';
import { journey, run as journeyRun } from '../helpers/journey';

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
  // from the registry (cache first): the example's own devDependencies (the types check runs this
  // repository's TypeScript: what it reads is the project's node_modules, wherever tsc itself lives)
  await sh('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--save-dev',
    path.join(tmp.dir, packed.filename),
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

  it('ships the built sandbox, UI, types, fixtures and what the docs show; no sources or tests', () => {
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
    const unwanted = files.filter(
      (f) =>
        /^(src|test|scripts|out\/preload)\/|\.map$|node_modules\//.test(f) ||
        // the desktop app's entry and its manifest (Electron's, not the package's)
        /^out\/main\/(index\.js|package\.json)$/.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  it('installs runtime dependencies only: no Electron, React, Vite or build tools', () => {
    const modules = readdirSync(path.join(project, 'node_modules'));
    for (const dev of ['electron', 'react', 'react-dom', 'vite', 'electron-vite', 'vitest', 'tsx'])
      expect(modules).not.toContain(dev);
    expect(modules).toEqual(expect.arrayContaining(['express', 'lowdb', 'ajv']));
  });

  it('has a main that resolves to the API, as exports does, for tools that read main (old resolvers, bundlers, linters)', async () => {
    // a folder required by its path is resolved by its package.json main, exports aside
    const { stdout } = await sh('node', [
      '-e',
      `const path = require('node:path');
const dir = path.dirname(require.resolve('search-sandbox/package.json'));
const viaMain = require.resolve(dir);
console.log(JSON.stringify({ viaMain: path.relative(dir, viaMain),
  viaExports: path.relative(dir, require.resolve('search-sandbox')),
  names: Object.keys(require(viaMain)).sort().join(' ') }));`,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      viaMain: path.normalize('out/main/api.js'),
      viaExports: path.normalize('out/main/api.js'),
      names: 'SandboxApiError SandboxClient connectSandbox startSandbox',
    });
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
const order = await sandbox.order(orders[0].eventId);
const summary = await remote.ordersSummary({ siteId: 'demo42' });
const unknownOrder = await remote.order('ev_999999999').catch((err) => err.message);
const rules = await remote.rules();
const explained = await remote.rule('order-id-missing');
const unknownRule = await remote.rule('order-id-mising').catch((err) => err.message);
const asked = await remote.searchResponses({ siteId: 'demo42', pageLoadId: 'p1' });
const held = await startSandbox({ dataDir: 'api-data' });
const refused = [];
for (const options of [{ port: sandbox.port }, { port: -1 }, { dataDir: 'api-data' }])
  refused.push(await startSandbox(options).then((s) => s.close().then(() => 'started'), (err) => err.message));
await held.close();
const { writeFile } = await import('node:fs/promises');
await writeFile('beacons.json', await (await fetch(sandbox.url + '/_sandbox/export')).text());
await sandbox.close();
console.log(JSON.stringify({ clean, failure, orders, visits, orderFailure, order, summary, unknownOrder, rules, explained, unknownRule, asked, refused }));
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
      order: { findings: Array<{ rule: string; fix: string }> };
      summary: unknown;
      unknownOrder: string;
      rules: Array<{ id: string; defaultSeverity: string; fix: string; appliesTo: string[] }>;
      explained: {
        id: string;
        messages: Array<{ id: string; fix: string }>;
        behaviours: Array<{ id: string }>;
      };
      unknownRule: string;
      asked: unknown[];
      refused: string[];
    };
    expect(result.clean.pages).toBe(1);
    // start-up errors name the option a package user wrote, not the CLI flag that sets the same
    expect(result.refused[0]).toMatch(
      /^port \d+ on 127\.0\.0\.1 is already in use: stop the other process or pass port: 0 to startSandbox for a free port$/,
    );
    expect(result.refused[1]).toBe(
      'startSandbox({ port }): -1 is not a port: use a whole number from 0 to 65535 (0 picks a free port)',
    );
    expect(result.refused[2]).toMatch(
      /api-data is in use by another sandbox \(pid \d+, still running\): stop that one, or pass startSandbox another dataDir, or leave dataDir out to keep everything in memory$/,
    );
    expect(result.refused.join('\n')).not.toMatch(/--(port|data|ephemeral)\b/);
    // the rules as the sandbox declares them, through the installed package
    expect(result.rules.find((r) => r.id === 'order-id-missing')).toMatchObject({
      defaultSeverity: 'error',
      appliesTo: ['order'],
    });
    expect(result.rules.every((r) => r.fix.length > 0)).toBe(true);
    // one rule explained: its messages with their fixes and the client behaviour it checks; a typo is named
    expect(result.explained.id).toBe('order-id-missing');
    expect(result.explained.messages.every((m) => m.fix.length > 0)).toBe(true);
    expect(result.explained.behaviours.length).toBeGreaterThan(0);
    expect(result.unknownRule).toMatch(/no rule "order-id-mising": did you mean order-id-missing/);
    // no catalog is indexed, so the page load asked the companion for nothing
    expect(result.asked).toEqual([]);
    // the whole visit through the installed package: the order, its uncredited line and its finding
    expect(result.orders).toHaveLength(1);
    expect(result.orders[0]!.lines[0]!.credit).toBeNull();
    expect(result.orders[0]!.lines[0]!.noCreditReason).toMatch(/no clickthrough or addtocart/);
    expect(result.visits[0]!.pages.map((p) => p.kind)).toEqual(['search', 'search', 'order']);
    expect(result.orderFailure).toMatch(/\n {2}error order-id-missing: /);
    // the order by its eventId carries its finding and fix; the summary says what no interaction earned
    expect(result.order).toEqual(result.orders[0]);
    // errors first; its page sent no context.dev, so the production-mode note concerns it too
    expect(result.order.findings.map((f) => f.rule)).toEqual(['order-id-missing', 'dev-flag']);
    expect(result.order.findings[0]!.fix).toMatch(/^set order\.id/);
    expect(result.summary).toEqual({
      orders: 1,
      lines: 1,
      revenue: 7,
      bySource: {},
      uncredited: { lines: 1, revenue: 7 },
      duplicates: { orders: 0, revenue: 0 },
      // the order has no orderId: an error (order-id-missing), so its revenue sits on an order with errors
      withErrors: { orders: 1, revenue: 7 },
      pricesInDoubt: { orders: 0, revenue: 0 },
    });
    expect(result.unknownOrder).toMatch(/no order\/transaction with eventId "ev_999999999"/);
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

  it('expectMatchesBaseline: writes a missing baseline and rejects, matches a new run, rejects a change with the diff, updates', async () => {
    // three runs of one journey (new ids, host, timestamps each time); the third sends another order total
    const changed = journey();
    (changed[0]![2]!.events[0]!.data as { total: number }).total = 90;
    writeFileSync(path.join(project, 'run1.ndjson'), journeyRun(journey()));
    writeFileSync(
      path.join(project, 'run2.ndjson'),
      journeyRun(journey(), { origin: 'http://127.0.0.1:5173', order: [1, 0] }),
    );
    writeFileSync(path.join(project, 'run3.ndjson'), journeyRun(changed));
    writeFileSync(
      path.join(project, 'baseline-check.mjs'),
      `import { startSandbox } from 'search-sandbox';
import { readFileSync, writeFileSync } from 'node:fs';
const sandbox = await startSandbox();
const play = async (file) => {
  await sandbox.reset();
  const lines = readFileSync(file, 'utf8').trim().split('\\n').map((l) => JSON.parse(l));
  for (const { siteId, category, event, body } of lines)
    await fetch(sandbox.url + '/beacon/v2/' + siteId + '/' + category + '/' + event,
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
};
const out = {};
const settle = (p) => p.then((r) => r, (e) => ({ rejected: e.message, name: e.name, pages: e.comparison?.pages.filter((p) => p.status !== 'same') }));
await play('run1.ndjson');
out.written = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42' }));
await play('run2.ndjson');
out.same = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42' }));
writeFileSync('run2-export.json', await (await fetch(sandbox.url + '/_sandbox/export')).text());
await play('run3.ndjson');
out.differs = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42' }));
out.otherSite = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'abc123' }));
out.badName = await settle(sandbox.expectMatchesBaseline('../journey'));
out.updated = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', update: true }));
out.afterUpdate = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42' }));
process.env.SEARCH_SANDBOX_UPDATE_BASELINES = '1';
await play('run2.ndjson');
out.envUpdated = await settle(sandbox.expectMatchesBaseline('journey', { siteId: 'demo42', dir: 'elsewhere' }));
await sandbox.close();
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await sh('node', ['baseline-check.mjs']);
    const out = JSON.parse(stdout) as Record<
      string,
      {
        status?: string;
        file?: string;
        note?: string;
        pages?: unknown;
        rejected?: string;
        name?: string;
      }
    >;
    const file = path.join(project, 'beacon-baselines', 'journey.json');
    // written, and rejected: a CI run whose baseline was never committed does not pass
    expect(out.written).toMatchObject({
      rejected: `expectMatchesBaseline("journey"): no baseline ${file}: wrote this run's traffic to it (4 pages); review it and commit it, and the next run compares with it. To write a missing baseline and pass: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
    });
    expect(out.same).toEqual({ status: 'same', file, pages: 4 });
    expect(out.differs!.name).toBe('BaselineMismatchError');
    expect(out.differs!.rejected).toContain(
      'expectMatchesBaseline("journey"): the tracking differs from the baseline\n',
    );
    expect(out.differs!.rejected).toContain(
      '\nchanged  order /checkout/thanks\n  field    order/transaction (event 1) data.total: 100 → 90\n',
    );
    expect(out.differs!.rejected).toMatch(
      /1 page differs .*\nTo accept this run as the new baseline: update: true/,
    );
    expect(out.otherSite!.rejected).toMatch(
      /^expectMatchesBaseline\("journey"\): the tracking differs[^]*removed {2}search/,
    );
    expect(out.badName!.rejected).toMatch(
      /^expectMatchesBaseline: name "..\/journey" must be a file name/,
    );
    expect(out.updated).toMatchObject({ status: 'updated', pages: 4 });
    expect(out.afterUpdate).toMatchObject({ status: 'same' });
    expect(out.envUpdated).toMatchObject({
      status: 'written',
      file: path.join(project, 'elsewhere', 'journey.json'),
    });
    // the file: sorted keys, volatile values left out, one event a line
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    expect(lines.filter((l) => l.trim().startsWith('{"context"'))).toHaveLength(9);
    expect(text).not.toMatch(/sessionId|pageLoadId|userId|timestamp|localhost/);
    // the orderId by its form only (the journey's are UUIDs): a new form is a change, a new value is not
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(text).toContain(
      '{"context":{"initiator":"athos/beaconjs/1.3.0","pageUrl":"/checkout/thanks"},"data":{"orderId":"{key}-{key}-{key}-{key}-{key}","results":',
    );
    // the installed CLI reads the baseline back as a recording
    const diffed = (a: string, b: string) =>
      sh('npx', ['search-sandbox', 'diff', a, b]).then(
        (ok) => ({ code: 0, stdout: ok.stdout }),
        (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
      );
    expect((await diffed('elsewhere/journey.json', 'run2-export.json')).code).toBe(0);
    const diff = await diffed('beacon-baselines/journey.json', 'run2.ndjson');
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('  field    order/transaction (event 1) data.total: 90 → 100\n');
  });

  it('readiness and expectReady: the gate fails for an expected area never sent and passes once it is; check --readiness', async () => {
    writeFileSync(path.join(project, 'ready.ndjson'), journeyRun(journey()));
    writeFileSync(
      path.join(project, 'ready-check.mjs'),
      `import { startSandbox } from 'search-sandbox';
import { readFileSync } from 'node:fs';
const config = { accounts: [{ siteId: 'demo42', secretKey: 'k', readiness: { expect: ['search', 'cart'] } }] };
const sandbox = await startSandbox({ config });
const beacon = (category, event, body) =>
  fetch(sandbox.url + '/beacon/v2/demo42/' + category + '/' + event,
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
for (const line of readFileSync('ready.ndjson', 'utf8').trim().split('\\n')) {
  const { category, event, body } = JSON.parse(line);
  await beacon(category, event, body);
}
const out = {};
const readiness = await sandbox.readiness({ siteId: 'demo42' });
out.expect = readiness.expect;
out.status = Object.fromEntries(readiness.behaviours.filter((b) => !b.tag).map((b) => [b.id, b.status]));
out.unseen = await sandbox.expectReady({ siteId: 'demo42' }).then(() => 'passed', (e) => e.message);
const item = { uid: '102', parentId: '102', sku: 'sku-102', qty: 1, price: 100 };
const context = { timestamp: new Date().toISOString(), pageUrl: 'http://localhost:3000/cart', userId: 'u', sessionId: 's', pageLoadId: 'cart-page', initiator: 'test' };
out.cartAnswer = (await beacon('cart', 'add', { context, data: { results: [item], cart: [item] } })).status;
out.sent = await sandbox.expectReady({ siteId: 'demo42' }).then((r) => r.summary.ok > 0 && 'passed', (e) => e.message);
out.badExpect = await sandbox.expectReady({ siteId: 'demo42', expect: ['carts'] }).then(() => 'passed', (e) => e.message);
await sandbox.close();
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await sh('node', ['ready-check.mjs']);
    const out = JSON.parse(stdout) as {
      expect: string[];
      status: Record<string, string>;
      unseen: string;
      cartAnswer: number;
      sent: string;
      badExpect: string;
    };
    expect(out.expect).toEqual(['search', 'cart']);
    expect(out.status['search.render']).toBe('ok');
    expect(out.status['cart.ledger']).toBe('unseen');
    expect(out.unseen).toMatch(
      /^expectReady: site demo42 is not ready \(1 gap in what it expects\):\n {2}- area cart is unseen: nothing of it was sent \(the page’s cart globals/,
    );
    expect(out.cartAnswer).toBe(200);
    expect(out.sent).toBe('passed');
    expect(out.badExpect).toMatch(
      /^expectReady: expect: "carts" is neither a behaviour id nor an area/,
    );
    // the installed CLI, offline, on the same recording
    const offline = await sh('npx', [
      'search-sandbox',
      'check',
      'ready.ndjson',
      '--readiness',
      '--expect',
      'cart',
    ]).then(
      () => ({ code: 0, stdout: '' }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain('- area cart is unseen');
  });

  it('gives TypeScript types that resolve under module nodenext', async () => {
    writeFileSync(
      path.join(project, 'types-check.mts'),
      `import { startSandbox, connectSandbox, type PageTimelineDto, type OrderDto, type OrdersSummaryDto, type VisitDto, type BaselineResult, type RuleInfoDto, type RuleDetailDto, type ReadinessDto, type ReadinessRowDto } from 'search-sandbox';
import { test, routeToSandbox } from 'search-sandbox/playwright';
const sandbox = await startSandbox({ port: 0 });
const port: number = sandbox.port;
const pages: PageTimelineDto[] = await sandbox.timelines({ siteId: 'demo42', kind: 'search' });
const ruled: PageTimelineDto[] = await sandbox.timelines({ rule: 'missing-render', event: 'render' });
const declared: RuleInfoDto[] = await sandbox.rules();
const why: RuleDetailDto = await sandbox.rule('missing-render');
const read: string | undefined = why.behaviours[0]?.source;
const asked = await sandbox.searchResponses({ siteId: 'demo42', pageLoadId: 'p-1', limit: 5 });
const askedBy: string | undefined = asked[0]?.responseId;
// @ts-expect-error issued responses are filtered by siteId, pageLoadId and limit
await sandbox.searchResponses({ verdict: 'fail' });
const orders: OrderDto[] = await sandbox.orders({ siteId: 'demo42', orderId: 'o-1' });
const visits: VisitDto[] = await sandbox.visits({ userId: 'u1' });
// @ts-expect-error orders are filtered by siteId, sessionId, userId and orderId only
await sandbox.orders({ verdict: 'fail' });
const one: OrderDto = await sandbox.order('ev_000000001').catch(() => orders[0]!);
const rule: string | undefined = one?.findings[0]?.fix;
const summary: OrdersSummaryDto = await sandbox.ordersSummary({ siteId: 'demo42' });
const bySearch: number | undefined = summary.bySource.search?.revenue;
// @ts-expect-error the summary is filtered by siteId, sessionId and userId only
await sandbox.ordersSummary({ orderId: 'o-1' });
// @ts-expect-error failOn is 'error', 'warning' or 'info' (unused if the types had resolved to any)
await sandbox.expectClean({ failOn: 'warn' });
await sandbox.expectClean({ siteId: 'demo42', rule: 'missing-render', event: 'render', ignoreRules: ['no-impression'], allowEmpty: true });
// the filters name their keys: a misspelt one is a type error, not a filter that silently matches everything
// @ts-expect-error siteId, not siteid
await sandbox.events({ siteid: 'demo42' });
// @ts-expect-error count, not cnt
await sandbox.waitForEvents({ event: 'render', cnt: 1, timeout: 100 });
// @ts-expect-error rule, not rul
await sandbox.timelines({ rul: 'missing-render' });
// @ts-expect-error failOn, not failon
await sandbox.expectClean({ failon: 'warning' });
// @ts-expect-error ignoreRules, not ignoreRule
await sandbox.expectClean({ ignoreRule: ['no-impression'] });
// @ts-expect-error the report's filters are the timelines' and failOn
await sandbox.report('junit', { verdicts: 'fail' });
const junit: string = await sandbox.report('junit', { failOn: 'info', rule: 'missing-render' });
// @ts-expect-error the report's failOn is a severity too
await sandbox.report('junit', { failOn: 'warn' });
const baseline: BaselineResult = await sandbox.expectMatchesBaseline('home', { siteId: 'demo42', update: false });
const ready: ReadinessDto = await sandbox.readiness({ siteId: 'demo42' });
const row: ReadinessRowDto | undefined = ready.behaviours.find((b) => b.status === 'unseen');
// the types behind the declarations' own relative imports resolve too (each was any when they had no .js)
// @ts-expect-error a row's area is one of the model's areas
const area: number | undefined = row?.area;
// @ts-expect-error a finding's severity is 'info', 'warning' or 'error'
const severity: number | undefined = pages[0]?.findings[0]?.severity;
await sandbox.expectReady({ siteId: 'demo42', expect: ['cart'], failOn: 'warning' });
// @ts-expect-error expectReady names the site it gates
await sandbox.expectReady({ expect: ['cart'] });
// @ts-expect-error update is true or false
await sandbox.expectMatchesBaseline('home', { update: 'yes' });
await sandbox.expectMatchesBaseline('home', { siteId: 'demo42', ignore: ['query.ts', 'data.results[].price'] });
// @ts-expect-error ignore is a list of paths
await sandbox.expectMatchesBaseline('home', { ignore: 'query.ts' });
await connectSandbox(sandbox.url).waitForEvents({ event: 'render', count: 1, timeout: 100 });
// @ts-expect-error how a baseline reads the traffic is the client's own
sandbox.recorded({});
// @ts-expect-error where a Playwright test keeps its baselines is the fixture's, not a property to set
sandbox.testBaselines = { dir: '.', updateSnapshots: 'all' };
test('routes', async ({ sandbox: perTest, page }) => void (await routeToSandbox(page, perTest)));
console.log(area, severity, baseline.status, read, port, pages.length, ruled.length, declared.length, orders.length, visits.length, junit.length, rule, bySearch, row?.next);
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
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await sh(process.execPath, [tsc, '-p', 'tsconfig.json']).catch(
      (err: { stdout: string }) => ({ stdout: err.stdout }),
    );
    expect(result.stdout).toBe('');
    // every relative import of the installed declarations names its file as node16/nodenext resolve it
    const bare: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.d.ts'))
          for (const m of readFileSync(full, 'utf8').matchAll(
            /(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g,
          ))
            if (!m[1]!.endsWith('.js')) bare.push(`${path.relative(project, full)}: ${m[1]}`);
      }
    };
    walk(path.join(project, 'node_modules/search-sandbox/out/types'));
    expect(bare).toEqual([]);
  });

  // The three tests below mostly wait (two Playwright runs in Chromium, the snippet's 10-second wait for a
  // click that never comes), each in its own folder of the project: they run side by side.
  it.skipIf(skipReason())(
    "runs the example's Playwright suite: the clean journey passes, the planted bug fails with its finding",
    { concurrent: true, timeout: 300_000 },
    async ({ expect }) => {
      const result = await sh('npx', ['playwright', 'test'], {
        CHROMIUM_PATH: CHROMIUM_LAUNCH,
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
  );

  it.skipIf(skipReason())(
    'the Playwright fixture: a baseline beside the test file, a change fails with the diff, --update-snapshots accepts it',
    { concurrent: true, timeout: 300_000 },
    async ({ expect }) => {
      mkdirSync(path.join(project, 'baseline-tests'), { recursive: true });
      // its own output folder: Playwright empties it when a run starts, and the example suite's run
      // beside this one keeps its report attachment in test-results
      writeFileSync(
        path.join(project, 'baseline.config.js'),
        `import config from './playwright.config.js';
export default { ...config, testDir: './baseline-tests', outputDir: './baseline-results', workers: 1 };
`,
      );
      // the page sends an order beacon to the production host, which the fixture routes to the sandbox; its
      // thank-you URL carries the order's key, new on every run and ignored by the comparison. The spec
      // for a missing baseline sends it from Node instead: no page, so Playwright starts no browser for it
      const spec = (name: string, viaPage: boolean) =>
        `import { test } from 'search-sandbox/playwright';
test('the order tracks as its baseline', async ({ ${viaPage ? 'page, ' : ''}sandbox }) => {
  const body = { context: { timestamp: new Date().toISOString(), pageUrl: 'https://shop.example/thanks?key=' + crypto.randomUUID(),
      userId: crypto.randomUUID(), sessionId: crypto.randomUUID(), pageLoadId: crypto.randomUUID(), initiator: 'spec' },
    data: { orderId: crypto.randomUUID(), transactionTotal: 100, total: test.info().repeatEachIndex === Number(process.env.CHANGE_AT ?? -1) ? 90 : Number(process.env.ORDER_TOTAL ?? 100),
      results: [{ uid: '7', parentId: '7', sku: 'S7', qty: 1, price: 100 }] } };
  ${
    viaPage
      ? `await page.goto(sandbox.url + '/_sandbox/health');
  await page.evaluate((text) => fetch('https://analytics.athoscommerce.net/beacon/v2/demo42/order/transaction',
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: text }), JSON.stringify(body));`
      : `await fetch(sandbox.url + '/beacon/v2/demo42/order/transaction',
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });`
  }
  await sandbox.waitForEvents({ siteId: 'demo42', event: 'transaction' });
  const result = await sandbox.expectMatchesBaseline('${name}', { siteId: 'demo42', ignore: ['query.key'] });
  console.log('baseline ' + result.status);
});
`;
      writeFileSync(path.join(project, 'baseline-tests', 'order.spec.js'), spec('order', true));
      writeFileSync(
        path.join(project, 'baseline-tests', 'missing.spec.js'),
        spec('missing', false),
      );
      type Attempt = { status: string; errors: Array<{ message: string }> };
      type Report = {
        suites: Array<{
          specs: Array<{
            tests: Array<{
              annotations: Array<{ type: string; description?: string }>;
              results: Attempt[];
            }>;
          }>;
        }>;
      };
      const report = path.join(project, 'baseline-report.json');
      // as CI runs it (CI=1), with the list reporter a person reads and the JSON one for each attempt
      const play = async (file: string, env: Record<string, string>, ...flags: string[]) => {
        const ran = await sh(
          'npx',
          [
            'playwright',
            'test',
            '--config',
            'baseline.config.js',
            '--reporter=list,json',
            ...flags,
            file,
          ],
          { CHROMIUM_PATH: CHROMIUM_LAUNCH, CI: '1', PLAYWRIGHT_JSON_OUTPUT_FILE: report, ...env },
        ).then(
          (ok) => ({ code: 0, stdout: ok.stdout }),
          (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
        );
        const { suites } = JSON.parse(readFileSync(report, 'utf8')) as Report;
        return { ...ran, tests: suites[0]!.specs.flatMap((spec) => spec.tests) };
      };
      const baselines = path.join(project, 'baseline-tests', 'beacon-baselines');
      const file = path.join(baselines, 'order.json');
      const missingFile = path.join(baselines, 'missing.json');
      const pages = '1 page';
      // without --update-snapshots a missing baseline is written and the test fails, as toMatchSnapshot
      // does; with retries (CI), the retry fails too, so the run does not pass as flaky (a retry finds the
      // file the first attempt wrote; every later one would find the same)
      const missing = await play('missing.spec.js', {}, '--retries', '1');
      expect(missing.code, missing.stdout).toBe(1);
      const attempts = missing.tests[0]!.results;
      expect(attempts.map((r) => r.status)).toEqual(['failed', 'failed']);
      expect(attempts[0]!.errors[0]!.message).toContain(
        `expectMatchesBaseline("missing"): no baseline ${missingFile}: wrote this run's traffic to it (${pages}); review it and commit it, and the next run compares with it. To write a missing baseline and pass: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
      );
      expect(attempts[1]!.errors[0]!.message).toContain(
        `no baseline ${missingFile}: an earlier attempt of this test wrote this run's traffic to it (${pages}); review it and commit it`,
      );
      expect(missing.stdout).toContain(
        `no baseline ${missingFile}: wrote this run's traffic to it`,
      );
      expect(missing.stdout).not.toMatch(/flaky/);
      expect(existsSync(missingFile)).toBe(true);
      rmSync(missingFile);
      // --update-snapshots=none: nothing is written, and the missing baseline fails
      const none = await play('missing.spec.js', {}, '--update-snapshots=none');
      expect(none.code, none.stdout).toBe(1);
      expect(none.tests[0]!.results[0]!.errors[0]!.message).toMatch(
        /no baseline .*missing\.json, and updates are off/,
      );
      expect(existsSync(missingFile)).toBe(false);
      expect(existsSync(file)).toBe(false);
      // the test three times in one run (a Playwright start costs more than the test): the first writes the
      // missing baseline (--update-snapshots=missing) and passes, saying so in its output and annotations;
      // the second, on a sandbox reset for it, with a new order key, reads the file back and matches it; the
      // third sends another total and fails with the diff, leaving the file as it was
      const first = await play(
        'order.spec.js',
        { CHANGE_AT: '2' },
        '--update-snapshots=missing',
        '--repeat-each',
        '3',
      );
      expect(first.code, first.stdout).toBe(1);
      expect(first.stdout).toMatch(/baseline written[^]*baseline same/);
      expect(first.stdout).not.toContain('baseline updated');
      expect(first.stdout).toMatch(/1 failed[^]*2 passed/);
      expect(first.stdout).toContain('field    order/transaction (event 1) data.total: 100 → 90');
      const note = `wrote the missing baseline ${file} (${pages}): review it and commit it`;
      expect(first.stdout).toContain(note);
      expect(first.tests.map((t) => [t.results[0]!.status, t.annotations])).toEqual([
        ['passed', [{ type: 'search-sandbox baseline', description: note }]],
        ['passed', []],
        ['failed', []],
      ]);
      const written = readFileSync(file, 'utf8');
      expect(written).toContain('"total":100');
      const accepted = await play(
        'order.spec.js',
        { ORDER_TOTAL: '90' },
        '--update-snapshots',
        '--repeat-each',
        '2',
      );
      expect(accepted.code, accepted.stdout).toBe(0);
      expect(accepted.stdout).toMatch(/baseline updated[^]*baseline same/);
      expect(readFileSync(file, 'utf8')).toBe(written.replace('"total":100', '"total":90'));
    },
  );

  it(
    'runs the CI snippets of the README and docs/testing.md verbatim with bash -e: traffic passes, a missing clickthrough fails, a sandbox that cannot start ends the job, and none is left running',
    { concurrent: true, timeout: 150_000 },
    async ({ expect }) => {
      const snippetOf = (doc: string) =>
        [...readFileSync(path.join(ROOT, doc), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)]
          .map((m) => m[1]!)
          .find((b) => b.includes('search-sandbox serve --port 0'))!;
      const readme = snippetOf('README.md');
      const docs = snippetOf('docs/testing.md');
      expect(readme).toBeDefined();
      expect(docs).toBeDefined();
      type Job = { code: number | null; out: string };
      /**
       * Runs a snippet as a CI job does, in a folder beside the project's node_modules, its output read
       * through pipes; `traffic` sends the storefront's part once the sandbox is ready.
       */
      const ci = async (
        snippet: string,
        dir: string,
        traffic: (url: string) => Promise<void>,
        files: Record<string, string> = {},
      ) => {
        mkdirSync(dir, { recursive: true });
        symlinkSync(path.join(project, 'node_modules'), path.join(dir, 'node_modules'));
        for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
        const child = spawn('bash', ['-e', '-c', snippet], {
          cwd: dir,
          env: { ...ENV, PATH: `${path.join(project, 'node_modules/.bin')}:${ENV.PATH}` },
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
        // 'close': the job's output has ended, which a runner waits for (a background process still holding
        // it keeps the job hanging after the script ended)
        let code: number | null = null;
        child.on('close', (c) => (code = c ?? -1));
        const log = path.join(dir, 'sandbox.log');
        const ready = () =>
          existsSync(log)
            ? /listening on (http:\/\/\S+)/.exec(readFileSync(log, 'utf8'))?.[1]
            : undefined;
        try {
          await expect.poll(() => ready() ?? code, { timeout: 30_000 }).not.toBeNull();
          const url = ready();
          if (url) await traffic(url);
          // the idle job waits its 10 s for beacons, then writes its reports and runs `check` through npx:
          // on a loaded two-core runner that alone has taken more than 15 s
          // (the output as it stands when the wait gives up: a message given to the poll is read at its start)
          await expect
            .poll(() => code, { timeout: 60_000 })
            .not.toBeNull()
            .catch((e: Error) => {
              throw new Error(`${path.basename(dir)}: the job had not ended; its output:\n${out}`, {
                cause: e,
              });
            });
          // the job stopped its sandbox when it ended
          if (url)
            await expect
              .poll(
                () =>
                  fetch(`${url}/_sandbox/health`).then(
                    () => 'running',
                    () => 'stopped',
                  ),
                { timeout: 10_000 },
              )
              .toBe('stopped');
          return { code: code as number | null, out } as Job;
        } finally {
          try {
            process.kill(-child.pid!, 'SIGTERM');
          } catch {
            // the group has ended
          }
        }
      };
      const cleanTraffic = async (url: string) => {
        // as the provider's client creates them: the tile impressed once visible for a second, then clicked
        const searched = Date.now() - 5_000;
        const context = (after: number) => ({
          timestamp: new Date(searched + after).toISOString(),
          pageUrl: 'https://shop.example/search?q=shoes',
          userId: 'u1',
          sessionId: 's1',
          pageLoadId: 'p1',
          initiator: 'ci',
          dev: true,
        });
        const tile = { type: 'product', uid: '7', parentId: '7' };
        for (const [event, after, data] of [
          ['render', 0, { responseId: 'r1' }],
          ['impression', 1_200, { responseId: 'r1', results: [tile], banners: [] }],
          ['clickthrough', 2_500, { responseId: 'r1', results: [tile] }],
        ] as const) {
          const res = await fetch(`${url}/beacon/v2/demo42/search/${event}`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ context: context(after), data }),
          });
          expect(res.status).toBe(200);
        }
      };
      // jobs side by side, each with its own folder and sandbox: the README's with a clean search, with
      // nothing (the wait answers 408 with its reason, and the job fails after writing its reports) and with
      // a broken config file; docs/testing.md's with a clean search
      // settled, each: a job that fails still stops its own processes before the test ends
      const jobs = await Promise.allSettled([
        ci(readme, path.join(project, 'ci-clean'), cleanTraffic),
        ci(readme, path.join(project, 'ci-idle'), async () => undefined),
        ci(readme, path.join(project, 'ci-broken'), async () => undefined, {
          'search-sandbox.config.json': '{"accounts": [',
        }),
        ci(docs, path.join(project, 'ci-docs'), cleanTraffic),
      ]);
      const [clean, idle, broken, documented] = jobs.map((job) => {
        if (job.status === 'rejected') throw job.reason;
        return job.value;
      }) as [Job, Job, Job, Job];
      expect(clean.code, clean.out).toBe(0);
      expect(readFileSync(path.join(project, 'ci-clean', 'beacon-report.xml'), 'utf8')).toMatch(
        /<testsuites/,
      );
      expect(idle.code, idle.out).toBe(1);
      // the sandbox's reason, not only curl's status
      expect(idle.out).toContain('0 of 1 matching events were recorded within 10000 ms');
      expect(readFileSync(path.join(project, 'ci-idle', 'beacon-report.xml'), 'utf8')).toMatch(
        /<testsuites/,
      );
      expect(broken.code, broken.out).toBe(2);
      expect(broken.out).toMatch(/^search-sandbox: .*search-sandbox\.config\.json: not valid JSON/);
      expect(documented.code, documented.out).toBe(0);
      expect(readFileSync(path.join(project, 'ci-docs', 'beacon-report.xml'), 'utf8')).toMatch(
        /<testsuites/,
      );
    },
  );

  it('every file the README and docs/ link to or name (fixtures, docs, examples) is in the package', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const inPackage = (p: string) =>
      files.has(p) || [...files].some((f) => f.startsWith(`${p.replace(/\/$/, '')}/`));
    const docs = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const missing: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      expect(text, doc).not.toMatch(/CONTRACT\.md|CLIENT-FACTS|DESIGN\.md|STYLE\.md/);
      const named = new Set<string>();
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g))
        if (!/^[a-z]+:/.test(m[1]!))
          named.add(path.posix.normalize(path.posix.join(path.posix.dirname(doc), m[1]!)));
      for (const m of text.matchAll(
        /(?<![\w./-])((?:fixtures|docs|examples|bin)\/[\w.-]+(?:\/[\w.-]+)*)/g,
      ))
        named.add(m[1]!.replace(/[.]$/, ''));
      for (const p of named) if (!inPackage(p)) missing.push(`${doc}: ${p}`);
    }
    expect(missing).toEqual([]);
  });

  it("runs the README's package snippet verbatim: startSandbox, a beacon, waitForEvents, expectClean", async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const snippet = [...readme.matchAll(/```js\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      // the README's package snippet (its readiness snippet starts the same way)
      .find(
        (b) =>
          b.startsWith("import { startSandbox } from 'search-sandbox';") &&
          b.includes('expectClean'),
      );
    expect(snippet).toContain('expectClean');
    writeFileSync(path.join(project, 'readme-snippet.mjs'), snippet!);
    const result = await sh('node', ['readme-snippet.mjs']).then(
      (ok) => ({ code: 0, stderr: ok.stderr }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(result).toEqual({ code: 0, stderr: '' });
  });
});
