// The readiness tally on its own: what counts as seen and as broken, per row, from pages as `check` hands
// them over; and the gate's lines. The model's ids are read from it, never listed here.
import { describe, expect, it } from 'vitest';
import {
  EXERCISED,
  NO_INPUTS,
  ReadinessTally,
  SEEN_OTHERWISE,
  servedBy,
  sightPageDto,
  type ReadinessInputs,
  type Served,
} from '../../src/main/tracking/timeline/readiness';
import { BEHAVIOURS } from '../../src/main/tracking/client-model';
import { rulesGuarding } from '../../src/main/tracking/timeline/behaviour-list';
import { RULE_IDS, ruleMeta } from '../../src/main/tracking/timeline/rule-list';
import { readinessSiteOf } from '../../src/main/tracking/timeline/readiness-config';
import { readRecordedSites } from '../../src/main/tracking/timeline/offline-provenance';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { mapLevels } from '../../src/shared/rule-levels';
import { readinessGaps, type ReadinessDto } from '../../src/shared/readiness';
import type { PageTimelineDto, Severity, TimelineFindingDto } from '../../src/shared/timeline';
import type { RecordedEvent } from '../../src/shared/events';
import {
  INFINITE,
  PageBuilder,
  R1,
  T0,
  issued,
  source,
  visitPage,
  type SourceOptions,
} from '../rules/kit';

const SITE = {
  siteId: 'abc123',
  configured: true,
  widgets: [{ tag: 'similar', type: 'default' as const }],
  expect: [],
};

/** every event's address: one page load at one URL (an SPA route is two) */
const PAGE_URL = 'https://shop.example/search?q=jacket';

function page(
  pageLoadId: string,
  events: Array<{
    kind: string;
    event: string;
    tag?: string;
    accepted?: boolean;
    bannerUids?: string[];
    pageUrl?: string;
  }>,
  findings: Array<Partial<TimelineFindingDto>> = [],
): PageTimelineDto {
  return {
    pageLoadId,
    counts: { accepted: events.filter((e) => e.accepted !== false).length },
    responses: [
      {
        kind: events[0]?.kind,
        events: events.map((e, i) => ({
          ...e,
          accepted: e.accepted !== false,
          arrival: i + 1,
          timestamp: null,
          receivedAt: null,
          pageUrl: e.pageUrl ?? PAGE_URL,
        })),
      },
    ],
    findings: findings.map((f) => ({ eventIds: [], ...f })),
  } as unknown as PageTimelineDto;
}

function tallied(...pages: PageTimelineDto[]): ReadinessDto {
  return talliedWith(NO_INPUTS, ...pages);
}

function talliedWith(inputs: ReadinessInputs, ...pages: PageTimelineDto[]): ReadinessDto {
  const tally = new ReadinessTally();
  for (const p of pages) sightPageDto(tally, p);
  return tally.result(SITE, inputs);
}

const row = (r: ReadinessDto, id: string, tag?: string) =>
  r.behaviours.find((b) => b.id === id && b.tag === tag)!;

/** An engine that took the traffic (with what was issued) and finished it, read by `read`, then disposed. */
function finished<T>(
  events: RecordedEvent[],
  provenance: SourceOptions | undefined,
  read: (engine: TimelineEngine) => T,
): T {
  const clock = new SandboxClock({ start: T0 + 60_000, frozen: true });
  const engine = new TimelineEngine({
    clock,
    settings: defaultTimelineSettings(),
    levels: mapLevels({}, 'test'),
  });
  try {
    if (provenance) engine.setProvenance(source(provenance));
    for (const e of events) engine.apply(e);
    engine.finish();
    return read(engine);
  } finally {
    engine.dispose();
    clock.dispose();
  }
}

/** The site's readiness as the running sandbox reads it, after the traffic. */
function judged(events: RecordedEvent[], provenance?: SourceOptions): ReadinessDto {
  return finished(events, provenance, (engine) => {
    const steps = engine.readinessSteps({ ...SITE, siteId: 'demo42' });
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  });
}

