// The sandbox version, from package.json at build time (vite define) or at run time under tsx/vitest.
import { createRequire } from 'node:module';

declare const __SANDBOX_VERSION__: string | undefined;

export const VERSION: string =
  typeof __SANDBOX_VERSION__ === 'string'
    ? __SANDBOX_VERSION__
    : (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
