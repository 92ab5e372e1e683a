// Prices as feeds write them, through the real interface: a file uploaded to the bulk indexing API,
// indexed on the sandbox clock, then read back from the catalog, the search API and the tracking rules.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';
import type { FeedView } from '../../src/shared/indexing';
import { postBeacon, testConfig } from '../helpers/sandbox';
import { admin, runToEnd, startFrozen, upload } from './indexing-helpers';

let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

/** A sandbox whose feed 42 indexed `text` (uploaded as `name`). */
async function indexed(text: string, name = 'feed.csv', query = 'feedId=42'): Promise<FeedView> {
  // the tracking rules check ids and prices against the catalog (as the demo account does)
  const accounts = testConfig().accounts.map((a) => ({
    ...a,
    search: { ...a.search!, catalogCheck: true },
  }));
  sb = await startFrozen({ accounts });
  expect((await upload(sb.url, query, text, name)).status).toBe(200);
  const view = await runToEnd(sb, 42);
  expect(view.state).toBe('done');
  return view;
}

async function prices(): Promise<Record<string, number | null>> {
  const { body } = await admin<{ products: Array<{ uid: string; price: number | null }> }>(
    sb!.url,
    'GET',
    '/feeds/demo42/42/catalog?limit=50',
  );
  return Object.fromEntries(body.products.map((p) => [p.uid, p.price]));
}

describe('feed prices', () => {
  it('reads a semicolon CSV’s decimal commas as the prices they are, in the catalog, the search and the rules', async () => {
    const view = await indexed('sku;name;price\r\nS1;Semi one;1,50\r\nS2;"Semi; two";2\r\n');
    expect(await prices()).toEqual({ S1: 1.5, S2: 2 });
    // nothing was guessed: no warning
    expect(view.lastRun).not.toHaveProperty('rowWarnings');

    const found = (await (
      await fetch(`${sb!.url}/api/search/search.json?siteId=demo42&q=semi`)
    ).json()) as { results: Array<{ uid: string; price: string }> };
    expect(found.results.find((r) => r.uid === 'S1')?.price).toBe('1.5');

    // a cart add at the real price is not taken for a price in other units
    const line = { parentId: 'S1', uid: 'S1', sku: 'S1', qty: 1, price: 1.5 };
    const res = await postBeacon(sb!.url, 'demo42/cart/add', {
      context: {
        timestamp: new Date(sb!.core.clock.now()).toISOString(),
        pageUrl: 'http://localhost:5173/cart',
        userId: 'user-semi',
        sessionId: 'session-semi',
        pageLoadId: 'semi-cart',
        initiator: 'search-sandbox/api-test',
        dev: true,
      },
      data: { results: [line], cart: [line] },
    });
    expect(res.status).toBe(200);
    const { pages } = (await (
      await fetch(`${sb!.url}/_sandbox/timelines?siteId=demo42`)
    ).json()) as { pages: PageTimelineDto[] };
    const page = pages.find((p) => p.pageLoadId === 'semi-cart')!;
    expect(page.findings.filter((f) => f.rule === 'price-unit-mismatch')).toEqual([]);
  });

  it('reads the last of "," and "." as the decimal mark, and a comma before 1–2 digits as one', async () => {
    await indexed(
      [
        'id;name;price',
        'A;a;1.234,56 €',
        'B;b;EUR 12,5',
        'C;c;$1,299.00',
        'D;d;1.234.567',
        'E;e;12,-',
        'F;f;0,125',
      ].join('\n'),
    );
    expect(await prices()).toEqual({ A: 1234.56, B: 12.5, C: 1299, D: 1234567, E: 12, F: 0.125 });
  });

  it('reads "1,500" as the feed’s other prices write theirs, and warns naming the line and the fix', async () => {
    const view = await indexed('id,name,price\nA,a,12.99\nB,b,"1,500"\nC,c,7.5\n');
    expect(await prices()).toEqual({ A: 12.99, B: 1500, C: 7.5 });
    expect(view.lastRun).toMatchObject({
      rowWarningCount: 1,
      rowWarnings: [
        {
          line: 3,
          message:
            'price "1,500" could be 1.5 or 1500: read as 1500, its "," taken as a thousands separator like most of the feed\'s prices that tell (line 2: "12.99"); write 1.5 or 1500 (a "." decimal point, no thousands separator) to say which',
        },
      ],
    });
    const history = view.history.at(-1)!;
    expect(history.detail).toBe('indexed 3 products, 1 row with warnings');
  });

  it('reads "1,500" in a semicolon CSV with no price that tells as a decimal comma, and says so', async () => {
    const view = await indexed(
      'id;name;price\nA;a;1,500\nB;b;20\n',
      'feed.csv',
      'feedId=42&requestedBy=dev%40shop.example',
    );
    expect(await prices()).toEqual({ A: 1.5, B: 20 });
    expect(view.lastRun!.rowWarnings).toEqual([
      {
        line: 2,
        message:
          'price "1,500" could be 1.5 or 1500: read as 1.5, its "," taken as the decimal mark as usual in a ;-delimited file (no other price in the feed tells); write 1.5 or 1500 (a "." decimal point, no thousands separator) to say which',
      },
    ]);
    // the requester's e-mail carries the warning too
    const outbox = await admin<{ messages: Array<{ text: string }> }>(sb!.url, 'GET', '/outbox');
    expect(outbox.body.messages[0]!.text).toContain(
      'Row warnings: 1\n  line 2: price "1,500" could be 1.5 or 1500: read as 1.5,',
    );
  });

  it('reads "1.500" in a decimal-comma feed as fifteen hundred', async () => {
    const view = await indexed('id\tprice\nA\t2,50\nB\t1.500\nC\t3,99\n', 'feed.tsv');
    expect(await prices()).toEqual({ A: 2.5, B: 1500, C: 3.99 });
    expect(view.lastRun!.rowWarnings![0]!.message).toContain(
      'read as 1500, its "." taken as a thousands separator like most of the feed\'s prices that tell (line 2: "2,50")',
    );
  });

  it('keeps JSON numbers as they are, and reads an ndJSON string price by the same rules', async () => {
    await indexed(
      ['{"id":"A","price":1.525}', '{"id":"B","price":"1,50"}', '{"id":"C","price":"1,500"}'].join(
        '\n',
      ),
      'feed.ndjson',
    );
    expect(await prices()).toEqual({ A: 1.525, B: 1.5, C: 1500 });
  });
});
