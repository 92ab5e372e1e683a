// `search-sandbox/playwright`: a Playwright `test` with a `sandbox` fixture (one sandbox per worker, reset
// before each test) whose browser context sends the provider's production hosts to that sandbox.
import { writeFile } from 'node:fs/promises';
import type { BrowserContext, Page, Route } from '@playwright/test';
import { importRunner } from './playwright-runner.js';
import { startSandbox, type StartedSandbox } from './index.js';
import type { SandboxClient } from './client.js';
import type { ResetOptions, StartOptions } from './types.js';
import { withTestBaselines } from './test-baselines.js';
import { sandboxOrigin } from '../../shared/sandbox-url.js';
import { shown } from '../../shared/text.js';
import { typePreflighted } from '../../shared/events.js';

const playwright = await importRunner();
const base: typeof import('@playwright/test').test = playwright.test;
export const expect: typeof import('@playwright/test').expect = playwright.expect;
export { startSandbox, connectSandbox, SandboxClient, SandboxApiError } from './index.js';
export type * from './types.js';

/**
 * The provider's production hosts a storefront build calls, as its clients derive them:
 * beacon v2 (`@athoscommerce/beacon` picks one of the two analytics hosts), search, autocomplete and
 * meta (`@searchspring/snap-client`: `https://{siteId}.a.searchspring.io`), recommendations
 * (`{siteId}.a.p13n.searchspring.io`) and the personalization preflight (`{siteId}.a.searchspring.io`,
 * or `.a.athoscommerce.net` for siteIds starting with "at"). Whole hosts are routed, so nothing a
 * storefront sends them leaks to production; paths the sandbox does not serve answer its 404.
 */
export const PRODUCTION_HOSTS: readonly RegExp[] = [
  /^analytics\.athoscommerce\.net$/,
  /^analytics\.searchspring\.net$/,
  /^[a-z0-9]+\.a(\.p13n)?\.searchspring\.io$/,
  /^[a-z0-9]+\.a\.athoscommerce\.net$/,
];

const URL_FOR_EXAMPLE =
  "sandboxUrlFor('https://demo42.a.searchspring.io/api/search/search.json?q=shoes', sandbox.url)";

/**
 * The sandbox URL a production URL is sent to: same path and query, the sandbox's origin; null for a URL
 * that is not routed. A TypeError naming the argument for a `url` that is not an absolute URL, or a
 * `sandboxUrl` that is not the sandbox's http(s) origin.
 */
export function sandboxUrlFor(url: string | URL, sandboxUrl: string): string | null {
  const origin = originOf('sandboxUrlFor', 'sandboxUrl', sandboxUrl, URL_FOR_EXAMPLE);
  return routedUrl(urlOf(url), origin);
}

function routedUrl(u: URL, origin: string): string | null {
  if (u.protocol !== 'https:' || !PRODUCTION_HOSTS.some((h) => h.test(u.hostname))) return null;
  return `${origin}${u.pathname}${u.search}`;
}

/** sandboxUrlFor's `url` as a URL, or a TypeError naming the call, the argument, the value and an example. */
function urlOf(url: unknown): URL {
  if (url instanceof URL) return url;
  if (typeof url === 'string' && URL.canParse(url)) return new URL(url);
  const why =
    typeof url === 'string'
      ? "is not an absolute URL (https://host/path…: a request's URL)"
      : 'must be a URL (a string such as a request.url(), or a URL object)';
  throw new TypeError(`sandboxUrlFor: url ${shown(url)} ${why}; e.g. ${URL_FOR_EXAMPLE}`);
}

/** The sandbox's origin from its URL as given, or a TypeError naming the call and the argument. */
function originOf(call: string, name: string, given: unknown, example: string): string {
  if (typeof given !== 'string')
    throw new TypeError(
      `${call}: ${name} ${shown(given)} must be the sandbox's URL (a string, e.g. sandbox.url); e.g. ${example}`,
    );
  const address = sandboxOrigin(given);
  // the problem says the fix, with an address for an example
  if ('problem' in address) throw new TypeError(`${call}: ${name} ${address.problem}`);
  return address.origin;
}

