// stdout of a command whose reader may go away (`search-sandbox check … | head`, `tail | grep -m1 …`).
// The reader closing the pipe is not the command's error: the write that finds it closed fails with EPIPE,
// and the stream, destroyed, fails later writes with ERR_STREAM_DESTROYED; unheard, either ended the
// command with a stack trace. Here they are heard once, those who asked are told, and writes stop.

const goneHandlers: Array<() => void> = [];
let watching = false;

function watch(): void {
  if (watching) return;
  watching = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    for (const gone of goneHandlers.splice(0)) gone();
  });
}

/** Run `gone` once the reader of stdout went away. */
export function onStdoutGone(gone: () => void): void {
  watch();
  goneHandlers.push(gone);
}

/**
 * Write to stdout while its reader is there; nothing once it went. True when stdout is done with `chunk`
 * as this returns (written — a file, /dev/null and, on Linux, a pipe are written before write() returns —
 * or dropped): the caller may then reuse its buffer; false when the stream kept it to write later.
 */
export function writeStdout(chunk: string | Uint8Array): boolean {
  watch();
  if (process.stdout.destroyed) return true;
  process.stdout.write(chunk);
  return process.stdout.writableLength === 0;
}