describe('the readiness tally', () => {
  it('names only behaviours of the model where it sees them otherwise', () => {
    for (const id of Object.keys(SEEN_OTHERWISE))
      expect(
        BEHAVIOURS.some((b) => b.id === id),
        id,
      ).toBe(true);
  });

  it('an accepted event shows its behaviours, a rejected one does not; the example is the newest page', () => {
    const r = tallied(
      page('p1', [{ kind: 'search', event: 'render' }]),
      page('p2', [{ kind: 'search', event: 'render' }]),
      page('p3', [{ kind: 'search', event: 'clickthrough', accepted: false }]),
    );
    expect(row(r, 'search.render')).toMatchObject({ status: 'ok', example: { pageLoadId: 'p2' } });
    expect(row(r, 'search.clickthrough').status).toBe('unseen');
  });

  it('an ok row’s example is its newest page with no warning or error of its area; with none such, its newest', () => {
    const replaced = (pageLoadId: string, severity: 'warning' | 'info') =>
      page(
        pageLoadId,
        [{ kind: 'autocomplete', event: 'render' }],
        [{ rule: 'response-replaced', severity, behaviour: 'autocomplete.events' }],
      );
    const clean = page('p1', [{ kind: 'autocomplete', event: 'render' }]);
    const r = tallied(clean, replaced('p2', 'warning'));
    expect(row(r, 'autocomplete.events').status).toBe('findings');
    expect(row(r, 'autocomplete.render')).toMatchObject({
      status: 'ok',
      example: { pageLoadId: 'p1' },
    });
    // an info finding leaves the page clean: the newest is the example
    expect(row(tallied(clean, replaced('p2', 'info')), 'autocomplete.render').example).toEqual({
      pageLoadId: 'p2',
    });
    // only flagged pages show it: the newest, the row still ok (no finding counts against it)
    expect(
      row(tallied(replaced('p1', 'warning'), replaced('p2', 'warning')), 'autocomplete.render'),
    ).toMatchObject({ status: 'ok', example: { pageLoadId: 'p2' } });
    // a finding of another area on the newest page does not pass it over
    const cart = page(
      'p3',
      [{ kind: 'autocomplete', event: 'render' }],
      [{ rule: 'cart-inconsistent', severity: 'error', behaviour: 'cart.ledger' }],
    );
    expect(row(tallied(clean, cart), 'autocomplete.render').example).toEqual({ pageLoadId: 'p3' });
  });

  it('a warning or error counts against its behaviour; info and a finding caused by another do not', () => {
    const r = tallied(
      page(
        'p1',
        [
          { kind: 'search', event: 'render' },
          { kind: 'search', event: 'impression' },
          { kind: 'search', event: 'clickthrough' },
        ],
        [
          {
            id: 'a',
            rule: 'responseid-stale',
            severity: 'error',
            behaviour: 'search.one-response-shown',
          },
          {
            id: 'b',
            rule: 'missing-render',
            severity: 'error',
            behaviour: 'search.render',
            causedBy: 'a',
          },
          { id: 'c', rule: 'no-impression', severity: 'info', behaviour: 'search.impression' },
        ],
      ),
      page(
        'p2',
        [{ kind: 'search', event: 'render' }],
        [
          {
            id: 'd',
            rule: 'responseid-stale',
            severity: 'error',
            behaviour: 'search.one-response-shown',
          },
        ],
      ),
    );
    expect(row(r, 'search.one-response-shown')).toMatchObject({
      status: 'findings',
      worst: { rule: 'responseid-stale', severity: 'error', pageLoadId: 'p2' },
    });
    expect(row(r, 'search.render').status).toBe('ok');
    expect(row(r, 'search.impression').status).toBe('ok');
  });

  it('a row says its worst finding’s first sentence whole when it ends within 300 characters, else cuts it at a word', () => {
    const first =
      '1 request refused (entry:4): it is a browser’s CORS preflight (OPTIONS /beacon/v2/demo42/search/clickthrough): a beacon sent with a Content-Type other than text/plain (application/json, say) makes the browser ask first, and the real service refuses.';
    const message = `${first} The real service answers 405 InvalidMethodError and the event is lost.`;
    const worst = (m: string) =>
      row(
        tallied(
          page(
            'p1',
            [{ kind: 'search', event: 'clickthrough' }],
            [
              {
                id: 'a',
                rule: 'click-not-impressed',
                severity: 'warning',
                message: m,
                behaviour: 'search.clickthrough',
              },
            ],
          ),
        ),
        'search.clickthrough',
      ).worst!.message;
    expect(first.length).toBeGreaterThan(160);
    expect(first.length).toBeLessThanOrEqual(300);
    expect(worst(message)).toBe(`${first} …`);
    // a first sentence past 300 characters: cut at the last word before 160
    const long = `${'word '.repeat(70)}end. Second sentence.`;
    const cut = worst(long);
    expect(cut.length).toBeLessThanOrEqual(161);
    expect(cut).toMatch(/^word( word)+…$/);
    // "e.g. x" and "1.3 s" end no sentence
    expect(worst(`${'a '.repeat(30)}e.g. the 1.3 s queue, ${'b '.repeat(60)}.`)).toMatch(/…$/);
  });

  it('an error outranks a newer warning', () => {
    const r = tallied(
      page(
        'p1',
        [{ kind: 'search', event: 'clickthrough' }],
        [
          {
            id: 'a',
            rule: 'click-not-impressed',
            severity: 'error',
            behaviour: 'search.clickthrough',
          },
        ],
      ),
      page(
        'p2',
        [{ kind: 'search', event: 'clickthrough' }],
        [
          {
            id: 'b',
            rule: 'click-not-impressed',
            severity: 'warning',
            behaviour: 'search.clickthrough',
          },
        ],
      ),
    );
    expect(row(r, 'search.clickthrough').worst).toMatchObject({
      rule: 'click-not-impressed',
      severity: 'error',
      pageLoadId: 'p1',
    });
  });

  it('of two findings of one severity on one page, the worst is the one the page lists first, whatever order they come in', () => {
    const drift = {
      id: 'a',
      rule: 'context-drift' as const,
      severity: 'error' as const,
      behaviour: 'identity.ids-per-page-load',
    };
    const other = { ...drift, id: 'b', rule: 'responseid-other-visitor' as const };
    const first = RULE_IDS.indexOf(drift.rule) < RULE_IDS.indexOf(other.rule) ? drift : other;
    for (const findings of [
      [drift, other],
      [other, drift],
    ]) {
      const r = tallied(page('p1', [{ kind: 'search', event: 'render' }], findings));
      expect(row(r, 'identity.ids-per-page-load').worst).toMatchObject({
        rule: first.rule,
        severity: 'error',
        pageLoadId: 'p1',
      });
    }
    // a newer page's of the same severity still wins
    const newer = tallied(
      page('p1', [{ kind: 'search', event: 'render' }], [first]),
      page('p2', [{ kind: 'search', event: 'render' }], [first === drift ? other : drift]),
    );
    expect(row(newer, 'identity.ids-per-page-load').worst?.pageLoadId).toBe('p2');
  });

  it('an unseen tile row of a page that renders says what of the page sends it; the area’s summary does not', () => {
    const r = tallied(page('p1', [{ kind: 'search', event: 'render' }]));
    expect(row(r, 'search.render').status).toBe('ok');
    expect(row(r, 'search.impression').next).toMatch(
      /; it is sent by each tile once 70% of it has been in view for 1 s, .*`tracker\.events\.search\.impression\(\{responseId, results, banners\}\)`/,
    );
    expect(row(r, 'search.clickthrough').next).toMatch(
      /`track\.product\.click` on the tile’s link/,
    );
  });

  it('an unseen row says the info finding of its behaviour the traffic had (a checkout seen on another domain without the storefront’s ids)', () => {
    const cart = [{ uid: 'P700' }];
    const shop = visitPage('cart', {
      sessionId: 's-shop',
      userId: 'u-shop',
      pageUrl: 'https://shop.example/cart',
    });
    const pay = visitPage('pay-thanks', {
      sessionId: 's-pay',
      userId: 'u-pay',
      pageUrl: 'https://checkout.example/thank-you',
    });
    const events = [shop.cartAdd(cart, cart, { at: 0 }), pay.order('o-7', cart, { at: 120_000 })];
    // live, and as `check` reads the same pages
    const offline = finished(events, undefined, (engine) => {
      const tally = new ReadinessTally();
      for (const p of engine.pagesDto()) sightPageDto(tally, p);
      return tally.result({ ...SITE, siteId: 'demo42' });
    });
    for (const r of [judged(events), offline]) {
      const crossDomain = row(r, 'identity.cross-domain');
      expect(crossDomain.status).toBe('unseen');
      expect(crossDomain.next).toMatch(
        /; it is not seen done: page pay-thanks has order-other-domain \(info\): order "o-7" on https:\/\/checkout\.example arrived in a new visit/,
      );
    }
    // nothing noted: the row says only what sends it
    expect(
      row(tallied(page('p1', [{ kind: 'search', event: 'render' }])), 'identity.cross-domain').next,
    ).not.toMatch(/not seen done/);
  });

  it('widgets: a row per declared tag and per tag the traffic names; none declared nor sent is not applicable', () => {
    const r = tallied(
      page('p1', [
        { kind: 'recommendations', event: 'render', tag: 'viewed' },
        { kind: 'recommendations', event: 'impression', tag: 'viewed' },
      ]),
    );
    expect(row(r, 'recommendations.widget', 'similar')).toMatchObject({
      status: 'unseen',
      next: expect.stringContaining('(tag "similar")'),
    });
    expect(row(r, 'recommendations.widget', 'viewed').status).toBe('ok');
    expect(row(r, 'bundles.widget')).toMatchObject({ status: 'not-applicable' });
    expect(row(r, 'identity.attribution').status).toBe('not-applicable');
    // order.credit: only a credited order line shows it
    expect(row(r, 'order.credit').status).toBe('unseen');
  });

  it('the gate: ids and areas, unseen, not applicable and findings at failOn, each named once', () => {
    const r = tallied(
      page(
        'p1',
        [{ kind: 'search', event: 'clickthrough' }],
        [
          {
            id: 'a',
            rule: 'click-not-impressed',
            severity: 'warning',
            behaviour: 'search.clickthrough',
          },
        ],
      ),
    );
    expect(readinessGaps(r, ['search.clickthrough'])).toEqual([]);
    expect(readinessGaps(r, ['search.clickthrough'], 'warning')).toEqual([
      `search.clickthrough has findings: warning click-not-impressed on page p1`,
    ]);
    expect(readinessGaps(r, ['cart', 'cart', 'bundles.widget'])).toEqual([
      expect.stringMatching(/^area cart is unseen: nothing of it was sent/),
      expect.stringMatching(
        /^bundles\.widget is expected but not applicable: site abc123 declares no bundle widget/,
      ),
    ]);
    expect(readinessGaps(r, ['search'])).toEqual([]);
  });

  describe('behaviours a search render does not show by itself are seen only when exercised', () => {
    /**
     * A page of listing responses: kind, responseId and the events of each (`render@1200`: its timestamp,
     * ms after T0), and the page's findings.
     */
    const listing = (
      pageLoadId: string,
      responses: Array<[kind: string, responseId: string, events: string[]]>,
      findings: Array<Partial<TimelineFindingDto>> = [],
    ) =>
      ({
        pageLoadId,
        counts: {},
        responses: responses.map(([kind, responseId, events]) => ({
          kind,
          responseId,
          events: events.map((spec) => {
            const [event, at] = spec.split('@') as [string, string | undefined];
            const timestamp = at === undefined ? null : new Date(T0 + Number(at)).toISOString();
            return { kind, event, accepted: true, timestamp, receivedAt: null, pageUrl: PAGE_URL };
          }),
        })),
        findings: findings.map((f) => ({ eventIds: [], ...f })),
      }) as unknown as PageTimelineDto;
    /** What the companion search issued, by responseId (search kind), as an export says it. */
    const issuedAs =
      (by: Record<string, NonNullable<ReturnType<Served>>>): Served =>
      (kind, responseId) =>
        kind === 'search' ? by[responseId] : undefined;
    function talliedServed(served: Served, ...pages: PageTimelineDto[]): ReadinessDto {
      const tally = new ReadinessTally();
      for (const p of pages) sightPageDto(tally, p, served);
      return tally.result(SITE);
    }
    /** a finding about one search response */
    const about = (responseId: string, rule: string, severity: Severity, behaviour?: string) => ({
      id: `${rule}:${responseId}`,
      rule: rule as TimelineFindingDto['rule'],
      severity,
      kind: 'search' as const,
      responseId,
      behaviour: behaviour ?? ruleMeta(rule)!.guards[0]!,
    });
    const FINER = Object.keys(EXERCISED);

    it('names only behaviours of the model', () => {
      for (const id of FINER) expect(BEHAVIOURS.some((b) => b.id === id)).toBe(true);
    });

    it('a store that renders and impresses every search shows none of them', () => {
      // sent in production mode, as dev-flag says of each page
      const production = [{ rule: 'dev-flag' as const, severity: 'info' as const }];
      const r = tallied(
        listing('p1', [['search', 'r1', ['render', 'impression', 'clickthrough']]], production),
        listing('p2', [['category', 'c1', ['render', 'impression']]], production),
      );
      expect(row(r, 'search.render').status).toBe('ok');
      for (const id of FINER) expect(row(r, id).status, id).toBe('unseen');
    });

    describe('backfill: page 1 rendered, a later page of the same search impressed under it, named by its finding', () => {
      const restored = () =>
        listing(
          'p1',
          [
            ['search', 'r1', ['render', 'impression']],
            ['search', 'r2', ['impression']],
          ],
          [about('r2', 'missing-render-backfill', 'info')],
        );
      const pages = (second: { query?: string; page?: number }) =>
        issuedAs({
          r1: { results: 24, shown: 24, query: 'shirt', page: 1 },
          r2: { results: 24, shown: 24, query: 'shirt', page: 2, ...second },
        });

      it('both pages issued by the companion search: seen', () => {
        expect(row(talliedServed(pages({}), restored()), 'search.backfill')).toMatchObject({
          status: 'ok',
          example: { pageLoadId: 'p1' },
        });
        expect(row(talliedServed(pages({}), restored()), 'search.render-cached').status).toBe(
          'unseen',
        );
      });

      it('not from what the sandbox did not issue: a finding naming it on a responseId it never issued shows nothing', () => {
        expect(row(tallied(restored()), 'search.backfill').status).toBe('unseen');
        const typo = issuedAs({ r1: { results: 24, shown: 24, query: 'shirt', page: 1 } });
        expect(row(talliedServed(typo, restored()), 'search.backfill').status).toBe('unseen');
      });

      it('on a category page: category.backfill, never search.backfill; a category page of another query shows none', () => {
        const category = listing(
          'c1',
          [
            ['category', 'k1', ['render', 'impression']],
            ['category', 'k2', ['impression']],
          ],
          [
            {
              rule: 'missing-render-backfill',
              severity: 'info',
              kind: 'category',
              responseId: 'k2',
              behaviour: 'category.backfill',
            },
          ],
        );
        const issued =
          (query: string): Served =>
          (kind, responseId) =>
            kind !== 'category'
              ? undefined
              : responseId === 'k1'
                ? { results: 24, shown: 24, query: 'shirt', page: 1 }
                : { results: 24, shown: 24, query, page: 2 };
        const r = talliedServed(issued('shirt'), category);
        expect(row(r, 'category.backfill')).toMatchObject({
          status: 'ok',
          example: { pageLoadId: 'c1' },
        });
        expect(row(r, 'search.backfill').status).toBe('unseen');
        expect(row(talliedServed(issued('shoes'), category), 'category.backfill').status).toBe(
          'unseen',
        );
      });

      it('nor from a page of another search, nor from page 1 again', () => {
        expect(
          row(talliedServed(pages({ query: 'shoes' }), restored()), 'search.backfill').status,
        ).toBe('unseen');
        expect(row(talliedServed(pages({ page: 1 }), restored()), 'search.backfill').status).toBe(
          'unseen',
        );
      });
    });

    describe('zero results: a listing response the companion search issued with nothing to show, rendered and followed by nothing', () => {
      const served = issuedAs({
        none: { results: 0, shown: 0 },
        some: { results: 3, shown: 3 },
      });
      it('seen; a dropdown’s or one that served results is not', () => {
        const alone = talliedServed(served, listing('p1', [['search', 'none', ['render']]]));
        expect(row(alone, 'search.zero-results').status).toBe('ok');
        expect(row(alone, 'search.zero-results-render').status).toBe('ok');
        const some = talliedServed(served, listing('p1', [['search', 'some', ['render']]]));
        expect(row(some, 'search.zero-results').status).toBe('unseen');
        const dropdown = talliedServed(
          (kind, id) => (kind === 'autocomplete' ? { results: 0, shown: 0 } : served(kind, id)),
          listing('p1', [['autocomplete', 'none', ['render']]]),
        );
        expect(row(dropdown, 'search.zero-results').status).toBe('unseen');
      });

      it('not from a render of a responseId the sandbox never issued: it may have served anything', () => {
        const hand = tallied(listing('p1', [['search', 'never-issued', ['render']]]));
        expect(row(hand, 'search.zero-results').status).toBe('unseen');
        expect(row(hand, 'search.zero-results-render').status).toBe('unseen');
      });

      it('not from a response a warning of its own rules flags', () => {
        const flagged = talliedServed(
          served,
          listing(
            'p1',
            [['search', 'none', ['render']]],
            [about('none', 'no-impression-of-results', 'warning', 'search.zero-results')],
          ),
        );
        expect(row(flagged, 'search.zero-results').status).not.toBe('ok');
      });
    });

    it('development mode: a page load none of whose events dev-flag found sent in production; with dev-flag off, any event', () => {
      const page = (id: string, production: boolean) =>
        listing(
          id,
          [['search', 'r1', ['render']]],
          production ? [{ rule: 'dev-flag', severity: 'info' }] : [],
        );
      expect(row(tallied(page('p1', true)), 'mode.development').status).toBe('unseen');
      expect(row(tallied(page('p1', true), page('p2', false)), 'mode.development')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'p2' },
      });
      const off = { ...NO_INPUTS, off: (rule: string) => rule === 'dev-flag' };
      expect(row(talliedWith(off, page('p1', true)), 'mode.development').status).toBe('ok');
    });

    it('a search page’s redirect: not a category page’s (one whose page sent category/*), nor one a warning of its rules flags', () => {
      const redirect = (
        others: Array<[kind: string, responseId: string, events: string[]]> = [],
        findings: Array<Partial<TimelineFindingDto>> = [],
      ) =>
        row(
          tallied(listing('p1', [['search', 'r1', ['redirect']], ...others], findings)),
          'search.redirect',
        ).status;
      expect(redirect()).toBe('ok');
      expect(redirect([['category', 'c1', ['render']]])).toBe('unseen');
      expect(redirect([], [about('r1', 'redirect-mismatch', 'warning', 'search.redirect')])).toBe(
        'findings',
      );
      expect(
        row(tallied(listing('p1', [['search', 'r1', ['render']]])), 'search.redirect').status,
      ).toBe('unseen');
    });

    it('one response shown: two search responses rendered on one page load, one of them used; not one, nor a flagged one', () => {
      const shown = (responses: Array<[kind: string, responseId: string, events: string[]]>) =>
        row(tallied(listing('p1', responses)), 'search.one-response-shown').status;
      expect(
        shown([
          ['search', 'r1', ['render', 'impression']],
          ['search', 'r2', ['render', 'impression']],
        ]),
      ).toBe('ok');
      expect(shown([['search', 'r1', ['render', 'impression', 'render']]])).toBe('unseen');
      expect(
        shown([
          ['search', 'r1', ['render']],
          ['search', 'r2', ['render']],
        ]),
      ).toBe('unseen');
      expect(
        shown([
          ['search', 'r1', ['render', 'impression']],
          ['category', 'c1', ['render', 'impression']],
        ]),
      ).toBe('unseen');
      const stale = tallied(
        listing(
          'p1',
          [
            ['search', 'r1', ['render', 'impression']],
            ['search', 'r2', ['render', 'impression']],
          ],
          [about('r1', 'responseid-stale', 'error', 'search.one-response-shown')],
        ),
      );
      expect(row(stale, 'search.one-response-shown').status).toBe('findings');
    });

    describe('render-cached: rendered again on a later page, or on its page after it was shown and another search', () => {
      it('another response of the listing rendered between: seen; rendered twice with none between is not', () => {
        const back = tallied(
          listing('p1', [
            ['search', 'r1', ['render', 'impression', 'render', 'impression']],
            ['search', 'r2', ['render', 'impression']],
          ]),
        );
        expect(row(back, 'search.render-cached').status).toBe('ok');
        const twice = tallied(
          listing('p1', [['search', 'r1', ['render', 'impression', 'render']]]),
        );
        expect(row(twice, 'search.render-cached').status).toBe('unseen');
      });

      it('not on the page where duplicate-render flagged the render again', () => {
        const flagged = tallied(
          listing(
            'p1',
            [
              ['search', 'r1', ['render', 'impression', 'render', 'impression']],
              ['search', 'r2', ['render', 'impression']],
            ],
            [about('r1', 'duplicate-render', 'warning', 'search.render')],
          ),
        );
        expect(row(flagged, 'search.render-cached').status).toBe('unseen');
      });

      it('on a later page than its first, unless responseid-reused flags it there; two responses once each do not', () => {
        const later = tallied(
          listing('p1', [['search', 'r1', ['render', 'impression']]]),
          listing('p2', [['search', 'r1', ['render', 'impression']]]),
        );
        expect(row(later, 'search.render-cached')).toMatchObject({
          status: 'ok',
          example: { pageLoadId: 'p2' },
        });
        const copied = tallied(
          listing('p1', [['search', 'r1', ['render', 'impression']]]),
          listing(
            'p2',
            [['search', 'r1', ['render', 'impression']]],
            [about('r1', 'responseid-reused', 'warning', 'search.render-cached')],
          ),
        );
        expect(row(copied, 'search.render-cached').status).toBe('findings');
        const distinct = tallied(
          listing('p1', [['search', 'r1', ['render', 'impression']]]),
          listing('p2', [['search', 'r2', ['render', 'impression']]]),
        );
        expect(row(distinct, 'search.render-cached').status).toBe('unseen');
      });
    });

    it('request context: a rendered listing response whose request carried userId and pageLoadId', () => {
      const seen = (
        kind: string,
        asked: boolean | undefined,
        renders = 1,
        flaggedBy?: TimelineFindingDto['rule'],
      ) => {
        const tally = new ReadinessTally();
        tally.sent(`${kind}/render`, '', 'p1');
        tally.exercise('p1', {
          responses: [
            {
              kind,
              responseId: 'r1',
              renders,
              interactions: 0,
              ...(asked !== undefined && { served: { results: 3, shown: 3, asked } }),
              ...(flaggedBy && { findings: [{ rule: flaggedBy, severity: 'warning' as const }] }),
            },
          ],
          ended: false,
        });
        return row(tally.result(SITE), 'search.request-context').status;
      };
      expect(seen('search', true)).toBe('ok');
      // a category page's request carries it too, but it counts on the category rows
      expect(seen('category', true)).toBe('unseen');
      // a request without the context (a server's search), or a response the sandbox did not issue
      expect(seen('search', false)).toBe('unseen');
      expect(seen('search', undefined)).toBe('unseen');
      // the dropdown's requests carry it too, but the row is the listing's
      expect(seen('autocomplete', true)).toBe('unseen');
      expect(seen('search', true, 0)).toBe('unseen');
      // asked by another visitor: what its own rule flags shows nothing of it
      expect(seen('search', true, 1, 'responseid-other-visitor')).toBe('unseen');
      // a finding of a rule of another behaviour leaves it shown
      expect(seen('search', true, 1, 'duplicate-impression')).toBe('ok');
    });

    describe('single-result redirect: a response issued with one result, whose render is the last thing its page sent', () => {
      const seen = (
        served: { results: number; shown: number } | undefined,
        o: { ended?: boolean; renderedLast?: boolean; renders?: number } = {},
      ) => {
        const tally = new ReadinessTally();
        tally.sent('search/render', '', 'p1');
        tally.exercise('p1', {
          responses: [
            {
              kind: 'search',
              responseId: 'r1',
              renders: o.renders ?? 1,
              interactions: 0,
              renderedLast: o.renderedLast ?? true,
              ...(served && { served }),
            },
          ],
          ended: o.ended ?? true,
        });
        const r = tally.result(SITE);
        return [
          row(r, 'search.single-result-redirect').status,
          row(r, 'search.zero-results').status,
        ];
      };

      it('one result or none, issued by the companion search; nothing for a response it did not issue', () => {
        expect(seen({ results: 1, shown: 1 })).toEqual(['ok', 'unseen']);
        expect(seen({ results: 0, shown: 0 })).toEqual(['unseen', 'ok']);
        // unknown to the sandbox: it may have served anything
        expect(seen(undefined)).toEqual(['unseen', 'unseen']);
        // a page still open may yet impress what it rendered
        expect(seen({ results: 1, shown: 1 }, { ended: false })).toEqual(['unseen', 'unseen']);
        // the page went on after the render: no redirect to the product happened
        expect(seen({ results: 1, shown: 1 }, { renderedLast: false })).toEqual([
          'unseen',
          'unseen',
        ]);
        // the client renders it once before it leaves, not twice
        expect(seen({ results: 1, shown: 1 }, { renders: 2 })[0]).toBe('unseen');
      });

      it('a page whose traffic went on under the previous responseId after the render did not leave for the product', () => {
        const served = issuedAs({
          jacket: { results: 3, shown: 3 },
          mug: { results: 1, shown: 1 },
        });
        const left = talliedServed(
          served,
          listing('p1', [
            ['search', 'jacket', ['render@0', 'impression@1200']],
            ['search', 'mug', ['render@5000']],
          ]),
        );
        expect(row(left, 'search.single-result-redirect').status).toBe('ok');
        const stale = talliedServed(
          served,
          listing('p1', [
            ['search', 'jacket', ['render@0', 'impression@1200', 'impression@6200']],
            ['search', 'mug', ['render@5000']],
          ]),
        );
        expect(row(stale, 'search.single-result-redirect').status).toBe('unseen');
      });
    });
  });

  describe('the running sandbox and `check` read the finer behaviours from what the client would send', () => {
    /** The site's rows live and as `check` reads the same pages (judged as finished), with what was issued. */
    function bothWays(events: RecordedEvent[], provenance?: SourceOptions): ReadinessDto[] {
      const offline = finished(events, provenance, (engine) => {
        const tally = new ReadinessTally();
        const served = provenance ? servedBy(source(provenance), 'demo42') : undefined;
        for (const p of engine.pagesDto()) sightPageDto(tally, p, served);
        return tally.result({ ...SITE, siteId: 'demo42' });
      });
      return [judged(events, provenance), offline];
    }
    const statuses = (rows: ReadinessDto[], id: string) => rows.map((r) => row(r, id).status);

    it('a widget’s events sent with another tag count on the tag whose render carried their responseId', () => {
      const pdp = new PageBuilder({ pageLoadId: 'pdp' });
      const widgetRows = (r: ReadinessDto, area: string) =>
        r.behaviours
          .filter((b) => b.area === area)
          .map(
            (b) =>
              `${b.id} [${b.tag}] ${b.status} ${b.worst?.rule ?? ''} ${b.wrongTags?.join(',') ?? ''}`,
          );
      // a declared tag that got only the other widget's events stays unseen; a misspelt one has no rows
      const recs = bothWays([
        pdp.as('recommendations', 'similar').render('w1', { at: 0 }),
        pdp.as('recommendations', 'trending').impression('w1', ['A'], { at: 1200 }),
        pdp.as('recommendations', 'similiar').click('w1', 'A', { at: 3000 }),
      ]);
      for (const r of recs)
        expect(widgetRows(r, 'recommendations')).toEqual([
          'recommendations.widget [similar] ok  ',
          'recommendations.events [similar] findings missing-render similiar,trending',
        ]);
      // a bundle: its one row
      const kit = new PageBuilder({ pageLoadId: 'kit' });
      const bundles = bothWays([
        kit.as('bundles', 'kit').render('b1', { at: 0 }),
        kit.as('bundles', 'kti').impression('b1', ['A'], { at: 1200 }),
      ]);
      for (const r of bundles)
        expect(widgetRows(r, 'bundles')).toEqual([
          'bundles.widget [kit] findings missing-render kti',
        ]);
      // a responseId two tags rendered: the first of them in order of tags, live and offline
      const two = new PageBuilder({ pageLoadId: 'two' });
      const shared = bothWays([
        two.as('recommendations', 'trending').render('w2', { at: 0 }),
        two.as('recommendations', 'similar').render('w2', { at: 100 }),
        two.as('recommendations', 'other').impression('w2', ['A'], { at: 1200 }),
      ]);
      for (const r of shared)
        expect(row(r, 'recommendations.events', 'similar').wrongTags).toEqual(['other']);
      // events whose responseId no widget of the page rendered stay under the tag they carried
      const lone = new PageBuilder({ pageLoadId: 'lone' });
      const unrendered = bothWays([
        lone.as('recommendations', 'similar').render('w3', { at: 0 }),
        lone.as('recommendations', 'similiar').impression('w4', ['A'], { at: 1200 }),
      ]);
      for (const r of unrendered) {
        expect(row(r, 'recommendations.widget', 'similiar')).toMatchObject({
          status: 'findings',
          worst: { rule: 'missing-render' },
        });
        expect(row(r, 'recommendations.events', 'similiar').status).toBe('ok');
        expect(row(r, 'recommendations.events', 'similar').wrongTags).toBeUndefined();
      }
    });

    it('a widget’s rejected events count against the row of the tag they carried, declared or not', () => {
      const pdp = new PageBuilder({ pageLoadId: 'pdp-rejected' });
      const rejected = { accepted: false, errors: ['missing required key-value: data.banners'] };
      const rows = bothWays([
        pdp.as('recommendations', 'similar').render('w1', { at: 0 }),
        pdp.as('recommendations', 'similar').impression('w1', ['A'], { at: 1200, ...rejected }),
        pdp.as('recommendations', 'viewed').render('w2', { at: 0 }),
        pdp.as('recommendations', 'viewed').impression('w2', ['B'], { at: 1300, ...rejected }),
        // a tag whose every event the service rejected
        pdp.as('recommendations', 'lonely').impression('w3', ['C'], { at: 1400, ...rejected }),
      ]);
      for (const r of rows) {
        for (const tag of ['similar', 'viewed', 'lonely'])
          expect(row(r, 'recommendations.events', tag), tag).toMatchObject({
            status: 'findings',
            worst: { rule: 'schema', severity: 'error' },
          });
        expect(r.summary.findings).toBeGreaterThanOrEqual(2);
      }
    });

    it('a double render that duplicate-render flags shows no cached render; coming back to a response after another search does', () => {
      const twice = new PageBuilder({ pageLoadId: 'twice' });
      const flagged = bothWays([twice.render('r1', { at: 0 }), twice.render('r1', { at: 300 })]);
      expect(statuses(flagged, 'search.render')).toEqual(['findings', 'findings']);
      expect(statuses(flagged, 'search.render-cached')).toEqual(['unseen', 'unseen']);
      // production (the client caches only there): jacket, shoes, then jacket again from the cache
      const back = new PageBuilder({ pageLoadId: 'back', dev: false });
      const cached = bothWays([
        back.render('r1', { at: 0 }),
        back.impression('r1', ['P200'], { at: 1200 }),
        back.render('r2', { at: 5000 }),
        back.impression('r2', ['P210'], { at: 6200 }),
        back.render('r1', { at: 9000 }),
        back.impression('r1', ['P200'], { at: 10_200 }),
      ]);
      expect(statuses(cached, 'search.render-cached')).toEqual(['ok', 'ok']);
    });

    it('a one-result response whose page went on under the previous responseId shows no single-result redirect; one rendered last does', () => {
      const mug = issued({
        responseId: 'mug',
        query: 'mug',
        results: [{ uid: 'M1', sku: 'M1', parentId: 'M1', children: [] }],
      });
      const stale = new PageBuilder({ pageLoadId: 'stale' });
      const wentOn = bothWays(
        [
          stale.render('r1', { at: 0 }),
          stale.impression('r1', ['P200'], { at: 1200 }),
          stale.render('mug', { at: 5000 }),
          stale.impression('r1', ['M1'], { at: 6200 }),
          stale.click('r1', 'M1', { at: 8000 }),
        ],
        { responses: [R1, mug] },
      );
      expect(statuses(wentOn, 'search.single-result-redirect')).toEqual(['unseen', 'unseen']);
      const left = new PageBuilder({ pageLoadId: 'left' });
      const redirected = bothWays([left.render('mug', { at: 0 })], { responses: [R1, mug] });
      expect(statuses(redirected, 'search.single-result-redirect')).toEqual(['ok', 'ok']);
    });

    it('a render of a responseId the sandbox never issued shows no zero-results search; one it issued with nothing does', () => {
      const hand = new PageBuilder({ pageLoadId: 'hand' });
      const unknown = bothWays([hand.render('never-issued', { at: 0 })], {});
      for (const id of ['search.zero-results', 'search.zero-results-render'])
        expect(statuses(unknown, id), id).toEqual(['unseen', 'unseen']);
      const none = new PageBuilder({ pageLoadId: 'none' });
      const empty = bothWays([none.render('r0', { at: 0 })], {});
      for (const id of ['search.zero-results', 'search.zero-results-render'])
        expect(statuses(empty, id), id).toEqual(['ok', 'ok']);
    });

    it('two errors of one behaviour on one page: live and `check` name the same worst', () => {
      // the page load's search was asked in one session; its beacons carry another, then a third
      const asked = issued({
        responseId: 'r1',
        results: [{ uid: 'P200', sku: 'P200', parentId: 'P200', children: [] }],
        requester: { userId: 'user-1', sessionId: 'session-0', pageLoadId: 'page-1' },
      });
      const p = new PageBuilder();
      const [live, offline] = bothWays(
        [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['P200'], { at: 1200, context: { sessionId: 'session-2' } }),
        ],
        { responses: [asked] },
      );
      const worst = (r: ReadinessDto | undefined) => row(r!, 'identity.ids-per-page-load').worst;
      expect(worst(live)).toMatchObject({ severity: 'error', pageLoadId: 'page-1' });
      expect(worst(offline)).toEqual(worst(live));
    });

    it('an impression under a mistyped responseId shows no backfill; pages restored together on load do', () => {
      const typo = new PageBuilder({ pageLoadId: 'typo' });
      const mistyped = bothWays(
        [
          typo.render('r1', { at: 0 }),
          typo.impression('r1', ['P200'], { at: 1200 }),
          typo.impression('r1x', ['P201'], { at: 1400 }),
        ],
        {},
      );
      expect(statuses(mistyped, 'search.backfill')).toEqual(['unseen', 'unseen']);
      const restored = bothWays(INFINITE.traffic(), { responses: INFINITE.together });
      expect(statuses(restored, 'search.backfill')).toEqual(['ok', 'ok']);
    });
  });

  describe('an ok that no rule could check says so, and what would check it', () => {
    /** a search page that impressed (a banner too), clicked and added: search.items-served and search.banners seen */
    const listing = () =>
      page('p1', [
        { kind: 'search', event: 'render' },
        { kind: 'search', event: 'impression', bannerUids: ['b1'] },
        { kind: 'search', event: 'clickthrough' },
        { kind: 'search', event: 'addtocart' },
      ]);
    const lacks = (r: ReadinessDto, id: string) =>
      row(r, id).unverified?.map((u) => [u.lacks, ...u.rules].join(' '));

    it('items served without the issued responses or a catalog: unverified, naming each rule and what it lacked', () => {
      const r = tallied(listing());
      expect(row(r, 'search.items-served')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'p1' },
      });
      expect(lacks(r, 'search.items-served')).toEqual([
        'issued item-not-in-response parentid-mismatch parentid-unclear tile-uid-variant item-ids-disagree',
        'catalog item-not-in-catalog item-ids-disagree',
      ]);
      expect(row(r, 'search.items-served').unverified![1]!.how).toContain('--catalog SITE=FILE');
      // the render, the click, a slot banner's uid (banner-uid-malformed) and the page's ids are judged
      // from the traffic alone
      for (const id of [
        'search.render',
        'search.clickthrough',
        'search.banners',
        'identity.context',
      ])
        expect(row(r, id).unverified, id).toBeUndefined();
      expect(r.summary.unverified).toBe(r.behaviours.filter((b) => b.unverified).length);
      expect(r.summary.unverified).toBeGreaterThanOrEqual(1);
    });

    it('every unverified row is an ok whose every guarding rule lacked what it needs or is off', () => {
      const r = tallied(listing());
      for (const b of r.behaviours.filter((x) => x.unverified)) {
        expect(b.status).toBe('ok');
        const named = new Set(b.unverified!.flatMap((u) => u.rules));
        for (const rule of rulesGuarding(b.id)) {
          expect(named.has(rule), `${b.id}: ${rule}`).toBe(true);
          expect(ruleMeta(rule)!.judgesOnlyWith, rule).toBeDefined();
        }
      }
    });

    it('a behaviour no rule can check is ok only where the traffic shows it, and never unverified: nothing would check it', () => {
      // any event of a page load at one address says nothing of an SPA's routes
      expect(row(tallied(listing()), 'identity.page-load-spa').status).toBe('unseen');
      const routed = page('p2', [
        { kind: 'search', event: 'render' },
        { kind: 'search', event: 'render', pageUrl: `${PAGE_URL}&page=2` },
      ]);
      // the re-search's render is a response of its own
      const [first, second] = routed.responses[0]!.events;
      routed.responses = [
        { ...routed.responses[0]!, responseId: 'r1', events: [first!] },
        { ...routed.responses[0]!, responseId: 'r2', events: [second!] },
      ];
      const r = tallied(listing(), routed);
      expect(row(r, 'identity.page-load-spa')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'p2' },
      });
      expect(row(r, 'identity.page-load-spa').unverified).toBeUndefined();
    });

    it('a catalog checks the listings of a site that does not search through the sandbox; a companion site’s are checked against what it issued', () => {
      const catalog = { ...NO_INPUTS, catalog: true };
      expect(
        row(talliedWith(catalog, listing()), 'search.items-served').unverified,
      ).toBeUndefined();
      const companion = talliedWith({ ...catalog, companion: true }, listing());
      expect(lacks(companion, 'search.items-served')?.map((l) => l.split(' ')[0])).toEqual([
        'issued',
        'catalog',
      ]);
    });

    it('a response the companion search issued lets its rules judge: verified', () => {
      const tally = new ReadinessTally();
      sightPageDto(tally, listing(), (kind, responseId) =>
        kind === 'search' && responseId === 'r1' ? { results: 2, shown: 2 } : undefined,
      );
      // the page above names no responseId: one that does, issued
      sightPageDto(
        tally,
        {
          pageLoadId: 'p2',
          counts: {},
          responses: [
            {
              kind: 'search',
              responseId: 'r1',
              events: ['render', 'impression'].map((event) => ({
                kind: 'search',
                event,
                accepted: true,
                timestamp: null,
                receivedAt: null,
                pageUrl: PAGE_URL,
              })),
            },
          ],
          findings: [],
        } as unknown as PageTimelineDto,
        (kind, responseId) =>
          kind === 'search' && responseId === 'r1' ? { results: 2, shown: 2 } : undefined,
      );
      const r = tally.result(SITE);
      expect(row(r, 'search.items-served').unverified).toBeUndefined();
      expect(row(r, 'search.banners').unverified).toBeUndefined();
    });

    it('rules turned off are named as off; upstream-disagrees alone lacks the real service’s answers', () => {
      const off = new Set(['schema', 'request-refused', 'identity-missing', 'timestamp-skew']);
      const r = talliedWith({ ...NO_INPUTS, off: (rule) => off.has(rule) }, listing());
      expect(lacks(r, 'identity.context')).toEqual([
        'upstream upstream-disagrees',
        'off schema request-refused identity-missing timestamp-skew',
      ]);
      expect(row(r, 'identity.context').unverified![1]!.how).toContain('--rule RULE=LEVEL');
      // with the real service's answers, upstream-disagrees judges it
      const answered = talliedWith(
        { ...NO_INPUTS, upstream: true, off: (rule) => off.has(rule) },
        listing(),
      );
      expect(row(answered, 'identity.context').unverified).toBeUndefined();
    });

    describe('the gate: a behaviour expected by id fails unverified; an area says it, not fails', () => {
      it('fails an expected id, naming the rules and what would check it', () => {
        const r = tallied(listing());
        const gaps = readinessGaps(r, ['search.items-served', 'search.clickthrough']);
        expect(gaps).toHaveLength(1);
        expect(gaps[0]).toMatch(
          /^search\.items-served was seen but not verified: no rule could check it: item-not-in-response, parentid-mismatch, parentid-unclear, tile-uid-variant, item-ids-disagree need the responses the sandbox's companion search issued \(point the storefront's search/,
        );
        expect(gaps[0]).toContain('give it to `check` with --catalog SITE=FILE');
      });

      it('passes the same id once a rule could check it, and an area either way', () => {
        expect(readinessGaps(tallied(listing()), ['search'])).toEqual([]);
        const checked = talliedWith({ ...NO_INPUTS, catalog: true }, listing());
        expect(readinessGaps(checked, ['search.items-served'])).toEqual([]);
      });
    });
  });

  describe('a finding marks the behaviour it is about, not every behaviour its rule guards', () => {
    it('cart-inconsistent about the ledger leaves the quick add’s row alone; about a quick add marks it', () => {
      const ledger = tallied(
        page(
          'cart',
          [],
          [
            {
              id: 'a',
              rule: 'cart-inconsistent',
              severity: 'warning',
              behaviour: 'cart.ledger',
            },
          ],
        ),
      );
      expect(row(ledger, 'cart.ledger')).toMatchObject({
        status: 'findings',
        worst: { rule: 'cart-inconsistent' },
      });
      expect(row(ledger, 'cart.quick-add-then-cart-add').status).toBe('unseen');
      const quick = tallied(
        page(
          'cart',
          [],
          [
            {
              id: 'a',
              rule: 'cart-inconsistent',
              severity: 'warning',
              behaviour: 'cart.quick-add-then-cart-add',
            },
          ],
        ),
      );
      expect(row(quick, 'cart.quick-add-then-cart-add').status).toBe('findings');
      expect(row(quick, 'cart.ledger').status).toBe('unseen');
    });

    it('a widget’s click on a tile it never impressed is its tag’s events row’s, not the search row’s', () => {
      const pdp = new PageBuilder({ pageLoadId: 'pdp' }).as('recommendations', 'similar');
      const r = judged([
        pdp.render('w1', { at: 0 }),
        pdp.impression('w1', ['A'], { at: 1200 }),
        pdp.click('w1', 'B', { at: 3000 }),
        pdp.click('w1', 'A', { at: 5000 }),
      ]);
      expect(row(r, 'recommendations.events', 'similar')).toMatchObject({
        status: 'findings',
        worst: { rule: 'click-not-impressed', pageLoadId: 'pdp' },
      });
      expect(row(r, 'search.clickthrough').status).toBe('unseen');
    });

    it('a visit that never made a quick add: its cart event’s contradiction is the ledger’s alone, and its cart/add no quick add’s', () => {
      const r = judged([
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'b' }], [{ uid: 'b' }], { at: 20_000 }),
      ]);
      expect(row(r, 'cart.ledger')).toMatchObject({
        status: 'findings',
        worst: { rule: 'cart-inconsistent', pageLoadId: 'cart' },
      });
      expect(row(r, 'cart.quick-add-then-cart-add')).toMatchObject({ status: 'unseen' });
    });

    it('a quick add the cart page adds again: the quick add’s row has the finding, the ledger’s does not', () => {
      const r = judged([
        visitPage('search').cart('r1', 'P101', { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'P101' }], [{ uid: 'P101' }], { at: 20_000 }),
      ]);
      expect(row(r, 'cart.quick-add-then-cart-add')).toMatchObject({
        status: 'findings',
        worst: { rule: 'cart-inconsistent', pageLoadId: 'cart' },
      });
      expect(row(r, 'cart.ledger')).toMatchObject({ status: 'ok' });
    });

    it('a render again before any impression is the render’s; one the cache could not serve is the cached render’s', () => {
      const twice = new PageBuilder({ pageLoadId: 'twice' });
      const before = judged([twice.render('r1', { at: 0 }), twice.render('r1', { at: 300 })]);
      expect(row(before, 'search.render')).toMatchObject({
        status: 'findings',
        worst: { rule: 'duplicate-render' },
      });
      expect(row(before, 'search.render-cached').status).not.toBe('findings');
      const dev = new PageBuilder({ pageLoadId: 'dev', dev: true });
      const after = judged([
        dev.render('r1', { at: 0 }),
        dev.impression('r1', ['a'], { at: 1200 }),
        dev.render('r2', { at: 5000 }),
        dev.impression('r2', ['b'], { at: 6200 }),
        dev.render('r1', { at: 9000 }),
      ]);
      expect(row(after, 'search.render-cached')).toMatchObject({
        status: 'findings',
        worst: { rule: 'duplicate-render' },
      });
      expect(row(after, 'search.render').status).toBe('ok');
    });
  });
});

