// The bulk indexing interface: GET /api/index/status and PUT|POST /api/index/feed, with HTTP basic auth,
// the real service's bodies and statuses, and multipart uploads (field feedFile, 20 MB cap → 413).
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { slicedMemoryStorage } from '../upload-storage';
import type { SandboxCore } from '../../core';
import { authenticate, claimedSiteId } from '../../indexing/auth';
import type { IndexRequestNotice } from '../../../shared/stream';
import { NO_CHALLENGE_HEADER } from '../../../shared/indexing';
import { MAX_FEED_FILE_BYTES } from '../../indexing/feed-runs';
import type { AccountConfig } from '../../accounts/config';
import { IndexRequestRefused } from '../../indexing/refusals';
import type { IndexRequest } from '../../indexing/index-request';
import { httpRefusal, type HttpRefusal } from '../domain-errors';
import { lazily } from '../../lazy-require';
import { closesAfterRefusal, dropBody } from '../body-reader';
import { grouped, shown } from '../../../shared/text';

/** Every refusal of a bulk index request is in the domain errors' table. */
function refusedWith(refusal: IndexRequestRefused): HttpRefusal {
  const refused = httpRefusal(refusal);
  if (!refused) throw new Error(`${refusal.name} has no status in http/domain-errors.ts`);
  return refused;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The sandbox UI's own request (its Feeds view, which shows the feed's state through the admin API and
 * so never reads GET /api/index/status): the UI's mark (X-Sandbox-No-Challenge) *and* the browser's word
 * that the page is on the sandbox's own origin (`Sec-Fetch-Site: same-origin`, which no page script can
 * set or change). Neither half alone: a client that copied the mark, or a page on another origin of the
 * same machine (`same-site`) or elsewhere (`cross-site`), is scored like any integration.
 */
function fromSandboxUi(req: Request): boolean {
  return (
    req.headers[NO_CHALLENGE_HEADER] !== undefined &&
    req.headers['sec-fetch-site'] === 'same-origin'
  );
}

/**
 * The 413 of a feed file over 20 MB, and the fix — feed files compress well, and a gzipped feed is read
 * as such. The file's own size is not known: the upload is refused as soon as it passes the limit, so the
 * size told is the body's the request declared, named as such (the file and a few hundred bytes of form
 * around it: a file one byte over the limit is not to read as some 200 bytes over).
 */
function capText(req: Request): string {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const size = Number.isFinite(declared)
    ? ` (the request's body, the file with the form around it, is ${overMb(declared)} MB: ${grouped(declared)} bytes)`
    : '';
  return `feed file must not be larger than 20 MB (${grouped(MAX_FEED_FILE_BYTES)} bytes), and this one is larger${size}: gzip it (e.g. gzip -k products.csv, then send products.csv.gz; a gzipped feed is read as such, and a CSV shrinks several times) or zip it`;
}
/** `bytes` in MB, with as many decimals (1 to 7) as it takes not to read as the 20 MB limit itself. */
function overMb(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  for (let digits = 1; digits < 7; digits++) {
    const text = mb.toFixed(digits);
    if (Number(text) !== MAX_FEED_FILE_BYTES / 1024 / 1024) return text;
  }
  return mb.toFixed(7);
}

/**
 * A refused upload is dropped up to this much: a whole catalog export sent by mistake (the cap is 20 MB)
 * still gets the answer that says so; past it, the connection is cut.
 */
const UPLOAD_DRAIN_BYTES = 256 * 1024 * 1024;

type Shape = 'status' | 'feed';

/** The error body of each endpoint: status answers {status, message}, feed answers {success, message}. */
function fail(res: Response, shape: Shape, code: number, message: string): void {
  noted(res).message = message;
  // An upload the client is still sending (refused for its key, its size, its form) is dropped as it
  // arrives, on a connection kept open, so that it sees this answer instead of a broken pipe
  if (!res.req.complete) {
    if (closesAfterRefusal(res.req, UPLOAD_DRAIN_BYTES)) res.setHeader('Connection', 'close');
    dropBody(res.req, UPLOAD_DRAIN_BYTES);
  }
  res
    .status(code)
    .json(shape === 'status' ? { status: 'error', message } : { success: false, message });
}

