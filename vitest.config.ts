import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Two kinds of test files, run side by side in the same workers:
// - in-process tests (unit, rules, held-out): plain functions over the domain, no servers or child processes;
// - integration tests (admin and beacon APIs, the CLI, the UI in Chromium, faults): each file starts its own
//   servers, child processes and temporary directories, and closes them when it ends.
// All share one module graph per worker (isolate: false): each file cleans up after itself (servers
// closed, mocks and timers restored), and re-importing the domain, express and the admin API for every
// file cost more than the tests themselves: 28 of the API files took 82 s of CPU isolated, 26 s sharing.
// One project, not one per kind: a worker of one project is not given a file of another, so the in-process
// files, run last, started three new workers that imported the domain again (their files' imports summed to
// 26 s) when the integration files' workers already held it.
// Most integration time is waiting (servers, child processes, Chromium), so even a 2-core machine runs three
// files at once (vitest's default there would be one): on 2 cores the whole run took 322 s with three
// against 372 s with two, every test passing in both (docs/benchmarks.md, "The test suite").
const maxWorkers = Math.max(3, (os.availableParallelism?.() ?? os.cpus().length) - 1);

/** the integration files' folders (every other test file runs in-process) */
const INTEGRATION = ['test/api/', 'test/e2e/', 'test/faults/'];

// The files that take longest, longest first: the packed package installed and driven by Playwright, the
// Chromium journeys that wait on the clients' real timers, the CLI and fault files that start and kill
// processes. A clean clone has no timings from an earlier run, and vitest would order its files by size
// and run the in-process files first: a long file started last is the whole run waiting on one worker.
const LONG_FIRST = [
  'test/e2e/package-install.test.ts',
  'test/faults/reset-crash.test.ts',
  'test/api/cli-serve.test.ts',
  'test/api/cli-data-dir.test.ts',
  'test/faults/import-crash.test.ts',
  'test/api/cli-check.test.ts',
  'test/api/doc-snippets.test.ts',
  'test/e2e/corpus.test.ts',
  'test/api/diff-cli.test.ts',
  'test/api/check-stream.test.ts',
  'test/e2e/storefront.test.ts',
  'test/e2e/timelines.test.ts',
  'test/e2e/feeds.test.ts',
];

// The in-process files that take longest, longest first: started after the integration files, a long one
// picked late is the run's tail (the generated catalogs' search equivalence began 17 s before the end).
const LONG_IN_PROCESS = [
  'test/unit/search-equivalence.test.ts',
  'test/unit/check-heap.test.ts',
  'test/unit/store-import-body.test.ts',
  'test/unit/timeline-page-index.test.ts',
];

/**
 * The long files first, then the other integration files, then the in-process ones (their long ones
 * first): many short files that fill the workers while the last integration files end. Within each part,
 * vitest's own order (the last run's durations when it has them, else the larger file first).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const file = path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/');
      const known = LONG_FIRST.indexOf(file);
      if (known >= 0) return known;
      if (INTEGRATION.some((dir) => file.startsWith(dir))) return LONG_FIRST.length;
      const long = LONG_IN_PROCESS.indexOf(file);
      return LONG_FIRST.length + 1 + (long >= 0 ? long : LONG_IN_PROCESS.length);
    };
    const position = new Map(sorted.map((spec, i) => [spec, i]));
    return sorted.sort((a, b) => rank(a) - rank(b) || position.get(a)! - position.get(b)!);
  }
}

export default defineConfig({
  test: {
    maxWorkers,
    reporters: ['default'],
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    include: [
      ...INTEGRATION.map((dir) => `${dir}**/*.test.ts`),
      'test/unit/**/*.test.ts',
      'test/rules/**/*.test.ts',
      'test/heldout/**/*.test.ts',
      'test/heldout-blind/**/*.test.ts',
      'test/heldout-unseen/**/*.test.ts',
      'test/heldout-fresh/**/*.test.ts',
    ],
  },
});
