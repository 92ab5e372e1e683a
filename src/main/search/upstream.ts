// Search pass-through (`accounts[].search.upstream`): forwards a storefront's search, category, autocomplete,
// meta and suggest requests to the real search service, hands back its answer unchanged, and remembers each
// response with a responseId as issued. An upstream that is down, slow or answers garbage gets a JSON 502/504.
import type { Clock } from '../clock';
import type { IssuedResponses } from './responses';
import { issuedFromUpstream } from './upstream-issued';
import { fetchFailureReason } from '../../shared/fetch-failure';

/** Paths the Snap client calls (snap-client LegacyAPI, SuggestAPI); the first four carry responseIds. */
export const UPSTREAM_PATHS = [
  '/api/search/search.json',
  '/api/search/category.json',
  '/api/search/autocomplete.json',
  '/api/search/finder.json',
  '/api/meta/meta.json',
  '/api/suggest/query',
  '/api/suggest/trending',
] as const;
const REMEMBERED = new Set<string>(UPSTREAM_PATHS.slice(0, 4));

/** Forwarded requests carry this header; one arriving with it is a loop (the upstream is the sandbox). */
export const FORWARDED_HEADER = 'x-search-sandbox-forwarded';

/** Upstream bodies beyond this are refused (a search answer is a few hundred KB at most). */
export const MAX_UPSTREAM_BYTES = 10 * 1024 * 1024;

// What is passed on in each direction: nothing that identifies the shopper beyond what a browser sends.
// (a body's Content-Encoding goes with its untouched bytes: the real service reads them as the client sent them)
const REQUEST_HEADERS = [
  'content-type',
  'content-encoding',
  'accept',
  'accept-language',
  'user-agent',
] as const;
const RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'retry-after',
  'vary',
] as const;

export interface UpstreamSite {
  /** origin (and base path) the requests go to */
  origin: string;
  timeoutMs: number;
  /** the config key, named in errors so the user knows what to change */
  key: string;
}

export interface UpstreamRequest {
  siteId: string;
  method: string;
  /** one of UPSTREAM_PATHS */
  path: string;
  /** the query string as received, without '?' */
  query: string;
  body: Buffer | null;
  headers: Partial<Record<(typeof REQUEST_HEADERS)[number], string>>;
}

export type UpstreamAnswer =
  | { kind: 'forwarded'; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: 'error'; status: 502 | 504; body: Record<string, unknown> };

export interface SearchUpstreamDeps {
  sites: ReadonlyMap<string, UpstreamSite>;
  responses: IssuedResponses;
  clock: Clock;
  fetch?: typeof fetch;
}

class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 504,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export class SearchUpstream {
  private readonly fetch: typeof fetch;

  constructor(private readonly deps: SearchUpstreamDeps) {
    this.fetch = deps.fetch ?? fetch;
  }

  /** The pass-through settings of a site, or undefined when the sandbox answers its searches itself. */
  site(siteId: string): UpstreamSite | undefined {
    return this.deps.sites.get(siteId);
  }

  /** Forward one request; never throws: failures are 502/504 answers naming the upstream and the cause. */
  async forward(req: UpstreamRequest): Promise<UpstreamAnswer> {
    const site = this.deps.sites.get(req.siteId);
    if (!site) throw new Error(`site ${req.siteId} has no search upstream`);
    const url = `${site.origin}${req.path}${req.query ? `?${req.query}` : ''}`;
    try {
      const res = await this.send(url, req, site);
      const body = await readCapped(res, url);
      const headers: Record<string, string> = {};
      for (const name of RESPONSE_HEADERS) {
        const v = res.headers.get(name);
        if (v !== null) headers[name] = v;
      }
      if (res.status >= 200 && res.status < 300) await this.remember(req, site, url, headers, body);
      return { kind: 'forwarded', status: res.status, headers, body };
    } catch (err) {
      const f = failure(err, url, site);
      return {
        kind: 'error',
        status: f.status,
        body: { success: false, error: f.error, message: f.message, upstream: url },
      };
    }
  }

  private async send(url: string, req: UpstreamRequest, site: UpstreamSite): Promise<Response> {
    const headers: Record<string, string> = { [FORWARDED_HEADER]: '1' };
    for (const name of REQUEST_HEADERS) {
      const v = req.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    const hasBody = req.body !== null && req.method !== 'GET' && req.method !== 'HEAD';
    return this.fetch(url, {
      method: req.method,
      headers,
      ...(hasBody && { body: req.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(site.timeoutMs),
    });
  }

  /** A 2xx search answer must be a JSON object: anything else would break the storefront's client too. */
  private async remember(
    req: UpstreamRequest,
    site: UpstreamSite,
    url: string,
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      const type = headers['content-type'] ?? 'no content type';
      throw new UpstreamFailure(
        502,
        'UpstreamInvalidResponse',
        `the search upstream ${url} answered ${describeBody(body)} (${type}) where JSON was expected: check ${site.key} (is it the search API's origin, e.g. https://${req.siteId}.a.searchspring.io?)`,
      );
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new UpstreamFailure(
        502,
        'UpstreamInvalidResponse',
        `the search upstream ${url} answered JSON that is not an object (${describeBody(body)}): check ${site.key}`,
      );
    if (!REMEMBERED.has(req.path)) return;
    const issued = issuedFromUpstream({
      siteId: req.siteId,
      params: new URLSearchParams(req.query),
      body: json as Record<string, unknown>,
      upstream: site.origin,
      now: this.deps.clock.now(),
    });
    if (!issued) return;
    try {
      await this.deps.responses.add(issued);
    } catch (err) {
      // the storefront still gets its answer; only the provenance checks of this response are lost
      console.error(
        `search-sandbox: could not remember upstream response ${issued.responseId}:`,
        err,
      );
    }
  }
}

async function readCapped(res: Response, url: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_UPSTREAM_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(url);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      size += chunk.byteLength;
      if (size > MAX_UPSTREAM_BYTES) throw tooLarge(url);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(url: string): UpstreamFailure {
  return new UpstreamFailure(
    502,
    'UpstreamInvalidResponse',
    `the search upstream ${url} answered with more than ${MAX_UPSTREAM_BYTES / 1024 / 1024} MB: that is not a search response`,
  );
}

function describeBody(body: Buffer): string {
  if (body.length === 0) return 'an empty body';
  const text = body.subarray(0, 80).toString('utf8').replace(/\s+/g, ' ');
  return `${JSON.stringify(text)}${body.length > 80 ? '…' : ''}`;
}

function failure(err: unknown, url: string, site: UpstreamSite): UpstreamFailure {
  if (err instanceof UpstreamFailure) return err;
  const e = err as Error;
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return new UpstreamFailure(
      504,
      'UpstreamTimeout',
      `the search upstream ${url} did not answer within ${site.timeoutMs} ms: try again, or raise ${site.key.replace(/upstream$/, 'upstreamTimeoutMs')}`,
    );
  const cause = fetchFailureReason(e);
  return new UpstreamFailure(
    502,
    'UpstreamUnreachable',
    `the search upstream ${url} could not be reached (${cause}): check ${site.key} and that the service is up; the sandbox keeps answering everything else`,
  );
}
