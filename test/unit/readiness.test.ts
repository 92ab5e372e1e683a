// The readiness tally on its own: what counts as seen and as broken, per row, from pages as `check` hands
// them over; and the gate's lines. The model's ids are read from it, never listed here.
import { describe, expect, it } from 'vitest';
import {
  EXERCISED,
  NO_INPUTS,
  ReadinessTally,
  SEEN_OTHERWISE,
  sightPageDto,
  type ReadinessInputs,
} from '../../src/main/tracking/timeline/readiness';
import { BEHAVIOURS } from '../../src/main/tracking/client-model';
import { rulesGuarding } from '../../src/main/tracking/timeline/behaviour-list';
import { ruleMeta } from '../../src/main/tracking/timeline/rule-list';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { mapLevels } from '../../src/shared/rule-levels';
import { readinessGaps, type ReadinessDto } from '../../src/shared/readiness';
import type { PageTimelineDto, TimelineFindingDto } from '../../src/shared/timeline';
import type { RecordedEvent } from '../../src/shared/events';
import { PageBuilder, T0, source, visitPage, type SourceOptions } from '../rules/kit';

const SITE = {
  siteId: 'abc123',
  configured: true,
  widgets: [{ tag: 'similar', type: 'default' as const }],
  expect: [],
};

