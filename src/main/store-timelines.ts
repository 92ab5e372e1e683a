// The timelines engine over the sandbox's event store, as the tracking area builds it (areas/tracking.ts)
// and the benchmarks that measure what it costs build it again (test/bench/ladder-server.ts,
// domain-child.ts).
import { configLevels } from '../shared/rule-levels';
import type { Clock } from './clock';
import type { SandboxConfig } from './config';
import type { EventLog } from './store/event-log';
import { TimelineEngine } from './tracking/timeline/engine';
import type { TimelineEngineOptions } from './tracking/timeline/engine-options';

/** Who hears of changed pages: the sandbox's bus; nobody in a benchmark. */
export type ChangeReports = Pick<TimelineEngineOptions, 'onChange' | 'reportChanges'>;

export function storeTimelines(
  config: SandboxConfig,
  clock: Clock,
  events: EventLog,
  changes: ChangeReports = { reportChanges: () => false },
): TimelineEngine {
  return new TimelineEngine({
    clock,
    settings: config.timelines,
    attributionWindowMs: config.attribution.windowHours * 3_600_000,
    levels: configLevels(config.rules, config.accounts, config.configSource),
    maxEvents: config.retention.events,
    batchChangesMs: 100,
    ...changes,
    // a quiet page lets its events go and reads them back from here: held once, in the store
    pageRecords: {
      records: (siteId, pageLoadId) => events.query({ siteId, pageLoadId }),
      count: (siteId, pageLoadId, test) => events.countPage(siteId, pageLoadId, test),
    },
  });
}
