// The package's programmatic API (`import { startSandbox, connectSandbox } from 'search-sandbox'`):
// an in-process sandbox on a free port, or a client of one started elsewhere; both speak the admin API.
import { sandboxOrigin } from '../../shared/sandbox-url.js';
import {
  configFromObject,
  envSaysEphemeral,
  envValue,
  loadConfig,
  type ConfigOverrides,
  type OverrideNames,
} from '../config.js';
import { createSandbox, ListenError } from '../sandbox.js';
import { DataDirError } from '../store/data-dir-error.js';
import { SandboxClient } from './client.js';
import type { StartOptions } from './types.js';

export { SandboxClient, SandboxApiError } from './client.js';
export type * from './types.js';

/** A sandbox running in this process: the client plus `close()`, which stops it. */
export interface StartedSandbox extends SandboxClient {
  readonly port: number;
  /** Stop the sandbox: closes its listener and flushes its data (if it has a dataDir). */
  close(): Promise<void>;
}

const OPTION_KEYS = ['port', 'host', 'config', 'dataDir'];

/** The options as a user of the package writes them, for the errors that name one (not `serve`'s flags). */
const OPTION_NAMES: OverrideNames = {
  port: 'startSandbox({ port })',
  host: 'startSandbox({ host })',
  httpsPort: 'httpsPort',
  data: 'startSandbox({ dataDir })',
  config: 'startSandbox({ config })',
};

/** What a data-directory error advises instead, in the package's words. */
const OTHER_DATA_DIR =
  'or pass startSandbox another dataDir, or leave dataDir out to keep everything in memory';

/** A start-up error that names a CLI flag, reworded for the package's options. */
function inOptionWords(err: unknown): unknown {
  if (err instanceof DataDirError) return err.otherwise(OTHER_DATA_DIR);
  if (err instanceof ListenError && err.listener === 'port')
    return err.askingFreePortWith('port: 0 to startSandbox');
  return err;
}

/**
 * Start a sandbox in this process on a free port (ephemeral unless `dataDir`). Config as for
 * `search-sandbox serve`: defaults < config (file or object; else ./search-sandbox.config.json, else
 * the demo fixtures) < SEARCH_SANDBOX_* environment < these options.
 */
export async function startSandbox(options: StartOptions = {}): Promise<StartedSandbox> {
  if (!options || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError('startSandbox(options): options must be an object, e.g. { port: 0 }');
  const unknown = Object.keys(options).find((k) => !OPTION_KEYS.includes(k));
  if (unknown)
    throw new TypeError(
      `startSandbox: unknown option "${unknown}"; allowed: ${OPTION_KEYS.join(', ')}`,
    );
  const { config, dataDir } = options;
  if (
    config !== undefined &&
    typeof config !== 'string' &&
    (typeof config !== 'object' || config === null)
  )
    throw new TypeError(
      `startSandbox: config ${JSON.stringify(config)} must be a file path or a config object`,
    );
  if (dataDir !== undefined && dataDir !== null && typeof dataDir !== 'string')
    throw new TypeError(
      `startSandbox: dataDir ${JSON.stringify(dataDir)} must be a directory path, e.g. './.search-sandbox' (leave it out to keep everything in memory)`,
    );
  const flags: ConfigOverrides = {
    ...whereFromEnvironment(options, process.env),
    host: options.host,
    config: typeof config === 'string' ? config : undefined,
    names: OPTION_NAMES,
  };
  const resolved =
    config !== undefined && typeof config === 'object'
      ? configFromObject(config, flags)
      : loadConfig(flags);
  const sandbox = await createSandbox(resolved).catch((err: unknown) => {
    throw inOptionWords(err);
  });
  const client = new SandboxClient(sandbox.url) as SandboxClient & { port: number };
  Object.defineProperty(client, 'port', { value: sandbox.port, enumerable: true });
  client.close = () => sandbox.close();
  return client as StartedSandbox;
}

/**
 * The port and data directory of a test's sandbox: the option when given; else SEARCH_SANDBOX_PORT and
 * SEARCH_SANDBOX_DATA / SEARCH_SANDBOX_EPHEMERAL when set (the environment's layer, below the options);
 * else a free port and memory. The config file's `port` and `dataDir` are `serve`'s (checked, not used):
 * a test started beside a running `serve` must not take its port or lock its data directory.
 */
function whereFromEnvironment(
  options: StartOptions,
  env: NodeJS.ProcessEnv,
): Pick<ConfigOverrides, 'port' | 'data' | 'ephemeral'> {
  const { port, dataDir } = options;
  if (port !== undefined && typeof port !== 'number')
    throw new TypeError(
      `startSandbox: port ${JSON.stringify(port)} must be a number, e.g. { port: 0 } for a free port`,
    );
  const envPort = envValue(env, 'SEARCH_SANDBOX_PORT');
  const fromEnv = envValue(env, 'SEARCH_SANDBOX_DATA') !== undefined || envSaysEphemeral(env);
  return {
    // undefined: the environment's value applies (loadConfig checks and names it)
    port: port ?? (envPort === undefined ? 0 : undefined),
    // null, as undefined: none, everything in memory (not the serve default, ./.search-sandbox)
    ...(typeof dataDir === 'string'
      ? { data: dataDir, ephemeral: false }
      : dataDir === null || !fromEnv
        ? { ephemeral: true }
        : {}),
  };
}

/** A client of a sandbox started elsewhere (`npx search-sandbox serve`, the desktop app, a CI service). */
export function connectSandbox(url: string): SandboxClient {
  const address = sandboxOrigin(url);
  if ('problem' in address) throw new TypeError(`connectSandbox: ${address.problem}`);
  return new SandboxClient(address.origin);
}
