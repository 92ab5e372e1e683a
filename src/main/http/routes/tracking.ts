// Tracking routes: `/beacon/v2/...` (every method, so wrong ones get the service's 405) and the
// personalization `/v1/preflight`. Reads the raw body itself (1 MB cap), hands plain data to the domain.
import { Router, type Request, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES, type TrackingIngest } from '../../tracking/ingest';
import { handlePreflight } from '../../tracking/preflight';
import type { BeaconForwarder } from '../../tracking/forward';
import {
  BEACON_ENDPOINTS,
  SCHEMA_SOURCE,
  SCHEMA_TIGHTENINGS,
  endpointExamples,
  endpointSchema,
} from '../../tracking/schemas';

/** After an early 413, keep reading (and dropping) this much so the client sees the answer, then hang up. */
const DRAIN_LIMIT_BYTES = 64 * MAX_BODY_BYTES;

interface BodyRead {
  body: Buffer | null;
  tooLarge: boolean;
}

/** Drop the rest of a refused upload; a client that keeps going past DRAIN_LIMIT_BYTES is cut off. */
function drain(req: IncomingMessage, alreadyRead: number): void {
  let read = alreadyRead;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_LIMIT_BYTES) req.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}

/** The raw body up to `limit` bytes; refuses early on a Content-Length above it. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    drain(req, 0);
    return Promise.resolve({ body: null, tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        drain(req, size);
        settle({ body: null, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () =>
      settle({ body: size === 0 ? null : Buffer.concat(chunks, size), tooLarge: false }),
    );
    // A client that hangs up mid-body gets no answer anyway; record what arrived.
    const partial = () =>
      settle({ body: size === 0 ? null : Buffer.concat(chunks, size), tooLarge: false });
    req.on('close', partial);
    req.on('error', partial);
  });
}

/** The real service lets any page read its answers; storefronts on any localhost port must too. */
function allowAnyOrigin(res: Response): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
}

function requestPath(req: Request): string {
  return req.originalUrl.split('?')[0] ?? req.path;
}

export function trackingRouter(ingest: TrackingIngest, forwarding?: BeaconForwarder): Router {
  const router = Router();

  router.use('/beacon/v2', async (req: Request, res: Response) => {
    allowAnyOrigin(res);
    const { body, tooLarge } = await readBody(req, MAX_BODY_BYTES);
    const result = await ingest.handle({
      method: req.method,
      path: requestPath(req),
      contentType: req.get('content-type'),
      rawBody: body,
      userAgent: req.get('user-agent'),
      origin: req.get('origin'),
      bodyTooLarge: tooLarge,
    });
    if (tooLarge) res.setHeader('Connection', 'close');
    res.status(result.status).json(result.body);
    // only after the storefront has its answer: forwarding never delays or changes it
    if (result.event && forwarding?.forwards(result.event.siteId)) {
      forwarding.afterAnswer(result.event, {
        method: req.method,
        path: requestPath(req).replace(/^\/beacon\/v2/, ''),
        contentType: req.get('content-type'),
        userAgent: req.get('user-agent'),
        body,
        bodyTooLarge: tooLarge,
      });
    }
  });

  router.all('/v1/preflight', async (req: Request, res: Response) => {
    allowAnyOrigin(res);
    const { body, tooLarge } = await readBody(req, MAX_BODY_BYTES);
    if (tooLarge) {
      res.setHeader('Connection', 'close');
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

  router.get('/tracking/schemas', (_req: Request, res: Response) => {
    res.json({
      source: SCHEMA_SOURCE,
      tightenings: SCHEMA_TIGHTENINGS,
      endpoints: BEACON_ENDPOINTS.map((endpoint) => {
        const [category, event] = endpoint.split('/');
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

  router.get('/tracking/schemas/:category/:event', (req: Request, res: Response) => {
    const endpoint = `${String(req.params.category)}/${String(req.params.event)}`;
    const schema = endpointSchema(endpoint);
    if (!schema) {
      res.status(404).json({
        error: 'NotFound',
        message: `no beacon v2 endpoint ${endpoint}; known: ${BEACON_ENDPOINTS.join(', ')}`,
      });
      return;
    }
    res.json({ endpoint, schema, examples: endpointExamples(endpoint) });
  });

  router.post('/tracking/check/:siteId/:category/:event', async (req: Request, res: Response) => {
    const { body, tooLarge } = await readBody(req, MAX_BODY_BYTES);
    const { siteId, category, event } = req.params as Record<string, string>;
    const result = ingest.check({
      method: 'POST',
      path: `/beacon/v2/${siteId}/${category}/${event}`,
      contentType: req.get('content-type') ?? 'text/plain',
      rawBody: body,
      bodyTooLarge: tooLarge,
    });
    res.json({ status: result.status, body: result.body, errors: result.errors });
  });

  return router;
}
