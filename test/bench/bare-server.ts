// Baseline for the ingest benchmark: a bare express app answering {"success":true}, in its own process
// like the sandbox, so both are measured the same way. Prints its URL on stdout when ready.
import express from 'express';

const app = express();
app.post('/beacon/v2/:siteId/search/:event', (_req, res) => {
  res.json({ success: true });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
