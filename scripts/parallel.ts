// Runs shell commands side by side: `npm test`'s type checks, dependency rules and build do not depend on
// one another, and each is mostly one process on one core. Each command's output is printed in one piece
// when it ends, so that the logs do not interleave. Exits 1 when any failed, once all have ended.
// `npm test` emits the package's declarations with --noCheck: the node type check beside it checks the same
// files with the same options, and a second check of them cost a third of the declarations' CPU.
//   tsx scripts/parallel.ts "npm run typecheck:node" "npm run deps" "electron-vite build"
import { spawn } from 'node:child_process';

interface Ended {
  command: string;
  ok: boolean;
}

function run(command: string): Promise<Ended> {
  const started = performance.now();
  const output: Buffer[] = [];
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      const how = ok ? 'done' : signal ? `killed by ${signal}` : `failed (exit code ${code})`;
      process.stdout.write(`\n> ${command}: ${how} in ${seconds}s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve({ command, ok });
    });
  });
}

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: tsx scripts/parallel.ts COMMAND...');
  process.exit(2);
}
const failed = (await Promise.all(commands.map(run))).filter((r) => !r.ok);
if (failed.length > 0) {
  console.error(
    `\n${failed.length} of ${commands.length} failed: ${failed.map((r) => r.command).join('; ')}`,
  );
  process.exit(1);
}
