// The readiness tally on its own: what counts as seen and as broken, per row, from pages as `check` hands
// them over; and the gate's lines. The model's ids are read from it, never listed here.
import { describe, expect, it } from 'vitest';
import {
  ReadinessTally,
  SEEN_OTHERWISE,
  sightPageDto,
} from '../../src/main/tracking/timeline/readiness';
import { BEHAVIOURS } from '../../src/main/tracking/client-model';
import { readinessGaps, type ReadinessDto } from '../../src/shared/readiness';
import type { PageTimelineDto, TimelineFindingDto } from '../../src/shared/timeline';

const SITE = {
  siteId: 'abc123',
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
});
