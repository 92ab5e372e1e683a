// The sandbox could not listen (the port is taken, the host is not this machine's): said in one line by the
// CLI, the desktop app and the package. Its own module, so that the CLI knows it without loading the server.

/** Which of the sandbox's listeners: HTTP (`--port`) or HTTPS (`--https-port`). */
export type Listener = 'port' | 'https-port';

/**
 * Why a listener could not start, in one line a user can act on; null for a socket error it has no words
 * for. `freePort` is how the one who started the sandbox asks for a free port (`--port 0`).
 */
export function listenProblem(
  code: string | undefined,
  port: number,
  host: string,
  listener: Listener,
  freePort = `--${listener} 0`,
): string | null {
  const which = listener === 'https-port' ? 'HTTPS port' : 'port';
  if (code === 'EADDRINUSE')
    return `${which} ${port} on ${host} is already in use: stop the other process or pass ${freePort} for a free port`;
  if (code === 'EACCES') return `not allowed to listen on ${host}:${port}: pick a port above 1023`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot listen on host ${host}: it is not an address of this machine (use 127.0.0.1)`;
  return null;
}

export class ListenError extends Error {
  constructor(
    readonly code: string,
    readonly port: number,
    readonly host: string,
    readonly listener: Listener,
    message: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }

  /** The same failure, with a free port asked for in the words of whoever started the sandbox. */
  askingFreePortWith(freePort: string): ListenError {
    const { code, port, host, listener } = this;
    const message = listenProblem(code, port, host, listener, freePort) ?? this.message;
    return new ListenError(code, port, host, listener, message);
  }
}
