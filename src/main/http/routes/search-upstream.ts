// Search pass-through routes: for a site with `search.upstream`, the Snap client's search, category,
// autocomplete, finder, meta and suggest requests go to the real service (src/main/search/upstream.ts).
// Other sites fall through to the companion search API's own handlers.
import { Router, type Request, type Response, type NextFunction } from 'express';
import { readBody } from '../body-reader';
import { cors } from './search';
import { FORWARDED_HEADER, UPSTREAM_PATHS, type SearchUpstream } from '../../search/upstream';

/** A search request body is a small JSON object ({"siteId": …}); anything bigger is not one. */
const MAX_REQUEST_BYTES = 1024 * 1024;

function siteIdOf(query: URLSearchParams, body: Buffer | null): string | null {
  const fromQuery = query.get('siteId');
  if (fromQuery) return fromQuery;
  if (!body) return null;
  try {
    const v = JSON.parse(body.toString('utf8')) as { siteId?: unknown };
    return typeof v?.siteId === 'string' ? v.siteId : null;
  } catch {
    return null;
  }
}

function bodyFor(req: Request): Promise<Buffer | null> {
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve(null);
  return readBody(req, MAX_REQUEST_BYTES).then((r) => (r.tooLarge ? null : r.body));
}

export function searchUpstreamRouter(upstream: SearchUpstream): Router {
  const router = Router();
  // preflights (POST meta and suggest send application/json) are answered here, for every site
  router.use([...UPSTREAM_PATHS], cors);
  router.all([...UPSTREAM_PATHS], async (req: Request, res: Response, next: NextFunction) => {
    try {
      const rawQuery = req.originalUrl.split('?')[1] ?? '';
      const body = await bodyFor(req);
      const siteId = siteIdOf(new URLSearchParams(rawQuery), body);
      if (siteId === null || !upstream.site(siteId)) {
        // a body already read cannot be read again by the companion: hand its bytes over, which the
        // companion's one reader takes as it would have read them (its cap, depth limit and JSON errors)
        if (body) {
          req.body = body;
          (req as Request & { _body?: boolean })._body = true; // body-parser: already read
        }
        return next();
      }
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.get(FORWARDED_HEADER)) {
        res.status(508).json({
          success: false,
          error: 'LoopDetected',
          message: `this request was forwarded by a search sandbox to itself: accounts[].search.upstream of site ${siteId} points at the sandbox; use the real search host (true) or another origin`,
        });
        return;
      }
      const answer = await upstream.forward({
        siteId,
        method: req.method,
        path: req.path,
        query: rawQuery,
        body,
        headers: {
          'content-type': req.get('content-type'),
          'content-encoding': req.get('content-encoding'),
          accept: req.get('accept'),
          'accept-language': req.get('accept-language'),
          'user-agent': req.get('user-agent'),
        },
      });
      if (answer.kind === 'error') {
        res.setHeader('Cache-Control', 'no-store');
        res.status(answer.status).json(answer.body);
        return;
      }
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.status(answer.status).end(answer.body);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
