// `check` of a single-page storefront's traffic where a search's results were replaced on screen by the
// listing's next search before they could be impressed: the provider's client impresses a tile once it
// has been in view for 1 s and resets its impressions on every new search, so results replaced sooner
// are never impressed, and the sandbox does not ask for their impressions. Replaced later, or followed by
// what does not replace them (the same query's next page, appended by infinite scroll; the autocomplete
// dropdown), their impressions were due and are still asked for.
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineReportDto } from '../../src/shared/timeline';
import { check, tempFile } from '../helpers/check';
import { PageBuilder, T0 } from '../unit/timeline-events';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const issued = (responseId: string, query: string, page: number, uids: string[]) => ({
  responseId,
  siteId: 'demo42',
  query,
  page,
  perPage: 24,
  issuedAt: T0 - 500,
  results: uids.map((uid) => ({ uid, sku: uid, parentId: uid, children: [] })),
  inline: [],
  slots: { header: ['81001'], banner: ['81002'], footer: [], left: [] },
  redirect: null,
  test: true,
});

/**
 * One page load: "jacket" (3 tiles, 2 banners) rendered from /search?q=jacket, then `after` ms later the
 * response `next` rendered by `as` (the listing unless said) from `url`, and impressed a second later.
 */
function journey(pageLoadId: string, after: number, url: string, as?: 'autocomplete'): unknown[] {
  const p = new PageBuilder({ pageLoadId, pageUrl: 'https://shop.example/search?q=jacket' });
  const q = new PageBuilder({ pageLoadId, pageUrl: url });
  const n = as ? q.as(as) : q;
  return [
    p.render(`${pageLoadId}-r1`, { at: 0 }),
    n.render(`${pageLoadId}-r2`, { at: after }),
    n.impression(`${pageLoadId}-r2`, ['P300'], { at: after + 1010 }),
  ];
}

describe('check: a search replaced on screen before its tiles were a second in view', () => {
  it('asks no impressions of it, and still asks them once a second in view had passed', async () => {
    const shell = 'https://shop.example/search?q=shell';
    const journeys: Array<[string, number, string, 'autocomplete'?]> = [
      ['quick', 400, shell],
      ['edge', 1249, shell],
      ['late', 1250, shell],
      ['slow', 2500, shell],
      ['scroll', 400, 'https://shop.example/search?q=jacket&page=2'],
      ['dropdown', 400, 'https://shop.example/search?q=jacket', 'autocomplete'],
    ];
    const responses = journeys.flatMap(([id]) => [
      issued(`${id}-r1`, 'jacket', 1, ['P200', 'P201', 'P202']),
      id === 'scroll'
        ? issued(`${id}-r2`, 'jacket', 2, ['P300'])
        : id === 'dropdown'
          ? { ...issued(`${id}-r2`, 'jack', 1, ['P300']), kind: 'autocomplete' }
          : issued(`${id}-r2`, 'shell', 1, ['P300']),
    ]);
    const file = tempFile(
      cleanups,
      'export.json',
      JSON.stringify({
        format: 'search-sandbox-export',
        version: 1,
        search: { responses },
        events: journeys.flatMap(([id, after, url, as]) => journey(id, after, url, as)),
      }),
    );

    const json = await check(file, '--format', 'json');
    expect(json.err).toBe('');
    const pages = new Map(
      (JSON.parse(json.out) as TimelineReportDto).pages.map((p) => [p.pageLoadId, p]),
    );
    const unimpressed = (id: string) =>
      pages
        .get(id)!
        .findings.filter((f) => f.rule.startsWith('no-impression'))
        .map((f) => [f.rule, f.severity, f.eventIds.length]);

    // replaced 0.4 s and 1.249 s after the render: never a second in view, nothing due
    expect(unimpressed('quick')).toEqual([]);
    expect(pages.get('quick')!.findings).toEqual([]);
    expect(unimpressed('edge')).toEqual([]);
    // replaced 1.25 s and 2.5 s after: the impressions were due
    expect(unimpressed('late')).toEqual([['no-impression-of-results', 'warning', 1]]);
    expect(unimpressed('slow')).toEqual([['no-impression-of-results', 'warning', 1]]);
    // the same query's page 2 (infinite scroll keeps page 1 on screen), the dropdown: nothing replaced
    expect(unimpressed('scroll')).toEqual([['no-impression-of-results', 'warning', 1]]);
    expect(unimpressed('dropdown')).toEqual([['no-impression-of-results', 'warning', 1]]);

    const text = await check(file);
    expect(text.out).toMatch(/PASS {2}demo42 {2}page quick /);
    expect(text.out).toMatch(/WARN {2}demo42 {2}page slow /);
  });
});
