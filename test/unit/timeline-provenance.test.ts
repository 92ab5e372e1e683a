// Search-provenance rules on timelines: each rule against responses the companion search API "issued",
// the Snap client's own conventions that must stay silent, and the catalog rule for non-companion sites.
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import type { IssuedResponse } from '../../src/main/search/responses';
import type { ProvenanceSource } from '../../src/main/tracking/timeline/rules/utils/provenance';
import { PageBuilder, T0, engineAt } from './timeline-events';

const EMPTY_SLOTS = { header: [], banner: [], footer: [], left: [] };

function issued(over: Partial<IssuedResponse> & { responseId: string }): IssuedResponse {
  return {
    siteId: 'demo42',
    query: 'jacket',
    page: 1,
    perPage: 24,
    issuedAt: T0,
    results: [],
    inline: [],
    slots: EMPTY_SLOTS,
    redirect: null,
    test: true,
    ...over,
  };
}

const R1 = issued({
  responseId: 'r1',
  results: [
    {
      uid: 'P200',
      sku: 'P200',
      parentId: 'P200',
      children: [
        { uid: '2001', sku: 'P200-RED-M' },
        { uid: '2002', sku: 'P200-RED-L' },
      ],
    },
    { uid: 'P201', sku: 'P201', parentId: 'P201', children: [{ uid: '2011', sku: 'P201-BLU-S' }] },
    { uid: '3001', sku: 'P300-30L', parentId: null, children: [] },
  ],
  inline: [{ uid: 'rain-inline', index: 1 }],
  slots: { header: ['91001'], banner: ['91002'], footer: [], left: [] },
});
/** a later search page-1 asked for (its request carried page-1's context) */
const R2 = issued({
  responseId: 'r2',
  query: 'boots',
  issuedAt: T0 + 5000,
  results: [{ uid: 'P204', sku: 'P204', parentId: 'P204', children: [] }],
  requester: { userId: 'user-1', sessionId: 'session-1', pageLoadId: 'page-1' },
});
const R3 = issued({ responseId: 'r3', query: 'gift card', redirect: '/pages/gift-cards' });
const R4 = issued({
  responseId: 'r4',
  test: false,
  results: [{ uid: '3001', sku: 'P300-30L', parentId: null, children: [] }],
});

interface SourceOptions {
  companion?: boolean;
  catalogCheck?: boolean;
  rememberedSince?: number;
  catalog?: { ids: string[]; skus?: Record<string, string> } | null;
}

function source(o: SourceOptions = {}): ProvenanceSource {
  const all = [R1, R2, R3, R4];
  return {
    site: (siteId) =>
      siteId === 'demo42'
        ? { companion: o.companion ?? false, catalogCheck: o.catalogCheck ?? true }
        : undefined,
    issued: (siteId, id) => all.find((r) => r.responseId === id && r.siteId === siteId),
    siteOf: (id) => all.find((r) => r.responseId === id)?.siteId,
    issuedTo: (siteId, pageLoadId) =>
      all.filter((r) => r.siteId === siteId && r.requester?.pageLoadId === pageLoadId),
    redirectsTo: (siteId, sessionId) =>
      all.filter(
        (r) => r.siteId === siteId && r.redirect !== null && r.requester?.sessionId === sessionId,
      ),
    rememberedSince: () => o.rememberedSince ?? T0 - 60_000,
    recent: () => [...all].reverse(),
    catalog: () =>
      o.catalog
        ? { has: (id) => o.catalog!.ids.includes(id), uidOfSku: (sku) => o.catalog!.skus?.[sku] }
        : undefined,
  };
}

function findings(events: RecordedEvent[], o: SourceOptions = {}) {
  const { engine } = engineAt();
  engine.setProvenance(source(o));
  for (const e of events) engine.apply(e);
  engine.finish();
  return engine
    .pagesDto()
    .flatMap((p) => p.findings)
    .filter((f) => f.rule !== 'dev-flag' && !f.rule.startsWith('no-impression'));
}

