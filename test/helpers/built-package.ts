// The package as `import 'search-sandbox'` loads it: the built bundle (out/main/api.js), not the source.
// Build first: `npm run -s build:types -- --noCheck && npx electron-vite build`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Package from '../../src/main/api/index';

export const ROOT = path.resolve(__dirname, '../..');

export async function builtPackage(): Promise<typeof Package> {
  return (await import(pathToFileURL(path.join(ROOT, 'out/main/api.js')).href)) as typeof Package;
}
