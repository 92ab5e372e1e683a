// One build for the three worlds: main (Electron entry + headless CLI), preload, renderer (React UI).
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { tmpdir } from 'node:os';
import { desktopDevServerPlugin } from './src/main/desktop/dev-proxy';

const { name, version } = JSON.parse(
  readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
) as { name: string; version: string };

/**
 * The desktop app's manifest, out/main/package.json: Electron is started on the folder out/main (`npm run
 * app` is electron-vite dev --entry out/main; `npx electron out/main`) and reads it as the app's, so the app
 * keeps the repository's name (userData's folder) and version (app.getVersion()) and finds its entry,
 * index.js. The repository's own "main" is the package's API (out/main/api.js), for the tools that read
 * main rather than exports; the installers name the entry themselves (electron-builder.yml extraMetadata).
 */
const DESKTOP_MANIFEST = { name, version, private: true, type: 'module', main: 'index.js' };

function desktopManifest(): Plugin {
  return {
    name: 'search-sandbox:desktop-manifest',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'package.json',
        source: `${JSON.stringify(DESKTOP_MANIFEST, null, 2)}\n`,
      });
    },
  };
}

/** Modules that name the shared chunk they land in, the first one held winning. */
const CHUNK_NAMES = [
  'src/main/sandbox.ts',
  'src/main/tracking/timeline/engine.ts',
  'src/main/tracking/timeline/report.ts',
  'src/main/tracking/timeline/rule-list.ts',
  'src/main/tracking/timeline/model.ts',
  'src/main/tracking/schemas.ts',
  'src/main/check/inputs.ts',
  'src/main/baseline/compare.ts',
];

export default defineConfig({
  main: {
    define: { __SANDBOX_VERSION__: JSON.stringify(version) },
    plugins: [desktopManifest()],
    build: {
      // the Playwright fixture imports the user's own @playwright/test (an optional peer dependency); TypeBox,
      // whose builders declare the admin API, is bundled with the few of them used: loaded from
      // node_modules, its ESM entry's hundreds of files cost every start ~0.13 s
      externalizeDeps: { include: ['@playwright/test'], exclude: ['@sinclair/typebox'] },
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli/main.ts'),
          // the package's programmatic API (exports "." and "./playwright")
          api: resolve('src/main/api/index.ts'),
          playwright: resolve('src/main/api/playwright.ts'),
          // the worker thread that judges large beacon bodies (src/main/tracking/body-worker.ts)
          'body-worker-main': resolve('src/main/tracking/body-worker-main.ts'),
          // the worker thread that reads and checks large import bodies (src/main/store/import-body.ts)
          'import-worker-main': resolve('src/main/store/import-worker-main.ts'),
        },
        // Shared code (the sandbox both entries start) lands beside them in out/main, not in
        // out/main/chunks: config.ts and http/app.ts find fixtures/ and out/renderer relative to it.
        // A shared chunk is named after its first module, which can be a one-class module it happens to hold
        // (a stack trace then reads `listen-error-….js: readEvent`): the chunk that holds one of these is
        // named after it instead.
        output: {
          chunkFileNames: (chunk) => {
            const held = new Set(chunk.moduleIds.map((id) => id.replace(/\\/g, '/')));
            const main = CHUNK_NAMES.find((m) => held.has(resolve(m).replace(/\\/g, '/')));
            return `${main ? main.replace(/^.*\/|\.ts$/g, '') : '[name]'}-[hash].js`;
          },
        },
      },
    },
  },
  preload: {
    build: {
      // CommonJS: the window runs with sandbox: true, and sandboxed preloads cannot be ES modules
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    // `npm run app` only: the dev server forwards /_sandbox, /api, /beacon, /v1 to the sandbox in the
    // Electron main process (see src/main/desktop/dev-proxy.ts and docs/desktop.md)
    plugins: [
      react(),
      desktopDevServerPlugin(join(tmpdir(), `search-sandbox-dev-${process.pid}.json`)),
    ],
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
