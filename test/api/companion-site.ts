// Shared by the companion search API tests that play a storefront's own account: site shop12 searching
// through the sandbox (companion, catalogCheck), with two widgets, a rain campaign of banners and a
// "gift card" redirect, on a frozen clock. `indexOutdoor` indexes the outdoor catalog through the real bulk
// indexing endpoint, as a merchant would.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configFromObject } from '../../src/main/config';
import { createSandbox, type Sandbox } from '../../src/main/sandbox';
import { SandboxClock } from '../../src/main/clock';
import { START, runToEnd, upload } from './indexing-helpers';

export const SHOP = 'shop12';
const SECRET = 'shop12-secret-key';

const FEED = readFileSync(path.resolve(__dirname, '../../fixtures/search/outdoor-products.csv'));

export const SHOP_CONFIG = {
  accounts: [
    {
      siteId: SHOP,
      secretKey: SECRET,
      feeds: [{ id: 1, name: 'Outdoor catalog', interval: '24h', source: 'upload' }],
      search: {
        companion: true,
        catalogCheck: true,
        recommendations: [
          { tag: 'similar', strategy: 'similar' },
          { tag: 'cart-recs', strategy: 'also-bought', limit: 4 },
        ],
        campaigns: [
          {
            id: 'rain-ready',
            queries: ['jacket', 'rain'],
            banners: [
              { id: '91001', slot: 'header', html: '<h2>Rain ready</h2>' },
              { id: '91005', slot: 'inline', position: 1, html: '<p>Shells from 89</p>' },
            ],
          },
          { id: 'gift-cards', queries: ['gift card'], redirect: '/pages/gift-cards' },
        ],
      },
    },
  ],
};

/** A sandbox on 127.0.0.1 port 0, in memory, with SHOP_CONFIG and a frozen clock; nothing indexed yet. */
export function startShop(): Promise<Sandbox> {
  const config = configFromObject(SHOP_CONFIG, { ephemeral: true, port: 0, host: '127.0.0.1' });
  return createSandbox(config, {
    rendererDir: null,
    clock: new SandboxClock({ frozen: true, start: START }),
  });
}

/** Index the outdoor catalog as feed 1 of shop12 through the bulk indexing endpoint. */
export async function indexOutdoor(sb: Sandbox): Promise<void> {
  const auth = `Basic ${Buffer.from(`${SHOP}:${SECRET}`).toString('base64')}`;
  const res = await upload(sb.url, 'feedId=1', FEED, 'outdoor-products.csv', { auth });
  if (res.status !== 200) throw new Error(`catalog upload answered ${res.status}`);
  const view = await runToEnd(sb, 1, SHOP);
  if (view.state !== 'done') throw new Error(`catalog not indexed: ${view.state}`);
}

/** GET a path of the sandbox: its status and JSON body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are shaped by the assertions
export async function getJson(sb: Sandbox, p: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sb.url}${p}`);
  return { status: res.status, body: await res.json() };
}
