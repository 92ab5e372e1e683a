// Preloaded into a `serve` child process (`node --import …/crash-preload.mjs`): once the file CRASH_ARM
// exists, the process is killed (SIGKILL, as a power cut would stop it) just before the change to its
// files that comes after CRASH_AT of them: a file put in place (rename), a file removed, a write to a
// file descriptor (the events journal's appends). With CRASH_FAIL=1 that change fails instead (EIO, as a
// failing disk answers) and the process goes on. Temp files written before they are put in place are no
// change anyone reads. Each change made while armed is named on a line of CRASH_LOG, so that a test knows
// how many there were.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

const at = Number(process.env.CRASH_AT ?? Infinity);
const arm = process.env.CRASH_ARM;
const log = process.env.CRASH_LOG;
const { existsSync, appendFileSync } = fs;
let made = 0;
/** the log's own writes are not the process's changes */
let logging = false;

const fail = process.env.CRASH_FAIL === '1';

/** Whether this change fails (CRASH_FAIL); kills the process when it is the one to stop before. */
function change(what, file) {
  if (logging || !arm || !existsSync(arm)) return false;
  if (made === at && !fail) process.kill(process.pid, 'SIGKILL');
  const fails = made === at;
  made++;
  logging = true;
  try {
    if (log) appendFileSync(log, `${what} ${String(file)}\n`);
  } finally {
    logging = false;
  }
  return fails;
}

function failure(what, file) {
  return Object.assign(new Error(`EIO: i/o error, ${what} '${String(file)}' (test)`), {
    code: 'EIO',
    path: typeof file === 'string' ? file : undefined,
  });
}

function wrap(target, name, what, promised) {
  const original = target[name];
  target[name] = function (first, ...rest) {
    if (change(what, first)) {
      if (promised) return Promise.reject(failure(what, first));
      throw failure(what, first);
    }
    return original.call(this, first, ...rest);
  };
}

wrap(fsp, 'rename', 'rename', true);
wrap(fsp, 'rm', 'remove', true);
wrap(fsp, 'unlink', 'remove', true);
wrap(fs, 'renameSync', 'rename', false);
wrap(fs, 'rmSync', 'remove', false);
wrap(fs, 'unlinkSync', 'remove', false);
wrap(fs, 'writeSync', 'write', false);
syncBuiltinESMExports();
