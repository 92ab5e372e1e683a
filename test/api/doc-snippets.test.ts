// Every fenced block of README.md and docs/*.md, accounted for. Each block is known by its file and a
// fingerprint of its text, and COVERAGE says how it is held true: run here (shell blocks with bash against
// the one sandbox this file starts, package snippets against the source entry points), checked here (an
// answer or an output shown in the docs, produced by the sandbox and compared), covered by another test
// (named, and that test must exist), or classified as nothing a user runs here, with the reason. A block
// added or edited in the docs has a fingerprint the table does not know: the first test fails, naming it,
// until someone covers it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/main/api/index';
import { withTestBaselines } from '../../src/main/api/test-baselines';
import { DEFAULT_PORT, loadConfig } from '../../src/main/config';
import { DIFF_USAGE } from '../../src/main/baseline/cli';
import { CHECK_USAGE } from '../../src/main/check/cli';
import { SERVE_USAGE } from '../../src/main/cli/commands';
import { TAIL_USAGE } from '../../src/main/cli/tail';
import { createDesktopApi } from '../../src/preload/api';
import { TRANSITIONS } from '../../src/shared/indexing';
import { RecordedEventSchema, UpstreamAnswerSchema } from '../../src/shared/schema-events';
import { journey, run as journeyRun, type Journey } from '../helpers/journey';
import { postBeacon, tempDir } from '../helpers/sandbox';
import { USER_DOCS } from '../helpers/user-docs';
import { spawnCli, type CliProcess } from './cli-process';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/search-sandbox.js');
const exec = promisify(execFile);

// ---------------------------------------------------------------------------------------------------
// The blocks

interface Block {
  file: string;
  /** 1-based line of the opening fence */
  line: number;
  lang: string;
  /** the block's text as a user copies it (a list item's indentation removed), ending in a newline */
  text: string;
  /** `file#fingerprint` */
  id: string;
}

export function fencedBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^( *)(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[2]!.startsWith(fence!)) break;
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
    }
    const text = body.join('\n') + '\n';
    const fingerprint = createHash('sha256').update(text).digest('hex').slice(0, 10);
    blocks.push({ file, line: i + 1, lang: lang!, text, id: `${file}#${fingerprint}` });
    i = j;
  }
  return blocks;
}

const BLOCKS = USER_DOCS.flatMap((f) => fencedBlocks(f, readFileSync(path.join(ROOT, f), 'utf8')));
const byId = new Map(BLOCKS.map((b) => [b.id, b]));

// ---------------------------------------------------------------------------------------------------
// The one sandbox of this file: `serve` as a user starts it (npm start), demo fixtures, a free port, its
// data directory in the folder it runs in.

const work = tempDir('doc-snippets-');
let sandbox: CliProcess;
let url = '';
let port = 0;
let client: api.SandboxClient;

beforeAll(async () => {
  sandbox = spawnCli(['serve', '--port', '0'], work.dir);
  url = await sandbox.ready;
  port = Number(new URL(url).port);
  client = api.connectSandbox(url);
  await sandbox.stderrMatching(/stop +Ctrl-C/);
});

afterAll(async () => {
  await sandbox?.kill();
  work.cleanup();
});

/**
 * Run `fn` in a project folder as `npm install search-sandbox` leaves it: the package (this checkout, holding
 * what package.json's `files` ships) in node_modules/search-sandbox.
 */
async function inInstalledProject<T>(fn: (cwd: string) => Promise<T>): Promise<T> {
  const shipped = (JSON.parse(testSource('package.json')) as { files: string[] }).files;
  expect(shipped).toContain('fixtures/');
  const project = tempDir('doc-project-');
  try {
    mkdirSync(path.join(project.dir, 'node_modules'));
    symlinkSync(ROOT, path.join(project.dir, 'node_modules', 'search-sandbox'), 'dir');
    return await fn(project.dir);
  } finally {
    project.cleanup();
  }
}

/** Back to the fixtures, as the Playwright fixture does before each test. */
async function fresh(): Promise<void> {
  await client.reset({ what: 'all' });
  await client.clock.reset();
}

/** The documented address, pointed at this file's sandbox. */
function local(text: string): string {
  return text
    .replaceAll('http://127.0.0.1:4545', url)
    .replaceAll('localhost:4545', `127.0.0.1:${port}`);
}

/**
 * Run shell text with bash as a user would, the sandbox's address swapped in. `npx search-sandbox` is this
 * checkout's bin (what an installed package's npx resolves); `npm start` is the sandbox already running.
 */
async function bash(
  text: string,
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const shims = [
    `npx() { if [ "$1" = search-sandbox ]; then shift; node ${JSON.stringify(BIN)} "$@"; else echo "npx $1: not in this test" >&2; return 127; fi; }`,
    `npm() { if [ "$*" = start ]; then curl -sf ${url}/_sandbox/health > /dev/null; else echo "npm $*: not in this test" >&2; return 127; fi; }`,
  ].join('\n');
  return exec('bash', ['-c', `${shims}\n${local(text)}`], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );
}

/** Each line of a shell block that is a command (comments and blank lines left out). */
function commands(block: Block): string[] {
  return block.text
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n\s*/g, '')
    .split('\n');
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>;

/**
 * Run a JS snippet as a module would: its `import { a, b } from 'm'` lines bind a and b from `modules[m]`
 * (the package's specifiers map to its source entry points), failing on a name the module does not export;
 * `globals` are what the snippet leaves to its surroundings (the storefront, the test runner). `tail` is
 * appended (e.g. `return beacon;`).
 */
async function runJs(
  code: string,
  modules: Record<string, Record<string, unknown>>,
  globals: Record<string, unknown> = {},
  tail = '',
): Promise<unknown> {
  const bound: Record<string, unknown> = {};
  const body = code.replace(
    /^import \{([^}]+)\} from '([^']+)';\n/gm,
    (_, names: string, from: string) => {
      const mod = modules[from];
      if (!mod) throw new Error(`the snippet imports ${from}, which this test does not provide`);
      for (const name of names.split(',').map((n) => n.trim())) {
        if (!(name in mod)) throw new Error(`${from} exports no ${name}`);
        bound[name] = mod[name];
      }
      return '';
    },
  );
  if (/^import /m.test(body)) throw new Error(`an import this test cannot bind: ${body}`);
  const all = { ...globals, ...bound };
  return new AsyncFunction(...Object.keys(all), local(body) + tail)(...Object.values(all));
}

/**
 * Whether `actual` is what the docs show: `shown` literally, except that `…` stands for anything, an event
 * id for any event id, and the documented port for this sandbox's.
 */
