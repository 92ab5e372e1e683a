// `search-sandbox serve` as a real process (the built out/main/cli.js): the one ready line, one-line errors
// with a non-zero exit, orderly shutdown on SIGTERM/SIGINT, --data persistence and --ephemeral.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import { searchDraft } from '../helpers/drafts';
import { postBeacon, tempDir } from '../helpers/sandbox';
import { CLI, runCli, spawnCli, type CliProcess } from './cli-process';
import { judgeBodyText } from '../../src/main/tracking/body-verdict';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function dir(): string {
  const t = tempDir('cli-serve-');
  cleanups.push(t.cleanup);
  return t.dir;
}

async function serve(args: string[], cwd: string): Promise<CliProcess> {
  const cli = spawnCli(['serve', '--port', '0', ...args], cwd);
  cleanups.push(() => cli.kill());
  await cli.ready;
  return cli;
}

const render = (responseId: string) => ({
  context: {
    timestamp: new Date().toISOString(),
    pageUrl: 'http://localhost:5173/search?q=shirt',
    userId: 'u-cli',
    sessionId: 's-cli',
    pageLoadId: 'p-cli',
    initiator: 'cli-test',
  },
  data: { responseId },
});

async function events(url: string): Promise<RecordedEvent[]> {
  const res = await fetch(`${url}/_sandbox/events`);
  return ((await res.json()) as { events: RecordedEvent[] }).events;
}

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