/**
 * Route the provider's production hosts to the sandbox inside a page or browser context. The request
 * goes on with its method, headers and body bytes unchanged; the sandbox's status, headers and body
 * come back unchanged. A request a browser would preflight (a Content-Type such as application/json) is
 * preflighted at the sandbox first, and fails as the browser would fail it when the sandbox refuses, as
 * the real beacon endpoints do. Returns a function that removes the route.
 */
export async function routeToSandbox(
  target: Page | BrowserContext,
  sandbox: Pick<SandboxClient, 'url'> | string,
): Promise<() => Promise<void>> {
  checkTarget(target);
  const origin = originOf(
    'routeToSandbox',
    'sandbox',
    typeof sandbox === 'string' ? sandbox : (sandbox as { url?: unknown } | null)?.url,
    'routeToSandbox(page, sandbox)',
  );
  const matches = (url: URL) => routedUrl(url, origin) !== null;
  const handler = async (route: Route) => {
    const to = routedUrl(new URL(route.request().url()), origin)!;
    try {
      // a request the browser would send only after a CORS preflight: the preflight goes first, as in
      // production, and a refused one fails the request (Playwright answers routed preflights itself)
      if (!(await preflightPasses(route, to))) {
        await route.abort('failed');
        return;
      }
      const response = await route.fetch({ url: to, maxRedirects: 0 });
      await route.fulfill({ response });
    } catch (err) {
      // the page sees a network error, as it would if the host were down; the test output says why
      console.error(
        `search-sandbox: could not forward ${route.request().method()} ${route.request().url()} to ${to}: ${(err as Error).message}`,
      );
      await route.abort('connectionrefused').catch(() => undefined);
    }
  };
  await target.route(matches, handler);
  return () => target.unroute(matches, handler);
}

/**
 * What a browser does before a cross-origin request that is not "simple", which Playwright's route skips:
 * an OPTIONS to the sandbox with the request's origin, method and Content-Type, as the browser would send
 * it, so the sandbox records it (and judges it as the real service answers it: the beacon endpoints
 * refuse it). The request goes on only when the answer allows it: a 2xx with the page's origin (or `*`)
 * allowed, and the method and Content-Type when they need it. Requests that need no preflight pass as they
 * are. Only the Content-Type is weighed among the headers: the page's own other headers cannot be told
 * from the browser's in what Playwright gives.
 */
