// `search-sandbox diff` where a run's values are new by nature or by timing, and what still differs: a URL
// parameter a release appended (or dropped) pairs its page with BASE's, named with the fix; impressions of a
// response are the items it impressed, however the client's queue split them into requests; an orderId is
// compared by its form, so a release that sends it in another form is a change, said as such and not hinted
// away. Through the command's function, as diff-cli.test.ts calls it, and through baseline files.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runDiff } from '../../src/main/baseline/cli';
import { baselineText } from '../../src/main/baseline/baseline-file';
import { readUpload } from '../../src/main/baseline/upload';
import type { DiffResult } from '../../src/shared/baseline';
import { captured, tempFile } from '../helpers/check';
import { journey, run, type Journey, type JourneyEvent } from '../helpers/journey';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const diff = (args: string[]) => captured(runDiff, args);
const file = (name: string, text: string) => tempFile(cleanups, name, text);
const tile = (uid: string) => ({ type: 'product', uid, parentId: uid, sku: `sku-${uid}` });
const UUID = '[0-9a-f-]{36}';

/** The pages that differ, and the exit code, of the JSON comparison. */
async function differing(base: string, current: string, ...flags: string[]) {
  const r = await diff([base, current, '--format', 'json', ...flags]);
  const pages = (JSON.parse(r.out) as DiffResult).pages.filter((p) => p.status !== 'same');
  return { code: r.code, pages };
}

/** A recording's baseline file, as expectMatchesBaseline writes it. */
async function baselineOf(ndjson: string): Promise<string> {
  const recording = await readUpload(ndjson);
  if (typeof recording === 'string') throw new Error(recording);
  return file('baseline.json', baselineText(recording));
}

