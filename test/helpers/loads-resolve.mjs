// The module hook of loads-preload.mjs (it runs on the module loader's own thread): each package resolved by
// a bare name is written to the file LOADS_LOG names, as `import NAME`.
import { appendFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';

/** A package's name (or a path inside one), not a relative path, a URL or one of Node's own modules. */
export const isBare = (specifier) =>
  !/^(\.|\/|node:|file:|data:)/.test(specifier) && !isBuiltin(specifier);

export async function resolve(specifier, context, next) {
  if (isBare(specifier)) appendFileSync(process.env.LOADS_LOG, `import ${specifier}\n`);
  return next(specifier, context);
}
