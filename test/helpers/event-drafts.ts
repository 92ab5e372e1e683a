// Recorded-event drafts for store tests: an accepted search/render of `siteId`, the n-th of a run.
import type { EventDraft } from '../../src/main/store/types';

export function renderDraft(siteId = 'demo42', n = 0): EventDraft {
  return {
    receivedAt: new Date(Date.UTC(2026, 10, 21) + n).toISOString(),
    siteId,
    category: 'search',
    event: 'render',
    path: `/beacon/v2/${siteId}/search/render`,
    accepted: true,
    status: 200,
    errors: [],
    body: { context: { pageLoadId: `p${n}` }, data: { responseId: `r${n % 3}` } },
  };
}
