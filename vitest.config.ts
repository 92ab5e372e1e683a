import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Two kinds of test files, run side by side:
// - in-process tests (unit, rules, held-out): plain functions over the domain, no servers or child processes;
//   they share one module graph per worker (isolate: false), which spares re-importing the domain for each
//   of ~90 files (most of their time when isolated);
// - integration tests (admin and beacon APIs, the CLI, the UI in Chromium, faults): each file starts its own
//   servers and temporary directories, each in a fresh module graph as before.
// Most integration time is waiting (servers, child processes, Chromium), so even a 2-core machine runs two
// files at once (vitest's default there would be one).
const maxWorkers = Math.max(2, (os.availableParallelism?.() ?? os.cpus().length) - 1);

// A test about what the process has done so far (which beacon validators it compiled) needs a fresh one.
const FRESH_PROCESS = ['test/unit/warm-validators.test.ts'];

const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    maxWorkers,
    reporters: ['default'],
    projects: [
      {
        test: {
          ...shared,
          name: 'in-process',
          include: [
            'test/unit/**/*.test.ts',
            'test/rules/**/*.test.ts',
            'test/heldout/**/*.test.ts',
            'test/heldout-blind/**/*.test.ts',
            'test/heldout-unseen/**/*.test.ts',
          ],
          exclude: FRESH_PROCESS,
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: [
            'test/api/**/*.test.ts',
            'test/e2e/**/*.test.ts',
            'test/faults/**/*.test.ts',
            ...FRESH_PROCESS,
          ],
        },
      },
    ],
  },
});
