// The companion search API: search.json, category.json, autocomplete.json, suggest/query, suggest/trending
// and meta.json, and the recommend API (profile.json, POST /v1/recommend) in the provider's shape, open to
// browser storefronts on any origin (CORS), JSON errors. The domain is src/main/search/service.ts (and recommend.ts).
import { Router, type Request, type Response, type NextFunction } from 'express';
import { readJson, readJsonText, type BodyRefusal } from '../body-reader';
import { mount } from '../admin-query';
import { shown } from '../../../shared/text';
import type { SearchService } from '../../search/service';
import { SearchRefused } from '../../search/errors';
import { httpRefusal } from '../domain-errors';
import { ANSWER_HEADER, COMPANION_ANSWER } from '../../search/answer-header';

/** CORS for the search endpoints: any storefront origin may read them; preflights answered here. */
export function cors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    // the Snap client sends plain GETs; a preflight only comes with custom headers a storefront adds
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'Content-Type',
    );
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}

/** A page's recommend request (its widgets, products, cart and lastViewed) is a few kB. */
const RECOMMEND_BODY_BYTES = 1024 * 1024;
/** What the Snap client POSTs to meta.json and suggest/query: a few fields. */
const SMALL_BODY_BYTES = 100 * 1024;

/**
 * A refused body in the provider's error shape, naming the limit. The connection stays open: the body
 * reader drops the rest of a body too large, so a client still sending it gets this answer (body-reader.ts).
 */
function refuseBody(res: Response, refused: BodyRefusal): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(refused.status).json({
    success: false,
    error: 'InvalidBody',
    message: refused.message,
    limit: { field: refused.field, value: refused.value, rule: refused.rule, fix: refused.fix },
  });
}

/** The body parsed by the one reader (size cap, depth limit) into `req.body`, whatever its content type. */
function jsonBody(bytes: number, expected: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    void readJson(req, { bytes, expected }).then((read) => {
      if ('refused' in read) return refuseBody(res, read.refused);
      req.body = read.value;
      next();
    }, next);
  };
}

function params(req: Request): URLSearchParams {
  // repeated keys (filter.color=red&filter.color=blue) and dotted names are kept exactly as sent
  return new URL(req.originalUrl, 'http://sandbox.invalid').searchParams;
}

/**
 * The domain's answer (200), or the provider's error body for the SearchRefused it throws, with the status
 * of its row in domain-errors.ts.
 */
async function send(res: Response, produce: () => unknown): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader(ANSWER_HEADER, COMPANION_ANSWER);
  try {
    res.json(await produce());
  } catch (err) {
    const refused = err instanceof SearchRefused ? httpRefusal(err) : undefined;
    if (!refused) throw err;
    res.status(refused.status).json({
      success: false,
      error: (err as SearchRefused).code,
      message: (err as Error).message,
    });
  }
}

function onlyGet(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  res.setHeader('Allow', 'GET, OPTIONS');
  res.status(405).json({
    success: false,
    error: 'InvalidMethod',
    message: `${req.method} ${req.path} is not supported: use GET`,
  });
}

/** The paths the search API serves, every one open to any storefront origin. */
const SEARCH_PATHS = [
  '/api/search',
  '/api/meta',
  '/api/suggest',
  '/api/personalized-recommendations',
  '/v1/recommend',
  '/v1/profile',
];