function shownAs(shown: string, docPort?: number): RegExp {
  let pattern = shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  pattern = pattern.replaceAll('…', '[^]*?').replace(/ev_\d{9}/g, 'ev_\\d{9}');
  if (docPort) pattern = pattern.replaceAll(String(docPort), String(port));
  return new RegExp(`^${pattern}$`);
}

/** Fetch through a recorder that lets only this sandbox be reached (never a provider's host). */
async function withFetchToSandboxOnly<T>(
  run: () => Promise<T>,
): Promise<{ value: T; urls: string[] }> {
  const urls: string[] = [];
  const pending: Promise<unknown>[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const u = input instanceof Request ? input.url : String(input);
    urls.push(u);
    if (!u.startsWith(url)) return Promise.reject(new TypeError(`blocked in the test: ${u}`));
    const p = realFetch(input, init);
    pending.push(p.catch(() => undefined));
    return p;
  }) as typeof fetch;
  try {
    const value = await run();
    await Promise.all(pending);
    return { value, urls };
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** A context of the given page, `ms` from now (negative: earlier). */
function ctx(pageLoadId: string, pageUrl: string, ms: number, extra: Record<string, unknown> = {}) {
  return {
    timestamp: new Date(Date.now() + ms).toISOString(),
    pageUrl,
    userId: 'u-1',
    sessionId: 's-1',
    pageLoadId,
    initiator: 'doc-snippets',
    dev: true,
    ...extra,
  };
}

async function send(endpoint: string, body: unknown): Promise<void> {
  const res = await postBeacon(url, endpoint, body);
  expect(res.status, `${endpoint}: ${await res.clone().text()}`).toBe(200);
}

/** Send a journey's events as its storefront would. */
async function play(j: Journey): Promise<void> {
  const lines = journeyRun(j, { start: Date.now() - 120_000 })
    .trim()
    .split('\n');
  for (const l of lines) {
    const { siteId, category, event, body } = JSON.parse(l) as Record<string, string>;
    await send(`${siteId}/${category}/${event}`, body);
  }
}

/** A search page the way the provider's client tracks it: render, then its tiles seen a second later. */
async function cleanSearchPage(pageUrl: string, pageLoadId = 'search-page'): Promise<void> {
  const tiles = [
    { type: 'product', uid: '101', parentId: '101' },
    { type: 'product', uid: '102', parentId: '102' },
  ];
  await send('demo42/search/render', {
    context: ctx(pageLoadId, pageUrl, -5_000),
    data: { responseId: 'r-clean' },
  });
  await send('demo42/search/impression', {
    context: ctx(pageLoadId, pageUrl, -3_800),
    data: { responseId: 'r-clean', results: tiles, banners: [] },
  });
}

/**
 * Playwright's `test` for a snippet, run here without a browser: the `sandbox` fixture is what the package's
 * fixture gives a test (this file's sandbox, reset, its baselines beside the test file), and `page` is the
 * storefront: `goto` makes it send what that page sends. `browse` is the storefront's traffic a snippet
 * leaves to a comment (`// … browse …`).
 */
function playwrightTest(
  specFile: string,
  storefront: (pageUrl: string) => Promise<void>,
  browse: () => Promise<void> = async () => undefined,
  updateSnapshots = 'missing',
) {
  const runs: Promise<unknown>[] = [];
  const test = (_name: string, body: (fixtures: unknown) => Promise<void>) => {
    runs.push(
      (async () => {
        await fresh();
        const fixtureSandbox = withTestBaselines(api.connectSandbox(url), {
          file: specFile,
          config: { updateSnapshots },
          annotations: [],
        });
        const page = { goto: (pageUrl: string) => storefront(pageUrl) };
        await browse();
        await body({ page, sandbox: fixtureSandbox });
      })(),
    );
  };
  return { test, done: () => Promise.all(runs) };
}

const PACKAGE = api as unknown as Record<string, unknown>;

async function loadsAsConfig(json: string): Promise<void> {
  const dir = tempDir('doc-config-');
  try {
    const file = path.join(dir.dir, 'search-sandbox.config.json');
    writeFileSync(file, json);
    const config = loadConfig({ config: file, ephemeral: true, port: 0 }, {}, dir.dir);
    expect(config.accounts.length).toBeGreaterThan(0);
  } finally {
    dir.cleanup();
  }
}

function testSource(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8');
}

// ---------------------------------------------------------------------------------------------------
// How each block is covered

type Coverage =
  | {
      how: 'run' | 'checked';
      what: string;
      check: (b: Block) => Promise<void>;
      /** a check that starts processes of its own (vitest, a package install) needs longer */
      timeout?: number;
    }
  | { how: 'elsewhere'; what: string; file: string; test: string }
  | { how: 'classified'; what: string; reason: string; check?: (b: Block) => Promise<void> };

const COVERAGE: Record<string, Coverage> = {};

/** A command's synopsis in the docs: its `--help` usage line, as typed through npx. */
function synopsis(command: string, usage: string): Coverage {
  return {
    how: 'checked',
    what: `the ${command} synopsis`,
    check: async (b) => {
      expect(usage.startsWith(`usage: search-sandbox ${command} `)).toBe(true);
      expect(b.text).toBe(`npx ${usage.slice('usage: '.length)}\n`);
    },
  };
}

const README_EXAMPLES = 'test/api/readme-examples.test.ts';
const PACKAGE_INSTALL = 'test/e2e/package-install.test.ts';
const NOT_RUN_ON_A_TEST_MACHINE =
  'needs Electron’s binary and a display, which tests never download';

Object.assign(COVERAGE, {
  // ----- README.md
  'README.md#d880870ffc': {
    how: 'classified',
    what: 'Set up: npm ci && npm start / npm test',
    reason:
      'sets up a checkout: npm ci reinstalls (the tests run on the installed tree), npm start serves until stopped (this file’s sandbox is its `serve`), npm test is the whole suite',
    check: async () => {
      const { scripts } = JSON.parse(testSource('package.json')) as {
        scripts: Record<string, string>;
      };
      expect(scripts.start).toMatch(/node bin\/search-sandbox\.js serve$/);
      // npm test builds, then runs the whole suite (vitest run) with the type checks beside it
      expect(scripts.test).toBe('tsx scripts/test.ts');
      expect(testSource('scripts/test.ts')).toMatch(/bin\('vitest', 'vitest\.mjs'\), 'run'/);
      expect(DEFAULT_PORT).toBe(4545);
    },
  },
  'README.md#7d607d5c2a': {
    how: 'elsewhere',
    what: 'new Beacon(…) pointed at the sandbox',
    file: README_EXAMPLES,
    test: 'the Beacon snippets (README and Connect view) send every request the client makes to the sandbox',
  },
  'README.md#d2e2db12d5': {
    how: 'elsewhere',
    what: 'the CDN beacon.js swap',
    file: 'test/e2e/cdn-beacon.test.ts',
    test: 'sends the real CDN tracker’s beacons to the sandbox, where they land on a timeline',
  },
  'README.md#0175e462f9': {
    how: 'elsewhere',
    what: 'curl a render',
    file: README_EXAMPLES,
    test: 'the first curl is accepted and its page shows on the timelines without a finding above info',
  },
  'README.md#161de8b3f0': {
    how: 'elsewhere',
    what: 'curl readiness',
    file: README_EXAMPLES,
    test: 'readiness: the curl answers the site’s readiness',
  },
  'README.md#6473187a9f': {
    how: 'elsewhere',
    what: 'expectReady snippet',
    file: README_EXAMPLES,
    test: 'readiness: the package snippet passes once the journey sends what the site expects, and rejects before',
  },
  'README.md#8825a1ba06': {
    how: 'elsewhere',
    what: 'check --readiness',
    file: README_EXAMPLES,
    test: 'readiness: the check snippet fails for the cart a recording never sent, and passes when it did',
  },
  'README.md#8435f37567': {
    how: 'classified',
    what: 'npm i -D search-sandbox',
    reason: `installs from the registry; ${PACKAGE_INSTALL} installs the packed tarball into an empty project instead`,
  },
  'README.md#657e9ddc4f': {
    how: 'run',
    what: 'Playwright: search tracks cleanly',
    check: async (b) => {
      const spec = path.join(work.dir, 'readme-tests', 'search.spec.js');
      const clean = playwrightTest(spec, (u) => cleanSearchPage(u));
      await runJs(b.text, { 'search-sandbox/playwright': { test: clean.test } });
      await clean.done();
      // the same test fails for a storefront that impresses tiles it never rendered
      const broken = playwrightTest(spec, async (u) => {
        await send('demo42/search/impression', {
          context: ctx('broken', u, -2_000),
          data: {
            responseId: 'r-never-rendered',
            results: [{ type: 'product', uid: '1', parentId: '1' }],
            banners: [],
          },
        });
      });
      await runJs(b.text, { 'search-sandbox/playwright': { test: broken.test } });
      await expect(broken.done()).rejects.toThrow(/error missing-render/);
    },
  },
  'README.md#0725ba6078': {
    how: 'elsewhere',
    what: 'startSandbox, a beacon, waitForEvents, expectClean',
    file: PACKAGE_INSTALL,
    test: "runs the README's package snippet verbatim: startSandbox, a beacon, waitForEvents, expectClean",
  },
  'README.md#8782cdd377': {
    how: 'elsewhere',
    what: 'Use it from CI',
    file: PACKAGE_INSTALL,
    test: 'runs the CI snippets of the README and docs/testing.md verbatim with bash -e',
  },
  'README.md#bc8c7d3e63': {
    how: 'run',
    what: 'Playwright: expectMatchesBaseline',
    check: async () => {
      // with the text block after it: README.md#0e43f74b98
      await baselineRuns();
    },
  },
  'README.md#0e43f74b98': {
    how: 'checked',
    what: 'the baseline mismatch message',
    check: async (b) => {
      const { mismatch } = await baselineRuns();
      expect(mismatch).toMatch(shownAs(b.text.trimEnd()));
    },
  },
  'README.md#ddb1413ce5': {
    how: 'run',
    what: 'diff an export against a good run',
    check: async (b) => {
      await fresh();
      const dir = path.join(work.dir, 'diff');
      mkdirSync(dir, { recursive: true });
      await play(journey());
      writeFileSync(
        path.join(dir, 'good-run.json'),
        await (await fetch(`${url}/_sandbox/export?siteId=demo42`)).text(),
      );
      await fresh();
      const release = journey();
      const line = (release[0]![2]!.events[0]!.data as { results: Array<{ price: number }> })
        .results[0]!;
      line.price = 90;
      await play(release);
      const [exported, text, json] = commands(b);
      const env = { SANDBOX: url };
      expect(await bash(exported!, { cwd: dir, env })).toMatchObject({ code: 0 });
      const differs = await bash(text!, { cwd: dir, env });
      expect(differs.code).toBe(1);
      expect(differs.stdout).toContain('data.results[0].price: 100 → 90');
      const ignored = await bash(json!, { cwd: dir, env });
      expect(ignored.code, ignored.stderr).toBe(0);
      expect(JSON.parse(ignored.stdout)).toMatchObject({ same: true });
    },
  },
  'README.md#f939d867d2': {
    how: 'elsewhere',
    what: 'GET /_sandbox/orders/summary answer',
    file: 'test/api/orders.test.ts',
    test: 'is what the README shows for these visits',
  },
  'README.md#813bcfecb8': {
    how: 'elsewhere',
    what: 'the worked credit example’s orders',
    file: README_EXAMPLES,
    test: 'the worked credit example answers as the README prints it',
  },
  'README.md#9233a2b97d': {
    how: 'checked',
    what: 'serve’s block for people on stderr',
    check: async (b) => {
      const shown = b.text
        .replaceAll('http://127.0.0.1:4545', url)
        .replaceAll('/home/you/shop', work.dir);
      expect(sandbox.stderr()).toContain(shown);
    },
  },
  'README.md#5d2574a2df': {
    how: 'checked',
    what: 'Layout',
    check: async (b) => {
      const folders = b.text
        .split('\n')
        .map((l) => /^(\S+)/.exec(l)?.[1])
        .filter((f): f is string => !!f);
      expect(folders.length).toBeGreaterThan(5);
      for (const f of folders) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
    },
  },

  // ----- docs/admin-api.md
  'docs/admin-api.md#d19a42cf12': {
    how: 'checked',
    what: 'a recorded event',
    check: async (b) => {
      await fresh();
      const shown = JSON.parse(b.text) as Record<string, unknown>;
      const { context } = { context: ctx('p-event', 'http://localhost:5173/search?q=x', 0) };
      const { timestamp: _left, ...withoutTimestamp } = context;
      const res = await postBeacon(
        url,
        'demo42/search/render',
        { context: withoutTimestamp, data: { responseId: 'r-event' } },
        { headers: { origin: 'http://localhost:5173' } },
      );
      const events = await client.events({ responseId: 'r-event' });
      const recorded = events[0] as unknown as Record<string, unknown>;
      expect(Object.keys(shown).sort()).toEqual(Object.keys(recorded).sort());
      expect(shown.errors).toEqual(recorded.errors);
      expect([shown.accepted, shown.status]).toEqual([recorded.accepted, res.status]);
      for (const key of ['siteId', 'category', 'event', 'path', 'origin', 'contentType'])
        expect(shown[key], key).toEqual(recorded[key]);
      expect(Value.Check(RecordedEventSchema, shown)).toBe(true);
    },
  },
  'docs/admin-api.md#d16e5e11c7': {
    how: 'run',
    what: 'curl /_sandbox/wait',
    check: async (b) => {
      await fresh();
      await cleanSearchPage('https://shop.example/search?q=wait');
      const { code, stdout } = await bash(b.text);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ done: true, count: 1 });
    },
  },
  'docs/admin-api.md#a54d4fd4ca': {
    how: 'checked',
    what: 'a frame of the stream',
    check: async (b) => {
      await fresh();
      const abort = new AbortController();
      const res = await fetch(`${url}/_sandbox/stream?types=event`, { signal: abort.signal });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const frame = (async () => {
        for (;;) {
          const m = /(^|\n)(id: [^\n]*\nevent: event\ndata: [^\n]*)\n/.exec(text);
          if (m) return m[2]!;
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended: ${text}`);
          text += value;
        }
      })();
      await cleanSearchPage('https://shop.example/search?q=stream', 'p-stream');
      const got = (await frame).split('\n');
      abort.abort();
      const shown = b.text.trimEnd().split('\n');
      expect(got).toHaveLength(shown.length);
      expect(got[0]).toMatch(/^id: \d+$/);
      expect(shown[0]).toMatch(/^id: \d+$/);
      expect(got[1]).toBe(shown[1]);
      expect(shown[2]).toBe('data: {"type":"event","data":{…recorded event…}}');
      const data = JSON.parse(got[2]!.slice('data: '.length)) as { type: string; data: unknown };
      expect(Object.keys(data)).toEqual(['type', 'data']);
      expect(data.type).toBe('event');
      expect(Value.Check(RecordedEventSchema, data.data)).toBe(true);
    },
  },
  'docs/admin-api.md#d530c3cf50': {
    how: 'checked',
    what: 'the export format',
    check: async (b) => {
      await fresh();
      await cleanSearchPage('https://shop.example/search?q=export');
      const shown = JSON.parse(b.text) as Record<string, unknown>;
      const real = (await (await fetch(`${url}/_sandbox/export`)).json()) as Record<
        string,
        unknown
      >;
      expect(real.format).toBe(shown.format);
      expect(real.version).toBe(shown.version);
      expect(Object.keys(real).at(-1)).toBe('events');
      const sections = String(shown['…section…']);
      for (const key of Object.keys(real).filter((k) => !(k in shown)))
        expect(sections, `section ${key}`).toContain(`\`${key}\``);
      for (const key of ['exportedAt', 'sandboxVersion'])
        expect(typeof real[key], key).toBe('string');
      expect(Object.keys((real.events as object[])[0]!)).toEqual(
        expect.arrayContaining(['id', 'seq']),
      );
    },
  },

  // ----- docs/cli.md: each command's synopsis is the usage line its --help prints
  'docs/cli.md#b2376798d6': synopsis('serve', SERVE_USAGE),
  'docs/cli.md#eb0eea1af9': synopsis('check', CHECK_USAGE),
  'docs/cli.md#5ba3de6570': synopsis('tail', TAIL_USAGE),
  'docs/cli.md#21d4228568': synopsis('diff', DIFF_USAGE),
  // ----- docs/desktop.md
  'docs/desktop.md#3433f76207': {
    how: 'classified',
    what: 'npm ci; npm run app',
    reason: NOT_RUN_ON_A_TEST_MACHINE,
    check: async () => {
      const { scripts } = JSON.parse(testSource('package.json')) as {
        scripts: Record<string, string>;
      };
      expect(scripts.app).toBe(
        'node node_modules/electron/install.js && electron-vite dev --entry out/main',
      );
    },
  },
  'docs/desktop.md#d843d42289': {
    how: 'classified',
    what: 'npx electron out/main',
    reason: `${NOT_RUN_ON_A_TEST_MACHINE}; test/api/electron-bundle.test.ts resolves out/main as Electron does and runs the built out/main/index.js with a stand-in for Electron`,
    check: async (b) => {
      // the folder the block starts Electron on is the one `npm run app` gives electron-vite
      const { scripts } = JSON.parse(testSource('package.json')) as {
        scripts: Record<string, string>;
      };
      const folder = /--entry (\S+)$/.exec(scripts.app!)![1]!;
      expect(b.text).toContain(`npx electron ${folder} `);
      expect(b.text).toContain(`${folder}/package.json names the app and its entry`);
    },
  },
  'docs/desktop.md#a19632116e': {
    how: 'run',
    what: 'window.sandboxDesktop.uploadFeedFile',
    check: async (b) => {
      const calls: unknown[][] = [];
      const desktop = createDesktopApi({
        invoke: async (...args: unknown[]) => {
          calls.push(args);
          return { outcome: 'canceled' };
        },
      });
      await runJs(b.text, {}, { window: { sandboxDesktop: desktop } });
      expect(calls).toEqual([
        [expect.any(String), { siteId: 'demo42', feedId: 42, requestedBy: 'qa@example.com' }],
      ]);
      // and in a plain browser, where the preload is absent, it does nothing
      await runJs(b.text, {}, { window: {} });
      expect(calls).toHaveLength(1);
    },
  },
  'docs/desktop.md#89d000f28a': {
    how: 'classified',
    what: 'electron-builder installers',
    reason:
      'fetches electron-builder and the Electron builds for each OS, and runs on that OS; the packaging config is checked against that electron-builder’s schema by test/unit/desktop-packaging.test.ts, which also holds the version these commands name',
    check: async (b) => {
      const yml = testSource('electron-builder.yml');
      for (const target of ['AppImage', 'deb', 'dmg', 'nsis']) expect(yml).toContain(target);
      for (const os of ['--linux', '--mac', '--win'])
        expect(b.text).toMatch(new RegExp(`npx electron-builder@\\d+\\.\\d+\\.\\d+ ${os}`));
    },
  },

  // ----- docs/indexing.md
  'docs/indexing.md#5602188e25': {
    how: 'run',
    what: 'Try it: status, upload, PUT, clock',
    check: async (b) => {
      await fresh();
      // as a user who installed the package runs it: from a project folder, the package in node_modules
      const run = await inInstalledProject((cwd) => bash(b.text, { cwd }));
      expect(run.code, run.stderr).toBe(0);
      // the clone's folder the block names holds the same files
      expect(b.text).toContain('(in a clone of the repository: FEEDS=fixtures/feeds)');
      expect(existsSync(path.join(ROOT, 'fixtures/feeds/products.csv.gz'))).toBe(true);
      // four answers, one per curl
      const answers = run.stdout
        .replace(/\}\s*\{/g, '}\n{')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(answers).toHaveLength(4);
      expect(answers[1]).toMatchObject({ success: true });
      expect(answers[2]).toMatchObject({ success: true });
      const feeds = await client.feeds('demo42');
      const feed42 = feeds.find((f) => f.id === 42)!;
      expect(JSON.stringify(feed42)).toContain('dev@shop.example');
      // as the comment says: once the clock's answer is in, both runs have ended, each step at its own time
      expect(feeds.filter((f) => f.id !== 44).map((f) => [f.id, f.state, f.parsing])).toEqual([
        [42, 'done', null],
        [43, 'done', null],
      ]);
      await fresh();
    },
  },
  'docs/indexing.md#f50ca15f94': {
    how: 'run',
    what: 'Pause a running index: 429 inside the hour, paused after it, resumed to done',
    check: async (b) => {
      await fresh();
      const run = await inInstalledProject((cwd) => bash(b.text, { cwd }));
      expect(run.code, run.stderr).toBe(0);
      const answers = run.stdout
        .replace(/\}\s*\{/g, '}\n{')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      // PATCH, POST, to running, PUT (429), clock, PUT, status, to running, PATCH, clock
      expect(answers).toHaveLength(10);
      expect(answers[1]).toEqual({ success: true });
      expect(answers[2]).toMatchObject({ state: 'running' });
      expect(answers[3]).toMatchObject({
        success: false,
        message: expect.stringMatching(/^feed 42 is running .*: one re-index per hour; try again/),
      });
      expect(answers[5]).toEqual({ success: true });
      const status = answers[6] as { feeds: Array<{ id: number; indexStatus: string }> };
      expect(status.feeds.find((f) => f.id === 42)?.indexStatus).toBe('waiting');
      const feed = (await client.feeds('demo42')).find((f) => f.id === 42)!;
      expect(feed.state).toBe('done');
      const said = feed.history.map((h) => `${h.kind} ${'to' in h ? h.to : ''} ${h.detail}`);
      expect(said.join('\n')).toMatch(
        /request +feed 42 is running[^]*transition paused a bulk index request \(PUT\) arrived while the feed was running[^]*transition running resumed by hand[^]*transition done indexed/,
      );
      const messages = await client.outbox({ siteId: 'demo42' });
      expect(messages.map((m) => [m.to, m.outcome])).toEqual([
        ['first@shop.example', 'done'],
        ['second@shop.example', 'done'],
      ]);
      await fresh();
    },
  },
  'docs/indexing.md#1340254103': {
    how: 'checked',
    what: 'the states diagram',
    check: async (b) => {
      const lines = b.text.split('\n');
      const drawn = new Set<string>();
      const stateAt = (line: string, col: number) => {
        for (const m of line.matchAll(/[a-z_]+/g))
          if (m.index! <= col && col < m.index! + m[0].length) return m[0];
        return undefined;
      };
      lines.forEach((line, i) => {
        if (!line.includes('►')) return;
        const parts = line.split(/──[^►]*►/);
        let from = parts[0]!.trim();
        if (from.startsWith('└')) from = stateAt(lines[i - 1]!, line.indexOf('└'))!;
        const states = (s: string) =>
          /^[a-z_]+(\s*\|\s*[a-z_]+)*/.exec(s.trim())![0].split(/\s*\|\s*/);
        for (let k = 1; k < parts.length; k++) {
          for (const a of states(k === 1 ? from : parts[k - 1]!))
            for (const z of states(parts[k]!)) drawn.add(`${a} → ${z}`);
        }
      });
      expect([...drawn].sort()).toEqual(TRANSITIONS.map((t) => `${t.from} → ${t.to}`).sort());
    },
  },
  'docs/indexing.md#8ac292cd20': {
    how: 'checked',
    what: 'an indexing config',
    check: (b) => loadsAsConfig(b.text),
  },

  // ----- docs/search.md
  'docs/search.md#e6589ee1f2': {
    how: 'run',
    what: 'Try it: search, meta, a redirect, index a catalog',
    check: async (b) => {
      await fresh();
      const lines = commands(b);
      expect(lines).toHaveLength(5);
      // the clone's path the block names holds the same file
      expect(b.text).toContain(
        '(in a clone of the repository: fixtures/search/outdoor-products.csv)',
      );
      expect(existsSync(path.join(ROOT, 'fixtures/search/outdoor-products.csv'))).toBe(true);
      const answers: Array<Record<string, unknown>> = [];
      // as a user who installed the package runs it: from a project folder, the package in node_modules
      await inInstalledProject(async (cwd) => {
        for (const line of lines) {
          const { code, stdout, stderr } = await bash(line, { cwd });
          expect(code, `${line}: ${stderr}`).toBe(0);
          answers.push(
            line.startsWith('npm start') ? {} : (JSON.parse(stdout) as Record<string, unknown>),
          );
        }
      });
      const [, search, meta, redirect, upload] = answers;
      expect(search).toMatchObject({
        results: [expect.anything()],
        responseId: expect.any(String),
      });
      expect(meta).toHaveProperty('facets');
      expect(redirect).toMatchObject({ merchandising: { redirect: '/pages/gift-cards' } });
      expect(upload).toMatchObject({ success: true });
      await fresh();
    },
  },
  'docs/search.md#e24c0482f6': {
    how: 'run',
    what: 'the Snap client and the beacon pointed at the sandbox',
    check: async (b) => {
      await fresh();
      const [snap, beaconModule] = await Promise.all([
        import('@searchspring/snap-client'),
        import('@athoscommerce/beacon'),
      ]);
      const { urls } = await withFetchToSandboxOnly(async () => {
        await runJs(b.text, {
          '@searchspring/snap-client': snap as unknown as Record<string, unknown>,
          '@athoscommerce/beacon': beaconModule as unknown as Record<string, unknown>,
        });
        const [render] = await client.waitForEvents({ siteId: 'demo42', event: 'render' });
        const responseId = (render!.body as { data: { responseId: string } }).data.responseId;
        // the responseId the page rendered is one the sandbox's search issued
        expect((await client.searchResponse(responseId)).responseId).toBe(responseId);
      });
      expect(urls.filter((u) => !u.startsWith(url))).toEqual([]);
      expect(urls.some((u) => u.includes('/api/search/search.json'))).toBe(true);
    },
  },
  'docs/search.md#1936a612c4': {
    how: 'checked',
    what: 'an account’s search settings',
    check: (b) => loadsAsConfig(`{"accounts": [${b.text}]}`),
  },
  'docs/search.md#8d33658cdb': {
    how: 'checked',
    what: 'a pass-through config',
    check: (b) => loadsAsConfig(b.text),
  },
  'docs/search.md#2f5385a3b6': {
    how: 'run',
    what: 'pass-through clients pointed at the sandbox',
    check: async (b) => {
      await fresh();
      const [snap, beaconModule] = await Promise.all([
        import('@searchspring/snap-client'),
        import('@athoscommerce/beacon'),
      ]);
      const { urls } = await withFetchToSandboxOnly(async () => {
        const { client: snapClient, beacon } = (await runJs(
          b.text,
          {},
          { Client: snap.Client, Beacon: beaconModule.Beacon },
          '\nreturn { client, beacon };',
        )) as {
          client: { search(q: unknown): Promise<unknown> };
          beacon: { events: { search: { render(e: unknown): void } } };
        };
        // abc123 is no account of this sandbox: it answers, and nothing goes anywhere else
        await snapClient.search({ search: { query: { string: 'jacket' } } }).catch(() => undefined);
        beacon.events.search.render({ data: { responseId: 'r-pass' } });
        await client.waitForEvents({ siteId: 'abc123', event: 'render' });
        await new Promise((r) => setTimeout(r, 0));
      });
      expect(urls.filter((u) => !u.startsWith(url))).toEqual([]);
    },
  },

  // ----- docs/testing.md
  'docs/testing.md#0c5f878ef2': {
    how: 'classified',
    what: 'npm i -D search-sandbox @playwright/test',
    reason: `installs from the registry; ${PACKAGE_INSTALL} installs the packed tarball into an empty project instead`,
    check: async (b) => {
      const { version } = JSON.parse(testSource('package.json')) as { version: string };
      expect(b.text).toContain(`./search-sandbox-${version}.tgz`);
    },
  },
  'docs/testing.md#925f7fac96': {
    how: 'run',
    what: 'Playwright: expectMatchesBaseline ignoring a cache buster and an order key',
    check: async (b) => {
      // a search page behind a cache buster, WooCommerce's thank-you page with its order key
      const volatile = () => {
        const j = journey();
        j[0]![0]!.path = '/search?q=shoes&ts={random}';
        j[0]![2]!.path = '/checkout/order-received/{ORDER}/?key=wc_order_{random}';
        return j;
      };
      const spec = path.join(work.dir, 'ignore-tests', 'checkout.spec.js');
      const runOnce = async (text: string) => {
        const pw = playwrightTest(
          spec,
          async () => undefined,
          () => play(volatile()),
        );
        await runJs(text, { 'search-sandbox/playwright': { test: pw.test } });
        return pw.done().then(
          () => 'passed',
          (e: Error) => e.message,
        );
      };
      expect(await runOnce(b.text)).toBe('passed');
      const file = path.join(path.dirname(spec), 'beacon-baselines', 'checkout.json');
      expect(readFileSync(file, 'utf8')).not.toMatch(/ts=|key=/);
      expect(await runOnce(b.text)).toBe('passed');
      // without the option, the next run's parameters are another page
      const without = b.text.replace(/,\s*ignore: \[[^\]]*\],?/, '');
      expect(without).not.toContain('ignore');
      expect(await runOnce(without)).toMatch(/the tracking differs from the baseline/);
    },
  },
  'docs/testing.md#80e030726c': {
    how: 'run',
    what: 'Playwright: search page tracks cleanly',
    check: async (b) => {
      const spec = path.join(work.dir, 'testing-tests', 'search.spec.js');
      const clean = playwrightTest(spec, (u) => cleanSearchPage(u));
      const playwright = { test: clean.test, expect };
      await runJs(b.text, { 'search-sandbox/playwright': playwright });
      await clean.done();
    },
  },
  'docs/testing.md#fb324610cf': {
    how: 'run',
    what: 'vitest with startSandbox, as written, in a project that installed the package and vitest',
    timeout: 120_000,
    check: async (b) => {
      // the file as written, and beside it the same page without its render, in one vitest run (a vitest
      // start costs more than the two tests), with vitest as the project installed it
      const render = "  await send('render', { responseId: 'r1' }); // the results are shown\n";
      expect(b.text).toContain(render);
      const run = await inInstalledProject(async (cwd) => {
        symlinkSync(
          path.join(ROOT, 'node_modules/vitest'),
          path.join(cwd, 'node_modules/vitest'),
          'dir',
        );
        writeFileSync(path.join(cwd, 'search.test.js'), b.text);
        writeFileSync(path.join(cwd, 'broken.test.js'), b.text.replace(render, ''));
        // this run's own vitest variables would steer the inner run
        const env = Object.fromEntries(
          Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$)/.test(k)),
        );
        const args = ['run', '--reporter=default', '--reporter=json', '--outputFile.json=r.json'];
        const ran = await exec(
          process.execPath,
          [path.join(cwd, 'node_modules/vitest/vitest.mjs'), ...args],
          { cwd, env: { ...env, FORCE_COLOR: '0', CI: '1' } },
        ).then(
          (ok) => ({ code: 0, out: ok.stdout + ok.stderr }),
          (err: { code: number; stdout: string; stderr: string }) => ({
            code: err.code,
            out: err.stdout + err.stderr,
          }),
        );
        const report = JSON.parse(readFileSync(path.join(cwd, 'r.json'), 'utf8')) as {
          testResults: Array<{ name: string; status: string; message: string }>;
        };
        const files = Object.fromEntries(
          report.testResults.map((f) => [path.basename(f.name), f.status]),
        );
        // the colours vitest gives its summary, left out to read it as text
        // eslint-disable-next-line no-control-regex
        return { code: ran.code, out: ran.out.replace(/\x1b\[[0-9;]*m/g, ''), files };
      });
      expect(run.files, run.out).toEqual({
        'search.test.js': 'passed',
        'broken.test.js': 'failed',
      });
      expect(run.code, run.out).toBe(1);
      expect(run.out).toMatch(/1 failed \| 1 passed/);
      expect(run.out).toMatch(
        /FAIL +broken\.test\.js[^]*expectClean failed \(siteId=demo42, failOn=warning\)[^]*error missing-render/,
      );
    },
  },
  'docs/testing.md#7a1f062555': {
    how: 'elsewhere',
    what: 'Plain CI',
    file: PACKAGE_INSTALL,
    test: 'runs the CI snippets of the README and docs/testing.md verbatim with bash -e',
  },
  'docs/testing.md#ff1e038bb6': {
    how: 'run',
    what: 'the package’s imports',
    check: async (b) => {
      const names = (await runJs(
        b.text,
        { 'search-sandbox': PACKAGE },
        {},
        'return [typeof startSandbox, typeof connectSandbox, typeof SandboxApiError];',
      )) as string[];
      expect(names).toEqual(['function', 'function', 'function']);
    },
  },
  'docs/testing.md#2ac66558b6': {
    how: 'checked',
    what: 'startSandbox’s rejections',
    check: async (b) => {
      const [unknown, badPort, badConfig, noFile, taken, locked] = b.text
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/ {2,}\(/)[0]!.trimEnd());
      const reason = (options: unknown) =>
        api.startSandbox(options as api.StartOptions).then(
          async (s) => {
            await s.close();
            return 'started';
          },
          (e: Error) => e.message,
        );
      expect(await reason({ prot: 4545 })).toBe(unknown);
      expect(await reason({ config: { accounts: 'demo42' } })).toMatch(shownAs(badConfig!));
      expect(await reason({ config: '/path/sandbox.json' })).toBe(noFile);
      expect(await reason({ port })).toMatch(shownAs(taken!, 4545));
      expect(await reason({ port: -1 })).toBe(badPort);
      // a data directory held by a sandbox of this process
      const data = tempDir('doc-locked-');
      const holder = await api.startSandbox({ dataDir: data.dir });
      try {
        expect(await reason({ dataDir: data.dir })).toBe(
          locked!.replaceAll('/path/data', data.dir).replace('4242', String(process.pid)),
        );
      } finally {
        await holder.close();
        data.cleanup();
      }
    },
  },
  'docs/testing.md#29b8c19b20': {
    how: 'checked',
    what: 'connectSandbox’s refusals',
    check: async (b) => {
      const thrown = (u: string) => {
        try {
          api.connectSandbox(u);
          return 'connected';
        } catch (e) {
          return (e as Error).message;
        }
      };
      const shown = b.text.trimEnd().split('\n');
      expect([thrown('localhost:4545'), thrown('http://127.0.0.1:4545/_sandbox')]).toEqual(shown);
    },
  },
  'docs/testing.md#f56537eda7': {
    how: 'checked',
    what: 'expectClean’s failure',
    check: async (b) => {
      await fiveEvents();
      // page 1 went on after the click (a click that ends its page is click-not-impressed-at-exit, info)
      await send('demo42/search/impression', {
        context: ctx('page-1', 'https://shop.example/search?q=jacket', -6_000),
        data: {
          responseId: 'resp-1',
          results: [{ type: 'product', uid: '1002', parentId: '1002' }],
          banners: [],
        },
      });
      const message = await client.expectClean({ siteId: 'demo42', failOn: 'warning' }).then(
        () => 'passed',
        (e: Error) => e.message,
      );
      expect(message).toMatch(shownAs(b.text.trimEnd(), 35983));
    },
  },
  'docs/testing.md#6d2e321a3f': {
    how: 'checked',
    what: 'expectClean with no page',
    check: async (b) => {
      await fresh();
      const message = await client.expectClean({ siteId: 'demo42' }).then(
        () => 'passed',
        (e: Error) => e.message,
      );
      expect(message).toMatch(shownAs(b.text.trimEnd(), 35983));
    },
  },
  'docs/testing.md#f1838ed0a0': {
    how: 'checked',
    what: 'waitForEvents timed out, with the latest events',
    check: async (b) => {
      await fiveEvents();
      const message = await client
        .waitForEvents({ siteId: 'demo42', event: 'addtocart', count: 1, timeout: 2000 })
        .then(
          () => 'resolved',
          (e: Error) => e.message,
        );
      expect(message).toMatch(shownAs(b.text.trimEnd()));
    },
  },
  'docs/testing.md#9176e5285a': {
    how: 'checked',
    what: 'waitForEvents timed out, nothing arrived',
    check: async (b) => {
      await fresh();
      const message = await client.waitForEvents({ event: 'render', count: 1, timeout: 1000 }).then(
        () => 'resolved',
        (e: Error) => e.message,
      );
      expect(message).toMatch(shownAs(b.text.trimEnd()));
    },
  },
  'docs/testing.md#cc26d1aee3': {
    how: 'checked',
    what: 'bad options: TypeErrors before any request',
    check: async (b) => {
      const message = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: TypeError) => `${e.name}: ${e.message}`,
        );
      const lines = b.text
        .trimEnd()
        .split('\n')
        .map((l) => `TypeError: ${l}`);
      expect([
        await message(client.reset({ wat: 'all' } as never)),
        await message(client.events('render' as never)),
        await message(client.waitForEvents({ timeout: -5 })),
        await message(client.clock.advance(1000 as never)),
      ]).toEqual(lines);
    },
  },
  'docs/testing.md#e96484c1bd': {
    how: 'checked',
    what: 'SandboxApiError messages',
    check: async (b) => {
      await fresh();
      const [unknownFeed, unknownSite, refused, notJson, unreachable] = b.text
        .trimEnd()
        .split('\n');
      const message = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: api.SandboxApiError) => e.message,
        );
      expect(await message(client.feed('demo42', 99))).toBe(unknownFeed);
      expect(await message(client.readiness({ siteId: 'dem042' }))).toBe(unknownSite);
      expect(await message(client.transition('demo42', 42, 'regen_done'))).toBe(refused);
      const other = http.createServer((_q, s) => s.end('<html>a shop</html>'));
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      const otherPort = (other.address() as AddressInfo).port;
      try {
        expect(await message(api.connectSandbox(`http://127.0.0.1:${otherPort}`).health())).toBe(
          notJson,
        );
      } finally {
        await new Promise((r) => other.close(r));
      }
      // nothing listens there any more
      const closed = `http://127.0.0.1:${otherPort}`;
      expect(await message(api.connectSandbox(closed).events())).toBe(
        unreachable!.replaceAll('http://127.0.0.1:4545', closed),
      );
    },
  },

  // ----- docs/timelines.md
  'docs/timelines.md#7faafddb62': {
    how: 'classified',
    what: 'how timelines nest',
    reason: 'a diagram of sessions, pages, responses and events: no command, no output',
  },
  'docs/timelines.md#dca1a7e2af': {
    how: 'run',
    what: 'check a HAR as JUnit; the JUnit report',
    check: async (b) => {
      await fresh();
      const dir = path.join(work.dir, 'har');
      mkdirSync(dir, { recursive: true });
      copyFileSync(
        path.join(ROOT, 'fixtures/har/broken-impression.har'),
        path.join(dir, 'session.har'),
      );
      const [checked, reported] = commands(b);
      const offline = await bash(checked!, { cwd: dir });
      expect(offline.code, offline.stderr).toBe(1);
      const xml = readFileSync(path.join(dir, 'timelines.xml'), 'utf8');
      expect(xml).toMatch(/^<\?xml[^]*<testsuites[^]*<failure/);
      await cleanSearchPage('https://shop.example/search?q=junit', 'p-junit');
      expect((await bash(reported!, { cwd: dir })).code).toBe(0);
      expect(readFileSync(path.join(dir, 'timelines.xml'), 'utf8')).toMatch(
        /<testsuites[^]*p-junit/,
      );
    },
  },

  // ----- docs/tracking.md
  'docs/tracking.md#ccf4bd8ac0': {
    how: 'run',
    what: 'new Beacon(…) with the sandbox’s origins',
    check: async (b) => {
      await fresh();
      const { Beacon } = await import('@athoscommerce/beacon');
      const { urls } = await withFetchToSandboxOnly(async () => {
        const beacon = (await runJs(
          b.text,
          { '@athoscommerce/beacon': { Beacon } },
          {},
          '\nreturn beacon;',
        )) as InstanceType<typeof Beacon>;
        beacon.events.search.render({ data: { responseId: 'r-tracking' } });
        await client.waitForEvents({ siteId: 'demo42', responseId: 'r-tracking' });
      });
      expect(urls.filter((u) => !u.startsWith(url))).toEqual([]);
    },
  },
  'docs/tracking.md#3f7d6d6ca9': {
    how: 'checked',
    what: 'a forwarding config',
    check: (b) => loadsAsConfig(b.text),
  },
  'docs/tracking.md#2825e0f50c': {
    how: 'checked',
    what: 'an event’s upstream',
    check: async (b) => {
      const { upstream } = JSON.parse(`{${b.text}}`) as { upstream: unknown };
      expect(Value.Check(UpstreamAnswerSchema, upstream)).toBe(true);
    },
  },

  // ----- docs/writing-rules.md
  'docs/writing-rules.md#ca1f13d06b': {
    how: 'elsewhere',
    what: 'the example rule',
    file: 'test/rules/writing-rules-doc.test.ts',
    test: 'its example rule loads as written and reports what the doc says',
  },
} satisfies Record<string, Coverage>);

