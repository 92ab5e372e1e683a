// `search-sandbox tail --findings` after a reset: the reset forgets what tail printed of the pages it
// reset, so a page that comes back with the same pageLoadId and the same findings (a test run again on
// deterministic data) gets its verdict line again; a reset of another site forgets none of them.
import { afterEach, describe, expect, it } from 'vitest';
import { postBeacon, startSandbox, unrenderedImpression } from '../helpers/sandbox';
import { runTail } from '../../src/main/cli/tail';

const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** An impression with no render before it: accepted, and its page fails missing-render. */
const impression = (pageLoadId: string) => unrenderedImpression(pageLoadId);

/** The real sandbox on port 0 and `tail --findings` (its module) following it, with what it printed. */
async function tailing(...flags: string[]) {
  const s = await startSandbox();
  stops.push(() => s.close());
  const stop = new AbortController();
  let out = '';
  const ended = runTail(['--url', s.url, '--findings', '--backlog', '0', ...flags], {
    out: (t) => (out += t),
    err: () => {},
    color: false,
    signal: stop.signal,
  });
  stops.push(async () => {
    stop.abort();
    await ended;
  });
  const count = (pattern: RegExp) => out.match(new RegExp(pattern, 'g'))?.length ?? 0;
  const until = async (pattern: RegExp, times = 1) => {
    for (const end = Date.now() + 10_000; count(pattern) < times;) {
      if (Date.now() > end) throw new Error(`no ${times} × ${pattern} in:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // the page stream opens beside the events stream: followed once a page's line comes through it
  for (let i = 0; count(/FAIL page warmup|"page":\{[^\n]*"pageLoadId":"warmup/) === 0; i++) {
    await postBeacon(s.url, 'demo42/search/impression', impression(`warmup-${i}`));
    await new Promise((r) => setTimeout(r, 50));
  }
  const reset = (query = '') => fetch(`${s.url}/_sandbox/reset${query}`, { method: 'POST' });
  return { url: s.url, count, until, reset, out: () => out };
}

describe('tail --findings after a reset', () => {
  it('prints the verdict again of a page that comes back with the same id and findings', async () => {
    const t = await tailing();
    await postBeacon(t.url, 'demo42/search/impression', impression('again'));
    await t.until(/FAIL page again .*missing-render/);
    await t.reset();
    await t.until(/-- reset: events/);
    await postBeacon(t.url, 'demo42/search/impression', impression('again'));
    await t.until(/FAIL page again .*missing-render/, 2);
    expect(t.count(/page again {2}responseId r1/)).toBe(2);
  });

  it('with --json, the page comes back as a {"page": …} line', async () => {
    const t = await tailing('--json');
    await postBeacon(t.url, 'demo42/search/impression', impression('again'));
    const page = /"page":\{[^\n]*"pageLoadId":"again"[^\n]*"verdict":"fail"/;
    await t.until(page);
    await t.reset();
    await postBeacon(t.url, 'demo42/search/impression', impression('again'));
    await t.until(page, 2);
  });

  it("a reset of one site forgets that site's pages, not the others'", async () => {
    const t = await tailing();
    // sent twice, the page's findings settle: a third impression changes the page, not its line
    const settled = /FAIL page kept .*duplicate-impression/;
    await postBeacon(t.url, 'demo42/search/impression', impression('kept'));
    await postBeacon(t.url, 'demo42/search/impression', impression('kept'));
    await postBeacon(t.url, 'demo42/search/impression', impression('again'));
    await t.until(settled);
    await t.until(/FAIL page again /);
    await t.reset('?siteId=othr42');
    await t.until(/-- reset: events of othr42/);
    await postBeacon(t.url, 'demo42/search/impression', impression('kept'));
    // a later page's line: the page stream is in order, so kept's line would have come before it
    await postBeacon(t.url, 'demo42/search/impression', impression('later'));
    await t.until(/FAIL page later /);
    expect(t.count(settled), t.out()).toBe(1);
    await t.reset('?siteId=demo42');
    await postBeacon(t.url, 'demo42/search/impression', impression('again'));
    await t.until(/FAIL page again .*missing-render/, 2);
  });
});
