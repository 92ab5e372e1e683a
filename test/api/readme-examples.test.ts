// The README's examples, executed: the first curl a newcomer copies is accepted and lands on a timeline,
// the Beacon snippet routes every host to the sandbox, and the worked credit example answers as printed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderDto } from '../../src/shared/visits';
import type { PageTimelineDto } from '../../src/shared/timeline';
import { Beacon } from '@athoscommerce/beacon';
import { beaconJsSnippet } from '../../src/shared/snippets';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { runCli, spawnCli } from './cli-process';
import { startSandbox as startPackageSandbox } from '../../src/main/api/index';
import { journey, run as journeyRun, type Journey } from '../helpers/journey';
import type { ReadinessDto } from '../../src/shared/readiness';
import { writeFileSync } from 'node:fs';

const run = promisify(execFile);
const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The fenced blocks of a language, in order. */
function blocks(lang: string): string[] {
  return [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1]!,
  );
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

async function sandbox() {
  const s = await startSandbox();
  stops.push(() => s.close());
  return s;
}

describe('README examples', () => {
  it('the first curl is accepted and its page shows on the timelines without a finding above info', async () => {
    const s = await sandbox();
    const curl = blocks('sh').find((b) => b.startsWith('curl -X POST'))!;
    expect(curl).toBeDefined();
    const { stdout } = await run('bash', ['-c', curl.replaceAll('http://127.0.0.1:4545', s.url)]);
    expect(JSON.parse(stdout)).toEqual({ success: true });
    const page = (await (await fetch(`${s.url}/_sandbox/timelines/p1`)).json()) as PageTimelineDto;
    expect(page.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('the Beacon snippets (README and Connect view) send every request the client makes to the sandbox', async () => {
    const s = await sandbox();
    const readme = blocks('js')
      .find((b) => b.includes('new Beacon('))!
      .replaceAll('http://127.0.0.1:4545', s.url);
    for (const snippet of [readme, beaconJsSnippet(s.url, 'demo42')]) {
      const urls: string[] = [];
      const realFetch = globalThis.fetch;
      const pending: Promise<unknown>[] = [];
      globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
        urls.push(String(input));
        const p = realFetch(input, init);
        pending.push(p.catch(() => undefined));
        return p;
      }) as typeof fetch;
      try {
        const code = snippet.replace(/^import .*$/m, '') + '\nreturn beacon;';
        const beacon = new Function('Beacon', code)(Beacon) as Beacon;
        beacon.events.product.pageView({ data: { result: { uid: 'A', parentId: 'A' } } });
        const line = { uid: 'A', parentId: 'A', qty: 1, price: 5 };
        beacon.events.cart.add({ data: { results: [line], cart: [line] } });
        // the preflight is debounced: wait until it went out
        await s.core.events.waitFor({ siteId: 'demo42', event: 'add' }, 1, 10_000);
        await expect
          .poll(() => urls.some((u) => u.includes('/v1/preflight')), { timeout: 10_000 })
          .toBe(true);
        await Promise.all(pending);
      } finally {
        globalThis.fetch = realFetch;
      }
      expect(urls.filter((u) => !u.startsWith(s.url))).toEqual([]);
    }
  });

  it('a second sandbox beside a running one: the README names the lock it stops on and the flags that fix it', async () => {
    const where = README.indexOf('Another port:');
    const paragraph = README.slice(where, README.indexOf('\n\nRequirements:', where));
    expect(paragraph).toContain('`sandbox.lock`');
    // what the README quotes is what the sandbox says
    const quoted = /stops with `(cannot start: [^`]+)`/.exec(paragraph)![1]!;
    const pattern = new RegExp(
      quoted
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('.*'),
    );
    const t = tempDir('readme-lock-');
    stops.push(async () => t.cleanup());
    const first = spawnCli(['serve', '--port', '0'], t.dir);
    stops.push(() => first.kill());
    await first.ready;
    const second = await runCli(['serve', '--port', '0'], t.dir);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(pattern);
    // each fix the README gives starts a second sandbox in the same folder
    const fixes = [...paragraph.matchAll(/`npm start -- --port 4701 (--[^`]+)`/g)].map((m) =>
      m[1]!.split(' '),
    );
    expect(fixes.map((f) => f[0])).toEqual(['--data', '--ephemeral']);
    for (const fix of fixes) {
      const other = spawnCli(['serve', '--port', '0', ...fix], t.dir);
      stops.push(() => other.kill());
      await other.ready;
      await other.kill();
    }
  });

  it('the worked credit example answers as the README prints it', async () => {
    const s = await sandbox();
    const ctx = (pageLoadId: string, pageUrl: string, ms: number) => ({
      timestamp: new Date(Date.now() - 60_000 + ms).toISOString(),
      pageUrl,
      userId: 'u1',
      sessionId: 's1',
      pageLoadId,
      initiator: 'readme',
      dev: true,
    });
    const search = (ms: number) => ctx('search', 'https://shop.example/search?q=jacket', ms);
    const tile = { type: 'product', uid: 'P103', parentId: 'P103' };
    const line = { uid: '1030', parentId: 'P103', sku: 'S-1030', qty: 2, price: 25 };
    const send = async (endpoint: string, body: unknown) =>
      expect((await postBeacon(s.url, `demo42/${endpoint}`, body)).status).toBe(200);
    await send('search/render', { context: search(0), data: { responseId: 'r1' } });
    await send('search/impression', {
      context: search(1200),
      data: { responseId: 'r1', results: [tile], banners: [] },
    });
    await send('search/clickthrough', {
      context: search(3000),
      data: { responseId: 'r1', results: [tile] },
    });
    const pdp = ctx('pdp', 'https://shop.example/p/1030', 4000);
    await send('product/pageview', {
      context: pdp,
      data: { result: { uid: '1030', parentId: 'P103', sku: 'S-1030' } },
    });
    const cart = ctx('cart', 'https://shop.example/cart', 9000);
    await send('cart/add', { context: cart, data: { results: [line], cart: [line] } });
    const thanks = ctx('thanks', 'https://shop.example/thanks', 20_000);
    await send('order/transaction', {
      context: thanks,
      data: { orderId: 'order-1001', transactionTotal: 50, total: 56.5, results: [line] },
    });
    const printed = JSON.parse(
      blocks('json').find((b) => b.includes('"orderId": "order-1001"'))!,
    ) as OrderDto[];
    const orders = (await (await fetch(`${s.url}/_sandbox/orders`)).json()) as OrderDto[];
    expect(orders).toMatchObject(printed);
  });

  it('readiness: the curl answers the site’s readiness', async () => {
    const s = await sandbox();
    await postJourney(s.url, searchOnly());
    const curl = blocks('sh').find((b) => b.includes('/_sandbox/readiness'))!;
    expect(curl).toBeDefined();
    const { stdout } = await run('bash', ['-c', curl.replaceAll('http://127.0.0.1:4545', s.url)]);
    const answer = JSON.parse(stdout) as ReadinessDto;
    expect(answer.siteId).toBe('demo42');
    expect(answer.behaviours.find((b) => b.id === 'search.render')?.status).toBe('ok');
    expect(answer.behaviours.find((b) => b.id === 'cart.ledger')?.status).toBe('unseen');
  });

  it('readiness: the package snippet passes once the journey sends what the site expects, and rejects before', async () => {
    const snippet = blocks('js').find((b) => b.includes('expectReady'))!;
    expect(snippet).toBeDefined();
    const code = snippet.replace(/^import .*$/m, '');
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    const play = (j: Journey) => {
      const logged: unknown[] = [];
      const started: Array<{ close(): Promise<void> }> = [];
      const start = async (o: Parameters<typeof startPackageSandbox>[0]) => {
        const sb = await startPackageSandbox(o);
        started.push(sb);
        return sb;
      };
      const result = new AsyncFunction(
        'startSandbox',
        'clickThroughTheStorefront',
        'console',
        code,
      )(start, (url: string) => postJourney(url, j), {
        log: (v: unknown) => logged.push(v),
      }).finally(() => Promise.all(started.map((sb) => sb.close())));
      return { result, logged };
    };
    const whole = play(journey());
    await expect(whole.result).rejects.toThrow(/area cart is unseen/);
    const withCart = play(journeyWithCart());
    await withCart.result;
    expect(withCart.logged[0]).toMatchObject({
      findings: expect.any(Number),
      unseen: expect.any(Number),
    });
  });

  it('readiness: the check snippet fails for the cart a recording never sent, and passes when it did', async () => {
    const cli = path.resolve(__dirname, '../../bin/search-sandbox.js');
    const line = blocks('sh')
      .flatMap((b) => b.split('\n'))
      .find((l) => l.includes('--readiness'))!;
    expect(line).toBeDefined();
    const { dir, cleanup } = tempDir();
    stops.push(async () => cleanup());
    // `npx search-sandbox` as an installed package resolves it: this checkout's bin
    const shell = `npx() { shift; node ${JSON.stringify(cli)} "$@"; }\n${line}`;
    writeFileSync(path.join(dir, 'recorded.ndjson'), journeyRun(journey()));
    const failed = await run('bash', ['-c', shell], { cwd: dir }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('- area cart is unseen');
    writeFileSync(path.join(dir, 'recorded.ndjson'), journeyRun(journeyWithCart()));
    const { stdout } = await run('bash', ['-c', shell], { cwd: dir });
    expect(stdout).toContain(
      // its cart page follows no quick add: cart.quick-add-then-cart-add is unseen, which an area allows
      'ready for what it expects: search (7 of 18 behaviours seen, 1 of them unverified, 11 unseen: see above), cart (2 of 3 behaviours seen, 1 unseen: see above)',
    );
  });
});

/** Send a journey's events to a sandbox, as its storefront would. */
async function postJourney(url: string, j: Journey): Promise<void> {
  const lines = journeyRun(j, { start: Date.now() - 120_000 })
    .trim()
    .split('\n');
  for (const l of lines) {
    const { siteId, category, event, body } = JSON.parse(l) as Record<string, string>;
    const res = await postBeacon(url, `${siteId}/${category}/${event}`, body);
    expect(res.status).toBe(200);
  }
}

/** The journey's search page alone. */
function searchOnly(): Journey {
  return [[journey()[0]![0]!]];
}

/** The journey with a cart page before its thank-you page. */
function journeyWithCart(): Journey {
  const j = journey();
  const item = { uid: '102', parentId: '102', sku: 'sku-102', qty: 1, price: 100 };
  j[0]!.splice(2, 0, {
    path: '/cart',
    events: [{ category: 'cart', event: 'add', data: { results: [item], cart: [item] } }],
  });
  return j;
}
