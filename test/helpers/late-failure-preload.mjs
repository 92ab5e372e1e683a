// Preloaded into a `serve` child process (`node --import …/late-failure-preload.mjs`): makes its start-up
// fail late, once the data directory is locked and read, the way LATE_FAILURE says:
//   `uncaught`: the HTTP listener's listen throws from a callback nothing awaits (an uncaught exception);
//   `server`: creating the HTTP server throws (a failure between reading the data and listening).
import http from 'node:http';

const how = process.env.LATE_FAILURE;
if (how === 'uncaught') {
  const listen = http.Server.prototype.listen;
  http.Server.prototype.listen = function (...args) {
    setImmediate(() => {
      throw new Error('late start-up failure (test)');
    });
    return listen.apply(this, args);
  };
} else if (how === 'server') {
  http.createServer = () => {
    throw new Error('late start-up failure (test)');
  };
}
