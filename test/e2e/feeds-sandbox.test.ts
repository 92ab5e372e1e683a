// What the feed board says of what the sandbox did by itself, in real Chromium: a catalog missing from the
// data directory at a restart is the feed's error, in its error box, badged as the sandbox's (not an
// injected fault), with no lastIndexed left claiming it; a feed with interval Never says why nothing moves it.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, tempDir } from '../helpers/sandbox';
import { openUi, RENDERER_DIR, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);

describe.skipIf(skip)('the feed board after a restart', () => {
  let s: UiSession;
  let data: { dir: string; cleanup: () => void };

  beforeAll(async () => {
    data = tempDir('feeds-sandbox-');
    s = await openUi({ dataDir: data.dir });
  });
  afterAll(async () => {
    await s?.close();
    data?.cleanup();
  });

  it('shows a catalog moved out of the data directory as the feed’s error, found by the sandbox', async () => {
    // the cart feed 43 indexes its source at the first start: its catalog is in the data directory
    const port = s.sandbox.port;
    await s.sandbox.close();
    rmSync(path.join(data.dir, 'catalogs', 'demo42-43.ndjson'));
    s.sandbox = await startSandbox({ port, dataDir: data.dir }, { rendererDir: RENDERER_DIR });

    await s.ui.open('#/feeds');
    const card = s.ui.feedCard(43);
    await s.ui.feedState(43, 'error');
    const error = card.getByTestId('feed-run-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'its catalog of 12 products is not in the data directory: index the feed again',
    );
    expect(await card.getByTestId('feed-products').textContent()).toBe('0');
    expect(await card.getByTestId('feed-last-indexed').textContent()).toBe('never');
    const lost = card
      .getByTestId('feed-history-43')
      .locator('[data-kind="transition"][data-to="error"]');
    expect(await lost.locator('.badge').textContent()).toBe('the sandbox');
    expect(await card.getByTestId('feed-history-43').textContent()).not.toContain('injected fault');
  });

  it('says why a feed with interval Never offers no hand move', async () => {
    await s.ui.open('#/feeds');
    await s.ui.feedState(44, 'done');
    expect(await s.ui.feedCard(44).getByTestId('feed-no-moves').textContent()).toContain(
      'interval Never',
    );
  });
});