describe('the site readiness reads: its account, else what an export recorded of it', () => {
  const account = {
    search: { recommendations: [{ tag: 'cross-sell', type: 'bundle' as const }] },
    readiness: { expect: ['bundles'] },
  };
  const recorded = { recommendationTags: ['similar', 'kit'], bundleTags: ['kit'] };

  it('an export’s widgets, each a bundle when the export says so; the account wins', () => {
    expect(readinessSiteOf('demo42', undefined, recorded)).toEqual({
      siteId: 'demo42',
      configured: true,
      widgets: [
        { tag: 'similar', type: 'default' },
        { tag: 'kit', type: 'bundle' },
      ],
      expect: [],
    });
    expect(readinessSiteOf('demo42', account, recorded)).toEqual({
      siteId: 'demo42',
      configured: true,
      widgets: [{ tag: 'cross-sell', type: 'bundle' }],
      expect: ['bundles'],
    });
  });

  it('an older export without the tags declares nothing; one without bundleTags, recommendations widgets', () => {
    expect(readinessSiteOf('demo42', undefined, {})).toMatchObject({
      configured: false,
      widgets: [],
    });
    expect(
      readinessSiteOf('demo42', undefined, { recommendationTags: ['similar'] }).widgets,
    ).toEqual([{ tag: 'similar', type: 'default' }]);
  });

  it('an export’s bundleTags must be strings', () => {
    const site = { siteId: 'demo42', companion: false, catalogCheck: false };
    expect(readRecordedSites({ sites: [{ ...site, bundleTags: ['kit'] }] }, 'x.json')).toEqual([
      { ...site, bundleTags: ['kit'] },
    ]);
    expect(readRecordedSites({ sites: [{ ...site, bundleTags: [1] }] }, 'x.json')).toMatch(
      /^x\.json: search\.sites\[0\] is not a site's search settings/,
    );
  });
});
