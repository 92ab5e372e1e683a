// The sandbox could not listen (the port is taken, the host is not this machine's): said in one line by the
// CLI and the desktop app. Its own module, so that the CLI knows it without loading the server.
export class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }
}
