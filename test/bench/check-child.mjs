// Runs the built CLI as `node test/bench/check-child.mjs ARGS…` and prints its CPU (µs, user and system)
// and peak RSS (KiB) on stderr as the last lines, `cpu=N` and `maxrss=N`, for the check benchmark. Output goes to /dev/null by the caller.
import { writeSync } from 'node:fs';
import process from 'node:process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../out/main/cli.js');
process.argv = [process.argv[0], cli, ...process.argv.slice(2)];
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(2, `cpu=${usage.userCPUTime + usage.systemCPUTime}\nmaxrss=${usage.maxRSS}\n`);
});
await import(pathToFileURL(cli).href);
