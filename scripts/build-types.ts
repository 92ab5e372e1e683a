// `npm run build:types`: the package's declarations (tsconfig.api.json, into out/types), then every relative
// import in them given the file name it has at run time (`./timeline` → `./timeline.js`). The sources resolve
// as a bundler does and src/shared imports its neighbours without an extension; tsc keeps a specifier as
// written, and a project type-checking under `moduleResolution: node16`/`nodenext` cannot resolve an
// extensionless one: every type behind it (Severity, ResponseKind, a readiness row's area, …) became `any`.
// Arguments go on to tsc (`npm run build:types -- --noCheck`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'out/types');

// TypeScript 7 (typescript-native): the declarations TypeScript 5.9 emitted, in a quarter of the time (a
// consumer on TypeScript 5.9 type-checks them alike; the package test installs them and does).
const tsc = path.join(ROOT, 'node_modules/typescript-native/bin/tsc');
const built = spawnSync(
  process.execPath,
  [tsc, '-p', 'tsconfig.api.json', ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
if (built.status !== 0) process.exit(built.status ?? 1);

function* declarations(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* declarations(full);
    else if (entry.name.endsWith('.d.ts')) yield full;
  }
}

// `from './x'`, `export … from '../x'`, `import('./x')`: the specifier of a relative module
const RELATIVE = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

const unresolved: string[] = [];
let rewritten = 0;
for (const file of declarations(OUT)) {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(RELATIVE, (whole, lead: string, quote: string, spec: string) => {
    if (/\.(m|c)?js$/.test(spec)) return whole;
    const base = path.resolve(path.dirname(file), spec);
    const target = existsSync(`${base}.d.ts`)
      ? `${spec}.js`
      : existsSync(path.join(base, 'index.d.ts'))
        ? `${spec.replace(/\/$/, '')}/index.js`
        : null;
    if (target === null) {
      unresolved.push(`${path.relative(ROOT, file)}: ${spec}`);
      return whole;
    }
    rewritten++;
    return `${lead}${quote}${target}${quote}`;
  });
  if (next !== text) writeFileSync(file, next);
}
if (unresolved.length > 0) {
  console.error(
    `build:types: these imports of the declarations name no emitted declaration file:\n  ${unresolved.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`build:types: ${rewritten} relative imports given their .js name`);