function page(
  pageLoadId: string,
  events: Array<{ kind: string; event: string; tag?: string; accepted?: boolean }>,
  findings: Array<Partial<TimelineFindingDto>> = [],
): PageTimelineDto {
  return {
    pageLoadId,
    counts: { accepted: events.filter((e) => e.accepted !== false).length },
    responses: [
      {
        events: events.map((e) => ({ ...e, accepted: e.accepted !== false })),
      },
    ],
    findings,
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
    expect(row(r, 'search.clickthrough').worst).toEqual({
      rule: 'click-not-impressed',
      severity: 'error',
      pageLoadId: 'p1',
    });
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
    /** a page of listing responses: kind, responseId and the events of each */
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
          events: events.map((event) => ({ kind, event, accepted: true })),
        })),
        findings,
      }) as unknown as PageTimelineDto;
    const FINER = Object.keys(EXERCISED);

    it('names only behaviours of the model', () => {
      for (const id of FINER) expect(BEHAVIOURS.some((b) => b.id === id)).toBe(true);
    });

    it('a store that renders and impresses every search shows none of them', () => {
      const r = tallied(
        listing('p1', [['search', 'r1', ['render', 'impression', 'clickthrough']]]),
        listing('p2', [['category', 'c1', ['render', 'impression']]]),
      );
      expect(row(r, 'search.render').status).toBe('ok');
      for (const id of FINER) expect(row(r, id).status, id).toBe('unseen');
    });

    it('backfill: a page whose findings name it (the client restored pages under one render)', () => {
      const r = tallied(
        listing(
          'p1',
          [
            ['search', 'r1', ['render', 'impression']],
            ['search', 'r2', ['impression']],
          ],
          [{ id: 'a', rule: 'x', severity: 'info', behaviour: 'search.backfill' }],
        ),
      );
      expect(row(r, 'search.backfill')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'p1' },
      });
      expect(row(r, 'search.render-cached').status).toBe('unseen');
    });

    it('zero results: a listing rendered and followed by nothing; an autocomplete one does not count', () => {
      const alone = tallied(listing('p1', [['search', 'r1', ['render']]]));
      expect(row(alone, 'search.zero-results').status).toBe('ok');
      const dropdown = tallied(listing('p1', [['autocomplete', 'a1', ['render']]]));
      expect(row(dropdown, 'search.zero-results').status).toBe('unseen');
    });

    it('render-cached: rendered twice on a page, or again on a later page; two responses once each do not', () => {
      const twice = tallied(listing('p1', [['search', 'r1', ['render', 'impression', 'render']]]));
      expect(row(twice, 'search.render-cached').status).toBe('ok');
      const later = tallied(
        listing('p1', [['search', 'r1', ['render', 'impression']]]),
        listing('p2', [['search', 'r1', ['render', 'impression']]]),
      );
      expect(row(later, 'search.render-cached')).toMatchObject({
        status: 'ok',
        example: { pageLoadId: 'p2' },
      });
      const distinct = tallied(
        listing('p1', [['search', 'r1', ['render', 'impression']]]),
        listing('p2', [['search', 'r2', ['render', 'impression']]]),
      );
      expect(row(distinct, 'search.render-cached').status).toBe('unseen');
    });

    it('request context: a rendered listing response whose request carried userId and pageLoadId', () => {
      const seen = (kind: string, asked: boolean | undefined, renders = 1) => {
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
            },
          ],
          ended: false,
          named: new Set(),
        });
        return row(tally.result(SITE), 'search.request-context').status;
      };
      expect(seen('search', true)).toBe('ok');
      expect(seen('category', true)).toBe('ok');
      // a request without the context (a server's search), or a response the sandbox did not issue
      expect(seen('search', false)).toBe('unseen');
      expect(seen('search', undefined)).toBe('unseen');
      // the dropdown's requests carry it too, but the row is the listing's
      expect(seen('autocomplete', true)).toBe('unseen');
      expect(seen('search', true, 0)).toBe('unseen');
    });

    it('single-result redirect: only a response the companion search issued with one result; zero results not then', () => {
      const seen = (served: { results: number; shown: number } | undefined, ended = true) => {
        const tally = new ReadinessTally();
        tally.sent('search/render', '', 'p1');
        tally.exercise('p1', {
          responses: [
            {
              kind: 'search',
              responseId: 'r1',
              renders: 1,
              interactions: 0,
              ...(served && { served }),
            },
          ],
          ended,
          named: new Set(),
        });
        const r = tally.result(SITE);
        return [
          row(r, 'search.single-result-redirect').status,
          row(r, 'search.zero-results').status,
        ];
      };
      expect(seen({ results: 1, shown: 1 })).toEqual(['ok', 'unseen']);
      expect(seen({ results: 0, shown: 0 })).toEqual(['unseen', 'ok']);
      // unknown to the sandbox: it may have served nothing, never one result for certain
      expect(seen(undefined)).toEqual(['unseen', 'ok']);
      // a page still open may yet impress what it rendered
      expect(seen({ results: 1, shown: 1 }, false)).toEqual(['unseen', 'unseen']);
    });
  });

  describe('an ok that no rule could check says so, and what would check it', () => {
    /** a search page that impressed, clicked and added: search.items-served and search.banners seen */
    const listing = () =>
      page('p1', [
        { kind: 'search', event: 'render' },
        { kind: 'search', event: 'impression' },
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
        'issued item-not-in-response parentid-mismatch parentid-unclear item-ids-disagree',
        'catalog item-not-in-catalog item-ids-disagree',
      ]);
      expect(row(r, 'search.items-served').unverified![1]!.how).toContain('--catalog SITE=FILE');
      expect(lacks(r, 'search.banners')).toEqual([
        'issued inline-banner-as-product banner-not-in-response inline-banner-in-banners inline-banner-not-impressed',
      ]);
      // the render, the click and the page's ids are judged from the traffic alone
      for (const id of ['search.render', 'search.clickthrough', 'identity.context'])
        expect(row(r, id).unverified, id).toBeUndefined();
      expect(r.summary.unverified).toBe(r.behaviours.filter((b) => b.unverified).length);
      expect(r.summary.unverified).toBeGreaterThanOrEqual(2);
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

    it('a behaviour no rule can check is ok as seen: nothing would check it, so it is not unverified', () => {
      const r = tallied(listing());
      expect(row(r, 'identity.page-load-spa')).toMatchObject({ status: 'ok' });
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
          /^search\.items-served was seen but not verified: no rule could check it: item-not-in-response, parentid-mismatch, parentid-unclear, item-ids-disagree need the responses the sandbox's companion search issued \(point the storefront's search/,
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

    /** The site's readiness as the running sandbox reads it, after the traffic. */
    function judged(events: RecordedEvent[], provenance?: SourceOptions): ReadinessDto {
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
        const steps = engine.readinessSteps({ ...SITE, siteId: 'demo42' });
        for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
      } finally {
        engine.dispose();
        clock.dispose();
      }
    }

    it('a visit that never made a quick add: its cart event’s contradiction is the ledger’s alone', () => {
      const r = judged([
        visitPage('pdp').cartAdd([{ uid: 'a' }], [{ uid: 'a' }], { at: 0 }),
        visitPage('cart').cartAdd([{ uid: 'b' }], [{ uid: 'b' }], { at: 20_000 }),
      ]);
      expect(row(r, 'cart.ledger')).toMatchObject({
        status: 'findings',
        worst: { rule: 'cart-inconsistent', pageLoadId: 'cart' },
      });
      expect(row(r, 'cart.quick-add-then-cart-add')).toMatchObject({ status: 'ok' });
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