describe('search-sandbox serve', () => {
  it('prints exactly one ready line, serves, and exits 0 on SIGTERM', async () => {
    const cwd = dir();
    const cli = await serve(['--ephemeral'], cwd);
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${cli.url}/_sandbox/health`);
    expect(health.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(cli.stdout()).toBe(`search-sandbox listening on ${cli.url}\n`);
  });

  it('then tells a person on stderr where everything is: UI, tracking and indexing URLs, demo credentials, data, how to stop', async () => {
    const cwd = dir();
    const cli = await serve(['--https-port', '0'], cwd);
    const stderr = await cli.stderrMatching(/\n {2}stop .*\n/);
    const u = cli.url;
    const https = /https {5}(https:\/\/127\.0\.0\.1:\d+) /.exec(stderr)?.[1];
    expect(https).toBeDefined();
    expect(stderr).toBe(
      [
        'search-sandbox is ready',
        `  UI        ${u}/`,
        `  tracking  ${u}/beacon/v2  (beacon.js: requesters.beacon.origin)`,
        `  indexing  ${u}/api/index/{status,feed}  (HTTP basic auth: siteId / secret key)`,
        '            siteId demo42, secret key demo-secret-key, feeds 42, 43, 44',
        `  https     ${https}  (self-signed certificate: ${path.join(cwd, '.search-sandbox', 'tls', 'cert.pem')})`,
        '  config    demo fixtures (fixtures/demo.config.json)',
        `  data      ${path.join(cwd, '.search-sandbox')}`,
        '  stop      Ctrl-C (or SIGTERM): answers what it accepted, flushes, exits',
        '',
      ].join('\n'),
    );
    expect(cli.stdout()).toBe(`search-sandbox listening on ${u}\n`);
  });

  it('with --host 0.0.0.0, names the address it listens on and warns that it is open to the network', async () => {
    const cli = await serve(['--host', '0.0.0.0', '--https-port', '0', '--ephemeral'], dir());
    expect(cli.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(cli.stdout()).toBe(`search-sandbox listening on ${cli.url}\n`);
    // the printed address answers, the admin API included
    expect((await fetch(`${cli.url}/_sandbox/health`)).status).toBe(200);
    const stderr = await cli.stderrMatching(/\n {2}stop .*\n/);
    expect(stderr).toContain(`  UI        ${cli.url}/\n`);
    expect(stderr).toMatch(/\n {2}https {5}https:\/\/0\.0\.0\.0:\d+ /);
    expect(stderr).toContain(
      '  warning   listening on every interface (0.0.0.0): reachable from the network: anyone who can reach this machine can send it requests, and the admin API, which has no authentication, hands the recorded events',
    );
    expect(stderr).toContain('--host 127.0.0.1 keeps it to this machine\n');
  });

  it('keeps an idle connection open longer than Node clients keep theirs (http and https say so)', async () => {
    const cli = await serve(['--https-port', '0'], dir());
    const stderr = await cli.stderrMatching(/\n {2}stop .*\n/);
    const httpsUrl = /https {5}(https:\/\/127\.0\.0\.1:\d+) /.exec(stderr)![1]!;
    const keepAliveOf = (url: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const get = url.startsWith('https:') ? httpsGet : httpGet;
        get(`${url}/_sandbox/health`, { rejectUnauthorized: false }, (res) => {
          res.resume();
          resolve(String(res.headers['keep-alive']));
        }).on('error', reject);
      });
    // Node's fetch keeps an idle connection 4 s and its http agent 5 s: the sandbox closes one after 65 s
    expect(await keepAliveOf(cli.url)).toBe('timeout=65');
    expect(await keepAliveOf(httpsUrl)).toBe('timeout=65');
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('never prints a user’s own secret keys, says "ephemeral", and lists start-up warnings', async () => {
    const cwd = dir();
    writeFileSync(
      path.join(cwd, 'search-sandbox.config.json'),
      JSON.stringify({ accounts: [{ siteId: 'shop01', secretKey: 'TOP-SECRET', feeds: [] }] }),
    );
    const cli = await serve(['--ephemeral'], cwd);
    const stderr = await cli.stderrMatching(/\n {2}stop .*\n/);
    expect(stderr).not.toContain('TOP-SECRET');
    expect(stderr).toContain(
      `            siteId shop01, secret key from ${path.join(cwd, 'search-sandbox.config.json')}, feeds none\n`,
    );
    expect(stderr).toContain(
      '  data      ephemeral (kept in memory, gone when the sandbox stops)\n',
    );

    const data = path.join(cwd, 'torn');
    const first = await serve(['--data', data], cwd);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    appendFileSync(path.join(data, 'events.ndjson'), 'garbled line\n');
    const second = await serve(['--data', data], cwd);
    expect(await second.stderrMatching(/\n {2}stop /)).toMatch(
      /\n {2}warning {3}events journal .*events\.ndjson, line 2: .*skipped/,
    );
  });

  it('exits 0 on SIGINT after answering what it accepted', async () => {
    const cwd = dir();
    const cli = await serve(['--data', 'data'], cwd);
    expect(
      (await postBeacon(cli.url, 'demo42/search/render', render('before-sigint'))).status,
    ).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exit).toBe(0);
    const journal = readFileSync(path.join(cwd, 'data', 'events.ndjson'), 'utf8');
    expect(journal).toContain('"responseId":"before-sigint"');
  });

  it('keeps events across restarts with --data DIR, ids continuing', async () => {
    const cwd = dir();
    const first = await serve(['--data', 'store'], cwd);
    expect((await postBeacon(first.url, 'demo42/search/render', render('one'))).status).toBe(200);
    expect((await postBeacon(first.url, 'demo42/search/render', { context: {} })).status).toBe(400);
    const before = await events(first.url);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    const second = await serve(['--data', path.join(cwd, 'store')], dir());
    expect(await events(second.url)).toEqual(before);
    expect((await postBeacon(second.url, 'demo42/search/render', render('two'))).status).toBe(200);
    const after = await events(second.url);
    expect(after.at(-1)!.seq).toBe(before.at(-1)!.seq + 1);
  });

  it('writes nothing with --ephemeral', async () => {
    const cwd = dir();
    const cli = await serve(['--ephemeral'], cwd);
    expect((await postBeacon(cli.url, 'demo42/search/render', render('ephemeral'))).status).toBe(
      200,
    );
    expect(await events(cli.url)).toHaveLength(1);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--data wins over SEARCH_SANDBOX_EPHEMERAL=true, as a flag wins over the environment', async () => {
    const cwd = dir();
    const cli = spawnCli(['serve', '--port', '0', '--data', 'store'], cwd, {
      SEARCH_SANDBOX_EPHEMERAL: 'true',
    });
    cleanups.push(() => cli.kill());
    await cli.ready;
    expect(await cli.stderrMatching(/\n {2}data +/)).toContain(
      `data      ${path.join(cwd, 'store')}\n`,
    );
    expect((await postBeacon(cli.url, 'demo42/search/render', render('kept'))).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(readFileSync(path.join(cwd, 'store', 'events.ndjson'), 'utf8')).toContain('kept');
  });

  it('uses ./.search-sandbox by default', async () => {
    const cwd = dir();
    const cli = await serve([], cwd);
    expect((await postBeacon(cli.url, 'demo42/search/render', render('default-dir'))).status).toBe(
      200,
    );
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(readFileSync(path.join(cwd, '.search-sandbox', 'events.ndjson'), 'utf8')).toContain(
      'default-dir',
    );
  });
  it('reads a large import in a worker thread inside the built bundle: same answers as on the loop', async () => {
    const cli = await serve(['--ephemeral'], dir());
    const event = (n: number) => searchDraft('render', { n, pad: 'x'.repeat(200) });
    const body = JSON.stringify(Array.from({ length: 3000 }, (_, n) => event(n)));
    expect(body.length).toBeGreaterThan(256 * 1024);
    const ok = await fetch(`${cli.url}/_sandbox/import`, { method: 'POST', body });
    expect(await ok.json()).toMatchObject({ imported: 3000, lastId: 'ev_000003000' });
    const cut = await fetch(`${cli.url}/_sandbox/import`, {
      method: 'POST',
      body: body.slice(0, -5),
    });
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { message: string }).message).toMatch(
      /^nothing was imported: the body is not valid JSON \(/,
    );
  });

  it('judges a large beacon body in a worker thread inside the built bundle: the answers a small one gets', async () => {
    const cli = await serve(['--ephemeral'], dir());
    const threads = () => readdirSync(`/proc/${cli.child.pid}/task`).length;
    const before = threads();
    const items = (n: number, uid: (i: number) => unknown) =>
      Array.from({ length: n }, (_, i) => ({ type: 'product', uid: uid(i), parentId: `p-${i}` }));
    const body = (results: unknown[]) =>
      JSON.stringify({
        ...render('r-large'),
        data: { responseId: 'r-large', results, banners: [] },
      });
    const valid = body(items(3_000, (i) => `product-${i}`));
    const invalid = body(items(3_000, (i) => (i === 2_999 ? 7 : `product-${i}`)));
    expect(valid.length).toBeGreaterThan(65_536);
    const post = (text: string) => postBeacon(cli.url, 'abc123/search/impression', text);
    const ok = await post(valid);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true });
    const bad = await post(invalid);
    expect(bad.status).toBe(400);
    // the messages judging on the loop gives (the worker runs the same code, in the built bundle)
    const onLoop = judgeBodyText('search/impression', invalid).verdict;
    expect(onLoop.ok).toBe(false);
    expect(((await bad.json()) as { messages: string[] }).messages).toEqual(
      'issues' in onLoop ? onLoop.issues.map((i) => i.message) : [],
    );
    expect(onLoop).toMatchObject({ issues: [{ path: 'data.results[2999].uid' }, {}] });
    const broken = await post(valid.slice(0, -1));
    expect([broken.status, ((await broken.json()) as { messages: string[] }).messages]).toEqual([
      400,
      ['invalid JSON POST body'],
    ]);
    expect(threads()).toBeGreaterThan(before);
    const [accepted, rejected] = await events(cli.url);
    // the accepted body is stored parsed, the rejected one as its first 64 KiB of text
    expect((accepted!.body as { data: { results: unknown[] } }).data.results).toHaveLength(3_000);
    expect(typeof rejected!.body).toBe('string');
    expect(rejected!.bodyTruncated).toEqual({ length: invalid.length, kept: 65_536 });
  });
});

describe('search-sandbox serve --help', () => {
  it('prints what serve takes on stdout and exits 0, starting nothing', async () => {
    for (const args of [
      ['serve', '--help'],
      ['serve', '-h'],
      ['--port', '0', '--help'],
    ]) {
      const cwd = dir();
      const { code, stdout, stderr } = await runCli(args, cwd);
      expect([code, stderr], args.join(' ')).toEqual([0, '']);
      expect(stdout, args.join(' ')).toMatch(/^usage: search-sandbox serve \[--port N\]/);
      for (const flag of ['--host', '--data', '--ephemeral', '--config', '--https-port'])
        expect(stdout, flag).toContain(`\n${flag} `);
      expect(readdirSync(cwd)).toEqual([]);
    }
  });
});

describe('search-sandbox serve refuses to start with one line on stderr', () => {
  async function fails(args: string[], cwd = dir()): Promise<string> {
    const { code, stdout, stderr } = await runCli(args, cwd);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    return lines[0]!;
  }

  it('on an unknown flag', async () => {
    expect(await fails(['serve', '--bogus'])).toMatch(/^search-sandbox: .*--bogus/);
  });

  it('on a bad port value', async () => {
    expect(await fails(['serve', '--port', 'eighty'])).toMatch(/--port.*"eighty" is not a port/);
    // a value Node's parser takes for a flag: the flag, the value and what to type, in the tool's words
    expect(await fails(['serve', '--port', '-1'])).toBe(
      'search-sandbox: --port "-1" must be a whole number, 0 or more: give a port (--port 4545; 0 picks a free one) (search-sandbox serve --help)',
    );
    expect(await fails(['serve', '--https-port', '--ephemeral'])).toBe(
      'search-sandbox: --https-port needs a value, but "--ephemeral" follows it, which reads as a flag: give a port for HTTPS (--https-port 4546; 0 picks a free one) (search-sandbox serve --help)',
    );
    expect(await fails(['serve', '--port'])).toMatch(
      /^search-sandbox: --port needs a value: give a port/,
    );
  });

  it('on an empty flag or SEARCH_SANDBOX_* variable, never taken as "not given"', async () => {
    const cwd = dir();
    // every case in a process of its own, started together (each ends at once, or is seen to start)
    const cases: Array<{ name: string; cli: ReturnType<typeof spawnCli>; says: RegExp }> = [];
    for (const [flag, says] of [
      ['--data', /--data is empty: give a directory \(--data DIR\), or --ephemeral/],
      ['--port', /--port is empty: give a port \(--port 4545; 0 picks a free one\)/],
      ['--config', /--config is empty: give a config file/],
      ['--https-port', /--https-port is empty: give a port for HTTPS/],
      ['--host', /--host is empty/],
    ] as const)
      // with --port 0 besides (but for --port itself), so that a sandbox that starts anyway is seen to
      cases.push({
        name: flag,
        cli: spawnCli(['serve', ...(flag === '--port' ? [] : ['--port', '0']), flag, ''], cwd),
        says,
      });
    for (const name of [
      'SEARCH_SANDBOX_DATA',
      'SEARCH_SANDBOX_PORT',
      'SEARCH_SANDBOX_CONFIG',
      'SEARCH_SANDBOX_HTTPS_PORT',
      'SEARCH_SANDBOX_EPHEMERAL',
      'SEARCH_SANDBOX_RETENTION',
    ])
      cases.push({
        name,
        cli: spawnCli(['serve', '--port', '0'], cwd, { [name]: '' }),
        says: new RegExp(
          `^search-sandbox: environment: ${name}: is set but empty: set it to .+, or unset it \\(unset ${name}\\)\n$`,
        ),
      });
    for (const { cli } of cases) cleanups.push(() => cli.kill());
    const codes = await Promise.all(cases.map(({ cli }) => Promise.race([cli.exit, cli.ready])));
    for (const [i, { name, cli, says }] of cases.entries()) {
      expect(codes[i], name).toBe(2);
      expect(cli.stdout(), name).toBe('');
      expect(cli.stderr().trim().split('\n'), name).toHaveLength(1);
      expect(cli.stderr(), name).toMatch(says);
    }
    // nothing was written where the data would have gone
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(path.resolve(__dirname, '../../fixtures/sandbox.lock'))).toBe(false);
  });

  it('on a bad value in the config file or a variable, even when a flag overrides it', async () => {
    const overridden = ' overrides it, but every layer is checked: fix it here or take it out)';
    const cases: Array<{ name: string; config: unknown; env?: NodeJS.ProcessEnv; says: string }> = [
      {
        name: 'file port under --port 0',
        config: { port: 99999 },
        says: 'port: 99999 is not a port: use a whole number from 0 to 65535 (0 picks a free port) (--port',
      },
      {
        name: 'file host under --host',
        config: { host: 'not a host' },
        says: 'host: "not a host" is not a host name or IP address (e.g. 127.0.0.1, 0.0.0.0, ::1) (--host',
      },
      {
        name: 'file httpsPort under the variable',
        config: { httpsPort: -1 },
        env: { SEARCH_SANDBOX_HTTPS_PORT: '0' },
        says: 'httpsPort: -1 is not a port: use a whole number from 0 to 65535 (0 picks a free port) (SEARCH_SANDBOX_HTTPS_PORT',
      },
      {
        name: 'file dataDir under --ephemeral',
        config: { dataDir: 7 },
        says: 'dataDir: must be a non-empty string, got 7',
      },
      {
        name: 'variable under --port 0',
        config: {},
        env: { SEARCH_SANDBOX_PORT: '45x' },
        says: 'environment: SEARCH_SANDBOX_PORT: "45x" is not a port: use a whole number from 0 to 65535 (0 picks a free port) (--port',
      },
    ];
    const started = cases.map((c) => {
      const cwd = dir();
      writeFileSync(path.join(cwd, 'search-sandbox.config.json'), JSON.stringify(c.config));
      const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--ephemeral'];
      const cli = spawnCli(args, cwd, c.env);
      cleanups.push(() => cli.kill());
      return { ...c, cwd, cli };
    });
    const codes = await Promise.all(started.map(({ cli }) => Promise.race([cli.exit, cli.ready])));
    for (const [i, { name, cwd, cli, says }] of started.entries()) {
      expect(codes[i], name).toBe(2);
      expect(cli.stdout(), name).toBe('');
      const line = cli.stderr().trim();
      expect(line.split('\n'), name).toHaveLength(1);
      const where = name.startsWith('variable') ? '' : `${cwd}/search-sandbox.config.json: `;
      expect(line, name).toContain(`search-sandbox: ${where}${says}`);
      if (name !== 'file dataDir under --ephemeral') expect(line, name).toContain(overridden);
    }
  });

  it('on a number written as a string in the config file (a variable is text and is parsed)', async () => {
    const rule = (key: string, value: number, text: string) =>
      `${key}: "${value}" is a string: write it as a JSON number, without quotes ("${key.split('.').pop()}": ${value}); ${text}`;
    const cases: Array<[config: unknown, says: string]> = [
      [{ port: '0' }, rule('port', 0, 'a port is a whole number from 0 to 65535')],
      [{ httpsPort: '4546' }, rule('httpsPort', 4546, 'a port is a whole number from 0 to 65535')],
      [{ retention: { events: '500' } }, rule('retention.events', 500, 'a number of events')],
      [
        { attribution: { windowHours: '24' } },
        rule('attribution.windowHours', 24, 'a number of hours'),
      ],
      [
        { timelines: { orderToleranceMs: '1000' } },
        rule('timelines.orderToleranceMs', 1000, 'a number of milliseconds'),
      ],
      [{ smtp: { host: '127.0.0.1', port: '1025' } }, rule('smtp.port', 1025, 'a port is')],
    ];
    const started = cases.map(([config, says]) => {
      const cwd = dir();
      writeFileSync(path.join(cwd, 'search-sandbox.config.json'), JSON.stringify(config));
      const cli = spawnCli(['serve', '--ephemeral'], cwd);
      cleanups.push(() => cli.kill());
      return { says, cwd, cli };
    });
    // the same text in a variable is a port
    const fromEnv = spawnCli(['serve', '--ephemeral'], dir(), { SEARCH_SANDBOX_PORT: '0' });
    cleanups.push(() => fromEnv.kill());
    const codes = await Promise.all(started.map(({ cli }) => Promise.race([cli.exit, cli.ready])));
    for (const [i, { says, cwd, cli }] of started.entries()) {
      expect(codes[i], says).toBe(2);
      expect(cli.stderr(), says).toContain(
        `search-sandbox: ${cwd}/search-sandbox.config.json: ${says}`,
      );
    }
    expect(await fromEnv.ready).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('on a taken port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as net.AddressInfo).port;
    expect(await fails(['serve', '--port', String(port), '--ephemeral'])).toMatch(
      new RegExp(`port ${port} .*already in use`),
    );
    // the HTTPS listener's port: named as such, with its own flag as the fix
    expect(await fails(['serve', '--port', '0', '--https-port', String(port), '--ephemeral'])).toBe(
      `search-sandbox: HTTPS port ${port} on 127.0.0.1 is already in use: stop the other process or pass --https-port 0 for a free port`,
    );
    // one port for both: said before either listens
    expect(await fails(['serve', '--port', '4999', '--https-port', '4999', '--ephemeral'])).toBe(
      'search-sandbox: --https-port: 4999 is also the HTTP port (--port): HTTPS needs a port of its own, e.g. 5000, or 0 for a free one',
    );
  });

  it('on an unreadable config file', async () => {
    const cwd = dir();
    expect(await fails(['serve', '--config', 'missing.json'], cwd)).toMatch(
      /missing\.json.*cannot read config file \(ENOENT\)/,
    );
    expect(await fails(['serve', '--config', '.'], cwd)).toMatch(
      /cannot read config file \(EISDIR\)/,
    );
  });

  it('on an invalid config file', async () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'broken.json'), '{"port": 80,');
    expect(await fails(['serve', '--config', 'broken.json'], cwd)).toMatch(
      /broken\.json.*not valid JSON/,
    );
    writeFileSync(path.join(cwd, 'wrong.json'), JSON.stringify({ retention: { events: -5 } }));
    expect(await fails(['serve', '--config', 'wrong.json'], cwd)).toMatch(
      /retention\.events.*-5 must be a whole number >= 1/,
    );
  });
});

describe('npm start', () => {
  /** the serve command of package.json's start script, after its build step */
  function startArgs(): string[] {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const serveCommand = pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
    expect(serveCommand.slice(0, 3)).toEqual(['node', 'bin/search-sandbox.js', 'serve']);
    return serveCommand.slice(3);
  }

  async function freePort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it('honours SEARCH_SANDBOX_PORT, and a port given after `npm start --` wins over it', async () => {
    const cwd = dir();
    const fromEnv = await freePort();
    const viaEnv = spawnCli(startArgs(), cwd, { SEARCH_SANDBOX_PORT: String(fromEnv) });
    cleanups.push(() => viaEnv.kill());
    expect(new URL(await viaEnv.ready).port).toBe(String(fromEnv));
    await viaEnv.kill();

    const fromFlag = await freePort();
    const viaFlag = spawnCli([...startArgs(), '--port', String(fromFlag)], dir(), {
      SEARCH_SANDBOX_PORT: String(fromEnv),
    });
    cleanups.push(() => viaFlag.kill());
    expect(new URL(await viaFlag.ready).port).toBe(String(fromFlag));
  });
});

describe('search-sandbox serve started through npm (npx, npm start)', () => {
  /**
   * The sandbox under a shell, as `npm exec` starts it (`sh -c 'search-sandbox' serve …`), with `env` added;
   * the shell is killed as npm's end takes it. Resolves with the sandbox's URL and pid (from its lock).
   */
  async function underShell(env: NodeJS.ProcessEnv) {
    const data = dir();
    const shell = spawn(
      'sh',
      ['-c', `"${process.execPath}" "${CLI}" serve --port 0 --data "${data}"; echo ended`],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    shell.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    await expect.poll(() => /listening on (\S+)/.exec(out)?.[1], { timeout: 20_000 }).toBeTruthy();
    const url = /listening on (\S+)/.exec(out)![1]!;
    // the lock names its owner: the pid, then (on Linux) when it started
    const lock = {
      pid: Number(readFileSync(path.join(data, 'sandbox.lock'), 'utf8').split(/\s/)[0]),
    };
    const alive = () => {
      try {
        process.kill(lock.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    cleanups.push(() => {
      if (alive()) process.kill(lock.pid, 'SIGKILL');
    });
    shell.kill('SIGKILL');
    return { url, data, alive };
  }

  it('stops, flushing and releasing its lock, when the npm that started it is killed', async () => {
    const { data, alive } = await underShell({ npm_command: 'exec' });
    await expect.poll(alive, { timeout: 10_000 }).toBe(false);
    expect(existsSync(path.join(data, 'sandbox.lock'))).toBe(false);
  });

  it('keeps serving when started otherwise and the shell that started it ends (nohup … &)', async () => {
    const { url, alive } = await underShell({ npm_command: undefined });
    await new Promise((r) => setTimeout(r, 2500));
    expect(alive()).toBe(true);
    expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
  });
});
