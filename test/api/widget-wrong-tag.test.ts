// Two recommendation widgets on a product page, served by the companion recommend API: the "similar"
// widget's impression goes out with the other widget's tag. One bug, one finding: it names the wrong tag,
// the widget whose responseId it is and its items; that widget is not also reported never impressed, nor
// its clicked tile never impressed. The live sandbox and check of its export say the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type {
  PageTimelineDto,
  TimelineListDto,
  TimelineReportDto,
} from '../../src/shared/timeline';
import type { ReadinessDto } from '../../src/shared/readiness';
import { check, exportFile } from '../helpers/check';
import { postBeacon } from '../helpers/sandbox';
import { recommend, SITE, startRecommendSandbox, type Any } from './recommend-helpers';

let sb: Sandbox;
const cleanups: Array<() => unknown> = [];
beforeAll(async () => {
  sb = await startRecommendSandbox();
});
afterAll(async () => {
  await sb?.close();
  while (cleanups.length) await cleanups.pop()!();
});

const ids = { userId: 'u-widgets', sessionId: 's-widgets', pageLoadId: 'pl-widgets' };
const pageUrl = 'https://shop.example/products/p200';
let clock = Date.now() - 60_000;

async function send(endpoint: string, data: unknown) {
  clock += 1500;
  const context = {
    timestamp: new Date(clock).toISOString(),
    pageUrl,
    ...ids,
    initiator: 'search-sandbox/test',
    dev: true,
  };
  const res = await postBeacon(sb.url, `${SITE}/${endpoint}`, { context, data });
  expect(res.status).toBe(200);
}

const item = (r: Any) => ({ type: 'product', uid: r.id, parentId: r.mappings.core.parentId });

describe('a widget’s impression sent with the other widget’s tag', () => {
  let similar: Any;
  let viewed: Any;
  beforeAll(async () => {
    const { body } = await recommend(sb, {
      siteId: SITE,
      profiles: [{ tag: 'similar', limit: 3 }, { tag: 'recently-viewed' }],
      products: ['P200'],
      lastViewed: ['3005', '3006'],
      beacon: true,
      test: true,
    });
    [similar, viewed] = body;
    expect(similar.results.length).toBeGreaterThan(0);
    expect(viewed.results.length).toBeGreaterThan(0);
    await send('recommendations/render', { responseId: similar.responseId, tag: 'similar' });
    await send('recommendations/render', { responseId: viewed.responseId, tag: 'recently-viewed' });
    await send('recommendations/impression', {
      responseId: viewed.responseId,
      tag: 'recently-viewed',
      results: viewed.results.map(item),
      banners: [],
    });
    // the bug: the similar widget's tiles impressed with the recently-viewed widget's tag
    await send('recommendations/impression', {
      responseId: similar.responseId,
      tag: 'recently-viewed',
      results: similar.results.map(item),
      banners: [],
    });
    // the shopper clicks one of them, from the similar widget, with its own tag
    await send('recommendations/clickthrough', {
      responseId: similar.responseId,
      tag: 'similar',
      results: [item(similar.results[0])],
    });
  });

  const oneFinding = (findings: PageTimelineDto['findings']) => {
    expect(findings.map((f) => [f.rule, f.messageId, f.tag])).toEqual([
      ['missing-render', 'otherTag', 'recently-viewed'],
    ]);
    const [f] = findings;
    expect(f!.message).toContain(
      `carries tag "recently-viewed" with responseId "${similar.responseId}", but that responseId is the "similar" widget's`,
    );
    expect(f!.message).toContain(
      `"recently-viewed" is the page's other widget's (responseId "${viewed.responseId}")`,
    );
    expect(f!.message).toContain(`uids "${similar.results[0].id}"`);
    expect(f!.fix).toMatch(
      /^send the "similar" widget's recommendations\/impression with data\.tag "similar"/,
    );
  };

  it('is one finding, live, that names the wrong tag and whose items they are', async () => {
    const list = (await (
      await fetch(
        `${sb.url}/_sandbox/timelines?siteId=${SITE}&pageLoadId=${ids.pageLoadId}&finished=true`,
      )
    ).json()) as TimelineListDto;
    oneFinding(list.pages[0]!.findings);
  });

  /** The rows of the two widgets: the events sent with the other's tag count on the similar widget's. */
  const widgetRows = (r: ReadinessDto) =>
    r.behaviours
      .filter(
        (b) => b.area === 'recommendations' && ['similar', 'recently-viewed'].includes(b.tag!),
      )
      .map(
        (b) =>
          `${b.id} [${b.tag}] ${b.status} ${b.worst?.rule ?? ''} ${b.wrongTags?.join(',') ?? ''}`,
      );
  const READY_ROWS = [
    'recommendations.widget [similar] ok  ',
    'recommendations.widget [recently-viewed] ok  ',
    'recommendations.events [similar] findings missing-render recently-viewed',
    'recommendations.events [recently-viewed] ok  ',
  ];

  it('counts against the similar widget’s events in readiness, live and in check of the export', async () => {
    const live = (await (
      await fetch(`${sb.url}/_sandbox/readiness?siteId=${SITE}`)
    ).json()) as ReadinessDto;
    expect(widgetRows(live)).toEqual(READY_ROWS);
    const file = await exportFile(cleanups, sb.url, 'widgets-readiness.json');
    const res = await check(file, '--readiness', '--format', 'json');
    const offline = (JSON.parse(res.out) as { sites: ReadinessDto[] }).sites.find(
      (s) => s.siteId === SITE,
    )!;
    expect(widgetRows(offline)).toEqual(READY_ROWS);
  });

  it('is headed by the widget that rendered the response, not the tag its events carried, in check’s text and JUnit', async () => {
    const file = await exportFile(cleanups, sb.url, 'widgets-heading.json');
    const heading = `missing-render (recommendations "similar" response "${similar.responseId}")`;
    const wrong = `(recommendations "recently-viewed" response "${similar.responseId}")`;
    const xml = (t: string) => t.replaceAll('"', '&#34;');
    for (const [format, as] of [
      ['text', (t: string) => t],
      ['junit', xml],
    ] as const) {
      const res = await check(file, '--format', format);
      expect(res.out, format).toContain(as(heading));
      expect(res.out, format).not.toContain(as(wrong));
    }
    // the JSON keeps the tag the events carried, and names the widget beside it
    const res = await check(file, '--format', 'json');
    const f = (JSON.parse(res.out) as TimelineReportDto).pages
      .find((p) => p.pageLoadId === ids.pageLoadId)!
      .findings.find((x) => x.rule === 'missing-render')!;
    expect([f.tag, f.widget]).toEqual(['recently-viewed', 'similar']);
  });

  it('is the same one finding in check of the export', async () => {
    const file = await exportFile(cleanups, sb.url, 'widgets.json');
    const res = await check(file, '--format', 'json');
    expect(res.code).toBe(1);
    const page = (JSON.parse(res.out) as TimelineReportDto).pages.find(
      (p) => p.pageLoadId === ids.pageLoadId,
    )!;
    oneFinding(page.findings);
  });
});
