// Preloaded into a child process (`node --import …/loads-preload.mjs`): writes each package the process loads
// by a bare name, from an `import` (loads-resolve.mjs) or a `require` (createRequire's included), one a line,
// `import NAME` or `require NAME`, to the file LOADS_LOG names. Tests read it to see what a command loaded.
import { appendFileSync } from 'node:fs';
import Module from 'node:module';
import { isBare } from './loads-resolve.mjs';

const load = Module._load;
Module._load = function (request, ...rest) {
  if (isBare(request)) appendFileSync(process.env.LOADS_LOG, `require ${request}\n`);
  return load.call(this, request, ...rest);
};
Module.register(new URL('./loads-resolve.mjs', import.meta.url));
