// A tile's events sent with another response's responseId read as one bug in `check` of an export that
// carries the issued search responses: the finding that names the responseId leads with its fix, and what
// follows from it is folded under it and counted in `following`. Page 1's tile clicked with page 2's
// responseId after an infinite scroll; an SPA's page 2 impressed and clicked with page 1's; and impressions
// sent before a response's only render, which are `order`'s alone.
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineReportDto } from '../../src/shared/timeline';
import { check, tempFile } from '../helpers/check';
import { PageBuilder, T0 } from '../unit/timeline-events';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const issued = (responseId: string, page: number, issuedAt: number, uids: string[]) => ({
  responseId,
  siteId: 'demo42',
  query: 'shoes',
  page,
  perPage: 24,
  issuedAt,
  results: uids.map((uid) => ({ uid, sku: uid, parentId: uid, children: [] })),
  inline: [],
  slots: { header: [], banner: [], footer: [], left: [] },
  redirect: null,
  test: true,
});
const PAGE_1 = ['P100', 'P101', 'P102', 'P103'];

/** One page load: page 1 (r1) rendered and impressed, page 2 (r2) rendered from `&page=2`, then `after`. */
function paged(pageLoadId: string, after: (q: PageBuilder) => unknown[]) {
  const p = new PageBuilder({ pageLoadId, pageUrl: 'https://shop.example/search?q=shoes' });
  const q = new PageBuilder({ pageLoadId, pageUrl: 'https://shop.example/search?q=shoes&page=2' });
  return [
    p.render(`${pageLoadId}-r1`, { at: 0 }),
    p.impression(`${pageLoadId}-r1`, PAGE_1, { at: 1200 }),
    q.render(`${pageLoadId}-r2`, { at: 4000 }),
    ...after(q),
  ];
}

describe('check: a tile sent with another response’s responseId', () => {
  it('leads with the responseId fix, the rest folded under it and counted as following', async () => {
    const scroll = paged('scroll', (q) => [
      q.impression('scroll-r2', ['P104', 'P105'], { at: 5200 }),
      q.event(
        'clickthrough',
        {
          responseId: 'scroll-r2',
          results: [{ type: 'product', uid: 'P102', parentId: 'P102', sku: '' }],
        },
        { at: 7000 },
      ),
    ]);
    const spa = paged('spa', (q) => [
      q.impression('spa-r1', ['P104', 'P105'], { at: 5200 }),
      q.click('spa-r1', 'P104', { at: 7000 }),
    ]);
    const early = new PageBuilder({ pageLoadId: 'early' });
    const responses = ['scroll', 'spa', 'early'].flatMap((id) => [
      issued(`${id}-r1`, 1, T0 - 500, PAGE_1),
      issued(`${id}-r2`, 2, T0 + 3500, ['P104', 'P105']),
    ]);
    const events = [
      ...scroll,
      ...spa,
      early.impression('early-r1', ['P100', 'P101'], { at: 1000 }),
      early.render('early-r1', { at: 1400 }),
    ];
    const file = tempFile(
      cleanups,
      'export.json',
      JSON.stringify({
        format: 'search-sandbox-export',
        version: 1,
        search: { responses },
        events,
      }),
    );

    const json = await check(file, '--format', 'json');
    expect(json.err).toBe('');
    expect(json.code).toBe(1);
    const pages = new Map(
      (JSON.parse(json.out) as TimelineReportDto).pages.map((p) => [p.pageLoadId, p]),
    );
    const read = (id: string) =>
      pages.get(id)!.findings.map((f) => [f.rule, f.messageId, f.causedBy ?? null]);

    // infinite scroll: the uid is page 1's result, the responseId page 2's
    const s = pages.get('scroll')!;
    expect(read('scroll')).toEqual([
      ['item-not-in-response', 'otherResponse', null],
      ['click-under-other-response', 'otherResponse', s.findings[0]!.id],
    ]);
    expect(s.findings[0]!.fix).toContain(
      "send each tile's events with the responseId of the response that delivered it",
    );
    expect(s.findings[0]!.behaviour).toBe('search.tile-response');
    expect(s.following).toEqual({ errors: 0, warnings: 1, infos: 0 });

    // an SPA's page 2 sent with page 1's responseId: page 2 unimpressed follows from it
    const p = pages.get('spa')!;
    expect(read('spa')).toEqual([
      ['item-not-in-response', 'otherResponse', null],
      ['no-impression-of-results', 'impressedUnderOther', p.findings[0]!.id],
    ]);
    expect(p.following).toEqual({ errors: 0, warnings: 1, infos: 0 });

    // impressed 0.4 s before its only render: order's, not a response shown again
    expect(read('early')).toEqual([['order', 'beforeRender', null]]);
    expect(pages.get('early')!.following).toBeUndefined();

    // the text report folds the followers under their cause
    const text = await check(file);
    expect(text.out).toMatch(/ {2}error {3}item-not-in-response/);
    expect(text.out).toContain('↳ warning click-under-other-response');
    expect(text.out).toContain('↳ warning no-impression-of-results');
    expect(text.out).toContain('follows from item-not-in-response');
    expect(text.out).not.toContain('rendered again');
  });
});