function authorise(
  req: Request,
  res: Response,
  core: SandboxCore,
  shape: Shape,
): AccountConfig | null {
  const plain = !req.secure;
  if (plain && !LOOPBACK.test(req.socket.remoteAddress ?? '')) {
    fail(
      res,
      shape,
      403,
      'credentials over plain HTTP are accepted only from this machine (the real service requires HTTPS): use the sandbox https:// URL (--https-port)',
    );
    return null;
  }
  const result = authenticate(req.headers.authorization, core.config.accounts);
  if (!result.ok) {
    if (req.headers[NO_CHALLENGE_HEADER] === undefined)
      res.setHeader(
        'WWW-Authenticate',
        'Basic realm="search-sandbox bulk indexing", charset="UTF-8"',
      );
    fail(res, shape, 401, result.message);
    return null;
  }
  noted(res).siteId = result.account.siteId;
  return result.account;
}

function one(v: unknown, name: string): string | undefined | Error {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  return new Error(`${name} is given more than once: send it once`);
}

// multer, loaded with the first upload (~60 ms of every start's CPU otherwise: lazy-require.ts)
const multer = lazily<typeof import('multer')>('multer');
let upload: RequestHandler | undefined;

function receiveUpload(req: Request, res: Response): Promise<Express.Multer.File | null> {
  return new Promise((resolve) => {
    upload ??= multer()({
      storage: slicedMemoryStorage(),
      // a file name is sent as the client's UTF-8 bytes (browsers, curl, fetch); busboy's default,
      // latin1, turned "prodüits.csv" into "prodÃ¼its.csv" in the feed's history
      defParamCharset: 'utf8',
      limits: { fileSize: MAX_FEED_FILE_BYTES, files: 1, fields: 20, parts: 30 },
    }).single('feedFile');
    const { MulterError } = multer();
    upload(req, res, (err: unknown) => {
      if (!err) {
        if (!req.file) fail(res, 'feed', 400, missingFile(req.body as unknown));
        resolve(req.file ?? null);
        return;
      }
      if (err instanceof MulterError && err.code === 'LIMIT_FILE_SIZE')
        fail(res, 'feed', 413, capText(req));
      else if (err instanceof MulterError && err.code === 'LIMIT_FILE_COUNT')
        fail(
          res,
          'feed',
          400,
          'the form holds more than one file: send one, the feed, as form field "feedFile"',
        );
      else if (err instanceof MulterError && err.code === 'LIMIT_UNEXPECTED_FILE') {
        fail(
          res,
          'feed',
          400,
          `unexpected file field "${err.field ?? ''}": send the feed as form field "feedFile", one file only`,
        );
      } else
        fail(
          res,
          'feed',
          400,
          `the multipart body cannot be read (${(err as Error).message}): send multipart/form-data with the file in "feedFile"`,
        );
      resolve(null);
    });
  });
}

/** No file part named feedFile: said differently when feedFile came as a text field (curl -F feedFile=x). */
function missingFile(body: unknown): string {
  const text = (body as Record<string, unknown> | undefined)?.feedFile;
  if (text === undefined)
    return 'missing feedFile: send the feed as multipart form field "feedFile" (curl -F feedFile=@products.csv)';
  const value = typeof text === 'string' ? shown(text) : 'given more than once';
  return `feedFile was sent as a text field (${value}), not as a file: send the file itself, e.g. curl -F feedFile=@products.csv (the @ makes curl send the file's contents)`;
}

/** What the `indexRequest` notice of a response says beyond its status, filled in while answering. */
interface Noted {
  siteId?: string;
  message?: string;
  workflow?: string | null;
}

function noted(res: Response): Noted {
  return ((res.locals as { indexRequest?: Noted }).indexRequest ??= {});
}

/**
 * Every answer on /api/index/* goes on the bus as an `indexRequest` notice (the UI's "watching for
 * traffic" shows it), including the ones that never reach a feed: wrong credentials, a bad feedId.
 */
function announce(core: SandboxCore, endpoint: IndexRequestNotice['endpoint']) {
  return (req: Request, res: Response, next: () => void) => {
    res.on('finish', () => {
      const n = noted(res);
      const raw = typeof req.query.feedId === 'string' ? req.query.feedId.trim() : '';
      const notice: IndexRequestNotice = {
        at: new Date(core.clock.now()).toISOString(),
        method: req.method,
        endpoint,
        siteId:
          n.siteId ??
          claimedSiteId(
            req.headers.authorization,
            core.config.accounts.map((a) => a.secretKey),
          ),
        feedId: endpoint === 'feed' && /^\d+$/.test(raw) ? Number(raw) : null,
        status: res.statusCode,
        accepted: res.statusCode < 400,
        message: n.message ?? null,
        workflow: n.workflow ?? null,
      };
      core.bus.emit({ type: 'indexRequest', data: notice });
    });
    next();
  };
}