// ---------------------------------------------------------------------------------------------------
// Scenarios shared by more than one block

let baselines: Promise<{ mismatch: string }> | undefined;

/**
 * The README's baseline test, run three times as a release cycle would: the first run writes the baseline
 * beside the test file (and fails, as the README says), the next (new ids, same tracking) matches it, and a release that no longer
 * impresses the third result, drops the click and sends another total fails with the printed message.
 */
function baselineRuns(): Promise<{ mismatch: string }> {
  return (baselines ??= (async () => {
    const block = byId.get('README.md#bc8c7d3e63')!;
    const spec = path.join(work.dir, 'baseline-tests', 'order.spec.js');
    // as `npx playwright test` runs it without --update-snapshots
    const runOnce = async (j: Journey) => {
      const pw = playwrightTest(
        spec,
        async () => undefined,
        () => play(j),
        'default',
      );
      await runJs(block.text, { 'search-sandbox/playwright': { test: pw.test } });
      return pw.done().then(
        () => 'passed',
        (e: Error) => e.message,
      );
    };
    const file = path.join(path.dirname(spec), 'beacon-baselines', 'search-to-order.json');
    // the first run writes the baseline and fails, as toMatchSnapshot does for a missing snapshot
    expect(await runOnce(journey())).toContain(
      `no baseline ${file}: wrote this run's traffic to it`,
    );
    const written = readFileSync(file, 'utf8');
    expect(await runOnce(journey())).toBe('passed');
    expect(readFileSync(file, 'utf8')).toBe(written);
    const release = journey();
    const search = release[0]![0]!.events;
    const impression = search[1]!.data as { results: unknown[] };
    impression.results = impression.results.slice(0, 2);
    search.splice(2, 1);
    (release[0]![2]!.events[0]!.data as { total: number }).total = 90;
    return { mismatch: await runOnce(release) };
  })());
}

