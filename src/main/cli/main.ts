// Headless entry (package.json "bin": search-sandbox → bin/search-sandbox.js → out/main/cli.js).
import { run } from './commands';

run(process.argv.slice(2));