export function indexingRouter(core: SandboxCore): Router {
  const router = express.Router();
  router.use('/api/index/status', announce(core, 'status'));
  router.use('/api/index/feed', announce(core, 'feed'));
  router.all('/api/index/status', (req, res) => statusRead(core, req, res));
  router.all('/api/index/feed', (req, res) => indexRequest(core, req, res));
  return router;
}

/** GET /api/index/status: every feed of the account, as stored (a restart finds what it says). */
async function statusRead(core: SandboxCore, req: Request, res: Response): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET');
    return fail(res, 'status', 405, `invalid request method: \`${req.method}\` - requires \`GET\``);
  }
  const account = authorise(req, res, core, 'status');
  if (!account) return;
  try {
    await core.indexing.stored();
  } catch (err) {
    // the data directory refuses the feeds' last changes: answering would show what a restart loses
    const message = `the feed states could not be stored, so they are not shown: ${(err as Error).message}`;
    console.error(`search-sandbox: GET /api/index/status: ${message}`);
    return fail(res, 'status', 503, message);
  }
  res.json({ status: 'success', feeds: core.indexing.status(account) });
}

/** PUT|POST /api/index/feed: the request read off HTTP, answered by the domain's verdict. */
async function indexRequest(core: SandboxCore, req: Request, res: Response): Promise<void> {
  if (req.method !== 'PUT' && req.method !== 'POST') {
    res.setHeader('Allow', 'PUT, POST');
    return fail(
      res,
      'feed',
      405,
      `invalid request method: \`${req.method}\` - requires \`PUT\` or \`POST\``,
    );
  }
  const account = authorise(req, res, core, 'feed');
  if (!account) return;
  const feedId = one(req.query.feedId, 'feedId');
  const requestedBy = one(req.query.requestedBy, 'requestedBy');
  if (feedId instanceof Error) return fail(res, 'feed', 400, feedId.message);
  if (requestedBy instanceof Error) return fail(res, 'feed', 400, requestedBy.message);
  const file = req.method === 'POST' ? await postedFile(req, res) : undefined;
  if (file === null) return;
  await answerIndexRequest(core, res, {
    account,
    method: req.method,
    feedId,
    requestedBy,
    otherParams: Object.keys(req.query).filter((k) => k !== 'feedId' && k !== 'requestedBy'),
    upload: file ? { data: file.buffer, name: file.originalname || 'feedFile' } : undefined,
    unreadBody: req.method === 'PUT' ? unreadBody(req) : undefined,
    plainHttp: !req.secure,
    fromSandboxUi: fromSandboxUi(req),
    answeredWith: (refusal) => (refusal ? refusedWith(refusal).status : 200),
  });
}

/** A PUT's body, which nothing reads (a file sent with the wrong method): its media type and size. */
function unreadBody(req: Request): IndexRequest['unreadBody'] {
  const length = Number(req.headers['content-length'] ?? NaN);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!(length > 0) && !chunked) return undefined;
  return {
    contentType: req.headers['content-type']?.split(';')[0]?.trim() || 'no Content-Type',
    bytes: length > 0 ? length : null,
  };
}

/** A POST's feed file; null when the body is refused (answered here). */
async function postedFile(req: Request, res: Response): Promise<Express.Multer.File | null> {
  if (!req.is('multipart/form-data')) {
    fail(
      res,
      'feed',
      400,
      `POST takes multipart/form-data with the feed file in field "feedFile", ${req.headers['content-type'] === undefined ? 'but the request has no Content-Type' : `not ${req.headers['content-type']}`} (use PUT to index the configured source)`,
    );
    return null;
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_FEED_FILE_BYTES + 1024 * 1024) {
    fail(res, 'feed', 413, capText(req));
    return null;
  }
  return receiveUpload(req, res);
}

/** `{success: true}`, or the refusal's status, headers and message; the notice learns both. */
async function answerIndexRequest(
  core: SandboxCore,
  res: Response,
  request: IndexRequest,
): Promise<void> {
  try {
    const queued = await core.indexing.requestIndex(request);
    noted(res).workflow = queued.workflow;
    noted(res).message = queued.detail;
    res.json({ success: true });
  } catch (err) {
    if (!(err instanceof IndexRequestRefused)) throw err;
    noted(res).workflow = err.workflow;
    const refused = refusedWith(err);
    for (const [name, value] of Object.entries(refused.headers ?? {})) res.setHeader(name, value);
    fail(res, 'feed', refused.status, err.message);
  }
}
