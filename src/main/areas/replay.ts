// The stored events go to the timelines as the journal is read back at start, each while it is still held
// as parsed (read back from the compact store afterwards, a million events took ~18 s more to start), and
// what the journal did to the store the timelines do too: a reset forgets the site's pages, an event
// retention drops forgets its page once let go, as a sandbox that had taken the same beacons live.
// Pages judged now (letGoReplayed) are judged as they will be read: the search responses they name are
// known, so the provenance rules need not judge them again. The journal is read a megabyte at a time, each
// read a turn of the event loop: the heap's growth cap (heap.ts) is decided there, after each full
// collection (a load that never gave the loop a turn grew the heap uncapped: 2 GB of RSS).
import type { UpstreamAnswer } from '../../shared/events';
import type { LockedEventStore } from '../store/open-events';
import type { TimelineEngine } from '../tracking/timeline/engine';

export interface Replayed {
  /** events read back */
  count: number;
  /** the start-up warning of events the timelines could not take, or null */
  warning: string | null;
}

/** Read the journal back into `timelines`, the real service's stored answers put back on their events. */
export async function replayJournal(
  store: Pick<LockedEventStore, 'load'>,
  timelines: TimelineEngine,
  answers: ReadonlyMap<string, UpstreamAnswer>,
): Promise<Replayed> {
  let count = 0;
  // An event the timelines cannot take (a bug in a rule) must not stop the sandbox from starting: the
  // live path logs such an error and keeps the 200; here the start-up warnings say so (health, the UI).
  const unreplayed = { count: 0, first: '' };
  timelines.beginReplay();
  await store.load({
    upstream: (eventId) => answers.get(eventId),
    event(event) {
      try {
        timelines.apply(event, { quiet: true });
      } catch (err) {
        if (unreplayed.count++ === 0) unreplayed.first = `${event.id}: ${(err as Error).message}`;
      }
      if (++count % 50_000 === 0) timelines.letGoReplayed(10_000);
    },
    reset: (siteId) => timelines.reset(siteId),
  });
  // the quiet pages of the newest events too: judged now, rather than let go unjudged by their idle timers
  timelines.endReplay();
  return { count, warning: unreplayed.count > 0 ? unreplayedWarning(unreplayed) : null };
}

function unreplayedWarning({ count, first }: { count: number; first: string }): string {
  return `${count} stored event${count === 1 ? '' : 's'} could not be replayed into the timelines (first: ${first}); their pages are judged without them. This is a bug in search-sandbox: please report it with the event (GET /_sandbox/events/{id})`;
}
