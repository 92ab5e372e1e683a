// Starting the sandbox for the desktop app: config from userData, and the port-conflict fallback that
// tells the user (through GET /_sandbox/health) instead of failing or moving silently.
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSandbox, ListenError, type Sandbox } from '../../src/main/sandbox';
import {
  desktopConfig,
  freePort,
  startWithPortFallback,
  type StartSandbox,
} from '../../src/main/desktop/sandbox-start';
import { tempDir, testConfig } from '../helpers/sandbox';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function userDataDir(): string {
  const t = tempDir('desktop-start-');
  cleanups.push(t.cleanup);
  return t.dir;
}

/** Hold a port the way another program would. */
async function occupyPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

const start: StartSandbox = async (config, options) => {
  const sandbox = await createSandbox(config, { ...options, rendererDir: null });
  cleanups.push(() => sandbox.close());
  return sandbox;
};

describe('desktop config', () => {
  it('keeps data in userData, uses the demo fixtures, and the port from the settings', () => {
    const userData = userDataDir();
    const config = desktopConfig(userData, { port: 4600, notifications: true }, {});
    expect(config.dataDir).toBe(userData);
    expect(config.port).toBe(4600);
    expect(config.configSource).toBe('demo fixtures');
    expect(config.accounts.map((a) => a.siteId)).toEqual(['demo42']);
  });

  it('defaults to port 4545 and reads search-sandbox.config.json from userData', () => {
    const userData = userDataDir();
    writeFileSync(
      path.join(userData, 'search-sandbox.config.json'),
      JSON.stringify({ accounts: [{ siteId: 'shop01', secretKey: 'k', feeds: [] }] }),
    );
    const config = desktopConfig(userData, { notifications: true }, {});
    expect(config.port).toBe(4545);
    expect(config.configSource).toBe(path.join(userData, 'search-sandbox.config.json'));
    expect(config.accounts.map((a) => a.siteId)).toEqual(['shop01']);
  });

  it('lets the environment override port and data, as for the CLI', () => {
    const userData = userDataDir();
    const config = desktopConfig(
      userData,
      { port: 4600, notifications: true },
      { SEARCH_SANDBOX_PORT: '4700', SEARCH_SANDBOX_EPHEMERAL: 'true' },
    );
    expect(config.port).toBe(4700);
    expect(config.dataDir).toBeNull();
  });

  it('keeps data in userData when SEARCH_SANDBOX_EPHEMERAL is false, and moves it with SEARCH_SANDBOX_DATA', () => {
    const userData = userDataDir();
    expect(
      desktopConfig(userData, { notifications: true }, { SEARCH_SANDBOX_EPHEMERAL: 'false' })
        .dataDir,
    ).toBe(userData);
    const elsewhere = path.join(userData, 'elsewhere');
    expect(
      desktopConfig(userData, { notifications: true }, { SEARCH_SANDBOX_DATA: elsewhere }).dataDir,
    ).toBe(elsewhere);
  });
});

describe('port-conflict fallback', () => {
  it('starts on the wanted port when it is free, with no notice', async () => {
    const port = await freePort('127.0.0.1');
    const { sandbox, portNotice } = await startWithPortFallback(
      testConfig({ port }),
      {},
      start,
      '/x/desktop-settings.json',
    );
    expect(portNotice).toBeNull();
    expect(sandbox.port).toBe(port);
    const health = (await (await fetch(`${sandbox.url}/_sandbox/health`)).json()) as {
      warnings: string[];
    };
    expect(health.warnings).toEqual([]);
  });

  it('falls back to a free port when the wanted one is taken and says so in health', async () => {
    const taken = await occupyPort();
    const { sandbox, portNotice } = await startWithPortFallback(
      testConfig({ port: taken }),
      { warnings: ['an earlier start-up warning'] },
      start,
      '/home/u/.config/Search Sandbox/desktop-settings.json',
    );
    expect(sandbox.port).not.toBe(taken);
    expect(portNotice).toBe(
      `Port ${taken} was already in use, so the sandbox started on port ${sandbox.port} instead. ` +
        `Point storefronts and scripts at port ${sandbox.port}, or stop the program holding port ${taken} and restart the app ` +
        `(the desktop app's port is set in /home/u/.config/Search Sandbox/desktop-settings.json).`,
    );
    const res = await fetch(`${sandbox.url}/_sandbox/health`);
    expect(res.status).toBe(200);
    const health = (await res.json()) as { warnings: string[] };
    expect(health.warnings).toEqual(['an earlier start-up warning', portNotice]);
  });

  it('does not hide other start-up errors behind a fallback', async () => {
    const failing: StartSandbox = async () => {
      throw new ListenError(
        'EADDRNOTAVAIL',
        4545,
        '10.9.9.9',
        'port',
        'cannot listen on host 10.9.9.9: it is not an address of this machine (use 127.0.0.1)',
      );
    };
    await expect(
      startWithPortFallback(testConfig({ port: 4545 }), {}, failing, 'f'),
    ).rejects.toThrow(/cannot listen on host/);
  });

  it('gives up after a few attempts when every fallback port is snatched too', async () => {
    let calls = 0;
    const alwaysTaken: StartSandbox = async (config) => {
      calls++;
      throw new ListenError(
        'EADDRINUSE',
        config.port,
        '127.0.0.1',
        'port',
        `port ${config.port} on 127.0.0.1 is already in use: stop the other process or pass --port 0 for a free port`,
      );
    };
    await expect(
      startWithPortFallback(testConfig({ port: 4545 }), {}, alwaysTaken, 'f'),
    ).rejects.toThrow(/already in use/);
    expect(calls).toBe(4); // the wanted port, then three free ones
  });

  it('the sandbox it starts is the real one (health answers, data dir as configured)', async () => {
    const userData = userDataDir();
    const config = { ...desktopConfig(userData, { port: 0, notifications: true }, {}) };
    const { sandbox } = await startWithPortFallback(config, {}, start, 'f');
    const health = (await (await fetch(`${sandbox.url}/_sandbox/health`)).json()) as {
      status: string;
      dataDir: string;
    };
    expect(health).toMatchObject({ status: 'ok', dataDir: userData });
    expect((sandbox as Sandbox).core.config.dataDir).toBe(userData);
  });
});
