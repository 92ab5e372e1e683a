// The headless commands: `serve` runs the sandbox, `check` runs the timeline rules offline, `diff` compares
// two recordings.
// Bad input ends in one line on stderr and a non-zero exit, never a stack trace.
import path from 'node:path';
import { loadConfig, ConfigError } from '../config';
import type { Sandbox } from '../sandbox';
import { ListenError } from '../listen-error';
import { VERSION } from '../version';
import { listenOrigin, readyBanner } from './ready-banner';
import { parseFlags, UsageError, type FlagValues } from '../base/flags';
import { DataDirError } from '../store/data-dir-error';
import { onStdoutGone, writeStdout } from '../base/stdout';
import { watchNpmParent } from './npm-parent';
import { didYouMean } from '../../shared/nearest';

const COMMANDS = ['serve', 'check', 'diff', 'tail'];

/**
 * Every command's usage on one screen. Each command keeps its own (`CHECK_USAGE`, …) for its errors and
 * its --help, loaded only when it runs; test/unit/cli-help.test.ts holds the flags of both together.
 */
export const USAGE = `usage:
  search-sandbox [serve] [--port N] [--host H] [--data DIR | --ephemeral] [--config FILE] [--https-port N]
      the sandbox (default port 4545; --port 0 picks a free one); without a config file or
      ./search-sandbox.config.json it runs the demo fixtures
  search-sandbox check FILE...|- [--format text|json|junit] [--fail-on error|warning|info] [--rule RULE=LEVEL]...
                 [--config FILE] [--catalog SITE=FILE]...
      offline check of recorded beacon traffic (NDJSON, a sandbox export or a HAR);
      exit 1 when a page has a finding at or above --fail-on (default error)
  search-sandbox check FILE... --readiness [--expect ID|AREA]... [--config FILE] [--format text|json]
      each site's readiness: every behaviour of the provider's client ok, with findings, unseen or n/a;
      exit 1 when an expected behaviour or area is unseen or has findings at or above --fail-on
      (the pages are not gated: the last line says how many fail, and the command that gates them)
  search-sandbox diff BASE CURRENT [--format text|json] [--ignore PATH]...
      compares two recordings of one journey (or a baseline file) and names what changed;
      exit 0 = the same tracking, 1 = differences, 2 = unreadable input or bad flags
  search-sandbox tail [--url URL] [--site SITEID] [--findings] [--json] [--backlog N]
      a running sandbox's beacons as they arrive, one line each, coloured by verdict;
      --findings adds a line whenever a page's verdict or findings change
  search-sandbox --version | --help`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    console.log(VERSION);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  // bare `npx search-sandbox` (and flags alone) serve, as `npm start` does
  if (command === undefined || command.startsWith('--')) return serve(argv);
  if (command === 'serve') return serve(rest);
  if (command === 'check') {
    const [{ runCheck }, { tuneHeapForCheck }] = await Promise.all([
      import('../check/cli'),
      import('../heap'),
    ]);
    tuneHeapForCheck();
    return runCheck(rest);
  }
  if (command === 'diff') {
    const [{ runDiff }, { tuneHeapForCheck }] = await Promise.all([
      import('../baseline/cli'),
      import('../heap'),
    ]);
    // diff holds both recordings' compared text for its whole run, as check holds its open pages
    tuneHeapForCheck();
    return runDiff(rest);
  }
  if (command === 'tail') {
    const { runTail } = await import('./tail');
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    // a reader that went away (`tail | grep -m1 …`) ends the following, as Ctrl-C does
    onStdoutGone(() => stop.abort());
    return runTail(rest, {
      out: writeStdout,
      err: (t) => process.stderr.write(t),
      color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
      signal: stop.signal,
    });
  }
  throw new UsageError(
    `unknown command "${command}": ${didYouMean(command, COMMANDS)}use "serve", "check", "diff" or "tail" (search-sandbox --help)`,
  );
}

const SERVE_FLAGS = {
  port: { type: 'string', count: true, empty: 'a port (--port 4545; 0 picks a free one)' },
  host: { type: 'string', empty: 'an address to listen on (--host 127.0.0.1)' },
  data: {
    type: 'string',
    empty: 'a directory (--data DIR), or --ephemeral to keep everything in memory',
  },
  ephemeral: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  config: { type: 'string', empty: 'a config file (--config search-sandbox.config.json)' },
  'https-port': {
    type: 'string',
    empty: 'a port for HTTPS (--https-port 4546; 0 picks a free one)',
  },
} as const;

