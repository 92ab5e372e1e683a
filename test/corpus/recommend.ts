// A stand-in for the provider's recommend API (the sandbox's companion serves search, category and
// autocomplete, not recommendations), on 127.0.0.1 for the corpus storefront's product page: the Snap
// client's recommend() asks it for the profile (GET /api/personalized-recommendations/profile.json) and the
// batched recommendations (POST /v1/recommend, a text/plain JSON body of profiles). Each profile in each
// answer gets a fresh responseId, as the real service's responses do; the results are products of the corpus
// catalog. It is a fake upstream: the sandbox never sees these responses, so its provenance rules do not
// apply to recommendations (RULE_KIND_EXEMPTIONS), and the corpus judges the storefront's beacons only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecommendServer {
  url: string;
  close(): Promise<void>;
}

interface Product {
  id: string;
  sku: string;
  name: string;
  price: number;
}

/** `products`: the catalog's parent products, in catalog order; each tag recommends its own slice. */
export async function serveRecommend(products: readonly Product[]): Promise<RecommendServer> {
  const slices: Record<string, readonly Product[]> = {
    similar: products.slice(0, 4),
    'also-bought': products.slice(4, 8),
  };
  const cors = { 'access-control-allow-origin': '*', 'content-type': 'application/json' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/api/personalized-recommendations/profile.json') {
      const tag = url.searchParams.get('tag') ?? '';
      res.writeHead(200, cors).end(
        JSON.stringify({
          profile: { tag, placement: 'product-page', display: { template: { name: tag } } },
        }),
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === '/v1/recommend') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { profiles = [] } = JSON.parse(body || '{}') as { profiles?: Array<{ tag: string }> };
        const answer = profiles.map(({ tag }) => ({
          tag,
          responseId: randomUUID(),
          results: (slices[tag] ?? []).map((p) => ({
            id: p.id,
            mappings: { core: { uid: p.id, sku: p.sku, name: p.name, price: p.price } },
            attributes: {},
          })),
        }));
        res.writeHead(200, cors).end(JSON.stringify(answer));
      });
      return;
    }
    res.writeHead(404, cors).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
