// Test data shared by import, export and benchmark code: recorded-event drafts as POST /_sandbox/import
// takes them, and a counter of event-loop turns (proof that other work ran while something long did).

/** An accepted search event of demo42 (or `over.siteId`), received at a fixed time unless told otherwise. */
export function searchDraft(
  event: string,
  body: unknown,
  over: { siteId?: string; receivedAt?: string } = {},
): Record<string, unknown> {
  const siteId = over.siteId ?? 'demo42';
  return {
    receivedAt: over.receivedAt ?? '2026-11-21T04:00:00.000Z',
    siteId,
    category: 'search',
    event,
    path: `/beacon/v2/${siteId}/search/${event}`,
    accepted: true,
    status: 200,
    errors: [],
    body,
  };
}

/** Count turns of the event loop (a setImmediate chain) until `stop()`, which returns the count. */
export function countTurns(): { stop(): number } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return turns;
    },
  };
}
