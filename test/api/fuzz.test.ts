// Fuzzing the interfaces any browser tab can reach (fast-check): random and malformed bodies, ids, content
// types and paths at the tracking interface, random query strings at the admin API, random lines at
// `check`. Never a 500, every beacon request recorded, and every recorded event and page renders in the
// UI's data model (the body view, the curl line, the route of its page).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/main/check/cli';
import { captured } from '../helpers/check';
import type { RecordedEvent } from '../../src/shared/events';
import type { PageTimelineSummaryDto } from '../../src/shared/timeline';
import { decodeRoutePart, encodePart, encodeRoutePart, wellFormed } from '../../src/shared/text';
import { startSandbox } from '../helpers/sandbox';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
// The renderer's own components, loaded by path: this file is type-checked with the Node world, which
// does not compile TSX (vitest does); their props are declared here.
const RENDERER = '../../src/renderer/src/views/inspector/';
let JsonView: (props: { body: unknown; errors: RecordedEvent['errors'] }) => unknown;
let eventCurl: (origin: string, e: RecordedEvent) => string;
// react's types pull the DOM library into the Node world's type check: loaded by name too
let render: (component: unknown, props: object) => string;
beforeAll(async () => {
  const react = 'react';
  const server = 'react-dom/server';
  const { createElement } = (await import(react)) as {
    createElement: (c: unknown, p: object) => unknown;
  };
  const { renderToString } = (await import(server)) as { renderToString: (e: unknown) => string };
  render = (component, props) => renderToString(createElement(component, props));
  sandbox = await startSandbox();
  ({ JsonView } = (await import(/* @vite-ignore */ `${RENDERER}JsonView.tsx`)) as {
    JsonView: typeof JsonView;
  });
  ({ eventCurl } = (await import(/* @vite-ignore */ `${RENDERER}EventInspector.tsx`)) as {
    eventCurl: typeof eventCurl;
  });
});
afterAll(async () => {
  await sandbox.close();
});

