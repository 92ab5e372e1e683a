#!/usr/bin/env node
// Headless CLI launcher: runs the built sandbox (out/main/cli.js). `npm ci` builds it (prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write(
    'search-sandbox: not built yet: run "npm run build" (or "npm ci", which builds) in the search-sandbox folder\n',
  );
  process.exit(2);
}
await import(cli);
