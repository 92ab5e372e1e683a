// The rungs between the floor (floor-server.ts) and the sandbox, for the ingest benchmark: the floor's
// node:http server with the sandbox's own domain in place of the floor's few lines, one guarantee more on
// each rung, so each figure says what that guarantee costs (issue 45: "say which guarantee it would cost").
//   store:     the sandbox's ingest (TrackingIngest: path, media type, JSON, the beacon schemas, the recorded
//              event) and its event store (EventLog with its journal: the 200 after the group commit, the
//              indexes by site, response, page and session, shared strings, old events kept compact)
//   timelines: the same, and the timelines engine fed each stored event as the sandbox feeds it (pages,
//              visits, the rules' tallies; pages judged when they go quiet)
// What the sandbox adds on top of the last rung: its beacon lane's headers and forwarding check, the bus
// (SSE), the admin API, search and indexing. Args: the rung, a data dir. Prints its URL when ready.
import http from 'node:http';
import { SandboxClock } from '../../src/main/clock';
import { loadConfig } from '../../src/main/config';
import { lockEventStore } from '../../src/main/store/open-events';
import { TrackingIngest } from '../../src/main/tracking/ingest';
import { storeTimelines } from '../../src/main/store-timelines';

const [rung, dataDir] = process.argv.slice(2);
if ((rung !== 'store' && rung !== 'timelines') || !dataDir)
  throw new Error('usage: ladder-server.ts store|timelines <data dir>');

const config = loadConfig({ data: dataDir }, {});
const clock = new SandboxClock();
const store = await lockEventStore({ dataDir, retention: config.retention.events });
const events = store.log;
if (rung === 'timelines') {
  const timelines = storeTimelines(config, clock, events);
  events.onDrop((event) => timelines.storeDropped(event));
  await store.load({});
  events.onAppend((event) => timelines.apply(event));
} else {
  await store.load({});
}
const ingest = new TrackingIngest(events, clock);

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    void ingest
      .handle({
        method: req.method ?? 'GET',
        path: (req.url ?? '').split('?')[0]!,
        contentType: req.headers['content-type'],
        rawBody: chunks.length === 0 ? null : Buffer.concat(chunks),
        userAgent: req.headers['user-agent'],
        origin: req.headers.origin,
      })
      .then((result) => {
        const text = JSON.stringify(result.body);
        res.writeHead(result.status, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
      });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => server.close(() => void store.close().then(() => process.exit(0))));
