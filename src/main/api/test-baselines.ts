// The Playwright fixture's view of the sandbox for one test: expectMatchesBaseline keeps that test's
// baselines beside its file and follows Playwright's --update-snapshots (without it, a missing baseline is
// written and the test fails, as toMatchSnapshot does). A module of its own, imported by the
// fixture only: the package's main entry exports nothing of it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxClient, TestBaselines } from './client.js';
import type { WrittenThisRun } from './baseline.js';

/** the key client.ts reads a test's baselines under (testBaselinesOf) */
const TEST_BASELINES = Symbol.for('search-sandbox.test-baselines');

export function withTestBaselines<S extends SandboxClient>(
  sandbox: S,
  testInfo: {
    file: string;
    config: { updateSnapshots: string };
    annotations: Array<{ type: string; description?: string }>;
    retry?: number;
    project?: { outputDir: string };
  },
): S {
  const perTest = Object.create(sandbox) as S;
  const baselines: TestBaselines = {
    // the package's default folder name (beacon-baselines), beside the test file
    dir: path.join(path.dirname(testInfo.file), 'beacon-baselines'),
    updateSnapshots: testInfo.config.updateSnapshots,
    // a baseline written or rewritten, as Playwright says a snapshot written: in the output and the report
    told: ({ note, warnings }) => {
      if (note) {
        console.log(note);
        testInfo.annotations.push({ type: 'search-sandbox baseline', description: note });
      }
      for (const warning of warnings ?? [])
        testInfo.annotations.push({ type: 'search-sandbox warning', description: warning });
    },
  };
  if (testInfo.project)
    baselines.writtenThisRun = writtenInRun(testInfo.project.outputDir, testInfo.retry ?? 0);
  Object.defineProperty(perTest, TEST_BASELINES, { value: baselines });
  return perTest;
}

/**
 * The baselines written missing in this run, kept as one empty file each in the project's output folder,
 * which Playwright empties when a run starts: an attempt's worker is gone when its retry starts.
 */
function writtenInRun(outputDir: string, retry: number): WrittenThisRun {
  const marker = (file: string) =>
    path.join(
      outputDir,
      '.search-sandbox-baselines-written',
      createHash('sha256').update(file).digest('hex').slice(0, 32),
    );
  return {
    add(file) {
      mkdirSync(path.dirname(marker(file)), { recursive: true });
      writeFileSync(marker(file), '');
    },
    earlier: (file) => retry > 0 && existsSync(marker(file)),
  };
}
