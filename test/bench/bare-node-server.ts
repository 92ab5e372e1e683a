// The floor for the ingest benchmark (issue 25's baseline): node:http alone reading the body, parsing its
// JSON and answering {"success":true}; no framework, no validation, no journal. The sandbox answers beacons
// without express's routing (its beacon lane), so it can beat bare express; this shows how far it is from
// doing nothing but what any JSON endpoint must. Prints its URL when ready.
import http from 'node:http';

const ANSWER = JSON.stringify({ success: true });
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
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
