// How long the sandbox keeps an idle connection open: longer than its clients keep theirs (Node's fetch
// keeps an idle connection 4 s, Node's http agent 5 s). At 5 s, as Node's servers default to, a client
// could send its next request on a connection at the moment the sandbox closed it, and see ECONNRESET
// instead of an answer (what a feed upload in a test met in CI).
import type http from 'node:http';
import type https from 'node:https';

export const KEEP_ALIVE_MS = 65_000;

export function keepAlive(server: http.Server | https.Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node wants the wait for a request's headers longer than the idle wait
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