const product = (uid: string, parentId: string = uid) => ({ type: 'product', uid, parentId });
const banner = (uid: string) => ({ type: 'banner', uid });

function impression(
  p: PageBuilder,
  responseId: string,
  results: object[],
  banners: string[],
  at: number,
) {
  return p.event(
    'impression',
    { responseId, results, banners: banners.map((uid) => ({ uid })) },
    { at },
  );
}
function click(p: PageBuilder, responseId: string, item: object, at: number) {
  return p.event('clickthrough', { responseId, results: [item] }, { at });
}

describe('search provenance: a page that does everything right', () => {
  it('has no findings — results as the client tracks them, inline and slot banners, quick add of a variant', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      // impressions and clicks carry each tile's result (SC: uid result.id); the add its selected variant
      impression(
        p,
        'r1',
        [product('P200'), banner('rain-inline'), product('P201'), product('3001')],
        ['91001', '91002'],
        100,
      ),
      click(p, 'r1', product('P200'), 300),
      // the add button's own click, seconds after the link's (one click sends one of them)
      p.cart('r1', '2002', { at: 2_400 }, 'P200'),
      p.bannerClick('r1', '91001', { at: 500 }),
    ];
    expect(findings(events)).toEqual([]);
    expect(findings(events, { companion: true })).toEqual([]);
  });

  it('stays silent without provenance (offline check) and for responses the sandbox did not issue', () => {
    const p = new PageBuilder();
    const events = [
      p.render('x9', { at: 0 }),
      impression(p, 'x9', [product('nope')], ['99999'], 100),
    ];
    const { engine } = engineAt();
    for (const e of events) engine.apply(e);
    engine.finish();
    expect(engine.pagesDto()[0]!.findings.filter((f) => f.rule !== 'dev-flag')).toEqual([]);
    expect(findings(events)).toEqual([]);
  });
});

describe('responseid-unknown', () => {
  const p = new PageBuilder();
  const events = [
    p.render('made-up', { at: 0 }),
    impression(p, 'made-up', [product('1')], [], 100),
  ];

  it('flags a responseId the sandbox never issued, for a site that uses the companion search API', () => {
    const found = findings(events, { companion: true });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      rule: 'responseid-unknown',
      severity: 'error',
      responseId: 'made-up',
      eventIds: events.map((e) => e.id),
    });
    expect(found[0]!.message).toContain('search.companion: true');
    expect(found[0]!.fix).toContain('origin');
  });

  it('is silent for sites that do not use it, and for events older than the sandbox memory', () => {
    expect(findings(events, { companion: false })).toEqual([]);
    expect(findings(events, { companion: true, rememberedSince: T0 + 10_000 })).toEqual([]);
  });
});

describe('item-not-in-response', () => {
  it('flags a uid the response did not return, naming the results it did return', () => {
    const p = new PageBuilder();
    const imp = impression(p, 'r1', [product('9999')], [], 100);
    const found = findings([p.render('r1', { at: 0 }), imp]);
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['item-not-in-response', 'error']]);
    expect(found[0]!.eventIds).toEqual([imp.id]);
    expect(found[0]!.message).toContain('uid "9999"');
    expect(found[0]!.message).toContain('"P200"');
  });

  it('says when the uid is a sku, and when it belongs to a later search (a stale responseId)', () => {
    const p = new PageBuilder();
    const events = [
      p.render('r1', { at: 0 }),
      impression(p, 'r1', [product('P300-30L'), product('P204')], [], 100),
    ];
    const [f] = findings(events);
    expect(f!.message).toContain('the sku of result "3001"');
    expect(f!.message).toContain(
      'later response "r2" (search "boots") this page load asked for: the page sent a stale responseId — use the responseId of the search whose results are shown',
    );
  });

  it('names no response of another page load: a uid it served never reached this one', () => {
    // r2 served P204 to page-1; page-2 never rendered nor asked for it
    const p = new PageBuilder({ pageLoadId: 'page-2' });
    const events = [p.render('r1', { at: 0 }), impression(p, 'r1', [product('P204')], [], 100)];
    const [f] = findings(events);
    expect(f!.message).not.toContain('r2');
    expect(f!.message).not.toContain('stale');
    expect(f!.message).toMatch(
      /uid "P204" in \S+ \(no response this page load rendered or asked for served it\)/,
    );
  });

  it('names five uids and counts the rest, however many a page gets wrong', () => {
    const p = new PageBuilder();
    const wrong = Array.from({ length: 40 }, (_, i) => product(`x${i}`));
    const [f] = findings([p.render('r1', { at: 0 }), impression(p, 'r1', wrong, [], 100)]);
    expect(f!.message).toContain('40 items reported');
    expect(f!.message).toContain('uid "x4" in');
    expect(f!.message).not.toContain('uid "x5"');
    expect(f!.message).toContain('and 35 more uids');
  });

  it('warns when an inline banner is reported as a product', () => {
    const p = new PageBuilder();
    const found = findings([
      p.render('r1', { at: 0 }),
      impression(p, 'r1', [product('rain-inline')], [], 100),
    ]);
    expect(found.map((f) => [f.rule, f.severity])).toEqual([
      ['inline-banner-as-product', 'warning'],
    ]);
    expect(found[0]!.message).toContain('type: "banner"');
  });
});

