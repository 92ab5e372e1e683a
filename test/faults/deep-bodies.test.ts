// Hostile bodies on every endpoint that takes JSON: nested 100,000 levels deep, or a batch of 350 KB. Each
// is refused 400 naming the limit (never a 500, never a stack trace in the log), no refusal echoes the
// input back whole, and what was acknowledged before is all there after a restart.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, tempDir } from '../helpers/sandbox';
import { render } from './fault-helpers';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  vi.restoreAllMocks();
});

const LEVELS = 100_000;
const deep = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
/** as deep as the 100 KB the companion's meta and suggest bodies may hold (over it: 413, not 400) */
const deepSmall = '['.repeat(20_000) + ']'.repeat(20_000);

/** Every endpoint that reads a JSON body, with a body nesting `deep` where that endpoint reads a value. */
const ENDPOINTS: Array<{
  method: string;
  path: string;
  body: string;
  limit: RegExp;
  /** the check endpoint answers 200 with the verdict a beacon would get */
  status?: number;
}> = [
  { method: 'POST', path: '/_sandbox/reset', body: `{"what":${deep}}`, limit: /nest/ },
  { method: 'POST', path: '/_sandbox/clock', body: `{"advance":${deep}}`, limit: /nest/ },
  { method: 'PATCH', path: '/_sandbox/feeds/demo42/42', body: `{"inject":${deep}}`, limit: /nest/ },
  {
    method: 'POST',
    path: '/_sandbox/feeds/demo42/42/transition',
    body: `{"to":${deep}}`,
    limit: /nest/,
  },
  {
    method: 'POST',
    path: '/_sandbox/import',
    body: `{"events":${deep}}`,
    limit: /nothing was imported/,
  },
  { method: 'POST', path: '/_sandbox/diff', body: `{"events":${deep}}`, limit: /nest/ },
  {
    method: 'POST',
    path: '/_sandbox/tracking/check/demo42/search/render',
    body: deep,
    limit: /"status":400.*invalid JSON/,
    status: 200,
  },
  { method: 'POST', path: '/beacon/v2/demo42/search/render', body: deep, limit: /invalid JSON/ },
  {
    method: 'POST',
    path: '/v1/recommend',
    body: `{"siteId":"demo42","profiles":${deep}}`,
    limit: /nest/,
  },
  { method: 'POST', path: '/api/meta/meta.json', body: `{"siteId":${deepSmall}}`, limit: /nest/ },
  { method: 'POST', path: '/api/suggest/query', body: `{"query":${deepSmall}}`, limit: /nest/ },
];

describe('deep and large bodies', () => {
  it('are refused 400 naming the limit on every JSON endpoint, and nothing acknowledged is lost', async () => {
    const { dir, cleanup } = tempDir('deep-bodies-');
    cleanups.push(cleanup);
    const logged = vi.spyOn(console, 'error');
    const first = await startSandbox({ dataDir: dir });
    cleanups.push(() => first.close());
    const ok = await fetch(`${first.url}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      body: JSON.stringify(render('p-before')),
    });
    expect(ok.status).toBe(200);

    for (const e of ENDPOINTS) {
      const res = await fetch(`${first.url}${e.path}`, {
        method: e.method,
        headers: { 'Content-Type': 'application/json' },
        body: e.body,
      });
      const text = await res.text();
      expect(res.status, `${e.method} ${e.path}: ${text.slice(0, 300)}`).toBe(e.status ?? 400);
      expect(text, `${e.method} ${e.path}: ${text.slice(0, 400)}`).toMatch(e.limit);
      expect(text.length, `${e.method} ${e.path} echoes the body`).toBeLessThan(2_000);
    }
    const traces = logged.mock.calls.filter((c) => c.some((a) => a instanceof Error));
    expect(traces).toEqual([]);

    // a batch of 350 KB that the service refuses: named, but not sent back whole
    const batch = JSON.stringify(Array.from({ length: 3_000 }, (_, i) => render(`p-batch-${i}`)));
    expect(batch.length).toBeGreaterThan(350_000);
    const refused = await fetch(`${first.url}/beacon/v2/demo42/search/render`, {
      method: 'POST',
      body: batch,
    });
    expect(refused.status).toBe(400);
    const answer = (await refused.json()) as { data: string; messages: string[] };
    expect(answer.data.length).toBeLessThan(20_000);
    expect(JSON.stringify(answer).length).toBeLessThan(40_000);

    await first.close();
    const second = await startSandbox({ dataDir: dir });
    cleanups.push(() => second.close());
    const events = (await (await fetch(`${second.url}/_sandbox/events?accepted=true`)).json()) as {
      events: Array<{ body: { context: { pageLoadId: string } } }>;
    };
    expect(events.events.map((e) => e.body.context.pageLoadId)).toEqual(['p-before']);
  });
});
