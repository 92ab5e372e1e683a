// The example's fixtures: search-sandbox/playwright's `test` (a sandbox per worker, the provider's
// production hosts routed to it) plus `storefrontUrl`, the storefront bundled with esbuild and served
// from its own origin, as a real storefront is.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { test as sandboxTest } from 'search-sandbox/playwright';

export { expect } from 'search-sandbox/playwright';

const dir = fileURLToPath(new URL('../storefront/', import.meta.url));

export const test = sandboxTest.extend({
  storefrontUrl: [
    async ({}, use) => {
      const bundle = await build({
        entryPoints: [`${dir}storefront.js`],
        bundle: true,
        format: 'esm',
        write: false,
        define: { 'process.env.NODE_ENV': '"production"' },
      });
      const files = {
        '/': ['text/html', await readFile(`${dir}index.html`)],
        '/storefront.js': ['text/javascript', bundle.outputFiles[0].contents],
      };
      const server = http.createServer((req, res) => {
        const file = files[new URL(req.url, 'http://x').pathname];
        if (!file) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      await use(`http://127.0.0.1:${server.address().port}`);
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],
});
