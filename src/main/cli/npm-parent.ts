// A sandbox started through npm (`npx search-sandbox serve`, `npm start`) runs under `npm exec` or `npm run`
// and the shell npm starts it with. `kill` of npm ends npm and that shell but not the sandbox: npm passes
// the signal to the shell, and the shell does not pass it on, so the sandbox would keep the port and the
// data directory's lock with nothing left to stop it. Started so, it stops itself when the process it was
// started under goes away. Started any other way (its own binary, `nohup … &`, a service manager) it does
// not watch: a shell that exits after starting it in the background is not asking it to stop.

/** How often the parent is looked at: a stop a second late is fine; the check costs nothing. */
const EVERY_MS = 1000;

/** What npm sets in the environment of what `npm exec` / `npx` and `npm run` start. */
const NPM_COMMANDS = new Set(['exec', 'run-script', 'run', 'start', 'test']);

/**
 * Calls `onGone` once when the process this one was started under has ended (its parent pid changed), when
 * npm started it (`env.npm_command`); returns what stops watching. The timer never keeps the process alive.
 */
export function watchNpmParent(
  env: NodeJS.ProcessEnv,
  onGone: (command: string) => void,
  ppid: () => number = () => process.ppid,
  every = EVERY_MS,
): () => void {
  const command = env.npm_command;
  if (command === undefined || !NPM_COMMANDS.has(command)) return () => undefined;
  const first = ppid();
  const timer = setInterval(() => {
    if (ppid() === first) return;
    clearInterval(timer);
    onGone(command === 'exec' ? 'npx (npm exec)' : `npm ${command}`);
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
