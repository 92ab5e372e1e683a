// Why a cart source URL could not be read, in the sandbox's words with the fix: the network's own wording
// ("bad port", "connect ECONNREFUSED 127.0.0.1:59999", "HTTP 404") names no next step.
import { STATUS_CODES } from 'node:http';
import { fetchFailureCause } from '../../shared/fetch-failure';

const FIX_CONFIG = 'source.url in the config';

/** The fetch of `url` failed before an answer: a blocked port, nothing listening, a timeout, a redirect. */
export function unreachable(url: string, err: unknown): string {
  const e = err as Error;
  const cause = fetchFailureCause(err);
  const target = new URL(url);
  const hostPort = `${target.hostname}:${target.port || (target.protocol === 'https:' ? '443' : '80')}`;
  if (e.name === 'TimeoutError')
    return `the cart source ${url} did not answer within 30 seconds: check the server that serves the feed, or fix ${FIX_CONFIG}`;
  if (cause?.message === 'bad port')
    return `the cart source ${url} is on port ${target.port}, one browsers and Node's fetch refuse to connect to (a blocked port): serve the feed on another port and set ${FIX_CONFIG} to it`;
  if (cause?.code === 'ECONNREFUSED')
    return `the cart source ${url} cannot be read: nothing listens on ${hostPort}; start the server that serves the feed, or fix ${FIX_CONFIG}`;
  if (cause?.message === 'unexpected redirect')
    return `the cart source ${url} answered with a redirect, which the sandbox does not follow: set ${FIX_CONFIG} to the address the feed is served at`;
  const detail = cause?.message ?? e.message;
  return `the cart source ${url} cannot be read (${detail}): check the server that serves the feed on ${hostPort}, or fix ${FIX_CONFIG}`;
}

/** The cart source answered, but not with a feed: a status other than 2xx. */
export function refusedStatus(url: string, status: number): string {
  const name = STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : '';
  const fix =
    status === 404 || status === 410
      ? `check the URL path (${FIX_CONFIG})`
      : status === 401 || status === 403
        ? 'the sandbox sends no credentials: serve the feed without them on this machine'
        : status >= 500
          ? 'the server that serves the feed failed: see its log'
          : `serve the feed file with status 200 at ${FIX_CONFIG}`;
  return `the cart source ${url} answered ${status}${name}: ${fix}`;
}