export function searchRouter(search: SearchService): Router {
  const router = Router();
  router.use(SEARCH_PATHS, cors);
  // category pages (the Snap client's category controller) are searches too, usually with bgfilter.* and no
  // q; autocomplete is a search of the suggested text. Each issues responseIds of its own kind.
  for (const kind of ['search', 'category', 'autocomplete'] as const)
    router.all(
      `/api/search/${kind}.json`,
      onlyGet,
      answer((req) => search.search(params(req), kind)),
    );
  // the Snap client's SuggestAPI sends a GET; its postSuggest variant a JSON body
  router.post(
    '/api/suggest/query',
    jsonBody(SMALL_BODY_BYTES, '{"siteId": "…", "query": "…"}'),
    answer((req) => search.suggest(postedSuggest(req))),
  );
  router.all(
    '/api/suggest/query',
    onlyGet,
    answer((req) => search.suggest(params(req))),
  );
  // the terms autocomplete offers before the shopper types (the Snap client's getTrending, or postTrending)
  router.post(
    '/api/suggest/trending',
    jsonBody(SMALL_BODY_BYTES, '{"siteId": "…", "limit": 5}'),
    answer((req) => search.trending(postedSuggest(req))),
  );
  router.all(
    '/api/suggest/trending',
    onlyGet,
    answer((req) => search.trending(params(req))),
  );
  // some Snap client versions POST the meta request as JSON ({"siteId": …}) instead of a GET
  router.post(
    '/api/meta/meta.json',
    jsonBody(SMALL_BODY_BYTES, '{"siteId": "…"}'),
    answer((req) => search.meta(postedMeta(req))),
  );
  router.all(
    '/api/meta/meta.json',
    onlyGet,
    answer((req) => search.meta(params(req))),
  );
  // the Snap client's RecommendAPI: a widget's profile, then every widget of the page in one POST, whose
  // JSON body comes as text/plain (no preflight); read as text whatever the type, parsed by the domain
  const recommend = search.recommendations;
  // later Snap clients (@athoscommerce/snap-client) ask the same profile at /v1/profile
  router.all(
    ['/api/personalized-recommendations/profile.json', '/v1/profile'],
    onlyGet,
    answer((req) => recommend.profile(params(req))),
  );
  router.post('/v1/recommend', recommendPost(recommend));
  router.all('/v1/recommend', recommendOnlyPost);
  router.all(/^\/api\/(search|meta|suggest|personalized-recommendations)\//, noSuchEndpoint);
  return router;
}

/** A handler that answers with what the domain produces for the request (see `send`). */
function answer(produce: (req: Request) => unknown) {
  return (req: Request, res: Response, next: NextFunction): void => {
    send(res, () => produce(req)).catch(next);
  };
}

/** A POSTed suggest or trending request: the query's parameters, with the body's text and number fields over them. */
function postedSuggest(req: Request): URLSearchParams {
  const q = params(req);
  for (const [k, v] of Object.entries((req.body ?? {}) as Record<string, unknown>))
    if (typeof v === 'string' || typeof v === 'number') q.set(k, String(v));
  return q;
}

/** A POSTed meta request: the query's parameters, with the body's siteId over them. */
function postedMeta(req: Request): URLSearchParams {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const q = params(req);
  if (typeof body.siteId === 'string') q.set('siteId', body.siteId);
  return q;
}

/** `POST /v1/recommend`: every widget of a page, its body read as text whatever its type. */
function recommendPost(recommend: SearchService['recommendations']) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      // read as text whatever its type (the Snap client sends JSON as text/plain); the domain parses it
      const read = await readJsonText(req, {
        bytes: RECOMMEND_BODY_BYTES,
        expected:
          'the widgets of one page as the Snap client does, {"siteId": "…", "profiles": [{"tag": "…"}], "products": ["…"]}',
      });
      if ('refused' in read) return refuseBody(res, read.refused);
      await send(res, () => recommend.recommend(read.text));
    } catch (err) {
      next(err);
    }
  };
}

function recommendOnlyPost(req: Request, res: Response): void {
  res.setHeader('Allow', 'POST, OPTIONS');
  res.status(405).json({
    success: false,
    error: 'InvalidMethod',
    message: `${req.method} /v1/recommend is not supported: POST the widgets as JSON, {"siteId": "…", "profiles": [{"tag": "…"}], "products": ["…"]}, as the Snap client's RecommendAPI does`,
  });
}

function noSuchEndpoint(req: Request, res: Response): void {
  res.status(404).json({
    success: false,
    error: 'NotFound',
    message: `no search endpoint ${req.method} ${req.path}: the sandbox serves GET /api/search/search.json, /api/search/category.json, /api/search/autocomplete.json, /api/suggest/query, /api/suggest/trending, /api/meta/meta.json, /api/personalized-recommendations/profile.json and POST /v1/recommend`,
  });
}

/**
 * `GET /_sandbox/search/responses?siteId=&limit=&responseId=&pageLoadId=` (newest first; by responseId: it or none) and `GET /_sandbox/search/responses/{responseId}`:
 * what the companion search API issued, as the provenance rules see it. Mounted behind the admin guard.
 */
export function searchAdminRouter(search: SearchService): Router {
  const router = Router();
  mount(router, 'searchResponses', (_req, res, { siteId, limit = 50, responseId, pageLoadId }) => {
    // by responseId: the one issued response, or none (a lookup that finds nothing is not an error)
    res.json({
      responses: search.responses.find({ siteId, limit, responseId, pageLoadId }),
      remembered: search.responses.size,
      rememberedSince: new Date(search.responses.rememberedSince).toISOString(),
    });
  });
  mount(router, 'searchResponse', (req, res) => {
    const r = search.responses.get(req.params.responseId);
    if (!r) {
      res.status(404).json({
        error: 'NotFound',
        message: `responseId ${shown(req.params.responseId)} was not issued by this sandbox's search API (or is older than the ${search.responses.capacity} most recent responses it remembers)`,
      });
      return;
    }
    res.json(r);
  });
  return router;
}
