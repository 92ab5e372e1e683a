// Starting the sandbox for the desktop app: the same config loader and createSandbox the CLI uses,
// with the data in userData and a fallback to a free port (said out loud) when the wanted one is taken.
import net, { type AddressInfo } from 'node:net';
import { envSaysEphemeral, loadConfig, type SandboxConfig } from '../config';
import { ListenError, type Sandbox, type SandboxOptions } from '../sandbox';
import type { DesktopSettings } from './settings';

export type StartSandbox = (config: SandboxConfig, options: SandboxOptions) => Promise<Sandbox>;

export interface DesktopStart {
  sandbox: Sandbox;
  /** set when the sandbox is not on the port the user asked for, and why */
  portNotice: string | null;
}

/**
 * The desktop app's config: a `search-sandbox.config.json` in userData (or SEARCH_SANDBOX_CONFIG),
 * else the demo fixtures; data in userData unless the environment says otherwise; the port from the
 * desktop settings unless SEARCH_SANDBOX_PORT is set.
 */
export function desktopConfig(
  userData: string,
  settings: DesktopSettings,
  env: NodeJS.ProcessEnv,
): SandboxConfig {
  // userData is the app's default, not a flag the user gave: SEARCH_SANDBOX_DATA or
  // SEARCH_SANDBOX_EPHEMERAL=true in the environment win over it
  return loadConfig(
    {
      data: env.SEARCH_SANDBOX_DATA || envSaysEphemeral(env) ? undefined : userData,
      port: env.SEARCH_SANDBOX_PORT ? undefined : settings.port,
    },
    env,
    userData,
  );
}

export function isPortTaken(err: unknown): boolean {
  return err instanceof ListenError && err.code === 'EADDRINUSE';
}

/**
 * Start on the configured port; if another process holds it, start on a free port instead and put a
 * notice among the core's start-up warnings (GET /_sandbox/health → the UI) — never fail silently.
 */
export async function startWithPortFallback(
  config: SandboxConfig,
  options: SandboxOptions,
  start: StartSandbox,
  settingsFile: string,
): Promise<DesktopStart> {
  try {
    return { sandbox: await start(config, options), portNotice: null };
  } catch (err) {
    if (!isPortTaken(err) || config.port === 0) throw err;
    const wanted = config.port;
    // A free port is picked first so the notice can name it before the core is built; another
    // process may grab it in between, hence a few attempts.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort(config.host);
      const notice = portFallbackNotice(wanted, port, settingsFile);
      try {
        const sandbox = await start(
          { ...config, port },
          { ...options, warnings: [...(options.warnings ?? []), notice] },
        );
        return { sandbox, portNotice: notice };
      } catch (retryErr) {
        if (!isPortTaken(retryErr) || attempt >= 3) throw retryErr;
      }
    }
  }
}

export function portFallbackNotice(wanted: number, port: number, settingsFile: string): string {
  return (
    `Port ${wanted} was already in use, so the sandbox started on port ${port} instead. ` +
    `Point storefronts and scripts at port ${port}, or stop the program holding port ${wanted} and restart the app ` +
    `(the desktop app's port is set in ${settingsFile}).`
  );
}

/** A port nobody listens on right now, from the OS. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
