// The SEARCH_SANDBOX_* layer as real processes see it: `serve` refuses two variables that contradict each
// other and a SEARCH_SANDBOX_CONFIG it cannot read even when --config overrides it, and the package's
// startSandbox() honours SEARCH_SANDBOX_PORT and SEARCH_SANDBOX_DATA when its options leave them out.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sandbox';
import { CLI, spawnCli } from './cli-process';

const API = path.join(path.dirname(CLI), 'api.js');

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  if (!existsSync(CLI) || !existsSync(API))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

function dir(): string {
  const t = tempDir('config-env-');
  cleanups.push(t.cleanup);
  return t.dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Run `startSandbox(options)` in a node process of its own with `env`: what it reports, or its error. */
function startIn(env: NodeJS.ProcessEnv, options: string, cwd: string): Promise<string> {
  const script = `
    import { startSandbox } from ${JSON.stringify(API)};
    try {
      const s = await startSandbox(${options});
      const health = await (await fetch(s.url + '/_sandbox/health')).json();
      console.log(JSON.stringify({ port: s.port, dataDir: health.dataDir }));
      await s.close();
    } catch (err) {
      console.log(JSON.stringify({ error: err.name + ': ' + err.message }));
    }`;
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SEARCH_SANDBOX_')),
  );
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise((resolve) => child.on('close', () => resolve(out.trim())));
}

describe('serve with SEARCH_SANDBOX_* variables', () => {
  it('refuses SEARCH_SANDBOX_EPHEMERAL=true beside SEARCH_SANDBOX_DATA, as it refuses the two flags', async () => {
    const cwd = dir();
    const data = path.join(cwd, 'kept');
    const cli = spawnCli(['serve', '--port', '0'], cwd, {
      SEARCH_SANDBOX_EPHEMERAL: 'true',
      SEARCH_SANDBOX_DATA: data,
    });
    cleanups.push(() => cli.kill());
    expect(await cli.exit).toBe(2);
    expect(cli.stderr()).toContain(
      `search-sandbox: environment: SEARCH_SANDBOX_DATA: "${data}" and SEARCH_SANDBOX_EPHEMERAL=true exclude each other: pick one`,
    );
    expect(cli.stdout()).toBe('');
  });

  it('checks the file SEARCH_SANDBOX_CONFIG names though --config overrides it', async () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'ok.json'), '{}');
    const missing = path.join(cwd, 'nonexistent.json');
    const cli = spawnCli(['serve', '--port', '0', '--ephemeral', '--config', 'ok.json'], cwd, {
      SEARCH_SANDBOX_CONFIG: missing,
    });
    cleanups.push(() => cli.kill());
    expect(await cli.exit).toBe(2);
    expect(cli.stderr()).toContain(
      `search-sandbox: environment: SEARCH_SANDBOX_CONFIG: ${missing}: cannot read config file (ENOENT) (--config overrides it, but every layer is checked`,
    );
  });
});

describe('startSandbox() and the environment', () => {
  it('takes the port and data directory from SEARCH_SANDBOX_PORT and SEARCH_SANDBOX_DATA when no option gives them', async () => {
    const cwd = dir();
    const port = await freePort();
    const data = path.join(cwd, 'data');
    const env = { SEARCH_SANDBOX_PORT: String(port), SEARCH_SANDBOX_DATA: data };
    expect(JSON.parse(await startIn(env, '', cwd))).toEqual({ port, dataDir: data });
    expect(existsSync(path.join(data, 'indexing.json'))).toBe(true);
  });

  it('lets its options win over those variables, and refuses them contradicting each other', async () => {
    const cwd = dir();
    const port = await freePort();
    const env = { SEARCH_SANDBOX_PORT: String(port), SEARCH_SANDBOX_DATA: path.join(cwd, 'data') };
    const started = JSON.parse(await startIn(env, '{ port: 0, dataDir: null }', cwd)) as {
      port: number;
      dataDir: string | null;
    };
    expect(started.dataDir).toBeNull();
    expect(started.port).not.toBe(port);
    expect(existsSync(path.join(cwd, 'data'))).toBe(false);
    const both = { ...env, SEARCH_SANDBOX_EPHEMERAL: 'true' };
    expect(JSON.parse(await startIn(both, '', cwd)).error).toMatch(
      /^ConfigError: environment: SEARCH_SANDBOX_DATA: .* and SEARCH_SANDBOX_EPHEMERAL=true exclude each other/,
    );
  });

  it('refuses a port given as text, naming the option', async () => {
    expect(JSON.parse(await startIn({}, "{ port: '0' }", dir())).error).toBe(
      'TypeError: startSandbox: port "0" must be a number, e.g. { port: 0 } for a free port',
    );
  });
});
