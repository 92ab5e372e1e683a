// Shared by the recommend API tests: a sandbox whose demo42 account serves widgets of every strategy (and a
// bundle) from the outdoor catalog, indexed through the real bulk indexing endpoint, on real time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../../src/main/sandbox';
import type { RecommendationProfile } from '../../src/main/search/recommend-config';
import { startSandbox, testConfig } from '../helpers/sandbox';
import { runToEnd, upload } from './indexing-helpers';

export const SITE = 'demo42';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are shaped by the assertions
export type Any = any;

const FEED = readFileSync(path.resolve(__dirname, '../../fixtures/search/outdoor-products.csv'));

export const PROFILES: RecommendationProfile[] = [
  { tag: 'similar', type: 'default', strategy: 'similar', limit: 8 },
  { tag: 'also-bought', type: 'default', strategy: 'also-bought', limit: 4 },
  { tag: 'trending', type: 'default', strategy: 'trending', limit: 3 },
  { tag: 'recently-viewed', type: 'default', strategy: 'recently-viewed', limit: 4 },
  { tag: 'bundle-pdp', type: 'bundle', strategy: 'similar', limit: 2 },
];

/** The demo config's accounts, demo42 a companion site serving PROFILES. */
export function recommendAccounts() {
  return testConfig().accounts.map((a) =>
    a.siteId === SITE
      ? { ...a, search: { ...a.search!, companion: true, recommendations: PROFILES } }
      : a,
  );
}

/** Index the outdoor catalog for demo42 through the bulk indexing endpoint, then back to real time. */
export async function indexCatalog(sb: Sandbox): Promise<void> {
  const res = await upload(sb.url, 'feedId=42', FEED, 'outdoor-products.csv');
  if (res.status !== 200) throw new Error(`catalog upload answered ${res.status}`);
  if ((await runToEnd(sb, 42)).state !== 'done') throw new Error('catalog not indexed');
  // indexing moved the sandbox clock on: back to real time, so beacon timestamps match receive times
  await fetch(`${sb.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ set: new Date().toISOString() }),
  });
}

export async function startRecommendSandbox(): Promise<Sandbox> {
  const sb = await startSandbox({ accounts: recommendAccounts() });
  await indexCatalog(sb);
  return sb;
}

/** POST /v1/recommend as the Snap client's RecommendAPI does (a text/plain JSON body). */
export async function recommend(
  sb: Sandbox,
  body: unknown,
): Promise<{ status: number; body: Any }> {
  const res = await fetch(`${sb.url}/v1/recommend`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The uids of one widget's answer. */
export function uids(entry: { results: Array<{ id: string }> }): string[] {
  return entry.results.map((r) => r.id);
}