describe('banner-not-in-response and inline-banner-in-banners', () => {
  it('flags a banner uid the response did not return', () => {
    const p = new PageBuilder();
    const found = findings([p.render('r1', { at: 0 }), impression(p, 'r1', [], ['promo-x'], 100)]);
    expect(found.map((f) => f.rule)).toEqual(['banner-not-in-response']);
    expect(found[0]!.message).toContain('"promo-x"');
    expect(found[0]!.message).toContain('header: "91001"');
  });

  it('flags a slot banner sent among the results', () => {
    const p = new PageBuilder();
    const found = findings([
      p.render('r1', { at: 0 }),
      impression(p, 'r1', [banner('91002')], [], 100),
    ]);
    expect(found.map((f) => f.rule)).toEqual(['banner-not-in-response']);
    expect(found[0]!.message).toContain('a banner banner sent in data.results');
  });

  it('accepts an inline banner by the id the Snap store gives it (ss-ib-<index>), and knows it in data.banners too', () => {
    const p = new PageBuilder();
    expect(
      findings([p.render('r1', { at: 0 }), impression(p, 'r1', [banner('ss-ib-1')], [], 100)]),
    ).toEqual([]);
    const q = new PageBuilder({ pageLoadId: 'p2' });
    expect(
      findings([q.render('r1', { at: 0 }), impression(q, 'r1', [], ['ss-ib-1'], 100)]).map(
        (f) => f.rule,
      ),
    ).toEqual(['inline-banner-in-banners']);
  });

  it('flags an inline banner reported in data.banners, once, under its own rule', () => {
    const p = new PageBuilder();
    const bad = impression(p, 'r1', [product('P200')], ['rain-inline'], 100);
    const found = findings([p.render('r1', { at: 0 }), bad]);
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['inline-banner-in-banners', 'error']]);
    expect(found[0]!.eventIds).toEqual([bad.id]);
    expect(found[0]!.message).toContain('position 1');
  });
});

describe('redirect-mismatch', () => {
  it('accepts the returned redirect, as sent or resolved against the storefront', () => {
    const p = new PageBuilder();
    expect(findings([p.redirect('r3', '/pages/gift-cards', { at: 0 })])).toEqual([]);
    const q = new PageBuilder({ pageLoadId: 'page-2' });
    expect(
      findings([q.redirect('r3', 'https://shop.example.com/pages/gift-cards', { at: 0 })]),
    ).toEqual([]);
  });

  it('flags another URL, and a redirect on a response that returned none', () => {
    const p = new PageBuilder();
    const found = findings([
      p.redirect('r3', '/pages/gift-card-terms', { at: 0 }),
      p.redirect('r1', '/pages/jackets', { at: 10 }),
    ]);
    expect(found.map((f) => [f.rule, f.responseId])).toEqual([
      ['redirect-mismatch', 'r3'],
      ['redirect-mismatch', 'r1'],
    ]);
    expect(found[0]!.message).toContain('merchandising.redirect "/pages/gift-cards"');
    expect(found[1]!.message).toContain('returned no redirect');
  });
});