describe('a URL parameter a release added or dropped', () => {
  const thanks = (path: string, total = 100): Journey => {
    const j = journey();
    j[0]![2]!.path = path;
    (j[0]![2]!.events[0]!.data as { total: number }).total = total;
    return j;
  };
  const hint = (side: string) =>
    `  hint     the pages differ only in ts, which only ${side}'s URL has: if it changes every run, ignore query.ts (--ignore query.ts, or ignore: ['query.ts'])\n`;

  it('pairs the page with BASE’s: the parameter named with its absence and the fix, the page’s own changes shown', async () => {
    const good = file('good.ndjson', run(thanks('/thank-you?order={ORDER}')));
    const busted = file('busted.ndjson', run(thanks('/thank-you?order={ORDER}&ts={random}', 90)));
    const r = await diff([good, busted]);
    expect(r).toMatchObject({ code: 1, err: '' });
    expect(r.out).toMatch(
      new RegExp(
        `^changed  order /thank-you\\?order=\\{orderId\\}&ts=${UUID}\\n` +
          `  query    ts: \\(absent\\) → ${UUID}\\n` +
          `${hint('CURRENT').replace(/[.?()[\]]/g, '\\$&')}` +
          '  field    order/transaction \\(event 1\\) data\\.total: 100 → 90\\n' +
          '1 page differs \\(1 changed of 4 in both runs; 4 pages in each\\)',
        'm',
      ),
    );
    expect(r.out).not.toMatch(/^(added|removed) /m);
    const { pages } = await differing(good, busted);
    expect(pages).toEqual([
      expect.objectContaining({
        status: 'changed',
        query: [{ name: 'ts', current: expect.stringMatching(new RegExp(`^${UUID}$`)) }],
        changes: [expect.objectContaining({ path: 'data.total', base: 100, current: 90 })],
      }),
    ]);
    // the fix as named: the page matches, its own change remains
    const fixed = await diff([good, busted, '--ignore', 'query.ts']);
    expect(fixed.code).toBe(1);
    expect(fixed.out).toBe(
      'changed  order /thank-you?order={orderId}\n' +
        '  field    order/transaction (event 1) data.total: 100 → 90\n' +
        `1 page differs (1 changed of 4 in both runs; 4 pages in each): ${busted} against ${good}\n`,
    );
    // a dropped one, the other way round
    const dropped = await diff([busted, good]);
    expect(dropped.out).toMatch(new RegExp(`\\n  query    ts: ${UUID} → \\(absent\\)\\n`));
    expect(dropped.out).toContain(hint('BASE'));
  });

  it('pairs it with a baseline file written before the parameter came, and the fix makes them match', async () => {
    const baseline = await baselineOf(run(thanks('/thank-you?order={ORDER}')));
    const busted = file('busted.ndjson', run(thanks('/thank-you?order={ORDER}&ts={random}')));
    const r = await diff([baseline, busted]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(hint('CURRENT'));
    expect(await diff([baseline, busted, '--ignore', 'query.ts'])).toMatchObject({
      code: 0,
      err: '',
    });
  });

  it('pairs every page of a session when a release appends it to each', async () => {
    const tagged = (suffix: string): Journey => {
      const [search, product, order] = journey()[0]!;
      search!.path += `&v=${suffix}`;
      product!.path += `?v=${suffix}`;
      order!.path += `?v=${suffix}`;
      return [[search!, product!, order!]];
    };
    const plain = file('plain.ndjson', run([journey()[0]!]));
    const r = await diff([plain, file('tagged.ndjson', run(tagged('{random}')))]);
    expect(r.code).toBe(1);
    expect(r.out.match(/^changed {2}/gm)).toHaveLength(3);
    expect(r.out.match(/^ {2}query {4}v: \(absent\) → /gm)).toHaveLength(3);
    expect(r.out).not.toMatch(/^(added|removed) /m);
  });

  it('is another page when another parameter’s value differs too, or its path does', async () => {
    const good = file('good.ndjson', run(thanks('/thank-you?order={ORDER}&utm=mail')));
    for (const path of [
      '/thank-you?order={ORDER}&utm=push&ts={random}',
      '/thanks?order={ORDER}&utm=mail&ts={random}',
    ]) {
      const r = await diff([good, file('other.ndjson', run(thanks(path)))]);
      expect(r.out, path).toMatch(/^removed {2}order .*\nadded {4}order /m);
      expect(r.out, path).not.toContain('hint');
    }
  });
});

describe('impressions of a response, however the requests split them', () => {
  /** The journey with the search page's impression sent as these requests (uids each), then the click. */
  const impressing = (...requests: string[][]): Journey => {
    const j = journey();
    const [render, , click] = j[0]![0]!.events;
    const impressions = requests.map((uids): JourneyEvent => ({
      category: 'search',
      event: 'impression',
      data: { responseId: 'R1', results: uids.map(tile), banners: [] },
    }));
    j[0]![0]!.events = [render!, ...impressions, click!];
    return j;
  };
  const oneRequest = () => file('one.ndjson', run(impressing(['101', '102', '103'])));

  it('are the same tracking when the same items came in one request or in two', async () => {
    const good = oneRequest();
    for (const split of [
      [['101', '102'], ['103']],
      [['103'], ['101'], ['102']],
    ]) {
      const r = await diff([good, file('split.ndjson', run(impressing(...split)))]);
      expect(r, JSON.stringify(split)).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^same tracking: 4 pages/);
    }
  });

  it('still differ for an item impressed in one run only, or impressed twice, each uid named', async () => {
    const good = oneRequest();
    const current = file('twice.ndjson', run(impressing(['101', '102'], ['102'])));
    const r = await diff([good, current]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'changed  search /search?q=shoes\n' +
        '  field    search/impression (event 2) data.results (uids impressed, 3 → 3): 102 impressed twice now, once in BASE; 103 impressed in BASE, not now\n',
    );
    const { pages } = await differing(good, current);
    expect(pages[0]!.changes).toEqual([
      expect.objectContaining({ change: 'field', path: 'data.results', baseIndex: 1 }),
    ]);
    const fewer = await diff([good, file('fewer.ndjson', run(impressing(['101'], ['103'])))]);
    expect(fewer.out).toContain(
      'data.results (uids impressed, 3 → 2): 102 impressed in BASE, not now\n',
    );
  });

  it('are merged per response and tag: two widgets that swapped their items differ', async () => {
    const widgets = (similar: string, bought: string): Journey => {
      const j = journey();
      const product = j[0]![1]!;
      const widget = (tag: string, responseId: string, uid: string): JourneyEvent[] => [
        { category: 'recommendations', event: 'render', data: { responseId, tag } },
        {
          category: 'recommendations',
          event: 'impression',
          data: { responseId, tag, results: [tile(uid)], banners: [] },
        },
      ];
      product.events = [
        product.events[0]!,
        ...widget('similar', 'R2', similar),
        ...widget('bought', 'R3', bought),
      ];
      return j;
    };
    const good = file('good.ndjson', run(widgets('104', '105')));
    expect(await diff([good, file('again.ndjson', run(widgets('104', '105')))])).toMatchObject({
      code: 0,
    });
    const { code, pages } = await differing(good, file('swap.ndjson', run(widgets('105', '104'))));
    expect(code).toBe(1);
    expect(pages[0]!.changes.map((c) => [c.event, c.path])).toEqual([
      ['recommendations/impression', 'data.results'],
      ['recommendations/impression', 'data.results'],
    ]);
  });

  it('a baseline file holds one impression per response, and one written as the requests came still matches', async () => {
    const split = run(impressing(['101', '102'], ['103']));
    const baseline = await baselineOf(split);
    const text = readFileSync(baseline, 'utf8');
    expect(text.match(/"event":"search\/impression"/g)).toHaveLength(1);
    expect(await diff([baseline, oneRequest()])).toMatchObject({ code: 0, err: '' });
    // the file as an earlier version wrote it: an impression a line, as the requests carried them
    const line = text.split('\n').find((l) => l.includes('"event":"search/impression"'))!;
    const written = JSON.parse(line.trim().replace(/,$/, '')) as {
      data: { results: Array<{ uid: string }> };
    };
    const part = (uids: string[]) =>
      JSON.stringify({
        ...written,
        data: {
          ...written.data,
          results: written.data.results.filter((r) => uids.includes(r.uid)),
        },
      });
    const older = text.replace(line.trim(), `${part(['103'])},\n${part(['102', '101'])},`);
    expect(await diff([file('older.json', older), oneRequest()])).toMatchObject({
      code: 0,
      err: '',
    });
  });
});

