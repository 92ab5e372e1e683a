// The floor for the ingest benchmark: node:http alone answering {"success":true} (no framework, no body
// read beyond draining it). The sandbox answers beacons without express's routing (its beacon lane), so it
// can beat bare express; this shows how far it is from doing nothing at all. Prints its URL when ready.
import http from 'node:http';

const ANSWER = JSON.stringify({ success: true });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(ANSWER),
    });
    res.end(ANSWER);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