export const SERVE_USAGE =
  'usage: search-sandbox serve [--port N] [--host H] [--data DIR | --ephemeral] [--config FILE] [--https-port N]';

const SERVE_HELP = `${SERVE_USAGE}
Runs the sandbox: the UI, tracking (beacon v2), bulk indexing and the admin API on one port. When ready
it prints one line on stdout, "search-sandbox listening on http://HOST:PORT", then where everything is
on stderr. Ctrl-C (or SIGTERM) answers what it accepted, flushes and exits 0.
--port N        the port (default 4545; 0 picks a free one)
--host H        the address to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)
--data DIR      where events and feeds are kept (default ./.search-sandbox)
--ephemeral     keep everything in memory instead
--config FILE   a config file (default ./search-sandbox.config.json, else the demo fixtures)
--https-port N  an HTTPS listener too, with a self-signed certificate
Each flag wins over its SEARCH_SANDBOX_* variable, which wins over the config file. Bad flags, a taken
port or a bad config file: exit 2; a data directory it cannot use: exit 1.
`;

function parseServeFlags(args: string[]): FlagValues<typeof SERVE_FLAGS> {
  try {
    return parseFlags(args, SERVE_FLAGS, false).values;
  } catch (err) {
    if (err instanceof UsageError) err.message += ' (search-sandbox serve --help)';
    throw err;
  }
}

async function serve(args: string[]): Promise<number> {
  const flags = parseServeFlags(args);
  if (flags.help) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  const config = loadConfig({
    port: flags.port,
    host: flags.host,
    data: flags.data,
    ephemeral: flags.ephemeral,
    config: flags.config,
    httpsPort: flags['https-port'],
  });
  // a million stored events must not cost four times their heap in RSS (src/main/heap.ts)
  const { capHeapGrowth, compactAfterReplay } = await import('../heap');
  capHeapGrowth();
  // the server (express, TLS, the UI) is loaded by `serve` only: `check`, `diff` and `tail` start without it
  const { createSandbox } = await import('../sandbox');
  const sandbox: Sandbox = await createSandbox(config, { afterReplay: compactAfterReplay });
  // Signals are handled before the ready line goes out: a script may stop the sandbox the moment it reads it.
  const stopped = new Promise<void>((resolve) => {
    let unwatch = () => {};
    const stop = (why: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      unwatch();
      process.stderr.write(`search-sandbox: ${why}, flushing and closing\n`);
      sandbox.close().then(resolve, (err) => {
        process.stderr.write(`search-sandbox: error while closing: ${(err as Error).message}\n`);
        resolve();
      });
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    unwatch = watchNpmParent(process.env, (npm) => stop(`${npm}, which started it, ended`));
  });
  try {
    // the host it listens on, as given: 0.0.0.0 is every interface, not only 127.0.0.1 (the banner says
    // what that exposes)
    const url = listenOrigin('http', config.host, sandbox.port);
    const httpsPort = sandbox.httpsUrl ? Number(new URL(sandbox.httpsUrl).port) : null;
    const banner = readyBanner({
      config,
      url,
      httpsUrl: httpsPort === null ? null : listenOrigin('https', config.host, httpsPort),
      certPath: config.dataDir ? path.join(config.dataDir, 'tls', 'cert.pem') : null,
      warnings: sandbox.core.warnings(),
    });
    process.stdout.write(`search-sandbox listening on ${url}\n`);
    // stdout keeps its one ready line for scripts; what a person reads goes to stderr
    process.stderr.write(`${banner}\n`);
  } catch (err) {
    // a start that fails this late still closes what it opened (the data directory's lock), not hangs
    await sandbox.close().catch(() => undefined);
    throw err;
  }
  await stopped;
  return 0;
}

/** Run as a process: map errors to one line and an exit code. */
export function run(argv: string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      // a problem with the data directory is the environment's, not the command line's: exit 1
      if (err instanceof DataDirError) {
        process.stderr.write(`search-sandbox: cannot start: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      const known =
        err instanceof UsageError || err instanceof ConfigError || err instanceof ListenError;
      process.stderr.write(
        `search-sandbox: ${known ? (err as Error).message : `unexpected error: ${(err as Error)?.stack ?? String(err)}`}\n`,
      );
      process.exitCode = 2;
    },
  );
}
