// Requests the real service refuses before reading the body land on their page as request-refused, each
// naming the status and error the service answers, what was wrong and the fix; schema keeps bodies that
// fail validation (400).
import { afterEach, describe, expect, it } from 'vitest';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { startSandbox } from '../helpers/sandbox';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

const body = (pageLoadId: string) =>
  JSON.stringify({
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'https://shop.example/search?q=x',
      userId: 'u1',
      sessionId: 's1',
      pageLoadId,
      initiator: 'test',
      dev: true,
    },
    data: { responseId: 'r1' },
  });

describe('request-refused', () => {
  it('names 404, 405, 413 and 415 for what they are; a 400 stays schema', async () => {
    const s = await startSandbox();
    stops.push(() => s.close());
    const send = (method: string, path: string, contentType: string, text?: string) =>
      fetch(`${s.url}${path}`, {
        method,
        headers: { 'Content-Type': contentType },
        ...(text !== undefined && { body: text }),
      });
    const cases: Array<[number, Response]> = [
      [404, await send('POST', '/beacon/v2/demo42/search/rendr', 'text/plain', body('p404'))],
      [404, await send('POST', '/beacon/v2/BAD/search/render', 'text/plain', body('pbad'))],
      [415, await send('POST', '/beacon/v2/demo42/search/render', 'application/xml', body('p415'))],
      [
        413,
        await send(
          'POST',
          '/beacon/v2/demo42/search/render',
          'text/plain',
          body('p413').replace('"r1"', `"${'x'.repeat(1_100_000)}"`),
        ),
      ],
      [
        400,
        await send(
          'POST',
          '/beacon/v2/demo42/search/render',
          'text/plain',
          body('p400').replace('"responseId"', '"q"'),
        ),
      ],
    ];
    for (const [status, res] of cases) expect(res.status).toBe(status);
    const list = (await (await fetch(`${s.url}/_sandbox/timelines`)).json()) as {
      pages: PageTimelineDto[];
    };
    const finding = (pageLoadId: string) =>
      list.pages.filter((p) => p.pageLoadId === pageLoadId).flatMap((p) => p.findings);
    const [f404] = finding('p404');
    expect(f404).toMatchObject({ rule: 'request-refused', severity: 'error' });
    expect(f404!.message).toMatch(/answers 404 InvalidPathError/);
    expect(f404!.message).toMatch(
      /\/beacon\/v2\/demo42\/search\/rendr is not a beacon v2 endpoint/,
    );
    expect(finding('pbad')[0]!.message).toMatch(/has no valid siteId/);
    expect(finding('pbad')[0]!.fix).toMatch(/^send to \/beacon\/v2\/\{siteId\}/);
    expect(finding('p415')[0]!.message).toMatch(
      /Content-Type is "application\/xml".*answers 415 UnsupportedMediaType/,
    );
    expect(finding('p415')[0]!.fix).toMatch(/^send Content-Type: text\/plain/);
    const [f400] = finding('p400');
    expect(f400).toMatchObject({ rule: 'schema' });
    expect(f400!.message).toMatch(/answers 400 ValidationError/);
    // the 413's body is not read: it lands on the page without a pageLoadId
    const big = list.pages.flatMap((p) => p.findings).find((f) => f.message.includes('413'));
    expect(big?.message).toMatch(/over the 1 MB /);
    expect(big?.fix).toMatch(/^send fewer items per event/);
    // a method other than POST
    expect((await fetch(`${s.url}/beacon/v2/demo42/search/render`)).status).toBe(405);
    const after = (await (await fetch(`${s.url}/_sandbox/timelines`)).json()) as {
      pages: PageTimelineDto[];
    };
    const f405 = after.pages.flatMap((p) => p.findings).find((f) => f.message.includes('405'));
    expect(f405?.message).toMatch(/it was not a POST \(invalid request method: `GET`/);
    expect(f405?.fix).toMatch(/^send every beacon with POST/);
  });
});
