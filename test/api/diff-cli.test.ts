// `search-sandbox diff BASE CURRENT`: two runs of one journey that differ only in what differs by nature are
// the same; each storefront regression is named once, on its page; exit codes 0 / 1 / 2. The built command
// runs as a process for each exit code, as a shell sees it (its code, the whole of stdout and stderr); the
// other cases call the command's function in this process with the same arguments, which answers with the
// same code and text (a process each cost ~0.35 s of CPU, most of it loading the bundle).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from './cli-process';
import { runDiff } from '../../src/main/baseline/cli';
import { captured, tempFile } from '../helpers/check';
import { tempDir } from '../helpers/sandbox';
import { writePlaywrightHars } from '../helpers/playwright-har';
import { journey, run, type Journey } from '../helpers/journey';
import type { DiffPage, DiffResult } from '../../src/shared/baseline';
import { baselineText } from '../../src/main/baseline/baseline-file';
import { readUpload } from '../../src/main/baseline/upload';
import { toHar } from '../unit/timeline-beacon';
import { BASELINE_WITH_PARAMS_AS_RECORDED, paramsJourney } from '../helpers/reordered-params';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** The built command as a process: its exit code, stdout and stderr as a shell sees them. */
function diffProcess(args: string[]): Ran {
  const r = spawnSync(process.execPath, [CLI, 'diff', ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** The command's function, as the process runs it: the code it exits with, what it writes to each stream. */
const diff = (args: string[]): Promise<Ran> => captured(runDiff, args);

const file = (name: string, text: string) => tempFile(cleanups, name, text);
const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: `sku-${uid}` });
const base = () => file('base.ndjson', run(journey()));

/** The JSON comparison of a good run with a run of `j`; the pages that differ. */
async function differing(
  j: Journey,
  ...flags: string[]
): Promise<{ code: number; pages: DiffPage[] }> {
  const current = file('current.ndjson', run(j, { origin: 'https://staging.example.com:8443' }));
  const r = await diff([base(), current, '--format', 'json', ...flags]);
  expect(r.err).toBe('');
  const result = JSON.parse(r.out) as DiffResult;
  expect(result.same).toBe(r.code === 0);
  return { code: r.code, pages: result.pages.filter((p) => p.status !== 'same') };
}

describe('search-sandbox diff', () => {
  it('two runs with new ids, timestamps, responseIds, orderIds, another host and siteId are the same (exit 0)', async () => {
    const current = file(
      'current.ndjson',
      run(journey(), {
        origin: 'http://127.0.0.1:5173',
        start: Date.parse('2027-01-02T10:00:00Z'),
        siteId: 'stg001',
      }),
    );
    const r = diffProcess([base(), current]);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^same tracking: 4 pages of .*current\.ndjson match .*base\.ndjson$/m);
    const json = await diff([base(), current, '--format', 'json']);
    const result = JSON.parse(json.out) as DiffResult;
    expect(result.same).toBe(true);
    expect(result.pages.map((p) => [p.status, p.kind])).toEqual([
      ['same', 'search'],
      ['same', 'product'],
      ['same', 'order'],
      ['same', 'category'],
    ]);
  });

  it('names a missing event once, on its page, in text and json (exit 1)', async () => {
    const j = journey();
    j[0]![0]!.events.splice(2, 1); // the clickthrough is no longer sent
    const { code, pages } = await differing(j);
    expect(code).toBe(1);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({
      status: 'changed',
      kind: 'search',
      pageUrl: 'https://staging.example.com:8443/search?q=shoes',
      changes: [{ change: 'missing', event: 'search/clickthrough', baseIndex: 2, uids: ['102'] }],
    });
    const text = diffProcess([base(), file('c.ndjson', run(j))]);
    expect(text.code).toBe(1);
    expect(text.out).toContain(
      'changed  search /search?q=shoes\n  missing  search/clickthrough (event 3) of uid 102: sent in BASE, not now\n',
    );
    expect(text.out).toMatch(/1 page differs \(1 changed of 4 in both runs; 4 pages in each\)/);
  });

  it('an event sent alike, only at another place (the render after the impression), is one move, naming what it now comes after (exit 1)', async () => {
    const late = journey();
    const search = late[0]![0]!.events;
    search.splice(1, 0, search.splice(0, 1)[0]!); // impression, render, clickthrough
    const current = file('late.ndjson', run(late));
    const good = base();
    const text = await diff([good, current]);
    expect(text).toMatchObject({ code: 1, err: '' });
    expect(text.out).toBe(
      'changed  search /search?q=shoes\n' +
        '  moved    search/render: event 1 → event 2 (now after search/impression)\n' +
        `1 page differs (1 changed of 4 in both runs; 4 pages in each): ${current} against ${good}\n`,
    );
    const json = await diff([good, current, '--format', 'json']);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.out) as DiffResult;
    expect(result.same).toBe(false);
    expect(result.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'search',
        changes: [
          {
            change: 'moved',
            event: 'search/render',
            baseIndex: 0,
            currentIndex: 1,
            after: 'search/impression',
          },
        ],
        baseEvents: ['search/render', 'search/impression', 'search/clickthrough'],
        currentEvents: ['search/impression', 'search/render', 'search/clickthrough'],
      }),
    ]);

    // one that now comes first says so; the rest of the page still pairs up
    const first = journey();
    const product = first[0]![1]!.events;
    product.unshift(product.pop()!); // recommendations/impression, product/pageview, recommendations/render
    const r = await differing(first);
    expect(r.code).toBe(1);
    expect(r.pages[0]!.changes).toEqual([
      { change: 'moved', event: 'recommendations/impression', baseIndex: 2, currentIndex: 0 },
    ]);
    expect((await diff([base(), file('first.ndjson', run(first))])).out).toContain(
      '  moved    recommendations/impression: event 3 → event 1 (now first)\n',
    );

    // moved and changed is not the same event moved: its old place misses it, its new one is extra
    const changed = journey();
    const events = changed[0]![0]!.events;
    events.splice(1, 0, { ...events.splice(0, 1)[0]!, data: { responseId: 'R2' } });
    expect((await differing(changed)).pages[0]!.changes.map((c) => c.change)).toEqual([
      'missing',
      'extra',
    ]);
  });

  it('names an extra event once, on its page', async () => {
    const j = journey();
    j[0]![1]!.events.push({
      category: 'cart',
      event: 'add',
      data: {
        results: [{ uid: '102', parentId: '102', sku: 'sku-102', qty: 1, price: 100 }],
        cart: [],
      },
    });
    const { pages } = await differing(j);
    expect(pages).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'product',
        changes: [{ change: 'extra', event: 'cart/add', currentIndex: 3, uids: ['102'] }],
      }),
    ]);
  });

  it('names a changed field with its path, before and after; --ignore leaves it out', async () => {
    const j = journey();
    (j[0]![2]!.events[0]!.data as { total: number }).total = 90;
    const { pages } = await differing(j);
    expect(pages).toEqual([
      expect.objectContaining({
        kind: 'order',
        changes: [
          {
            change: 'field',
            event: 'order/transaction',
            path: 'data.total',
            base: 100,
            current: 90,
            baseIndex: 0,
            currentIndex: 0,
          },
        ],
      }),
    ]);
    expect(await differing(j, '--ignore', 'data.total')).toEqual({ code: 0, pages: [] });
    const text = await diff([base(), file('c.ndjson', run(j))]);
    expect(text.out).toContain('  field    order/transaction (event 1) data.total: 100 → 90\n');
  });

  it('a page whose beacons the service refused now (the same bodies, a Content-Type changed) differs: each event names its answer; a baseline of refused events matches itself', async () => {
    // the journey's search page (its first three events) sent as before, each refused with 415
    const refused = run(journey())
      .split('\n')
      .filter(Boolean)
      .map((line, i) =>
        i < 3
          ? JSON.stringify({
              ...(JSON.parse(line) as object),
              accepted: false,
              status: 415,
              errors: [{ message: 'unsupported Content-Type', path: '' }],
            })
          : line,
      )
      .join('\n');
    const current = file('refused.ndjson', `${refused}\n`);
    const json = await diff([base(), current, '--format', 'json']);
    expect(json.code).toBe(1);
    const [page, ...rest] = (JSON.parse(json.out) as DiffResult).pages.filter(
      (p) => p.status !== 'same',
    );
    expect(rest).toEqual([]);
    expect(page).toMatchObject({ status: 'changed', kind: 'search' });
    expect(page!.changes.map((c) => [c.change, c.event, c.path, c.base, c.current])).toEqual([
      ['field', 'search/render', 'answer', undefined, '415 Unsupported Media Type'],
      ['field', 'search/impression', 'answer', undefined, '415 Unsupported Media Type'],
      ['field', 'search/clickthrough', 'answer', undefined, '415 Unsupported Media Type'],
    ]);
    const text = await diff([base(), current]);
    expect(text.out).toContain(
      '  field    search/render (event 1) answer: (absent) → "415 Unsupported Media Type"\n',
    );
    // a baseline file keeps the answer, in its place among the sorted keys: read back, it matches the run
    const recording = await readUpload(refused);
    if (typeof recording === 'string') throw new Error(recording);
    const baseline = file('refused-baseline.json', baselineText(recording));
    expect(readFileSync(baseline, 'utf8')).toContain(
      '{"answer":"415 Unsupported Media Type","context"',
    );
    expect(await diff([baseline, current])).toMatchObject({ code: 0, err: '' });
  });

  it('--ignore with [] for any index; a field of one tile changed is named at its index', async () => {
    const j = journey();
    const results = j[0]![2]!.events[0]!.data.results as Array<{ price: number }>;
    results[0]!.price = 95;
    expect((await differing(j)).pages[0]!.changes).toEqual([
      expect.objectContaining({ path: 'data.results[0].price', base: 100, current: 95 }),
    ]);
    expect((await differing(j, '--ignore', 'data.results[].price')).code).toBe(0);
  });

  it('items in another order are one field change on the list, with both orders; the tiles an impression names are a set', async () => {
    const twoLines = (uids: string[]): Journey => {
      const j = journey();
      const line = (uid: string) => ({ uid, parentId: uid, sku: `sku-${uid}`, qty: 1, price: 50 });
      (j[0]![2]!.events[0]!.data as { results: unknown[] }).results = uids.map(line);
      return j;
    };
    const good = file('good.ndjson', run(twoLines(['102', '103'])));
    const r = await diff([
      good,
      file('c.ndjson', run(twoLines(['103', '102']))),
      '--format',
      'json',
    ]);
    const pages = (JSON.parse(r.out) as DiffResult).pages.filter((p) => p.status !== 'same');
    expect(pages).toHaveLength(1);
    expect(pages[0]!.changes).toHaveLength(1);
    const change = pages[0]!.changes[0]!;
    expect(change).toMatchObject({
      change: 'field',
      event: 'order/transaction',
      path: 'data.results',
    });
    expect((change.base as Array<{ uid: string }>).map((r) => r.uid)).toEqual(['102', '103']);
    expect((change.current as Array<{ uid: string }>).map((r) => r.uid)).toEqual(['103', '102']);
    const text = await diff([good, file('c.ndjson', run(twoLines(['103', '102'])))]);
    expect(text.out).toContain(
      '  field    order/transaction (event 1) data.results (uids in order): 102, 103 → 103, 102\n',
    );
    // the tiles came into view in another order: the same items impressed, no change
    const j = journey();
    const data = j[0]![0]!.events[1]!.data as { results: Array<{ uid: string }> };
    data.results = [data.results[1]!, data.results[0]!, data.results[2]!];
    expect(await differing(j)).toEqual({ code: 0, pages: [] });
  });

  it('a response tracked in another place (a click on a response the page had not shown) is a field change', async () => {
    const j = journey();
    j[0]![0]!.events[2]!.data.responseId = 'R9';
    expect((await differing(j)).pages[0]!.changes).toEqual([
      expect.objectContaining({
        path: 'data.responseId',
        base: 'response 1',
        current: 'response 2',
      }),
    ]);
  });

  it('a page added or removed is named once; the pages around it still match', async () => {
    const added = journey();
    added[0]!.splice(1, 0, {
      path: '/search?q=boots',
      events: [{ category: 'search', event: 'render', data: { responseId: 'R1' } }],
    });
    const a = (await differing(added)).pages;
    expect(a).toEqual([
      expect.objectContaining({
        status: 'added',
        kind: 'search',
        pageUrl: 'https://staging.example.com:8443/search?q=boots',
        changes: [],
        currentEvents: ['search/render'],
      }),
    ]);
    const removed = journey();
    removed[0]!.splice(1, 1);
    const r = await differing(removed);
    expect(r.code).toBe(1);
    expect(r.pages).toEqual([
      expect.objectContaining({
        status: 'removed',
        kind: 'product',
        pageUrl: 'http://localhost:3000/product/102',
      }),
    ]);
    const text = await diff([base(), file('c.ndjson', run(removed))]);
    expect(text.out).toContain(
      'removed  product /product/102: only in BASE (product/pageview, recommendations/render, recommendations/impression)\n',
    );
  });

  /** The journey with a thank-you URL carrying the order number, shown after a widget on that page. */
  const thanksWithOrder = (): Journey => {
    const j = journey();
    const thanks = j[0]![2]!;
    thanks.path = '/checkout/thanks?order={ORDER}&utm_source=mail';
    thanks.events.unshift(
      { category: 'recommendations', event: 'render', data: { responseId: 'R9', tag: 'similar' } },
      {
        category: 'recommendations',
        event: 'impression',
        data: { responseId: 'R9', tag: 'similar', results: [tile('105')], banners: [] },
      },
    );
    return j;
  };

  it('a thank-you URL carrying the order number: two runs compare equal, a price change is one field change', async () => {
    const good = file('good.ndjson', run(thanksWithOrder()));
    const again = file(
      'again.ndjson',
      run(thanksWithOrder(), { origin: 'https://www.example.com' }),
    );
    expect(await diff([good, again])).toMatchObject({ code: 0, err: '' });
    // the same through a baseline file: its page reads the parameter's name, not the run's number
    const recording = await readUpload(run(thanksWithOrder()));
    if (typeof recording === 'string') throw new Error(recording);
    const text = baselineText(recording);
    expect(text).toContain('"page": "/checkout/thanks?order={orderId}&utm_source=mail"');
    expect(text).toContain('"pageUrl":"/checkout/thanks?order={orderId}&utm_source=mail"');
    expect(await diff([file('baseline.json', text), again])).toMatchObject({ code: 0, err: '' });

    const cheaper = thanksWithOrder();
    const order = cheaper[0]![2]!.events[2]!.data as { results: Array<{ price: number }> };
    order.results[0]!.price = 95;
    const r = await diff([good, file('cheaper.ndjson', run(cheaper)), '--format', 'json']);
    expect(r.code).toBe(1);
    const result = JSON.parse(r.out) as DiffResult;
    expect(result.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'order',
        pageUrl: expect.stringMatching(
          /^http:\/\/localhost:3000\/checkout\/thanks\?order=[0-9a-f-]{36}&/,
        ),
        changes: [
          {
            change: 'field',
            event: 'order/transaction',
            path: 'data.results[0].price',
            base: 100,
            current: 95,
            baseIndex: 2,
            currentIndex: 2,
          },
        ],
      }),
    ]);
    // another parameter name is a change of the page's URL (the page no longer matches)
    const renamed = thanksWithOrder();
    renamed[0]![2]!.path = '/checkout/thanks?o={ORDER}&utm_source=mail';
    expect(
      (await differing(renamed)).pages.map((p) => p.status),
      'renamed parameter',
    ).not.toEqual([]);
  });

  it('a thank-you URL with the order number in its path (/checkout/order-received/1001/): two runs compare equal', async () => {
    const inPath = () => {
      const j = thanksWithOrder();
      j[0]![2]!.path = '/checkout/order-received/{ORDER}/?key=wc_order_k';
      return j;
    };
    const good = file('good.ndjson', run(inPath()));
    const again = file('again.ndjson', run(inPath()));
    expect(await diff([good, again])).toMatchObject({ code: 0, err: '' });
    const recording = await readUpload(run(inPath()));
    if (typeof recording === 'string') throw new Error(recording);
    const text = baselineText(recording);
    expect(text).toContain('"page": "/checkout/order-received/{orderId}/?key=wc_order_k"');
    expect(await diff([file('baseline.json', text), again])).toMatchObject({ code: 0, err: '' });
    // a segment that is no volatile value still tells pages apart
    const other = inPath();
    other[0]![2]!.path = '/checkout/order-failed/{ORDER}/?key=wc_order_k';
    expect((await differing(other)).pages.map((p) => p.status)).toEqual(['removed', 'added']);
  });

  it("a page is its set of URL parameters: the same ones in another order match and are not reported; a repeated name keeps its values' order", async () => {
    const written = file('written.ndjson', run(paramsJourney()));
    const reordered = file('reordered.ndjson', run(paramsJourney(true)));
    const r = await diff([written, reordered]);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(
      /^same tracking: 2 pages of .*reordered\.ndjson match .*written\.ndjson\n$/,
    );
    const json = JSON.parse(
      (await diff([written, reordered, '--format', 'json'])).out,
    ) as DiffResult;
    expect(json.same).toBe(true);
    // each page as CURRENT recorded it
    expect(json.pages.map((p) => [p.status, p.pageUrl])).toEqual([
      ['same', 'http://localhost:3000/search?page=1&q=jacket'],
      [
        'same',
        expect.stringMatching(
          /^http:\/\/localhost:3000\/checkout\/thanks\?key=abc&order=[0-9a-f-]{36}$/,
        ),
      ],
    ]);
    // a baseline file writes them in one order, whichever the run had
    const recorded = async (text: string) => {
      const recording = await readUpload(text);
      if (typeof recording === 'string') throw new Error(recording);
      return baselineText(recording);
    };
    const fromReordered = await recorded(run(paramsJourney(true)));
    expect(fromReordered).toBe(await recorded(run(paramsJourney())));
    expect(fromReordered).toContain('"page": "/checkout/thanks?key=abc&order={orderId}"');
    // a name given twice: its values in another order are another page
    const colours = (order: string) => {
      const j = paramsJourney();
      j[0]![0]!.path = `/search?q=jacket&${order}`;
      return file(`${order}.ndjson`, run(j));
    };
    const swapped = await diff([colours('color=red&color=blue'), colours('color=blue&color=red')]);
    expect(swapped.code).toBe(1);
    expect(swapped.out).toContain(
      'added    search /search?color=blue&color=red&q=jacket: only in CURRENT',
    );
  });

  it('a baseline file written before pages were matched by their set of parameters still matches the same journey, in either order', async () => {
    const baseline = file('before.json', BASELINE_WITH_PARAMS_AS_RECORDED);
    for (const reordered of [false, true]) {
      const current = file('current.ndjson', run(paramsJourney(reordered)));
      const r = await diff([baseline, current]);
      expect(r, `reordered: ${reordered}`).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^same tracking: 2 pages/);
    }
    // and it still tells a change: the thank-you page's total
    const j = paramsJourney(true);
    (j[0]![1]!.events[0]!.data as { total: number }).total = 60;
    const changed = await diff([baseline, file('changed.ndjson', run(j))]);
    expect(changed.code).toBe(1);
    expect(changed.out).toContain('  field    order/transaction (event 1) data.total: 56.5 → 60\n');
  });

  it('--ignore query.NAME leaves a parameter out of matching and comparing (a token, a cache buster)', async () => {
    const busted = () => {
      const j = journey();
      j[0]![0]!.path = '/search?q=shoes&_={random}';
      return j;
    };
    const a = file('a.ndjson', run(busted()));
    const b = file('b.ndjson', run(busted()));
    // without it, the page is paired with BASE's and the parameter named
    const plain = JSON.parse((await diff([a, b, '--format', 'json'])).out) as DiffResult;
    expect(plain.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        page: expect.stringMatching(/^\/search\?_=[0-9a-f-]{36}&q=shoes$/),
        query: [{ name: '_', base: expect.any(String), current: expect.any(String) }],
        changes: [],
      }),
    ]);
    expect(await diff([a, b, '--ignore', 'query._'])).toMatchObject({ code: 0, err: '' });
    // the name is the parameter's, decoded; a value is not a name
    expect(await diff([a, b, '--ignore', 'query.'])).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        'or query.NAME for a parameter of the page URL, e.g. query.token',
      ),
    });
    // --ignore context.pageUrl matches pages by their kind and place only
    expect(await diff([a, b, '--ignore', 'context.pageUrl'])).toMatchObject({ code: 0, err: '' });
  });

  it('pairs a page whose path differs from BASE only in one segment (a checkout token), names it with the fix, and shows what changed underneath', async () => {
    const tokened = (total = 100, path = '/checkouts/c/{random}/thank-you') => {
      const j = journey();
      j[0]![2]!.path = path;
      (j[0]![2]!.events[0]!.data as { total: number }).total = total;
      return j;
    };
    const a = file('a.ndjson', run(tokened()));
    const b = file('b.ndjson', run(tokened(120)));
    const json = JSON.parse((await diff([a, b, '--format', 'json'])).out) as DiffResult;
    expect(json.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'order',
        path: { segment: 3, base: expect.any(String), current: expect.any(String) },
        changes: [expect.objectContaining({ path: 'data.total', base: 100, current: 120 })],
      }),
    ]);
    const text = await diff([a, b]);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^ {2}path {5}segment 3: [0-9a-f-]{36} → [0-9a-f-]{36}$/m);
    expect(text.out).toContain(
      'ignore context.pageUrl to match pages by their kind and place (--ignore context.pageUrl',
    );
    expect(text.out).toContain('  field    order/transaction (event 1) data.total: 100 → 120\n');
    // the token alone is no change once URLs do not count
    const same = file('same.ndjson', run(tokened()));
    expect(await diff([a, same, '--ignore', 'context.pageUrl'])).toMatchObject({ code: 0 });
    // two segments that differ are two pages, as before
    const other = file('other.ndjson', run(tokened(100, '/checkouts/x/{random}/thank-you')));
    const apart = JSON.parse((await diff([a, other, '--format', 'json'])).out) as DiffResult;
    expect(apart.pages.filter((p) => p.status !== 'same').map((p) => p.status)).toEqual([
      'removed',
      'added',
    ]);
  });

  it('says an --ignore path that matched nothing in either recording, with the nearest that occurs; the exit code stays that of the comparison', async () => {
    const j = journey();
    (j[0]![2]!.events[0]!.data.results as Array<{ price: number }>)[0]!.price = 95;
    const changed = file('changed.ndjson', run(j));
    // the typo leaves the price in: still a difference (exit 1), and stderr says why
    const typo = await diff([base(), changed, '--ignore', 'data.result[].price']);
    expect(typo.code).toBe(1);
    expect(typo.out).toContain('data.results[0].price: 100 → 95');
    expect(typo.err).toBe(
      'search-sandbox diff: --ignore data.result[].price matched no field of an event in either recording, so it left nothing out; did you mean data.results[].price?\n',
    );
    // the same runs otherwise: exit 0 though a path matched nothing; a path near none is said without a guess;
    // a URL parameter is matched against the pages' parameters; the paths that matched are not named
    const same = file('same.ndjson', run(journey()));
    const unused = await diff([
      base(),
      same,
      ...['--ignore', 'data.results[].price', '--ignore', 'zzz.qqq', '--ignore', 'query.qq'],
    ]);
    expect(unused.code).toBe(0);
    expect(unused.err).toBe(
      'search-sandbox diff: --ignore zzz.qqq matched no field of an event in either recording, so it left nothing out\n' +
        'search-sandbox diff: --ignore query.qq matched no URL parameter of a page in either recording, so it left nothing out; did you mean query.q?\n',
    );
    // baseline files are read with the same check
    const recording = await readUpload(run(journey()));
    if (typeof recording === 'string') throw new Error(recording);
    const baseline = file('journey.json', baselineText(recording));
    const fromFiles = await diff([baseline, baseline, '--ignore', 'data.result[].price']);
    expect(fromFiles).toMatchObject({ code: 0, err: typo.err });
    expect((await diff([baseline, baseline, '--ignore', 'data.results[].price'])).err).toBe('');
    // not a typo: a field never compared (every event has it), and a path given twice, are said as such
    const needless = await diff([
      base(),
      same,
      ...[
        '--ignore',
        'context.userId',
        '--ignore',
        'context.pageUrl',
        '--ignore',
        'context.pageUrl',
      ],
    ]);
    expect(needless.code).toBe(0);
    expect(needless.err).toBe(
      'search-sandbox diff: --ignore context.userId left nothing out: it is never compared (session, user, shopper and page-load ids and timestamps differ between any two runs by nature), so it needs no --ignore\n' +
        'search-sandbox diff: --ignore context.pageUrl is given twice; once leaves it out\n',
    );
  });

  it('sessions recorded in another order still match', async () => {
    const current = file('current.ndjson', run(journey(), { order: [1, 0] }));
    expect((await diff([base(), current])).code).toBe(0);
  });

  it('a recording that cannot be read exits 2 naming the file and line; bad flags exit 2 with a reason', async () => {
    const lines = run(journey()).split('\n');
    lines[2] = '{"siteId": "demo42", "body": ';
    const broken = file('broken.ndjson', lines.join('\n'));
    const r = diffProcess([base(), broken]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^search-sandbox diff: ${broken}:3: not valid JSON`));
    expect((await diff([base(), '/nonexistent/x.ndjson'])).err).toMatch(
      /\/nonexistent\/x\.ndjson: no such file \(ENOENT\)/,
    );
    expect(diffProcess([base()])).toMatchObject({
      code: 2,
      err: expect.stringContaining('expected two recordings, BASE and CURRENT, got 1'),
    });
    expect(await diff([base(), base(), '--format', 'xml'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--format "xml" is not one of text, json'),
    });
    expect(await diff([base(), base(), '--ignore', 'data..x'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--ignore "data..x" is not a field path'),
    });
    expect(await diff([base(), base(), '--colour'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown flag --colour: the flags are'),
    });
  });

  it('a recording without one beacon event (tracking that never fired, a HAR of the page without its beacons) exits 2 naming BASE, CURRENT or both', async () => {
    const page = {
      startedDateTime: '2026-01-01T00:00:00.000Z',
      time: 5,
      request: { method: 'GET', url: 'https://shop.example/search?q=shoes', headers: [] },
      response: { status: 200, headers: [], content: { size: 0, mimeType: 'text/html' } },
    };
    const none = file('nobeacon.har', JSON.stringify({ log: { version: '1.2', entries: [page] } }));
    const both = await diff([none, none]);
    expect(both.code).toBe(2);
    expect(both.out).toBe('');
    expect(both.err).toBe(
      `search-sandbox diff: neither BASE (${none}) nor CURRENT (${none}) has a beacon v2 event of a page: nothing to compare. Most often the storefront's tracking never fired in that run (the tracker not loaded, its beacons sent to another host), or the recording left the beacons out (a HAR saved with a filter, or with its …/beacon/v2/… requests removed); record the journey with its tracking on\n`,
    );
    const good = base();
    for (const [args, side] of [
      [[none, good], `BASE (${none})`],
      [[good, none], `CURRENT (${none})`],
    ] as const) {
      const r = await diff([...args, '--format', 'json']);
      expect(r).toMatchObject({ code: 2, out: '' });
      expect(r.err).toMatch(
        new RegExp(
          `^search-sandbox diff: ${side.replace(/[()]/g, '\\$&')} has no beacon v2 event of a page: nothing to compare\\. Most often`,
        ),
      );
    }
  });

  it('reads a baseline file back as a recording, and a HAR beside it; a broken baseline exits 2 with its line', async () => {
    const recording = await readUpload(run(journey()));
    if (typeof recording === 'string') throw new Error(recording);
    const text = baselineText(recording);
    const baseline = file('journey.json', text);
    const current = file('current.ndjson', run(journey(), { origin: 'https://www.example.com' }));
    expect(await diff([baseline, current])).toMatchObject({ code: 0, err: '' });
    expect(await diff([current, baseline])).toMatchObject({ code: 0, err: '' });
    // a HAR of the same journey, as DevTools saves it: the beacon POSTs to the provider's host
    const har = file(
      'run.har',
      JSON.stringify(
        toHar(
          run(journey())
            .trim()
            .split('\n')
            .map((line) => {
              const e = JSON.parse(line) as { category: string; event: string; body: unknown };
              return {
                url: `https://analytics.athoscommerce.net/beacon/v2/demo42/${e.category}/${e.event}`,
                method: 'POST',
                headers: { 'Content-Type': 'text/plain' },
                body: JSON.stringify(e.body),
                at: new Date('2027-01-01T00:00:00Z'),
              };
            }),
        ),
      ),
    );
    expect(await diff([baseline, har])).toMatchObject({ code: 0, err: '' });
    // the same HAR as Playwright's recordHar saves it to a .zip, and with content: 'attach'
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const saved = writePlaywrightHars(readFileSync(har, 'utf8'), dir);
    expect(await diff([baseline, saved.zip])).toMatchObject({ code: 0, err: '' });
    expect(await diff([saved.attach, baseline])).toMatchObject({ code: 0, err: '' });
    const lines = text.split('\n');
    lines[10] = lines[10]!.replace('"event"', '"event" oops');
    const broken = file('broken.json', lines.join('\n'));
    const r = await diff([broken, current]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^search-sandbox diff: ${broken}:11: not valid JSON`));
    const other = file('v2.json', text.replace('"version": 1', '"version": 2'));
    expect((await diff([other, current])).err).toMatch(
      /baseline version 2: this search-sandbox reads version 1/,
    );
  });

  /** The journey with a thank-you URL carrying a parameter whose value is new every run (`{random}`). */
  const thanksWith = (path: string, total = 100): Journey => {
    const j = journey();
    j[0]![2]!.path = path;
    (j[0]![2]!.events[0]!.data as { total: number }).total = total;
    return j;
  };

  it('pages that differ only in a URL parameter new every run pair up: the parameter named with the fix, their field changes shown', async () => {
    const good = file('good.ndjson', run(thanksWith('/checkout/thanks?order={ORDER}&ts={random}')));
    const cents = file(
      'cents.ndjson',
      run(thanksWith('/checkout/thanks?order={ORDER}&ts={random}', 10000)),
    );
    const r = await diff([good, cents]);
    expect(r).toMatchObject({ code: 1, err: '' });
    const uuid = '[0-9a-f-]{36}';
    expect(r.out).toMatch(
      new RegExp(
        `^changed  order /checkout/thanks\\?order=\\{orderId\\}&ts=${uuid}\\n` +
          `  query    ts: ${uuid} → ${uuid}\\n` +
          `  hint     the pages differ only in the value of ts: if it changes every run, ignore query\\.ts \\(--ignore query\\.ts, or ignore: \\['query\\.ts'\\]\\)\\n` +
          '  field    order/transaction \\(event 1\\) data\\.total: 100 → 10000\\n' +
          '1 page differs \\(1 changed of 4 in both runs; 4 pages in each\\)',
        'm',
      ),
    );
    const json = JSON.parse((await diff([good, cents, '--format', 'json'])).out) as DiffResult;
    expect(json.same).toBe(false);
    expect(json.pages.filter((p) => p.status !== 'same')).toEqual([
      expect.objectContaining({
        status: 'changed',
        kind: 'order',
        query: [{ name: 'ts', base: expect.any(String), current: expect.any(String) }],
        // the URL's parameter is said once, not as a change of each event's context.pageUrl
        changes: [expect.objectContaining({ path: 'data.total', base: 100, current: 10000 })],
      }),
    ]);
    // the fix as named: the page then matches, and the change alone remains
    const ignored = await diff([good, cents, '--ignore', 'query.ts']);
    expect(ignored.code).toBe(1);
    expect(ignored.out).not.toContain('query ');
    expect(ignored.out).toContain(
      '  field    order/transaction (event 1) data.total: 100 → 10000\n',
    );
    // the same pages otherwise: still a difference (exit 1), named as the parameter alone
    const again = await diff([
      good,
      file('again.ndjson', run(thanksWith('/checkout/thanks?order={ORDER}&ts={random}'))),
    ]);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/\n {2}hint {5}the pages differ only in the value of ts: /);
    expect(again.out).not.toContain('field ');
    // a WooCommerce thank-you page: the order in its path, an order key beside it
    const woo = (total: number) =>
      run(thanksWith('/checkout/order-received/{ORDER}/?key=wc_order_{random}', total));
    const wooDiff = await diff([file('w1.ndjson', woo(100)), file('w2.ndjson', woo(10000))]);
    expect(wooDiff.code).toBe(1);
    expect(wooDiff.out).toContain(
      "only in the value of key: if it changes every run, ignore query.key (--ignore query.key, or ignore: ['query.key'])\n",
    );
    expect(wooDiff.out).toContain('data.total: 100 → 10000\n');
    // another path, or another set of parameters, is another page
    const other = await diff([
      good,
      file('other.ndjson', run(thanksWith('/checkout/done?order={ORDER}&ts={random}'))),
    ]);
    expect(other.out).toMatch(/^removed {2}order .*\nadded {4}order /m);
    expect(other.out).not.toContain('hint');
  });

  it('pairs pages that differ in a parameter every page of the session has (a thank-you page alone, a cache buster on each page)', async () => {
    const hint = (name: string) =>
      `  hint     the pages differ only in the value of ${name}: if it changes every run, ignore query.${name} (--ignore query.${name}, or ignore: ['query.${name}'])\n`;
    // the thank-you page alone, as two HARs of it would hold it
    const thanks = (total: number): Journey => {
      const page = journey()[0]![2]!;
      page.path = '/thanks?order={ORDER}&v=&ts={random}';
      (page.events[0]!.data as { total: number }).total = total;
      return [[page]];
    };
    const one = await diff([
      file('t1.ndjson', run(thanks(100))),
      file('t2.ndjson', run(thanks(90))),
    ]);
    expect(one).toMatchObject({ code: 1, err: '' });
    expect(one.out).toMatch(
      /^changed {2}order \/thanks\?order=\{orderId\}&ts=[0-9a-f-]{36}&v=\n {2}query {4}ts: /,
    );
    expect(one.out).toContain(hint('ts'));
    expect(one.out).toContain('  field    order/transaction (event 1) data.total: 100 → 90\n');
    expect(one.out).not.toMatch(/^(added|removed) /m);
    // a two-page journey whose every page carries a value new each run (v=aa against v=bb)
    const tagged = (v: string): Journey => {
      const [search, product] = journey()[0]!;
      search!.path += `&v=${v}`;
      product!.path += `?v=${v}`;
      return [[search!, product!]];
    };
    const two = await diff([
      file('a.ndjson', run(tagged('aa'))),
      file('b.ndjson', run(tagged('bb'))),
    ]);
    expect(two).toMatchObject({ code: 1, err: '' });
    expect(two.out.match(/^changed {2}/gm)).toHaveLength(2);
    expect(two.out.match(/ {2}query {4}v: aa → bb\n/g)).toHaveLength(2);
    expect(two.out).toContain(hint('v'));
    expect(two.out).not.toMatch(/^(added|removed) /m);
    expect(two.out).toMatch(/2 pages differ \(2 changed of 2 in both runs; 2 pages in each\)/);
  });

  it('pages are printed as compared, in BASE and CURRENT alike: path and query, the page’s ids by their name', async () => {
    const recording = await readUpload(run(journey()));
    if (typeof recording === 'string') throw new Error(recording);
    const baseline = file('journey.json', baselineText(recording));
    const withOrder = file(
      'order.ndjson',
      run(thanksWith('/checkout/done?order={ORDER}'), { origin: 'https://shop.example' }),
    );
    const r = await diff([baseline, withOrder]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('removed  order /checkout/thanks: only in BASE (order/transaction)\n');
    expect(r.out).toContain(
      'added    order /checkout/done?order={orderId}: only in CURRENT (order/transaction)\n',
    );
    const json = JSON.parse(
      (await diff([baseline, withOrder, '--format', 'json'])).out,
    ) as DiffResult;
    expect(json.pages.find((p) => p.status === 'added')).toMatchObject({
      page: '/checkout/done?order={orderId}',
      pageUrl: expect.stringMatching(
        /^https:\/\/shop\.example\/checkout\/done\?order=[0-9a-f-]{36}$/,
      ),
    });
  });

  it('the last line counts the pages of each run: those in both, and those only in one', async () => {
    const moved = journey();
    moved[0]![1]!.path = '/products/102';
    const r = await diff([base(), file('moved.ndjson', run(moved))]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /\n2 pages differ \(0 changed of 3 in both runs, 1 only in BASE, 1 only in CURRENT; 4 pages in each\): .*moved\.ndjson against .*base\.ndjson\n$/,
    );
    const fewer = journey();
    fewer[0]!.splice(1, 1);
    expect((await diff([base(), file('fewer.ndjson', run(fewer))])).out).toMatch(
      /\n1 page differs \(0 changed of 3 in both runs, 1 only in BASE; 4 pages in BASE, 3 in CURRENT\): /,
    );
  });
});