async function preflightPasses(route: Route, to: string): Promise<boolean> {
  const request = route.request();
  const method = request.method();
  const headers = request.headers();
  // a method beyond GET, HEAD and POST, or a Content-Type outside the safelist, is preflighted first
  const simpleMethod = method === 'GET' || method === 'HEAD' || method === 'POST';
  const simpleType = !typePreflighted(headers['content-type']);
  const from = headers['origin'];
  if ((simpleMethod && simpleType) || from === undefined || from === 'null') return true;
  // from Node, not route.fetch: that one would send the request's body along
  const answer = await fetch(to, {
    method: 'OPTIONS',
    redirect: 'manual',
    headers: {
      origin: from,
      'access-control-request-method': method,
      ...(!simpleType && { 'access-control-request-headers': 'content-type' }),
      ...(headers['user-agent'] !== undefined && { 'user-agent': headers['user-agent'] }),
    },
  });
  await answer.body?.cancel();
  const listed = (name: string, value: string) =>
    (answer.headers.get(name) ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .some((v) => v === '*' || v === value.toLowerCase());
  const allowOrigin = answer.headers.get('access-control-allow-origin');
  return (
    answer.ok &&
    (allowOrigin === '*' || allowOrigin === from) &&
    (simpleMethod || listed('access-control-allow-methods', method)) &&
    (simpleType || listed('access-control-allow-headers', 'content-type'))
  );
}

/** routeToSandbox's target, or a TypeError naming the call, the argument, the value and what it takes. */
function checkTarget(target: unknown): asserts target is Page | BrowserContext {
  const t = target as { route?: unknown; unroute?: unknown } | null | undefined;
  if (typeof t?.route === 'function' && typeof t.unroute === 'function') return;
  throw new TypeError(
    `routeToSandbox: target ${shown(target)} must be a Playwright Page or BrowserContext (what has route() and unroute()); e.g. routeToSandbox(page, sandbox), or routeToSandbox(context, sandbox) for every page of a context`,
  );
}

interface WorkerFixtures {
  /** options of each worker's startSandbox (set with test.use in the config or a file's top level) */
  sandboxOptions: StartOptions;
  _sandboxWorker: StartedSandbox;
}

interface TestFixtures {
  /** what is reset before each test: 'all' (default: events, feeds, outbox, clock) or 'events' */
  sandboxReset: NonNullable<ResetOptions['what']>;
  /** this worker's sandbox, reset before the test */
  sandbox: StartedSandbox;
  /** sandboxReset, checked before the worker's sandbox starts */
  _sandboxResetWhat: NonNullable<ResetOptions['what']>;
}

type ResetScope = NonNullable<ResetOptions['what']>;
/**
 * The reset scopes, spelled here rather than read from the client's option table at run time: a runtime
 * import of the client's internals would make the package's main entry export them for this one. The type
 * below fails to compile if the client's scopes and these ever differ.
 */
const RESET_SCOPES = ['events', 'all'] as const satisfies readonly ResetScope[];
const sameScopes: [Exclude<ResetScope, (typeof RESET_SCOPES)[number]>] extends [never]
  ? true
  : never = true;
void sameScopes;

/** The fixture's sandboxReset, or an Error naming it: before any sandbox starts, in the option's words. */
function checkedReset(value: unknown): ResetScope {
  const allowed: readonly string[] = RESET_SCOPES;
  if (!allowed.includes(value as string))
    throw new TypeError(
      `search-sandbox/playwright: sandboxReset: ${JSON.stringify(value)} is not one of ${allowed.map((v) => `'${v}'`).join(', ')}: what is reset before each test; e.g. test.use({ sandboxReset: 'events' })`,
    );
  return value as NonNullable<ResetOptions['what']>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  sandboxOptions: [{}, { scope: 'worker', option: true }],
  _sandboxWorker: [
    async ({ sandboxOptions }, use) => {
      const sandbox = await startSandbox(sandboxOptions);
      await use(sandbox);
      await sandbox.close();
    },
    { scope: 'worker' },
  ],
  sandboxReset: ['all', { option: true }],
  _sandboxResetWhat: async ({ sandboxReset }, use) => use(checkedReset(sandboxReset)),
  // the option is checked first: Playwright sets up a fixture's dependencies in the order they are named
  sandbox: async ({ _sandboxResetWhat, _sandboxWorker }, use, testInfo) => {
    await _sandboxWorker.reset({ what: _sandboxResetWhat });
    if (_sandboxResetWhat === 'all') await _sandboxWorker.clock.reset();
    await use(withTestBaselines(_sandboxWorker, testInfo));
    // a failed test keeps what the sandbox saw: the timelines report (every page, event and finding)
    // lands beside the trace in Playwright's results, since the sandbox itself is gone after the run
    if (testInfo.status !== testInfo.expectedStatus) {
      const html = await _sandboxWorker.report('html').catch(() => null);
      if (html) {
        // a file, not a body: every reporter (list and line too) then names where it is
        const file = testInfo.outputPath('search-sandbox-report.html');
        await writeFile(file, html);
        await testInfo.attach('search-sandbox-report', { path: file, contentType: 'text/html' });
      }
    }
  },
  context: async ({ context, sandbox }, use) => {
    await routeToSandbox(context, sandbox);
    await use(context);
  },
});