/** The traffic docs/testing.md's messages show: two pages of demo42 with a finding each, one of demo24. */
async function fiveEvents(): Promise<void> {
  await fresh();
  const page = 'https://shop.example/search?q=jacket';
  const tile = (uid: string) => [{ type: 'product', uid, parentId: uid }];
  await send('demo42/search/render', {
    context: ctx('page-1', page, -10_000),
    data: { responseId: 'resp-1' },
  });
  await send('demo42/search/impression', {
    context: ctx('page-1', page, -8_800),
    data: { responseId: 'resp-1', results: tile('1001'), banners: [] },
  });
  await send('demo42/search/clickthrough', {
    context: ctx('page-1', page, -7_000),
    data: { responseId: 'resp-1', results: tile('1009') },
  });
  await send('demo42/search/impression', {
    context: ctx('page-2', page, -5_000),
    data: { responseId: 'resp-2', results: tile('1002'), banners: [] },
  });
  await send('demo24/search/render', {
    context: ctx('page-3', 'https://other.example/search?q=x', -4_000, { sessionId: 's-9' }),
    data: { responseId: 'resp-3' },
  });
}

// ---------------------------------------------------------------------------------------------------

describe('the fenced blocks of README.md and docs/*.md', () => {
  it('each is in the coverage table, and the table names no block the docs no longer have', () => {
    const unknown = BLOCKS.filter((b) => !(b.id in COVERAGE)).map(
      (b) =>
        `${b.file}:${b.line} (${b.lang || 'untagged'}) "${b.text.split('\n')[0]}": add '${b.id}' to COVERAGE in test/api/doc-snippets.test.ts, run by a test or classified with the reason`,
    );
    const stale = Object.keys(COVERAGE).filter((id) => !byId.has(id));
    expect({ unknown, stale }).toEqual({ unknown: [], stale: [] });
  });

  it('each block covered by another test names a test that is there', () => {
    for (const [id, c] of Object.entries(COVERAGE))
      if (c.how === 'elsewhere') expect(testSource(c.file), `${id}: ${c.file}`).toContain(c.test);
  });

  it('each block classified as not run here says why', () => {
    for (const [id, c] of Object.entries(COVERAGE))
      if (c.how === 'classified') expect(c.reason.length, id).toBeGreaterThan(30);
  });
});

describe('the blocks run or checked here', () => {
  for (const [id, c] of Object.entries(COVERAGE)) {
    if (!('check' in c) || !c.check) continue;
    const check = c.check;
    it(
      `${c.how}: ${id} (${c.what})`,
      async () => {
        const block = byId.get(id);
        expect(block, `${id} changed or left the docs: see the first test`).toBeDefined();
        await check(block!);
      },
      ('timeout' in c && c.timeout) || undefined,
    );
  }
});
