// The admin API's one declaration (src/shared/admin-api.ts) against what the sandbox serves: the OpenAPI
// document validates with a real OpenAPI validator, every endpoint the user docs name is declared and every
// declared one is documented, the routes are mounted from the declaration (src/main/http/admin-query.ts:
// `mount`), and bad queries are 400s naming what is allowed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API, adminPath, type AnswerOf, type Endpoint } from '../../src/shared/admin-api';
import type {
  PageKeyDto,
  PageTimelineSummaryDto,
  TimelineListDto,
  TimelineReportDto,
} from '../../src/shared/timeline';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
import { startSandbox } from '../helpers/sandbox';
import { REPO_ROOT, USER_DOCS } from '../helpers/user-docs';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const declared = Object.values(ADMIN_API as Record<string, Endpoint>).map(
  (e) => `${e.method} ${e.path}`,
);

/** `GET /_sandbox/feeds/{siteId}/{feedId}[/catalog]` → both paths. */
function expand(route: string): string[] {
  const m = /^(.*)\[([^\]]*)\]$/.exec(route);
  return m ? [m[1]!, `${m[1]}${m[2]}`] : [route];
}

describe('the admin API declaration', () => {
  it('is served as OpenAPI 3.1 that a real validator accepts', async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    // a generated client's base URL: the sandbox the document came from
    expect((doc as { servers?: unknown }).servers).toEqual([
      { url: '/', description: 'the sandbox that served this document' },
    ]);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const served = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(served.sort()).toEqual([...declared].sort());
    // a path parameter that is not any text says what it takes, as a generated client needs it
    const feed = doc.paths['/_sandbox/feeds/{siteId}/{feedId}'] as {
      get: { parameters: Array<{ name: string; schema: { type: string; minimum?: number } }> };
    };
    expect(feed.get.parameters.map((p) => [p.name, p.schema.type, p.schema.minimum])).toEqual([
      ['siteId', 'string', undefined],
      ['feedId', 'integer', 0],
    ]);
  });

  it('declares 503 StorageFailed on every write the data directory can refuse', async () => {
    const doc = (await (await fetch(`${sandbox.url}/_sandbox/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const [p, method] of [
      ['/_sandbox/reset', 'post'],
      ['/_sandbox/import', 'post'],
      ['/_sandbox/feeds/{siteId}/{feedId}', 'patch'],
      ['/_sandbox/feeds/{siteId}/{feedId}/transition', 'post'],
      ['/_sandbox/outbox', 'delete'],
    ] as const) {
      const answer = JSON.stringify(doc.paths[p]![method]!.responses['503'] ?? null);
      expect(answer, `${method} ${p}`).toContain('"StorageFailed"');
    }
  });

  it('declares an answer for each view, and the sandbox answers each view in its shape', async () => {
    const withViews = Object.entries(ADMIN_API as Record<string, Endpoint>).filter(
      ([, e]) => e.views,
    );
    expect(withViews.map(([name]) => name)).toEqual(['events', 'timelines', 'report']);
    // the type a caller gets is the view's (checked by the type checker)
    const typed: [
      Same<AnswerOf<'timelines', { view: 'keys' }>, TimelineListDto<PageKeyDto>>,
      Same<AnswerOf<'timelines', { view: 'summary' }>, TimelineListDto<PageTimelineSummaryDto>>,
      Same<AnswerOf<'timelines', { view: 'full' }>, TimelineListDto>,
      Same<AnswerOf<'timelines', { limit: 5 }>, TimelineListDto>,
      Same<AnswerOf<'report', { format: 'junit' }>, string>,
      Same<AnswerOf<'report', { format: 'json' }>, TimelineReportDto>,
      Same<AnswerOf<'report'>, TimelineReportDto>,
      Same<AnswerOf<'events', { follow: true }>, string>,
    ] = [true, true, true, true, true, true, true, true];
    expect(typed.every(Boolean)).toBe(true);
    for (const [name, e] of withViews) {
      // the views answered are the values the view parameter takes
      const param = e.query![e.views!.param] as unknown as {
        anyOf?: Array<{ const: string }>;
        type: string;
      };
      const allowed = param.anyOf?.map((v) => v.const) ?? ['false', 'true'];
      expect(Object.keys(e.views!.answers).sort(), name).toEqual([...allowed].sort());
    }
    const body = JSON.stringify({
      context: {
        pageLoadId: 'views-page',
        sessionId: 'views-session',
        userId: 'views-user',
        pageUrl: 'http://localhost/search?q=views',
        initiator: 'admin-api.test',
        timestamp: new Date().toISOString(),
      },
      data: { responseId: 'views-r1' },
    });
    const sent = await fetch(`${sandbox.url}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(sent.status).toBe(200);
    const keysOf = async (view: string) => {
      const res = await fetch(
        `${sandbox.url}${adminPath('timelines', {}, { view: view as 'full' })}`,
      );
      const { pages } = (await res.json()) as { pages: Array<Record<string, unknown>> };
      return Object.keys(pages.find((p) => p.pageLoadId === 'views-page')!).sort();
    };
    expect(await keysOf('keys')).toEqual(['pageLoadId', 'siteId']);
    const summary = await keysOf('summary');
    expect(summary).toContain('rules');
    expect(summary).not.toContain('responses');
    expect(await keysOf('full')).toContain('responses');
  });

  it('is what the docs name: every endpoint the README and docs/ name is declared, and every declared one is documented', () => {
    const named = new Set<string>();
    for (const file of USER_DOCS)
      for (const m of readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(
        /(GET|POST|PATCH|DELETE) \/_sandbox\/[A-Za-z0-9_{}/.-]*(\[[A-Za-z0-9_{}/.-]*\])?/g,
      ))
        for (const route of expand(m[0].replace(/[.]$/, ''))) named.add(route);
    expect(named.size).toBeGreaterThan(20);
    // a template matches itself and the docs' concrete examples (`/feeds/demo42/44/transition`)
    const pattern = (route: string) =>
      new RegExp(`^${route.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);
    const matches = (template: string) => [...named].filter((r) => pattern(template).test(r));
    const undeclared = [...named].filter((r) => !declared.some((d) => pattern(d).test(r)));
    expect(undeclared, 'named in the docs but not declared in src/shared/admin-api.ts').toEqual([]);
    const undocumented = declared.filter((d) => matches(d).length === 0);
    expect(undocumented, 'declared but named nowhere in README.md or docs/*.md').toEqual([]);
  });

  it('answers an unknown, repeated or invalid parameter with a 400 naming it and what is allowed', async () => {
    const cases: Array<[string, string, RegExp, string[]?]> = [
      [
        '/_sandbox/timelines?verdict=maybe',
        'verdict',
        /must be one of pass, warn, fail, got "maybe"/,
        ['pass', 'warn', 'fail'],
      ],
      [
        '/_sandbox/timelines?limit=0',
        'limit',
        /limit must be a whole number from 1 to 100000, got "0"/,
      ],
      [
        '/_sandbox/report?format=pdf',
        'format',
        /format must be one of json, junit, html, got "pdf"/,
      ],
      [
        '/_sandbox/visits?site=demo42',
        'site',
        /unknown query parameter site; allowed: siteId, sessionId, userId/,
      ],
      ['/_sandbox/orders?orderId=a&orderId=b', 'orderId', /orderId was given more than once/],
      // silently clamped before: now said
      [
        '/_sandbox/feeds/demo42/42/catalog?limit=5000',
        'limit',
        /limit must be a whole number from 1 to 1000, got "5000"/,
      ],
      ['/_sandbox/outbox?feedId=x', 'feedId', /feedId must be a whole number/],
      [
        '/_sandbox/search/responses?limit=0',
        'limit',
        /limit must be a whole number from 1 to 1000/,
      ],
      // a name every object has is no parameter for it
      [
        '/_sandbox/visits?constructor=1',
        'constructor',
        /unknown query parameter constructor; allowed/,
      ],
      ['/_sandbox/visits?__proto__=1', '__proto__', /unknown query parameter __proto__; allowed/],
      [
        '/_sandbox/health?verbose=1',
        'verbose',
        /unknown query parameter verbose: \/_sandbox\/health takes none/,
      ],
    ];
    for (const [url, parameter, message, allowed] of cases) {
      const res = await fetch(`${sandbox.url}${url}`);
      const body = (await res.json()) as {
        error: string;
        parameter: string;
        message: string;
        allowed?: string[];
      };
      expect([url, res.status]).toEqual([url, 400]);
      expect(body).toMatchObject({ error: 'BadRequest', parameter });
      expect(body.message).toMatch(message);
      if (allowed) expect(body.allowed).toEqual(allowed);
    }
  });

  it('names the parameter of every 400: a query parameter, a path parameter, a body field', async () => {
    const json = { 'Content-Type': 'application/json' };
    const send = (method: string, body: unknown): RequestInit => ({
      method,
      headers: json,
      body: JSON.stringify(body),
    });
    const cases: Array<[string, RequestInit, string, RegExp]> = [
      ['/_sandbox/readiness?siteId=', {}, 'siteId', /siteId is required/],
      ['/_sandbox/readiness', {}, 'siteId', /siteId is required/],
      [
        '/_sandbox/feeds/demo42/abc',
        {},
        'feedId',
        /^path parameter feedId must be a whole number, 0 or more, got "abc": the path is \/_sandbox\/feeds\/\{siteId\}\/\{feedId\}$/,
      ],
      ['/_sandbox/feeds/demo42/4.5/catalog', {}, 'feedId', /feedId must be a whole number.*"4\.5"/],
      [
        '/_sandbox/feeds/demo42/abc/transition',
        send('POST', { to: 'running' }),
        'feedId',
        /feedId must be a whole number.*"abc"/,
      ],
      [
        '/_sandbox/feeds/demo42/-1',
        send('PATCH', { autopilot: true }),
        'feedId',
        /feedId must be a whole number.*"-1"/,
      ],
      [
        '/_sandbox/feeds/demo42/43',
        send('PATCH', { autopilot: 'x' }),
        'body.autopilot',
        /autopilot: "x" must be true or false/,
      ],
      [
        '/_sandbox/feeds/demo42/43',
        send('PATCH', { interval: 'bogus' }),
        'body.interval',
        /interval: "bogus" is not an interval/,
      ],
      ['/_sandbox/feeds/demo42/43', send('PATCH', { name: 'x' }), 'body.name', /unknown field/],
      [
        '/_sandbox/feeds/demo42/43',
        send('PATCH', { inject: { x: true } }),
        'body.inject.x',
        /unknown fault/,
      ],
      [
        '/_sandbox/feeds/demo42/43',
        send('PATCH', { inject: { nextIndexFails: 1 } }),
        'body.inject.nextIndexFails',
        /must be true or false/,
      ],
      [
        '/_sandbox/feeds/demo42/43/transition',
        send('POST', { to: 'bogus' }),
        'body.to',
        /to: "bogus" is not a feed state/,
      ],
      // a `to` left out is required, not "nothing" judged as a state
      [
        '/_sandbox/feeds/demo42/43/transition',
        send('POST', {}),
        'body.to',
        /^to is required: one of waiting, running, done, error, regen_waiting, regen_running, regen_done, regen_error, paused, e\.g\. \{"to": "running"\}$/,
      ],
    ];
    for (const [url, init, parameter, message] of cases) {
      const res = await fetch(`${sandbox.url}${url}`, init);
      const body = (await res.json()) as { parameter?: string; message: string };
      expect([url, res.status, body.parameter]).toEqual([url, 400, parameter]);
      expect(body.message).toMatch(message);
    }
  });

  it('names a path parameter that is not percent-encoded UTF-8, with the rule and the fix', async () => {
    const BAD = '%ED%A0%80'; // the UTF-8 bytes of a lone surrogate: no text decodes from them
    const valid: Record<string, string> = {
      siteId: 'demo42',
      feedId: '42',
      category: 'search',
      event: 'render',
    };
    let asked = 0;
    for (const [name, e] of Object.entries(ADMIN_API as Record<string, Endpoint>)) {
      const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      for (const parameter of params) {
        const url = e.path.replace(/\{(\w+)\}/g, (_, p: string) =>
          p === parameter ? BAD : (valid[p] ?? 'x'),
        );
        const res = await fetch(`${sandbox.url}${url}`, { method: e.method });
        const body = (await res.json()) as {
          error: string;
          parameter?: string;
          message: string;
          limit?: { value: string; rule: string; fix: string };
        };
        expect([name, url, res.status, body.error, body.parameter]).toEqual([
          name,
          url,
          400,
          'BadRequest',
          parameter,
        ]);
        expect(body.message).toContain(`path parameter ${parameter} "${BAD}" does not decode`);
        expect(body.limit).toMatchObject({
          value: `"${BAD}"`,
          rule: expect.stringMatching(/percent-encoded UTF-8/),
          fix: expect.stringMatching(/encodeURIComponent/),
        });
        asked++;
      }
    }
    expect(asked).toBeGreaterThanOrEqual(10);
  });

  it('answers a path it has, asked with a method it does not take, 405 with the methods in Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/_sandbox/events', 'GET, HEAD'],
      ['DELETE', '/_sandbox/events/ev_000000001', 'GET, HEAD'],
      ['GET', '/_sandbox/reset', 'POST'],
      ['PUT', '/_sandbox/feeds/demo42/42', 'GET, PATCH, HEAD'],
      ['PUT', '/_sandbox/health', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await fetch(`${sandbox.url}${url}`, { method });
      const body = (await res.json()) as { error: string; message: string };
      expect([method, url, res.status, res.headers.get('allow')]).toEqual([
        method,
        url,
        405,
        allow,
      ]);
      expect(body).toEqual({
        error: 'MethodNotAllowed',
        message: `${method} is not a method of ${url}: it takes ${allow}`,
      });
    }
    // a path the API does not have stays a 404
    expect((await fetch(`${sandbox.url}/_sandbox/nothing`, { method: 'POST' })).status).toBe(404);
  });

  it('quotes a long value it refuses by its first 100 characters and its length, never whole', async () => {
    const long = 'x'.repeat(8000);
    const json = { 'Content-Type': 'application/json' };
    const cases: Array<[string, RequestInit?]> = [
      [
        `/_sandbox/reset?siteId=zzzzzz`,
        { method: 'POST', headers: json, body: JSON.stringify({ siteId: 'a'.repeat(60_000) }) },
      ],
      [
        `/_sandbox/feeds/demo42/43`,
        { method: 'PATCH', headers: json, body: JSON.stringify({ interval: 'a'.repeat(60_000) }) },
      ],
      [`/_sandbox/feeds/${long}/42`],
      [`/_sandbox/feeds/demo42/${long}`],
      [`/_sandbox/timelines/${long}`],
      [`/_sandbox/timelines/x?siteId=${long}`],
      [`/_sandbox/events/${long}`],
      [`/_sandbox/rules/${long}`],
      [`/_sandbox/orders/${long}`],
      [`/_sandbox/search/responses/${long}`],
      [`/_sandbox/tracking/schemas/${long}/x`],
      [`/_sandbox/timelines?verdict=${long}`],
      [`/_sandbox/timelines?${long}=1`],
      [`/_sandbox/events?kind=search&category=${long}`],
      [`/_sandbox/stream?types=${long}`],
      [`/_sandbox/${long}`],
      [`/${long}`],
    ];
    for (const [url, init] of cases) {
      const res = await fetch(`${sandbox.url}${url}`, init);
      const text = await res.text();
      const label = url.slice(0, 40);
      expect([label, res.status >= 400]).toEqual([label, true]);
      expect([label, text.length < 1000]).toEqual([label, true]);
      expect([label, /characters\)/.test(text)]).toEqual([label, true]);
    }
  });

  it('builds the clients’ URLs: path parameters encoded, only declared query parameters', async () => {
    expect(adminPath('feed', { siteId: 'demo42', feedId: 42 })).toBe('/_sandbox/feeds/demo42/42');
    expect(adminPath('timeline', { pageLoadId: 'a/b\uD800' }, { siteId: 'demo42' })).toBe(
      '/_sandbox/timelines/a%2Fb%EF%BF%BD?siteId=demo42',
    );
    expect(adminPath('timelines', {}, { verdict: 'fail', limit: 50 })).toBe(
      '/_sandbox/timelines?verdict=fail&limit=50',
    );
    expect(() => adminPath('feeds', {}, { verdict: 'fail' } as never)).toThrow(
      /verdict is not one of its query parameters/,
    );
    const res = await fetch(`${sandbox.url}${adminPath('timelines', {}, { view: 'summary' })}`);
    expect(res.status).toBe(200);
    // a responseId the sandbox never issued: an empty list, not a 404 for the console to print
    const none = await fetch(
      `${sandbox.url}${adminPath('searchResponses', {}, { responseId: 'never-issued' })}`,
    );
    expect(none.status).toBe(200);
    expect(((await none.json()) as { responses: unknown[] }).responses).toEqual([]);
  });
});
