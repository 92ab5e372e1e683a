// Tracking routes: `/beacon/v2/...` (every method, so wrong ones get the service's 405) and the
// personalization `/v1/preflight`. Reads the raw body itself (1 MB cap), hands plain data to the domain.
import { Router, type Request, type Response } from 'express';
import { mount } from '../admin-query';
import { clipped } from '../../../shared/text';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES, type TrackingIngest } from '../../tracking/ingest';
import { readBody } from '../body-reader';
import { DataDirError } from '../../store/data-dir-error';
import { handlePreflight } from '../../tracking/preflight';
import type { BeaconForwarder } from '../../tracking/forward';
import {
  BEACON_ENDPOINTS,
  SCHEMA_SOURCE,
  SCHEMA_TIGHTENINGS,
  endpointExamples,
  endpointSchema,
} from '../../tracking/schemas';

/** The real service lets any page read its answers; storefronts on any localhost port must too. */
function allowAnyOrigin(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
}

/**
 * A request target's path: without the query, and without scheme and host when a client sent the
 * absolute form (`POST http://localhost:4000/beacon/v2/…`, as a proxy-minded client may).
 */
function targetPath(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split('?')[0]!;
}

/** `/beacon/v2` or below it, as express would route it (paths match case-insensitively). */
const BEACON_PATH = /^\/beacon\/v2(?:\/|$)/i;

/**
 * A JSON answer exactly as express's `res.status(n).json(body)` writes it (same headers and bytes; no
 * body for HEAD), for the beacon lane, which answers without express.
 */
function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (req.method === 'HEAD') res.end();
  else res.end(text, 'utf8');
}

/** What answers beacons: the domain, the forwarding, and the notes of beacons cut short. */
interface Beacons {
  ingest: TrackingIngest;
  forwarding: BeaconForwarder | undefined;
  cutShort: CutShortNotes;
}

/**
 * One beacon v2 request (every method, so wrong ones get the service's 405): read the body (1 MB cap),
 * hand plain data to the domain, answer, then forward when the site passes traffic through.
 */
async function answerBeacon(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  { ingest, forwarding, cutShort }: Beacons,
  send: (status: number, body: unknown) => void,
): Promise<void> {
  allowAnyOrigin(res);
  const { body, tooLarge } = await readBody(req, MAX_BODY_BYTES);
  // the connection closed before the body was whole: see CutShortNotes (a body refused for its size
  // was refused on what it announced or sent, and is recorded as the service's 413)
  if (!tooLarge && !req.complete) return cutShort.note(req, path, body?.length ?? 0);
  const method = req.method ?? 'GET';
  const contentType = req.headers['content-type'];
  const contentEncoding = req.headers['content-encoding'];
  const userAgent = req.headers['user-agent'];
  const result = await ingest.handle({
    method,
    path,
    contentType,
    contentEncoding,
    rawBody: body,
    userAgent,
    origin: req.headers.origin,
    bodyTooLarge: tooLarge,
  });
  send(result.status, result.body);
  // only after the storefront has its answer: forwarding never delays or changes it
  if (result.event && forwarding?.forwards(result.event.siteId)) {
    forwarding.afterAnswer(result.event, {
      method,
      path: path.replace(/^\/beacon\/v2/, ''),
      contentType,
      contentEncoding,
      userAgent,
      body,
      bodyTooLarge: tooLarge,
    });
  }
}

/** How often a sandbox says on stderr that beacons were cut short: at most once in this long. */
const CUT_SHORT_QUIET_MS = 60_000;

/**
 * Beacons whose connection closed before their body was whole (the client went away, or stopped sending
 * until the server gave up). They are not recorded, and nothing is left to answer. The real service never
 * receives such a request, so it has no event of it either; recorded, as they were, they read as the
 * storefront sending invalid JSON (a rejected beacon, a `schema` failure on its page, forwarded as such
 * with tracking.forward), and a slow-body probe left 300 of them. What is worth knowing of one (a click
 * cut off as its page navigated is lost in production too) is said on stderr instead: a line at most
 * once a minute, counting the others, so a flood of them is one line, not hundreds.
 */
class CutShortNotes {
  private quietUntil = 0;
  private unsaid = 0;

  note(req: IncomingMessage, path: string, received: number): void {
    const now = Date.now();
    if (now < this.quietUntil) {
      this.unsaid += 1;
      return;
    }
    const declared = req.headers['content-length'];
    const of = declared === undefined ? ' (sent in chunks)' : ` of ${declared}`;
    const more = this.unsaid > 0 ? `; ${this.unsaid} more since the last such line` : '';
    this.quietUntil = now + CUT_SHORT_QUIET_MS;
    this.unsaid = 0;
    console.error(
      `search-sandbox: ${req.method} ${clipped(path)}: the connection closed after ${received}${of} body bytes, before the body was whole: not recorded, as the real service never receives a request cut short${more}`,
    );
  }
}

/**
 * The beacon lane: beacons are the one request a storefront sends by the thousand, so they are answered
 * before express routes anything (its router, and `res.json`, cost more than validating and recording
 * the beacon did). Returns false for every other request, which goes on to the express app. The answers
 * are the ones the express route below gives (test/api/beacon-lane.test.ts compares them byte for byte):
 * the lane only skips the routing.
 * `stamp` sets the headers every answer of the sandbox carries (X-Sandbox-Now).
 */
