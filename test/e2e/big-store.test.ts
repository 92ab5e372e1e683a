// A big store loads in two steps (the newest 1,000 first, painted at once, then the whole window): the
// lists end up whole. `npm run bench -- store` measures the first paint with a million stored events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchDraft } from '../helpers/drafts';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
const PAGES = 1_500;

describe.skipIf(skip)('a store bigger than the first slice', () => {
  let s: UiSession;
  beforeAll(async () => {
    s = await openUi();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows every page and every request once both steps have loaded', async () => {
    const drafts = Array.from({ length: PAGES }, (_, n) =>
      searchDraft('render', {
        context: {
          timestamp: new Date(Date.now() - (PAGES - n) * 1000).toISOString(),
          pageUrl: `https://shop.example/search?q=term${n}`,
          userId: `u-${n}`,
          sessionId: `s-${n}`,
          pageLoadId: `big-${n}`,
          initiator: 'big-store-test',
        },
        data: { responseId: `r-${n}` },
      }),
    );
    const res = await fetch(`${s.sandbox.url}/_sandbox/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(drafts),
    });
    expect(res.status).toBe(200);
    await s.page.reload();
    await s.ui.open('#/timelines');
    await expect
      .poll(() => s.ui.testId('pages-shown').textContent(), { timeout: 20_000 })
      .toBe('1,500 pages');
    await s.ui.open('#/requests');
    await expect
      .poll(() => s.ui.testId('requests-count').textContent(), { timeout: 20_000 })
      .toMatch(/1,500/);
  });
});
