// No folder import cycles: the modules of each folder of src/main (and of src/main/tracking's parts) are one
// node, and the graph of imports between folders (type-only ones too) must have no circle. The layer rules
// themselves are in .dependency-cruiser.cjs (`npm run deps`); this is the check they cannot express.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruise } from 'dependency-cruiser';

const ROOT = path.resolve(__dirname, '../..');

/** src/main/tracking/timeline/rules/x.ts → src/main/tracking/timeline; src/main/config.ts → src/main */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'main' && parts[2] === 'tracking' && parts.length > 4)
    return parts.slice(0, 4).join('/');
  return parts.slice(0, Math.min(parts.length - 1, 3)).join('/');
}

function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('folders', () => {
  it('import each other in one direction only (no folder cycle)', async () => {
    const cwd = process.cwd();
    process.chdir(ROOT);
    let result;
    try {
      result = await cruise(['src/main', 'src/shared'], {
        doNotFollow: { path: 'node_modules' },
        tsPreCompilationDeps: true,
        exclude: { path: '\\.d\\.ts$' },
      });
    } finally {
      process.chdir(cwd);
    }
    const { modules } = result.output as {
      modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
    };
    const graph = new Map<string, Set<string>>();
    for (const m of modules) {
      if (!m.source.startsWith('src/')) continue;
      const from = folderOf(m.source);
      for (const d of m.dependencies) {
        if (!d.resolved.startsWith('src/')) continue;
        const to = folderOf(d.resolved);
        // a top-level file of src/main (config.ts, sandbox.ts) composes the folders: it is not a folder
        if (to === from || from === 'src/main' || to === 'src/main') continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(to);
      }
    }
    expect(graph.size).toBeGreaterThan(8);
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });
});