export function beaconLane(
  ingest: TrackingIngest,
  forwarding: BeaconForwarder | undefined,
  stamp: (res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const beacons = { ingest, forwarding, cutShort: new CutShortNotes() };
  return (req, res) => {
    const path = targetPath(req.url ?? '');
    if (!BEACON_PATH.test(path)) return false;
    stamp(res);
    answerBeacon(req, res, path, beacons, (status, body) => sendJson(req, res, status, body)).catch(
      (err: unknown) => failed(req, res, err),
    );
    return true;
  };
}

/** A bug answers 500 with its reason, as the app's last-resort handler does; never crashes the process. */
function failed(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (err instanceof DataDirError) {
    // the disk, not a bug: one line in the log, and a 503 that says nothing was stored
    console.error(`search-sandbox: ${req.method} ${req.url} not stored: ${err.message}`);
    if (res.headersSent) return;
    sendJson(req, res, 503, {
      success: false,
      error: 'StorageFailed',
      message: `nothing was stored, so nothing is acknowledged: ${err.message}`,
    });
    return;
  }
  console.error('search-sandbox: request failed:', err);
  if (res.headersSent) return;
  const message = err instanceof Error ? err.message : String(err);
  sendJson(req, res, 500, { error: 'InternalError', message });
}

export function trackingRouter(ingest: TrackingIngest, forwarding?: BeaconForwarder): Router {
  const router = Router();
  const beacons = { ingest, forwarding, cutShort: new CutShortNotes() };

  // The express app alone answers beacons too, with express's own `res.json`: the yardstick the lane's
  // answers are compared with, byte for byte (test/api/beacon-lane.test.ts).
  router.use('/beacon/v2', (req: Request, res: Response) =>
    answerBeacon(req, res, targetPath(req.originalUrl), beacons, (status, body) =>
      res.status(status).json(body),
    ),
  );

  router.all('/v1/preflight', async (req: Request, res: Response) => {
    allowAnyOrigin(res);
    const { body, tooLarge } = await readBody(req, MAX_BODY_BYTES);
    if (tooLarge) {
      res.status(413).json({
        success: false,
        error: 'RequestTooLargeError',
        messages: ['request body must not be larger than 1MB'],
      });
      return;
    }
    const result = handlePreflight({
      method: req.method,
      contentType: req.get('content-type'),
      rawBody: body,
      query: req.query as Record<string, string | string[] | undefined>,
    });
    if (result.status === 204) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader(
        'Access-Control-Allow-Headers',
        req.get('access-control-request-headers') ?? 'Content-Type',
      );
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    res.status(result.status).json(result.body);
  });

  return router;
}

/**
 * Admin side (mounted under /_sandbox behind the same-origin guard):
 * - `GET /tracking/schemas`: the endpoints, where the schemas come from, and the tightenings vs the OAS
 * - `GET /tracking/schemas/{category}/{event}`: one endpoint's JSON Schema and the OAS examples
 * - `POST /tracking/check/{siteId}/{category}/{event}`: what the service would answer to this body,
 *   with each issue's path, without recording it (for checking fixtures from scripts and CI)
 */
export function trackingAdminRouter(ingest: TrackingIngest): Router {
  const router = Router();

  mount(router, 'trackingSchemas', (_req, res) => {
    res.json({
      source: SCHEMA_SOURCE,
      tightenings: [...SCHEMA_TIGHTENINGS],
      endpoints: BEACON_ENDPOINTS.map((endpoint) => {
        const [category = '', event = ''] = endpoint.split('/');
        return {
          endpoint,
          category,
          event,
          path: `/beacon/v2/{siteId}/${endpoint}`,
          examples: Object.keys(endpointExamples(endpoint)),
        };
      }),
    });
  });

  mount(router, 'trackingSchema', (req, res) => {
    const endpoint = `${String(req.params.category)}/${String(req.params.event)}`;
    const schema = endpointSchema(endpoint);
    if (!schema) {
      res.status(404).json({
        error: 'NotFound',
        message: `no beacon v2 endpoint ${clipped(endpoint)}; known: ${BEACON_ENDPOINTS.join(', ')}`,
      });
      return;
    }
    res.json({
      endpoint,
      schema: schema as Record<string, unknown>,
      examples: endpointExamples(endpoint),
    });
  });

  mount(
    router,
    'trackingCheck',
    // the body read as a beacon's is (its cap, any Content-Type), judged exactly as a beacon is
    async (req, res, _query, { body, tooLarge }) => {
      const { siteId, category, event } = req.params;
      const result = await ingest.check({
        method: 'POST',
        path: `/beacon/v2/${siteId}/${category}/${event}`,
        contentType: req.get('content-type') ?? 'text/plain',
        contentEncoding: req.get('content-encoding'),
        rawBody: body,
        bodyTooLarge: tooLarge,
      });
      res.json({ status: result.status, body: result.body, errors: result.errors });
    },
  );

  return router;
}