describe('parentid-mismatch', () => {
  // the parentId rules' findings (a variant's uid on an impression is tile-uid-variant's to name)
  const run = (...items: object[]) => {
    const p = new PageBuilder();
    return findings([p.render('r1', { at: 0 }), impression(p, 'r1', items, [], 100)]).filter((f) =>
      f.rule.startsWith('parentid-'),
    );
  };

  it('accepts parentId = uid (of a result, and of a variant), an empty parentId, the result uid as a variant’s parentId', () => {
    expect(
      run(
        product('P200'),
        product('2001', 'P200'),
        product('2002'),
        product('3001'),
        product('P201', ''),
        // the inline banner between the first two results, impressed like a tile
        { type: 'banner', uid: 'rain-inline' },
      ),
    ).toEqual([]);
  });

  it('is an error when parentId names another result or its variant', () => {
    const found = run(product('2001', 'P201'), product('P200', '2011'));
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['parentid-mismatch', 'error']]);
    expect(found[0]!.message).toContain(
      'parentId "P201" is the result "P201"; it should be "P200"',
    );
    expect(found[0]!.message).toContain(
      'parentId "2011" is a variant of result "P201"; it should be "P200"',
    );
  });

  it('warns where the intent is ambiguous: swapped ids within one result, a parentId not in the response', () => {
    const found = run(product('P200', '2002'), product('3001', 'G1'));
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['parentid-unclear', 'warning']]);
    expect(found[0]!.message).toContain('look swapped; parentId should be "P200"');
    expect(found[0]!.message).toContain(
      'parentId "G1" is not in this response; the result is "3001"',
    );
  });
});

describe('item-not-in-catalog', () => {
  const catalog = { ids: ['P200', '2001', '3001'], skus: { 'P300-30L': '3001' } };
  const page = () => {
    const p = new PageBuilder();
    return [
      p.render('own-id', { at: 0 }),
      impression(
        p,
        'own-id',
        [product('2001', 'P200'), product('P300-30L'), product('3001', 'G9'), banner('promo')],
        [],
        100,
      ),
    ];
  };

  it('warns about uids and parentIds the indexed catalog does not hold (banners are not products)', () => {
    const found = findings(page(), { catalog });
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['item-not-in-catalog', 'warning']]);
    expect(found[0]!.message).toContain('uid "P300-30L"');
    expect(found[0]!.message).toContain('sku of product "3001"');
    expect(found[0]!.message).toContain('uid "G9"');
    expect(found[0]!.message).not.toContain('promo');
  });

  it('is silent for companion sites, with catalogCheck off, and without a catalog', () => {
    expect(
      findings(page(), { catalog, companion: true }).filter(
        (f) => f.rule === 'item-not-in-catalog',
      ),
    ).toEqual([]);
    expect(findings(page(), { catalog, catalogCheck: false })).toEqual([]);
    expect(findings(page(), { catalog: null })).toEqual([]);
  });
});

describe('response-without-test', () => {
  it('is a warning for development beacons on a response requested without test=true', () => {
    const p = new PageBuilder();
    const found = findings([
      p.render('r4', { at: 0 }),
      impression(p, 'r4', [product('3001')], [], 100),
    ]);
    expect(found.map((f) => [f.rule, f.severity])).toEqual([['response-without-test', 'warning']]);
    expect(found[0]!.fix).toContain("mode: 'development'");
  });

  it('is silent for production traffic and for test=true responses', () => {
    const prod = new PageBuilder({ dev: false });
    expect(findings([prod.render('r4', { at: 0 })])).toEqual([]);
    const dev = new PageBuilder({ pageLoadId: 'p2' });
    expect(findings([dev.render('r1', { at: 0 })])).toEqual([]);
  });
});