describe('an orderId of another form', () => {
  /** The journey's order as number `n` (`prefix`ed in the body), its thank-you URL naming it as `where` says. */
  const order = (n: number, orderId = String(n), where: 'query' | 'none' = 'query') =>
    file(
      `order-${n}.ndjson`,
      run(journey())
        .trim()
        .split('\n')
        .map((line) => {
          const e = JSON.parse(line) as {
            category: string;
            body: { context: { pageUrl: string }; data: { orderId?: string } };
          };
          if (e.category !== 'order') return line;
          e.body.data.orderId = orderId;
          e.body.context.pageUrl = `https://shop.example/${where === 'query' ? `thank-you?order=${n}` : 'thank-you'}`;
          return JSON.stringify(e);
        })
        .join('\n'),
    );

  it('is a change of data.orderId’s form, and a URL that no longer names the orderId is no hint to ignore it', async () => {
    const good = order(500359);
    expect(await diff([good, order(720479)])).toMatchObject({ code: 0, err: '' });
    const prefixed = order(847661, 'WEB-847661');
    const r = await diff([good, prefixed]);
    expect(r).toMatchObject({ code: 1, err: '' });
    expect(r.out).toBe(
      'changed  order /thank-you?order=847661\n' +
        '  query    order: {orderId} → 847661\n' +
        "  hint     order was the page's orderId in BASE and is 847661 now, no id of the page: the orderId the page sends took another form (data.orderId below). The page's ids are compared by name, so this is no value new every run: ignoring query.order would hide it (update the baseline if it is meant)\n" +
        '  field    order/transaction (event 1) data.orderId: "{digits}" → "WEB-{digits}"\n' +
        `1 page differs (1 changed of 4 in both runs; 4 pages in each): ${prefixed} against ${good}\n`,
    );
    expect(r.out).not.toContain('--ignore query.order');
  });

  it('is told where the URL does not name the order, and through a baseline file', async () => {
    const baseline = await baselineOf(readFileSync(order(500359, '500359', 'none'), 'utf8'));
    expect(readFileSync(baseline, 'utf8')).toContain('"orderId":"{digits}"');
    expect(await diff([baseline, order(720479, '720479', 'none')])).toMatchObject({ code: 0 });
    const keyed = await diff([baseline, order(1, '9f3ac2e1', 'none')]);
    expect(keyed.code).toBe(1);
    expect(keyed.out).toContain(
      '  field    order/transaction (event 1) data.orderId: "{digits}" → "{key}"\n',
    );
    // UUIDs, new every run, are one form
    const uuid = () => order(2, crypto.randomUUID(), 'none');
    expect(await diff([uuid(), uuid()])).toMatchObject({ code: 0 });
  });

  it('is left out against a baseline file written before orderIds were compared, as that version did', async () => {
    const baseline = await baselineOf(readFileSync(order(500359, '500359', 'none'), 'utf8'));
    const before = file(
      'before.json',
      readFileSync(baseline, 'utf8').replace(/"orderId":"[^"]*",/g, ''),
    );
    expect(await diff([before, order(847661, 'WEB-847661', 'none')])).toMatchObject({
      code: 0,
      err: '',
    });
  });
});
