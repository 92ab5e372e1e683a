// Preloaded into a `serve` child process (`node --import …/late-failure-preload.mjs`): makes its start-up
// fail late, once the data directory is locked and read, the way LATE_FAILURE says:
//   `uncaught`: the HTTP listener's listen throws from a callback nothing awaits (an uncaught exception);
//   `server`: creating the HTTP server throws (a failure between reading the data and listening);
//   `1970`: a date of 1 January 1970 cannot be written as text (RangeError), which a feed step whose
//   timer ended then meets when it writes its history entry: a step that fails after start-up.
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
} else if (how === '1970') {
  const toISOString = Date.prototype.toISOString;
  Date.prototype.toISOString = function () {
    if (this.getTime() >= 0 && this.getTime() < 86_400_000)
      throw new RangeError('Invalid time value');
    return toISOString.call(this);
  };
} else if (how === 'server') {
  http.createServer = () => {
    throw new Error('late start-up failure (test)');
  };
}
