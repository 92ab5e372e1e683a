// A sandbox for the timelines benchmark, in its own process: journal in a temp data dir, as `serve` runs.
// `--timelines-off` unhooks the timeline engine (the only difference). Prints its URL when ready.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_CONFIG_PATH, loadConfig } from '../../src/main/config';
import { capHeapGrowth } from '../../src/main/heap';
import { createSandbox } from '../../src/main/sandbox';

// as `serve` runs it: the heap's growth capped while it is big
capHeapGrowth();
const dir = mkdtempSync(path.join(tmpdir(), 'bench-timelines-'));
const base = loadConfig(
  { port: 0, host: '127.0.0.1', config: DEMO_CONFIG_PATH, data: path.join(dir, 'data') },
  {},
);
const sandbox = await createSandbox(
  { ...base, retention: { events: 1_000_000 } },
  { rendererDir: null },
);
if (process.argv.includes('--timelines-off')) {
  // what ingest costs without timelines: the engine's entry point does nothing
  (sandbox.core.timelines as unknown as { apply: () => void }).apply = () => {};
}
process.stdout.write(`listening on ${sandbox.url}\n`);
process.on('SIGTERM', () => {
  void sandbox.close().then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
