// The floor with the sandbox's guarantees (issue 45): node:http, JSON.parse, the project's own beacon v2
// schemas checked by ajv (validateBeaconBody, the very function ingest calls), the event appended to a
// journal before the 200 (group commit as the sandbox does it: every line queued in one turn goes out in one
// write(2) on setImmediate, then one fdatasync(2) at a time on libuv's pool, what was written before it began
// answered when it ends), and the parsed event kept in memory. No
// timelines, no indexes, no admin API: what any server giving those guarantees must spend, so each ingest
// figure reads as a fraction of it. Args: the journal file. Prints its URL when ready.
import http from 'node:http';
import { fdatasync, openSync, writeSync } from 'node:fs';
import { validateBeaconBody } from '../../src/main/tracking/schemas';

const file = process.argv[2];
if (!file) throw new Error('usage: floor-server.ts <journal file>');
const fd = openSync(file, 'a');
const OK = JSON.stringify({ success: true });
const kept: unknown[] = [];
let seq = 0;

let pending: Array<{ line: string; res: http.ServerResponse }> = [];
function flush(): void {
  const batch = pending;
  pending = [];
  let data = '';
  for (const p of batch) data += `${p.line}\n`;
  const buf = Buffer.from(data, 'utf8');
  for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
  for (const p of batch) unsynced.push(p.res);
  sync();
}

let unsynced: http.ServerResponse[] = [];
let syncing = false;
function sync(): void {
  if (syncing || unsynced.length === 0) return;
  const batch = unsynced;
  unsynced = [];
  syncing = true;
  fdatasync(fd, (err) => {
    syncing = false;
    for (const res of batch) answer(res, err ? 503 : 200, err ? String(err) : OK);
    sync();
  });
}

function answer(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // /beacon/v2/<siteId>/<category>/<event>
    const [, , , siteId, category, event] = (req.url ?? '').split('?')[0]!.split('/');
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(res, 400, JSON.stringify({ success: false, error: 'invalid JSON' }));
    }
    const issues = validateBeaconBody(`${category}/${event}`, body);
    const recorded = {
      id: `e${++seq}`,
      seq,
      receivedAt: new Date().toISOString(),
      siteId,
      category,
      event,
      accepted: issues.length === 0,
      issues,
      body,
    };
    kept.push(recorded);
    if (pending.length === 0) setImmediate(flush);
    pending.push({ line: JSON.stringify(recorded), res });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
