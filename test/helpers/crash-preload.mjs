// Preloaded into a `serve` child process (`node --import …/crash-preload.mjs`): once the file CRASH_ARM
// exists, the process is killed (SIGKILL, as a power cut would stop it) just before the change to its
// files that comes after CRASH_AT of them: a file put in place (rename), a file removed, a write to a
// file descriptor (the events journal's appends). Temp files written before they are put in place are no
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

function change(what, file) {
  if (logging || !arm || !existsSync(arm)) return;
  if (made === at) process.kill(process.pid, 'SIGKILL');
  made++;
  logging = true;
  try {
    if (log) appendFileSync(log, `${what} ${String(file)}\n`);
  } finally {
    logging = false;
  }
}

function wrap(target, name, what) {
  const original = target[name];
  target[name] = function (first, ...rest) {
    change(what, first);
    return original.call(this, first, ...rest);
  };
}

wrap(fsp, 'rename', 'rename');
wrap(fsp, 'rm', 'remove');
wrap(fsp, 'unlink', 'remove');
wrap(fs, 'renameSync', 'rename');
wrap(fs, 'rmSync', 'remove');
wrap(fs, 'unlinkSync', 'remove');
wrap(fs, 'writeSync', 'write');
syncBuiltinESMExports();
