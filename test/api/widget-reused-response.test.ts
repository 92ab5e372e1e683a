// One recommend request answers two widgets of a product page ("similar" A, "cart-recs" B), and the
// cart-recs widget renders and impresses A, the similar widget's responseId. One bug, one finding: the
// responseId was issued for "similar" and rendered as "cart-recs", whose fix is the cart-recs widget's own
// responseId; an item A never served, reported under it, follows from it. Readiness counts it against the
// cart-recs widget, live and in check of the export. A category page's item that no response of its page
// load served is not blamed on a response issued to another page load, and the listing is named by its
// category.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type {
  PageTimelineDto,
  TimelineListDto,
  TimelineReportDto,
} from '../../src/shared/timeline';
import type { ReadinessDto } from '../../src/shared/readiness';
import { check, exportFile } from '../helpers/check';
import { postBeacon, startSandbox } from '../helpers/sandbox';
import {
  indexCatalog,
  PROFILES,
  recommend,
  recommendAccounts,
  SITE,
  type Any,
} from './recommend-helpers';

let sb: Sandbox;
const cleanups: Array<() => unknown> = [];
beforeAll(async () => {
  const accounts = recommendAccounts().map((a) =>
    a.siteId === SITE
      ? {
          ...a,
          search: {
            ...a.search!,
            recommendations: [
              ...PROFILES,
              {
                tag: 'cart-recs',
                type: 'default' as const,
                strategy: 'similar' as const,
                limit: 3,
              },
            ],
          },
        }
      : a,
  );
  sb = await startSandbox({ accounts });
  await indexCatalog(sb);
});
afterAll(async () => {
  await sb?.close();
  while (cleanups.length) await cleanups.pop()!();
});

let clock = Date.now() - 120_000;
/** Beacons of one page load, each `step` ms after the previous one (1.3 s: an impression's wait). */
function sender(pageLoadId: string, pageUrl: string, user: string) {
  return async (endpoint: string, data: unknown, step = 1300) => {
    clock += step;
    const context = {
      timestamp: new Date(clock).toISOString(),
      pageUrl,
      userId: user,
      sessionId: `s-${user}`,
      pageLoadId,
      initiator: 'search-sandbox/test',
      dev: true,
    };
    const res = await postBeacon(sb.url, `${SITE}/${endpoint}`, { context, data });
    expect(res.status).toBe(200);
  };
}
const item = (r: Any) => ({ type: 'product', uid: r.id, parentId: r.mappings.core.parentId });
const uidItem = (uid: string) => ({ type: 'product', uid, parentId: uid });

async function livePage(pageLoadId: string): Promise<PageTimelineDto> {
  const list = (await (
    await fetch(
      `${sb.url}/_sandbox/timelines?siteId=${SITE}&pageLoadId=${pageLoadId}&finished=true`,
    )
  ).json()) as TimelineListDto;
  return list.pages[0]!;
}

async function checkPage(pageLoadId: string, name: string): Promise<PageTimelineDto> {
  const file = await exportFile(cleanups, sb.url, name);
  const res = await check(file, '--format', 'json');
  return (JSON.parse(res.out) as TimelineReportDto).pages.find((p) => p.pageLoadId === pageLoadId)!;
}

/** The two widgets of one recommend request for product P200. */
async function twoWidgets(): Promise<[Any, Any]> {
  const { body } = await recommend(sb, {
    siteId: SITE,
    profiles: [
      { tag: 'similar', limit: 3 },
      { tag: 'cart-recs', limit: 3 },
    ],
    products: ['P200'],
    beacon: true,
    test: true,
  });
  expect(body[0].results.length).toBeGreaterThan(0);
  return [body[0], body[1]];
}

/** The similar widget renders and impresses A; the cart-recs widget renders A and impresses `cart`. */
async function reuse(pageLoadId: string, A: Any, cart: object[], cartTag = 'cart-recs') {
  const send = sender(pageLoadId, 'https://shop.example/products/p200', `u-${pageLoadId}`);
  await send('recommendations/render', { responseId: A.responseId, tag: 'similar' });
  await send('recommendations/render', { responseId: A.responseId, tag: cartTag }, 10);
  await send('recommendations/impression', {
    responseId: A.responseId,
    tag: 'similar',
    results: A.results.map(item),
    banners: [],
  });
  await send('recommendations/impression', {
    responseId: A.responseId,
    tag: cartTag,
    results: cart,
    banners: [],
  });
}

const rows = (r: ReadinessDto) =>
  r.behaviours
    .filter((b) => b.area === 'recommendations' && ['similar', 'cart-recs'].includes(b.tag!))
    .map((b) => `${b.id} [${b.tag}] ${b.status} ${b.worst?.rule ?? ''}`.trim());