/** Text as hostile pages send it: any code unit (lone surrogates too), controls, markup, escapes. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.constantFrom(
    '\uD800',
    'x\uDC00',
    '../..',
    '%E0%A4%A',
    '<script>alert(1)</script>',
    '\u001b[2J',
    '',
  ),
);

const context = fc.record(
  {
    timestamp: fc.oneof(fc.constant(new Date().toISOString()), nasty),
    pageUrl: nasty,
    userId: nasty,
    sessionId: nasty,
    pageLoadId: nasty,
    initiator: nasty,
    dev: fc.boolean(),
  },
  { requiredKeys: [] },
);

const beaconish = fc.record({
  context,
  data: fc.oneof(
    fc.record(
      {
        responseId: nasty,
        results: fc.array(fc.oneof(fc.jsonValue(), fc.record({ uid: nasty, parentId: nasty }))),
        banners: fc.array(fc.jsonValue(), { maxLength: 3 }),
        redirect: nasty,
        tag: nasty,
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  ),
});

const nested = fc.integer({ min: 1, max: 12_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);

const body = fc.oneof(
  beaconish.map((b) => JSON.stringify(b)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  nested,
  nasty,
);

const ENDPOINTS = [
  'search/render',
  'search/impression',
  'search/clickthrough',
  'search/addtocart',
  'search/redirect',
  'category/render',
  'autocomplete/render',
  'recommendations/impression',
  'product/pageview',
  'cart/add',
  'order/transaction',
  'log/snap',
];
const path = fc.oneof(
  fc.constantFrom(...ENDPOINTS).map((e) => `/beacon/v2/demo42/${e}`),
  fc
    .tuple(nasty, nasty, nasty)
    .map(([a, b, c]) => `/beacon/v2/${encodePart(a)}/${encodePart(b)}/${encodePart(c)}`),
);
const contentType = fc.constantFrom('text/plain', 'application/json', 'text/html', 'x/\u00ff');

describe('fuzzing what any web page can send', () => {
  it('tracking: no 500; every request recorded; every event and page renders', async () => {
    const list = async () => {
      const res = await fetch(`${sandbox.url}/_sandbox/events?limit=100000`);
      const text = await res.text();
      expect(res.status, text.slice(0, 500)).toBe(200);
      return (JSON.parse(text) as { events: RecordedEvent[] }).events;
    };
    const before = await list();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(path, body, contentType, async (p, text, type) => {
        const res = await fetch(`${sandbox.url}${p}`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: text,
        });
        await res.arrayBuffer();
        sent++;
        expect(res.status, `${p} ${text.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    const events = await list();
    expect(events.length - before.length).toBe(sent);
    for (const e of events) {
      render(JsonView, { body: e.body, errors: e.errors });
      expect(eventCurl(sandbox.url, e)).toContain('curl');
      const one = await fetch(`${sandbox.url}/_sandbox/events/${encodePart(e.id)}`);
      expect(one.status).toBe(200);
    }
    const pages = (await (
      await fetch(`${sandbox.url}/_sandbox/timelines?view=summary&limit=100000`)
    ).json()) as { pages: PageTimelineSummaryDto[] };
    expect(pages.pages.length).toBeGreaterThan(0);
    // pageLoadIds of one site that differ only in unpaired surrogates read the same in a URL (U+FFFD)
    const inUrl = (page: PageTimelineSummaryDto) =>
      `${page.siteId}\u0000${wellFormed(page.pageLoadId)}`;
    const sharing = new Map<string, number>();
    for (const page of pages.pages) sharing.set(inUrl(page), (sharing.get(inUrl(page)) ?? 0) + 1);
    for (const page of pages.pages) {
      // the UI's route to the page, and back, and the API's answer for it
      expect(decodeRoutePart(encodeRoutePart(page.pageLoadId))).toBe(page.pageLoadId);
      const res = await fetch(
        `${sandbox.url}/_sandbox/timelines/${encodePart(wellFormed(page.pageLoadId))}?siteId=${encodePart(page.siteId)}`,
      );
      const text = await res.text();
      if (sharing.get(inUrl(page))! > 1) {
        expect(res.status, text).toBe(409);
        expect(text).toContain('cannot tell them apart');
      } else expect(res.status, `${JSON.stringify(page.pageLoadId)} ${text}`).toBe(200);
    }
  });

  it.each([
    ['surr01', ['\udc63', '\udc64']],
    // one sent as U+FFFD itself: the URL names it exactly, and the other page just as well
    ['surr02', ['\ufffd', '\udc65']],
  ])(
    'two pageLoadIds of one site that a URL cannot tell apart (unpaired surrogates) are named as such (%s)',
    async (siteId, pageLoadIds) => {
      for (const pageLoadId of pageLoadIds) {
        const res = await fetch(`${sandbox.url}/beacon/v2/${siteId}/search/render`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            context: {
              timestamp: new Date().toISOString(),
              pageUrl: 'https://shop.example/search?q=x',
              userId: 'u-1',
              sessionId: 's-1',
              pageLoadId,
              dev: true,
            },
            data: { responseId: `r-${pageLoadId.charCodeAt(0)}` },
          }),
        });
        await res.arrayBuffer();
      }
      const one = await fetch(
        `${sandbox.url}/_sandbox/timelines/${encodePart('\ufffd')}?siteId=${siteId}`,
      );
      const text = await one.text();
      expect(one.status, text).toBe(409);
      expect(JSON.parse(text)).toMatchObject({ error: 'Ambiguous' });
      expect(text).toContain(`2 pageLoadIds of site ${siteId}`);
      expect(text).toContain('cannot tell them apart');
    },
  );

  it('admin API: random query parameters are answered, never with a 500', async () => {
    const paths = [
      'events',
      'timelines',
      'visits',
      'orders',
      'report',
      'search/responses',
      'feeds',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.array(fc.tuple(nasty, nasty), { maxLength: 4 }),
        async (p, params) => {
          const qs = params.map(([k, v]) => `${encodePart(k)}=${encodePart(v)}`).join('&');
          const res = await fetch(`${sandbox.url}/_sandbox/${p}?${qs}`);
          await res.arrayBuffer();
          expect(res.status, `${p}?${qs}`).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('check: random lines end in a report or a one-line error, never a crash', async () => {
    const { tempDir } = await import('../helpers/sandbox');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const t = tempDir();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              body,
              beaconish.map((b) => JSON.stringify(b)),
            ),
            { maxLength: 8 },
          ),
          async (lines) => {
            const file = join(t.dir, 'in.ndjson');
            writeFileSync(file, lines.join('\n'));
            const { code, err } = await captured(runCheck, [file, '--format', 'junit'], Date.now);
            expect([0, 1, 2]).toContain(code);
            if (code === 2) expect(err).toMatch(/^search-sandbox check: /);
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      t.cleanup();
    }
  });
});
