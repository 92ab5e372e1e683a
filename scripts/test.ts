// `npm test`: build what the tests run (the bundle and the package's declarations), then run vitest with the
// type checks and the dependency rules beside it. Arguments go on to vitest (`npm test -- --reporter=json`).
//
// Why beside and not before: on a 2-core machine the suite is CPU-bound, but its three workers still leave a
// core idle whenever they all wait on servers, child processes or Chromium's timers. The checks read only the
// sources, so nothing the tests do can change their answer; they run at a lower CPU priority so that they take
// the time the tests leave, not the tests' time. Before, the tests waited ~40 s for the checks to end.
//
// Each check's output is printed in one piece once the tests have ended, so that it never cuts vitest's lines.
// Exits 1 when the build, a check or the tests failed, once everything has ended.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** a package's own entry, where `npm ci` installs it (as npm run's node_modules/.bin would find it) */
const bin = (pkg: string, file: string) => path.join(ROOT, 'node_modules', pkg, file);

interface Step {
  name: string;
  /** run with node: a package's own entry, so that no shell or npm process sits between us and it */
  args: string[];
}

const BUILD: Step[] = [
  { name: 'electron-vite build', args: [bin('electron-vite', 'bin/electron-vite.js'), 'build'] },
  // the declarations without a type check: the node type check below checks the same files, the same way
  { name: 'build:types --noCheck', args: [path.join(ROOT, 'scripts/build-types.ts'), '--noCheck'] },
];
// The type checks run TypeScript 7 (the compiler written in Go, installed as typescript-native): the same
// checker, in a third of the CPU (the node check of a clean clone: 29 CPU-s with TypeScript 5.9, 11 with 7,
// 8 single-threaded), as build:types emits the declarations with it. TypeScript 5.9 stays the `typescript`
// package: typescript-eslint needs its JavaScript API. Single-threaded here, as the checks share the two
// cores with the tests: the same time to the end, less CPU taken from them.
const tsc = bin('typescript-native', 'bin/tsc');
const typecheck = (project: string) => [tsc, '--noEmit', '--singleThreaded', '-p', project];
const CHECKS: Step[] = [
  { name: 'typecheck:node', args: typecheck('tsconfig.node.json') },
  { name: 'typecheck:web', args: typecheck('tsconfig.web.json') },
  {
    name: 'deps',
    args: [
      bin('dependency-cruiser', 'bin/dependency-cruise.mjs'),
      'src',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'err',
    ],
  },
];
/** how much less CPU a check gets than a test while both want it (nice 10: about a tenth of a core's share) */
const CHECK_PRIORITY = 10;

interface Ended {
  name: string;
  ok: boolean;
  report: string;
}

function run(step: Step, priority = 0): Promise<Ended> {
  const started = performance.now();
  const output: Buffer[] = [];
  const tsx = step.args[0]!.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...tsx, ...step.args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (priority !== 0 && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, priority);
      } catch {
        // not allowed here (or the child has already ended): it runs at the tests' priority
      }
    }
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      const how = ok ? 'done' : signal ? `killed by ${signal}` : `failed (exit code ${code})`;
      const text = Buffer.concat(output).toString();
      resolve({ name: step.name, ok, report: `\n> ${step.name}: ${how} in ${seconds}s\n${text}` });
    });
  });
}

function vitest(args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin('vitest', 'vitest.mjs'), 'run', ...args], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.on('error', (err) => {
      console.error(`vitest did not start: ${err.message}`);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

function failures(ended: Ended[]): string[] {
  for (const step of ended) process.stdout.write(step.report);
  return ended.filter((step) => !step.ok).map((step) => step.name);
}

const built = failures(await Promise.all(BUILD.map((step) => run(step))));
if (built.length > 0) {
  console.error(`\nthe build failed (${built.join('; ')}): no test ran`);
  process.exit(1);
}
const checking = Promise.all(CHECKS.map((step) => run(step, CHECK_PRIORITY)));
const testsPassed = await vitest(process.argv.slice(2));
const failed = failures(await checking);
if (!testsPassed) failed.push('vitest');
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join('; ')}`);
  process.exit(1);
}