describe('a widget’s responseId rendered by another widget of the page', () => {
  let A: Any;
  let B: Any;
  beforeAll(async () => {
    [A, B] = await twoWidgets();
    await reuse('pl-reuse', A, [item(A.results[0])]);
  });

  const oneFinding = (page: PageTimelineDto) => {
    expect(page.findings.map((f) => [f.rule, f.messageId, f.tag, f.causedBy ?? null])).toEqual([
      ['responseid-cross-kind', 'otherWidget', 'cart-recs', null],
    ]);
    const [f] = page.findings;
    expect(f!.message).toContain(
      `responseId "${A.responseId}" was issued by the sandbox's recommend API for widget "similar", yet this page renders it as widget "cart-recs"`,
    );
    expect(f!.fix).toMatch(
      new RegExp(`^use the "cart-recs" widget's own responseId \\("${B.responseId}"`),
    );
  };

  it('is one finding, live and in check of the export, whose fix is the cart-recs widget’s own responseId', async () => {
    oneFinding(await livePage('pl-reuse'));
    oneFinding(await checkPage('pl-reuse', 'reuse.json'));
  });

  it('counts against the cart-recs widget in readiness, live and in check of the export', async () => {
    const expected = [
      'recommendations.widget [similar] ok',
      'recommendations.widget [cart-recs] findings responseid-cross-kind',
      'recommendations.events [similar] ok',
      'recommendations.events [cart-recs] findings responseid-cross-kind',
    ];
    const live = (await (
      await fetch(`${sb.url}/_sandbox/readiness?siteId=${SITE}`)
    ).json()) as ReadinessDto;
    expect(rows(live)).toEqual(expected);
    const file = await exportFile(cleanups, sb.url, 'reuse-readiness.json');
    const res = await check(file, '--readiness', '--format', 'json');
    const offline = (JSON.parse(res.out) as { sites: ReadinessDto[] }).sites.find(
      (s) => s.siteId === SITE,
    )!;
    expect(rows(offline)).toEqual(expected);
  });

  it('an item the response never served, reported by the reusing widget, follows from the reuse', async () => {
    const [a] = await twoWidgets();
    await reuse('pl-reuse-item', a, [uidItem('P203')]);
    for (const page of [
      await livePage('pl-reuse-item'),
      await checkPage('pl-reuse-item', 'reuse-item.json'),
    ]) {
      const [cause, follower] = page.findings;
      expect(page.findings.map((f) => [f.rule, f.messageId, f.causedBy ?? null])).toEqual([
        ['responseid-cross-kind', 'otherWidget', null],
        ['item-not-in-response', 'notInResponse', cause!.id],
      ]);
      expect(cause!.fix).toMatch(/^use the "cart-recs" widget's own responseId/);
      expect(follower!.message).toContain('uid "P203"');
    }
  });

  it('control: the same widget rendering its responseId twice is duplicate-render’s, no other widget’s', async () => {
    const [a] = await twoWidgets();
    await reuse('pl-twice', a, [item(a.results[0])], 'similar');
    const page = await livePage('pl-twice');
    // (its tile impressed twice under the one widget is duplicate-impression's)
    expect(page.findings.map((f) => f.rule)).toEqual(['duplicate-render', 'duplicate-impression']);
  });
});

describe('an item a category page load was never served', () => {
  it('names no response of another page load, and the listing by its category', async () => {
    // another visitor's widget served P203 earlier; this page load never received it
    const { body: other } = await recommend(sb, {
      siteId: SITE,
      profiles: [{ tag: 'similar', limit: 8 }],
      products: ['P204'],
      beacon: true,
      test: true,
    });
    expect(other[0].results.map((r: Any) => r.id)).toContain('P203');
    const url = 'https://shop.example/c/jackets';
    const q = new URLSearchParams({
      siteId: SITE,
      beacon: 'true',
      test: 'true',
      userId: 'u-cat',
      sessionId: 's-u-cat',
      pageLoadId: 'pl-cat',
      domain: url,
      'bgfilter.category': 'Jackets',
    });
    const cat = (await (await fetch(`${sb.url}/api/search/category.json?${q}`)).json()) as Any;
    expect(cat.results.map((r: Any) => r.uid)).not.toContain('P203');
    const send = sender('pl-cat', url, 'u-cat');
    await send('category/render', { responseId: cat.responseId });
    await send('category/impression', {
      responseId: cat.responseId,
      results: cat.results.map((r: Any) => uidItem(r.uid)),
      banners: [],
    });
    await send('category/clickthrough', { responseId: cat.responseId, results: [uidItem('P203')] });
    for (const page of [await livePage('pl-cat'), await checkPage('pl-cat', 'category.json')]) {
      const f = page.findings.find((x) => x.rule === 'item-not-in-response')!;
      expect(f.message).toContain('was not in that response (category "Jackets")');
      expect(f.message).toContain('(no response this page load rendered or asked for served it)');
      expect(f.message).not.toContain(other[0].responseId);
      expect(f.message).not.toContain('stale');
    }
    // the issued record keeps what the category request named
    const { responses } = (await (
      await fetch(`${sb.url}/_sandbox/search/responses?responseId=${cat.responseId}`)
    ).json()) as { responses: Array<{ bgfilters?: string[] }> };
    expect(responses[0]!.bgfilters).toEqual(['bgfilter.category=Jackets']);
  });
});
