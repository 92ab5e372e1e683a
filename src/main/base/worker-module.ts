// A worker thread running one of the bundle's worker entries (electron.vite.config.ts lists them), found
// beside the module that starts it: in the build, `NAME.js` in out/main; run from the TypeScript source
// (tests, `npm run bench`), `NAME.ts` through tsx's require hook (a dev dependency, present there).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Start the worker entry `name` that sits beside the module whose `import.meta.url` is `from`. */
export function startWorkerModule(name: string, from: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), options);
  const file = fileURLToPath(new URL(`./${name}.ts`, from));
  const tsx = createRequire(from).resolve('tsx/cjs/api');
  return new Worker(
    `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(file)});`,
    { ...options, eval: true },
  );
}
