// The timeline rules over traffic read from files (`search-sandbox check`, the sample sessions, the fault
// corpus): every event applied in order, the issued search responses as provenance, then the input counts
// as complete (idle), so rules that wait for the page to settle decide.
import { SandboxClock } from '../../clock';
import { defaultTimelineSettings } from '../../config';
import type { RecordedEvent } from '../../../shared/events';
import type { PageTimelineDto } from '../../../shared/timeline';
import type { OrderDto } from '../../../shared/visits';
import type { LevelSource } from '../../../shared/rule-levels';
import type { IssuedResponse } from '../../search/responses';
import { TimelineEngine } from './engine';
import { offlineProvenance } from './offline-provenance';

export function checkOffline(
  events: Iterable<RecordedEvent>,
  responses: readonly IssuedResponse[] = [],
  now = Date.now(),
  levels?: LevelSource,
): PageTimelineDto[] {
  return judgeOffline(events, responses, now, levels).pages;
}

/** The pages with their findings, and the orders with the credit of each line. */
export function judgeOffline(
  events: Iterable<RecordedEvent>,
  responses: readonly IssuedResponse[] = [],
  now = Date.now(),
  levels?: LevelSource,
): { pages: PageTimelineDto[]; orders: OrderDto[] } {
  const clock = new SandboxClock({ frozen: true, start: now });
  const engine = new TimelineEngine({
    clock,
    settings: defaultTimelineSettings(),
    ...(levels && { levels }),
  });
  try {
    for (const ev of events) engine.apply(ev);
    // an export's issued search responses let the provenance rules judge its beacons, as live
    if (responses.length > 0) engine.setProvenance(offlineProvenance(responses));
    engine.finish();
    return { pages: engine.pagesDto(), orders: engine.orders() };
  } finally {
    engine.dispose();
    clock.dispose();
  }
}
