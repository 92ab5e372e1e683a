// Broken feeds never cost data: a product nested too deep is a row error with its reason (it could not
// be stored), and a catalog that cannot be written ends the feed in error, its old catalog kept.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { tempDir, testConfig } from '../helpers/sandbox';
import { zipOf } from '../helpers/zip';
import { admin, put, runToEnd, startFrozen, upload } from './indexing-helpers';

const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

async function sandbox(dataDir: string | null = null): Promise<Sandbox> {
  const s = await startFrozen({ dataDir });
  stops.push(() => s.close());
  return s;
}

const product = (uid: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ uid, name: `Product ${uid}`, price: 10, ...extra });

describe('feeds that cannot be stored', () => {
  it('refuses a product nested deeper than 32 levels as a row error, and indexes the rest', async () => {
    const s = await sandbox();
    const deep = `{"uid":"2","name":"Deep","tree":${'['.repeat(5000)}"x"${']'.repeat(5000)}}`;
    const file = [product('1'), deep, product('3')].join('\n');
    expect((await upload(s.url, 'feedId=42', file, 'products.ndjson')).status).toBe(200);
    const feed = await runToEnd(s, 42);
    expect(feed.state).toBe('done');
    expect(feed.lastRun).toMatchObject({ products: 2, rowErrorCount: 1 });
    expect(JSON.stringify(feed.lastRun)).toContain(
      "nested deeper than 32 levels: a product's fields hold values",
    );
    const { status, body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog');
    expect(status).toBe(200);
    expect(body.products.map((p: { uid: string }) => p.uid)).toEqual(['1', '3']);
  });

  it('a catalog that cannot be written ends the feed in error with the reason, the old catalog kept', async () => {
    const { dir, cleanup } = tempDir();
    stops.push(cleanup);
    const data = path.join(dir, 'data');
    const s = await sandbox(data);
    // first a catalog that is written
    expect((await upload(s.url, 'feedId=42', product('old'), 'a.ndjson')).status).toBe(200);
    const first = await runToEnd(s, 42);
    expect(first.state).toBe('done');
    // the catalog is written after the feed is done: wait for the file
    const written = path.join(data, 'catalogs', 'demo42-42.ndjson');
    for (let i = 0; i < 200 && !existsSync(written); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(written)).toBe(true);
    // then the disk fills up: the catalog's temp file lands on /dev/full
    mkdirSync(path.join(data, 'catalogs'), { recursive: true });
    symlinkSync('/dev/full', path.join(data, 'catalogs', '.demo42-42.ndjson.tmp'));
    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    expect((await upload(s.url, 'feedId=42', product('new'), 'b.ndjson')).status).toBe(200);
    await runToEnd(s, 42);
    let feed = s.core.indexing.feed('demo42', 42)!;
    for (let i = 0; i < 100 && feed.state !== 'error'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      feed = s.core.indexing.feed('demo42', 42)!;
    }
    expect(feed.state).toBe('error');
    expect(feed.lastRun?.error).toMatch(
      /^the catalog could not be saved \(.*ENOSPC.*\): the index did not complete/,
    );
    expect(feed.lastIndexed).toBe(first.lastIndexed);
    expect(feed.history.at(-1)).toMatchObject({ kind: 'transition', from: 'done', to: 'error' });
    const { body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog');
    expect(body.products.map((p: { uid: string }) => p.uid)).toEqual(['old']);
  });
});

describe('a request while the feed is running', () => {
  it('pauses it, and resuming indexes the new file and tells its requester: an accepted request is never lost', async () => {
    const s = await sandbox();
    expect((await upload(s.url, 'feedId=42', product('from-a'), 'a.ndjson')).status).toBe(200);
    expect((await runToEnd(s, 42)).state).toBe('done');
    // the scheduled run of the next morning (file a) is running when the client uploads file b
    await admin(s.url, 'POST', '/clock', { set: '2026-11-22T04:00:40Z' });
    expect(s.core.indexing.feed('demo42', 42)!.state).toBe('running');

    const b = await upload(
      s.url,
      'feedId=42&requestedBy=b%40shop.example',
      [product('from-b1'), product('from-b2')].join('\n'),
      'b.ndjson',
    );
    expect(b.status).toBe(200);
    const paused = s.core.indexing.feed('demo42', 42)!;
    expect(paused.state).toBe('paused');
    expect(paused.pausedReason).toMatch(/the index starts again with the file it uploaded/);

    const resumed = await admin(s.url, 'POST', '/feeds/demo42/42/transition', { to: 'running' });
    expect(resumed.status).toBe(200);
    const done = await runToEnd(s, 42);
    expect(done.state).toBe('done');
    const { body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog');
    expect(body.products.map((p: { uid: string }) => p.uid)).toEqual(['from-b1', 'from-b2']);
    const outbox = await admin(s.url, 'GET', '/outbox?feedId=42');
    expect(outbox.body.messages.map((m: { to: string }) => m.to)).toEqual(['b@shop.example']);
  });
});

describe('a request that supersedes a running one', () => {
  it('tells the first requester how the index that replaced theirs ended, and the history says so', async () => {
    const s = await sandbox();
    expect((await admin(s.url, 'PATCH', '/feeds/demo42/42', { autopilot: false })).status).toBe(
      200,
    );
    const big = await upload(
      s.url,
      'feedId=42&requestedBy=big%40shop.example',
      product('big'),
      'big.ndjson',
    );
    expect(big.status).toBe(200);
    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    expect(
      (await admin(s.url, 'POST', '/feeds/demo42/42/transition', { to: 'running' })).status,
    ).toBe(200);
    const second = await upload(
      s.url,
      'feedId=42&requestedBy=second%40shop.example',
      product('second'),
      'products.ndjson',
    );
    expect(second.status).toBe(200);
    const paused = s.core.indexing.feed('demo42', 42)!;
    expect(paused.history.at(-1)?.detail).toMatch(
      /^the index requested by big@shop\.example at \S+ \(upload big\.ndjson\) is superseded by the request from second@shop\.example at \S+: resuming indexes upload products\.ndjson; big@shop\.example is e-mailed the outcome of the index that replaces it$/,
    );
    expect(
      (await admin(s.url, 'POST', '/feeds/demo42/42/transition', { to: 'running' })).status,
    ).toBe(200);
    expect((await admin(s.url, 'POST', '/feeds/demo42/42/transition', { to: 'done' })).status).toBe(
      200,
    );

    const told = await admin(s.url, 'GET', '/outbox?to=big%40shop.example');
    expect(told.body.messages).toHaveLength(1);
    const [mail] = told.body.messages;
    expect(mail).toMatchObject({
      outcome: 'done',
      subject:
        'Index request for feed 42 (Custom CSV feed) superseded; the index that ran instead is done: 1 product',
    });
    expect(mail.text).toContain('(upload big.ndjson) was superseded at');
    expect(mail.text).toContain('by a request from second@shop.example');
    expect(mail.text).toContain('The index that ran instead indexed upload products.ndjson');
    const second2 = await admin(s.url, 'GET', '/outbox?to=second%40shop.example');
    expect(second2.body.messages.map((m: { subject: string }) => m.subject)).toEqual([
      'Index of feed 42 (Custom CSV feed) done: 1 product',
    ]);
  });
});

describe('a chain of superseded requests', () => {
  it('tells each superseded requester the outcome of the index that ran, and the history names the chain', async () => {
    const s = await sandbox();
    expect((await admin(s.url, 'PATCH', '/feeds/demo42/42', { autopilot: false })).status).toBe(
      200,
    );
    const to = async (state: string) =>
      expect(
        (await admin(s.url, 'POST', '/feeds/demo42/42/transition', { to: state })).status,
      ).toBe(200);
    const send = async (who: string, uid: string) =>
      expect(
        (
          await upload(
            s.url,
            `feedId=42&requestedBy=${encodeURIComponent(who)}`,
            product(uid),
            `${uid}.ndjson`,
          )
        ).status,
      ).toBe(200);
    // A runs; B supersedes it; B's index runs; C supersedes that: C's index is the one that runs
    await send('a@shop.example', 'a');
    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    await to('running');
    await send('b@shop.example', 'b');
    await to('running');
    // past the hour in which b's re-index was accepted (a 429 otherwise)
    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    await send('c@shop.example', 'c');
    const paused = s.core.indexing.feed('demo42', 42)!;
    expect(paused.state).toBe('paused');
    expect(paused.history.at(-1)?.detail).toMatch(
      /^the index requested by b@shop\.example at \S+ \(upload b\.ndjson\) is superseded by the request from c@shop\.example at \S+: resuming indexes upload c\.ndjson\. The chain: a@shop\.example \(upload a\.ndjson, \S+\) → b@shop\.example \(upload b\.ndjson, \S+\) → c@shop\.example \(upload c\.ndjson, \S+\), the index that runs; a@shop\.example, b@shop\.example are e-mailed its outcome$/,
    );
    await to('running');
    await to('done');

    const mailTo = async (who: string) => {
      const { body } = await admin(s.url, 'GET', `/outbox?to=${encodeURIComponent(who)}`);
      expect(body.messages, who).toHaveLength(1);
      return body.messages[0] as { subject: string; text: string; outcome: string };
    };
    const superseded =
      'Index request for feed 42 (Custom CSV feed) superseded; the index that ran instead is done: 1 product';
    const a = await mailTo('a@shop.example');
    expect(a).toMatchObject({ outcome: 'done', subject: superseded });
    // not "superseded by b": b's request was superseded in turn, and c's index is the one that ran
    expect(a.text).toMatch(
      /^Your request of \S+ \(upload a\.ndjson\) was superseded at \S+ by a request from b@shop\.example, which was itself superseded at \S+ by a request from c@shop\.example: /,
    );
    expect(a.text).toContain(
      'The index that ran instead, the request from c@shop.example, indexed upload c.ndjson; its outcome follows.',
    );
    const b = await mailTo('b@shop.example');
    expect(b).toMatchObject({ outcome: 'done', subject: superseded });
    expect(b.text).toMatch(
      /^Your request of \S+ \(upload b\.ndjson\) was superseded at \S+ by a request from c@shop\.example: /,
    );
    expect(b.text).toContain('The index that ran instead indexed upload c.ndjson');
    expect((await mailTo('c@shop.example')).subject).toBe(
      'Index of feed 42 (Custom CSV feed) done: 1 product',
    );
    const { body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog');
    expect(body.products.map((p: { uid: string }) => p.uid)).toEqual(['c']);
  });
});

describe('feeds in other encodings', () => {
  const latin = (text: string) => Buffer.from(text, 'latin1');

  it('reads a Windows-1252 / ISO-8859-1 CSV as such, and says so in the feed history', async () => {
    const s = await sandbox();
    // "Crème brûlée" and "Øl – 0,5 l" in Windows-1252 bytes (0x96 is the en dash)
    const csv = Buffer.concat([
      latin('uid,name,price\n1,Cr\u00e8me br\u00fbl\u00e9e,5\n2,\u00d8l '),
      Buffer.from([0x96]),
      latin(' 0.5 l,3\n'),
    ]);
    expect((await upload(s.url, 'feedId=42', csv, 'products.csv')).status).toBe(200);
    const feed = await runToEnd(s, 42);
    expect(feed.state).toBe('done');
    expect(feed.lastRun).toMatchObject({ charset: 'windows-1252' });
    expect(feed.lastRun?.charsetNote).toBe(
      'decoded as windows-1252: not valid UTF-8 at byte offset 19',
    );
    expect(feed.history.at(-1)?.detail).toContain(
      'decoded as windows-1252: not valid UTF-8 at byte offset 19',
    );
    const { body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog');
    expect(body.products.map((p: { name: string }) => p.name)).toEqual([
      'Crème brûlée',
      'Øl – 0.5 l',
    ]);
  });

  it('follows an XML declaration and a UTF-16 byte order mark; UTF-8 stays as it is', async () => {
    const s = await sandbox();
    const xml = Buffer.concat([
      latin(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<products><product><uid>1</uid><name>Gr\u00fcn</name></product></products>\n',
      ),
    ]);
    expect((await upload(s.url, 'feedId=42', xml, 'products.xml')).status).toBe(200);
    let feed = await runToEnd(s, 42);
    expect(feed.lastRun?.charsetNote).toMatch(
      /^decoded as windows-1252 \(the XML declaration says encoding="ISO-8859-1"\)$/,
    );
    let { body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog');
    expect(body.products[0].name).toBe('Grün');

    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('uid,name\n7,Smörgåsbord\n', 'utf16le'),
    ]);
    expect((await upload(s.url, 'feedId=42', utf16, 'u16.csv')).status).toBe(200);
    feed = await runToEnd(s, 42);
    expect(feed.lastRun?.charset).toBe('utf-16le');
    ({ body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog'));
    expect(body.products[0].name).toBe('Smörgåsbord');

    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    expect((await upload(s.url, 'feedId=42', 'uid,name\n8,Smörgåsbord\n', 'u8.csv')).status).toBe(
      200,
    );
    feed = await runToEnd(s, 42);
    expect(feed.lastRun?.charset).toBeUndefined();
    ({ body } = await admin(s.url, 'GET', '/feeds/demo42/42/catalog'));
    expect(body.products[0].name).toBe('Smörgåsbord');
  });

  it('refuses UTF-16 without a byte order mark as such, with the fix, and a binary file as binary', async () => {
    const s = await sandbox();
    const noBom = Buffer.from('uid,name\n7,Smörgåsbord\n', 'utf16le');
    expect((await upload(s.url, 'feedId=42', noBom, 'u16.csv')).status).toBe(200);
    let feed = await runToEnd(s, 42);
    expect(feed.state).toBe('error');
    expect(feed.lastRun?.error).toBe(
      'the feed file is UTF-16 (utf-16le) without a byte order mark, which is not guessed: save it as UTF-8, or as UTF-16 with its byte order mark',
    );

    await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
    const binary = Buffer.from([0x01, 0x00, 0x00, 0x07, 0x9c, 0x00, 0x13, 0x37, 0x00, 0x00, 0x42]);
    expect((await upload(s.url, 'feedId=42', binary, 'data.bin')).status).toBe(200);
    feed = await runToEnd(s, 42);
    expect(feed.state).toBe('error');
    expect(feed.lastRun?.error).toMatch(
      /^the feed file is binary, not text: .*; export the feed as text$/,
    );
  });

  it('refuses UTF-32, with or without its byte order mark, as UTF-32, with the fix', async () => {
    const s = await sandbox();
    const utf32 = (text: string, order: 'le' | 'be', bom: boolean) => {
      const units = [...(bom ? [0xfeff] : []), ...[...text].map((c) => c.codePointAt(0)!)];
      const out = Buffer.alloc(units.length * 4);
      units.forEach((u, i) =>
        order === 'le' ? out.writeUInt32LE(u, i * 4) : out.writeUInt32BE(u, i * 4),
      );
      return out;
    };
    const csv = 'uid,name\n7,Smörgåsbord\n';
    for (const [order, bom] of [
      ['le', true],
      ['be', true],
      ['le', false],
      ['be', false],
    ] as const) {
      await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
      const file = utf32(csv, order, bom);
      expect((await upload(s.url, 'feedId=42', file, 'u32.csv')).status).toBe(200);
      const feed = await runToEnd(s, 42);
      expect([order, bom, feed.state]).toEqual([order, bom, 'error']);
      expect(feed.lastRun?.error).toBe(
        `the feed file is UTF-32 (utf-32${order}${bom ? ', by its byte order mark' : ''}), which the sandbox does not read: save it as UTF-8`,
      );
    }
  });

  it("a zip entry whose name leaves the archive's folder is named and refused, and nothing is written outside", async () => {
    const { dir, cleanup } = tempDir();
    stops.push(cleanup);
    const data = path.join(dir, 'data');
    const s = await sandbox(data);
    const csv = 'uid,name\n1,Escaped\n';
    const outside = path.join(dir, 'PWNED.csv');
    const leaves = (why: string) =>
      `has a name that leaves the archive's folder (${why}), and such names are refused`;
    const cases: Array<[name: string, said: string]> = [
      ['../PWNED.csv', leaves('a ".." part')],
      ['../../../../../../../../tmp/PWNED.csv', leaves('a ".." part')],
      [outside, leaves('an absolute path')],
      ['C:/PWNED.csv', leaves('an absolute path')],
      // Windows separators are read as /: the name is said as read
      ['..\\..\\PWNED.csv', leaves('a ".." part')],
    ];
    for (const [name, said] of cases) {
      await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
      expect((await upload(s.url, 'feedId=42', zipOf([[name, csv]]), 'products.zip')).status).toBe(
        200,
      );
      const feed = await runToEnd(s, 42);
      expect([name, feed.state]).toEqual([name, 'error']);
      expect(feed.lastRun?.error).toBe(
        `the zip entry ${JSON.stringify(name.replaceAll('\\', '/'))} ${said}: zip the feed file alone, by its own name (e.g. products.csv)`,
      );
    }
    expect(existsSync(outside)).toBe(false);
  });

  it.runIf(existsSync('/proc/self/fd'))(
    'a zip cart source on disk that is refused is closed again, run after run',
    async () => {
      const { dir, cleanup } = tempDir();
      stops.push(cleanup);
      const csv = 'uid,name\n1,Kept\n';
      const unsafe = path.join(dir, 'unsafe.zip');
      writeFileSync(unsafe, zipOf([['../PWNED.csv', csv]]));
      // the central directory sends the entry to offset 1, where no local header starts
      const broken = zipOf([['products.csv', csv]]);
      broken.writeUInt32LE(1, broken.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 42);
      const unreachable = path.join(dir, 'unreachable.zip');
      writeFileSync(unreachable, broken);
      const demo = testConfig().accounts[0]!;
      const feeds = [unsafe, unreachable].map((file, i) => ({
        ...demo.feeds[1]!,
        id: 45 + i,
        regeneration: false,
        source: { kind: 'cart' as const, file },
      }));
      const s = await startFrozen({ accounts: [{ ...demo, feeds: [...demo.feeds, ...feeds] }] });
      stops.push(() => s.close());
      // what this process holds open, by path
      const open = () =>
        readdirSync('/proc/self/fd').flatMap((fd) => {
          try {
            return [readlinkSync(path.join('/proc/self/fd', fd))];
          } catch {
            return []; // closed since it was listed
          }
        });
      const errors = [
        /^the zip entry "\.\.\/PWNED\.csv" has a name that leaves the archive's folder/,
        /^cannot read products\.csv in the zip file \(invalid local file header signature/,
      ];
      for (let run = 0; run < 2; run++)
        for (const [i, file] of [unsafe, unreachable].entries()) {
          await admin(s.url, 'POST', '/clock', { advance: 'PT2H' });
          expect((await put(s.url, `feedId=${45 + i}`)).status).toBe(200);
          const feed = await runToEnd(s, 45 + i);
          expect(feed.state).toBe('error');
          expect(feed.lastRun?.error).toMatch(errors[i]!);
          // the zip's file is closed on the thread pool, just after the run ends
          for (let i = 0; i < 100 && open().includes(file); i++)
            await new Promise((r) => setTimeout(r, 10));
          expect(open().filter((p) => p === file)).toEqual([]);
        }
    },
  );

  it('a zip that cannot be read says it is a zip, not "raw"', async () => {
    const s = await sandbox();
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40, 7)]);
    expect((await upload(s.url, 'feedId=42', broken, 'products.zip')).status).toBe(200);
    const feed = await runToEnd(s, 42);
    expect(feed.state).toBe('error');
    expect(feed.lastRun?.encoding).toBe('zip');
  });
});

describe('a schedule stored out of range', () => {
  it('is repaired when the sandbox starts again on its data, and said in the history; the feeds read', async () => {
    const { dir, cleanup } = tempDir();
    stops.push(cleanup);
    const data = path.join(dir, 'data');
    const first = await sandbox(data);
    await first.close();
    stops.pop();
    // what an older version stored after PATCH {"interval": "99999999d"} (answered 500, yet kept)
    const file = path.join(data, 'indexing.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const rec = stored.feeds.find((f: { feedId: number }) => f.feedId === 43);
    rec.overrides.interval = 99_999_999 * 86_400_000;
    rec.nextIndexTime = rec.lastIndexed + rec.overrides.interval;
    writeFileSync(file, JSON.stringify(stored));
    const again = await sandbox(data);
    const feeds = await admin(again.url, 'GET', '/feeds');
    expect(feeds.status).toBe(200);
    const feed = await admin(again.url, 'GET', '/feeds/demo42/43');
    expect(feed.body.interval).toBe('24h');
    expect(Date.parse(feed.body.nextIndexTime)).toBe(rec.lastIndexed + 86_400_000);
    expect(feed.body.history.map((h: { detail: string }) => h.detail)).toEqual(
      expect.arrayContaining([
        'the interval set by hand (8639999913600000 ms) is outside 1 minute to 366 days and was dropped: the configured interval applies',
      ]),
    );
  });
});
