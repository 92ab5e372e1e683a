// Run the built headless CLI (out/main/cli.js) as a child process, for process-level tests.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../out/main/cli.js',
);
const READY = /^search-sandbox listening on (http:\/\/\S+)$/;

export interface CliProcess {
  child: ChildProcess;
  /** resolves with the URL from the ready line; rejects if the process ends first */
  ready: Promise<string>;
  /** set once ready */
  url: string;
  /** exit code (a signal death counts as 128 + its number, as a shell reports it) */
  exit: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** resolves with stderr once it matches `pattern`; rejects if the process ends first */
  stderrMatching(pattern: RegExp): Promise<string>;
  /** SIGKILL if still running, and wait for it */
  kill(): Promise<void>;
}

const SIGNALS: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * How to run the process so file permissions apply. Root ignores them through two capabilities
 * (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): a test running as root drops those for the child with
 * `setpriv`, and stays root, so the child can still read the checkout wherever it is cloned (running
 * as `nobody` failed when the checkout sat in a directory other users cannot enter).
 */
export interface RunAs {
  obeyFilePermissions?: boolean;
  /** the umask the process starts with (through `sh -c 'umask …; exec …'`) */
  umask?: number;
}

/** What a test passes to make chmod mean to the child what it means to an ordinary user. */
export const unprivileged: RunAs = process.getuid?.() === 0 ? { obeyFilePermissions: true } : {};

export function spawnCli(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  runAs: RunAs = {},
): CliProcess {
  return spawnProcess(process.execPath, [CLI, ...args], cwd, env, runAs);
}

/** Any command that prints the sandbox's ready line (e.g. an installed package's bin). */
export function spawnProcess(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  runAs: RunAs = {},
): CliProcess {
  // A clean environment: no SEARCH_SANDBOX_* from the developer's shell may change what is tested.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SEARCH_SANDBOX_')),
  );
  let [file, argv] = runAs.obeyFilePermissions
    ? ['setpriv', ['--bounding-set=-dac_override,-dac_read_search', '--', command, ...args]]
    : [command, args];
  if (runAs.umask !== undefined)
    [file, argv] = [
      'sh',
      ['-c', `umask ${runAs.umask.toString(8)}; exec "$0" "$@"`, file, ...argv],
    ];
  const child = spawn(file, argv, {
    cwd,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exit = new Promise<number>((resolve) => {
    // 'close', not 'exit': by then stdout and stderr are fully read.
    child.on('close', (code, signal) => resolve(code ?? 128 + (SIGNALS[signal ?? ''] ?? 0)));
  });
  const proc: CliProcess = {
    child,
    url: '',
    exit,
    ready: new Promise<string>((resolve, reject) => {
      const onData = () => {
        const line = out.split('\n')[0]!;
        const m = out.includes('\n') ? READY.exec(line) : null;
        if (m) {
          child.stdout!.off('data', onData);
          proc.url = m[1]!;
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', onData);
      void exit.then((code) =>
        reject(
          new Error(
            `search-sandbox exited with ${code} before it was ready: ${err.trim() || out.trim()}`,
          ),
        ),
      );
    }),
    stdout: () => out,
    stderr: () => err,
    stderrMatching: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(err)) return;
          child.stderr!.off('data', check);
          resolve(err);
        };
        child.stderr!.on('data', check);
        check();
        void exit.then(() => reject(new Error(`exited; stderr never matched ${pattern}: ${err}`)));
      }),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
  proc.ready.catch(() => undefined);
  return proc;
}

/** Run to completion (for commands that are expected to end by themselves). */
export async function runCli(
  args: string[],
  cwd: string,
  runAs: RunAs = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = spawnCli(args, cwd, {}, runAs);
  const code = await proc.exit;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

/**
 * `check` or `diff` run as its function in this process, from `cwd` as a process started there would run it
 * (relative names are read from there): the code the process would exit with, and what it would write to
 * stdout and stderr. A process costs ~0.35 s of CPU, most of it loading the bundle; runCli is for where the
 * process itself is the point (its exit as a shell sees it, the bin's wiring). The tests of a file run one
 * after another, so the working directory is this call's until it returns.
 */
export async function runHere(
  command: 'check' | 'diff',
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { runCheck } = await import('../../src/main/check/cli');
  const { runDiff } = await import('../../src/main/baseline/cli');
  const { captured } = await import('../helpers/check');
  const from = process.cwd();
  process.chdir(cwd);
  try {
    const { code, out, err } = await captured(
      command === 'check' ? runCheck : runDiff,
      args,
      Date.now,
    );
    return { code, stdout: out, stderr: err };
  } finally {
    process.chdir(from);
  }
}
