// Counts in what the indexing side says to people (history, start-up warnings) read as the Feeds board
// writes them: digits grouped in thousands, en-US.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import { tempDir } from '../helpers/sandbox';
import { runToEnd, startFrozen, upload } from './indexing-helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('groups the thousands of a product count in the history and in the start-up warning of a lost catalog', async () => {
  const { dir, cleanup } = tempDir('feed-counts-');
  cleanups.push(cleanup);
  const rows = Array.from({ length: 1200 }, (_, i) => `P${i},product ${i},${i + 1}`);
  const first: Sandbox = await startFrozen({ dataDir: dir });
  let closed = false;
  cleanups.push(() => (closed ? undefined : first.close()));
  expect((await upload(first.url, 'feedId=42', `id,name,price\n${rows.join('\n')}\n`)).status).toBe(
    200,
  );
  const view = await runToEnd(first, 42);
  expect(view.history.at(-1)!.detail).toBe('indexed 1,200 products');
  await first.close();
  closed = true;

  rmSync(path.join(dir, 'catalogs', 'demo42-42.ndjson'));
  const again = await startFrozen({ dataDir: dir });
  cleanups.push(() => again.close());
  const health = (await (await fetch(`${again.url}/_sandbox/health`)).json()) as {
    warnings: string[];
  };
  expect(health.warnings).toContainEqual(
    expect.stringContaining(
      'its catalog of 1,200 products is not in the data directory: index the feed again',
    ),
  );
});
