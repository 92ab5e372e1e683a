// The readiness tally on its own: what counts as seen and as broken, per row, from pages as `check` hands
// them over; and the gate's lines. The model's ids are read from it, never listed here.
import { describe, expect, it } from 'vitest';
import {
  EXERCISED,
  ReadinessTally,
  SEEN_OTHERWISE,
  sightPageDto,
} from '../../src/main/tracking/timeline/readiness';
import { BEHAVIOURS } from '../../src/main/tracking/client-model';
import { readinessGaps, type ReadinessDto } from '../../src/shared/readiness';
import type { PageTimelineDto, TimelineFindingDto } from '../../src/shared/timeline';

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
  const tally = new ReadinessTally();
  for (const p of pages) sightPageDto(tally, p);
  return tally.result(SITE);
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
});
