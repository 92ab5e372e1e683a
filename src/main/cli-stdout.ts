// stdout of a command whose reader may go away (`search-sandbox check … | head`, `tail | grep -m1 …`).
// The reader closing the pipe is not the command's error: the write that finds it closed fails with EPIPE,
// and the stream, destroyed, fails later writes with ERR_STREAM_DESTROYED; unheard, either ended the
// command with a stack trace. Here they are heard once, `onGone` is told, and writes stop.

const goneHandlers: Array<() => void> = [];
let watching = false;

/** Is the reader still there? The first call starts listening for it going; `onGone` runs when it went. */
export function stdoutOpen(onGone?: () => void): boolean {
  if (onGone) goneHandlers.push(onGone);
  if (!watching) {
    watching = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
      for (const gone of goneHandlers.splice(0)) gone();
    });
  }
  return !process.stdout.destroyed;
}

/** Write to stdout while its reader is there; nothing once it went. */
export function writeStdout(text: string | Uint8Array): void {
  if (stdoutOpen()) process.stdout.write(text);
}
