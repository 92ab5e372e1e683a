// The tracking area: beacon v2 ingest over the recorded events, the timelines derived from them (rebuilt
// from the journal at start, then fed each append) and the forwarding of beacons to the real service. It
// needs the search area's issued responses and the indexing area's catalogs before it reads the journal:
// the timelines judge each event against them as it is read back.
import type { SandboxConfig } from '../config';
import { storeTimelines } from '../store-timelines';
import { UpstreamLog } from '../store/upstream-log';
import { TrackingIngest } from '../tracking/ingest';
import { BeaconForwarder, type ForwardSite } from '../tracking/forward';
import type { TimelineEngine } from '../tracking/timeline/engine';
import { trackingAdminRouter, trackingRouter } from '../http/routes/tracking';
import { adminTimelinesRouter } from '../http/routes/admin-timelines';
import { adminRulesRouter } from '../http/routes/admin-rules';
import { adminVisitsRouter } from '../http/routes/admin-visits';
import { adminReadinessRouter } from '../http/routes/admin-readiness';
import { replayJournal } from './replay';
import type { EventLog } from '../store/event-log';
import type { Area, AreaBase, AreaRoutes } from './area';

export interface TrackingArea {
  /** beacon v2 ingest: validates, records every request, answers like the real service */
  readonly tracking: TrackingIngest;
  /** beacon timelines (session → page → responseId → events) with the rules' findings */
  readonly timelines: TimelineEngine;
  /** beacon forwarding to the real service for sites with `tracking.forward` */
  readonly forwarding: BeaconForwarder;
}

export interface TrackingOptions {
  /** told how many stored events were replayed at start, once they were */
  afterReplay?: (replayed: number) => void;
}

export function trackingArea(
  options: TrackingOptions = {},
): Area<'tracking', 'recordings' | 'indexing' | 'search'> {
  return {
    name: 'tracking',
    needs: ['recordings', 'indexing', 'search'],
    async open(base, { recordings: { events, store }, indexing, search }) {
      const { config, clock, bus, onClose } = base;
      // the real service's answers to forwarded beacons go back on their events as the journal is read,
      // before the timelines take them, so `upstream-disagrees` survives a restart
      const stored = await UpstreamLog.read(config.dataDir);
      const timelines = storeTimelines(config, clock, events, {
        onChange: (summary) => bus.emit({ type: 'timeline', data: summary }),
        reportChanges: () => bus.wants('timeline'),
      });
      onClose(() => timelines.dispose());
      timelines.setProvenance(search.search.provenance());
      // A re-indexed catalog changes what `item-not-in-catalog` says about that site's pages (only that:
      // a feed's progress, told several times a second while it parses, leaves them as they are). Told
      // before the journal is read, which gives the event loop turns: a feed indexed meanwhile re-judges its pages.
      indexing.catalog.onChange((siteId) => timelines.invalidate(siteId));
      events.onDrop((event) => timelines.storeDropped(event));
      const replayed = await replayJournal(store, timelines, stored.answers);
      const upstream = await UpstreamLog.start(
        config.dataDir,
        events,
        config.retention.events,
        stored,
      );
      // closed after forwarding stops (closes run in reverse): answers still in flight are written first
      onClose(() => upstream.log.close());
      const forwarding = forwarder(base, timelines, upstream.log);
      onClose(() => forwarding.close());
      options.afterReplay?.(replayed.count);
      events.onAppend((event) => {
        try {
          timelines.apply(event);
        } catch (err) {
          // a bug in a rule must never cost the storefront its 200
          console.error('search-sandbox: timeline update failed:', err);
        }
      });
      const tracking = new TrackingIngest(events, clock);
      return {
        service: { tracking, timelines, forwarding },
        warnings: [
          ...events.loadWarnings(),
          ...upstream.warnings,
          ...(replayed.warning ? [replayed.warning] : []),
        ],
        routes: () => trackingRoutes(base, { tracking, timelines, forwarding }, events),
        async reset(scope) {
          timelines.reset(scope.siteId);
          await upstream.log.pruned();
        },
      };
    },
  };
}

/** Beacons and the preflight; the timelines, rules, visits, readiness and schemas of the admin API. */
function trackingRoutes(
  { config, clock }: AreaBase,
  { tracking, timelines, forwarding }: TrackingArea,
  events: Pick<EventLog, 'count'>,
): AreaRoutes {
  return {
    provider: [trackingRouter(tracking, forwarding)],
    admin: [
      adminTimelinesRouter(timelines, clock),
      adminRulesRouter(),
      adminVisitsRouter(timelines),
      adminReadinessRouter(
        timelines,
        () => config.accounts,
        (siteId) => events.count({ siteId, limit: 1 }) > 0,
      ),
      trackingAdminRouter(tracking),
    ],
  };
}

/** Forwarding whose answers land on their events, in the answers' file and on the timelines. */
function forwarder(
  { config, clock, bus }: AreaBase,
  timelines: TimelineEngine,
  log: UpstreamLog,
): BeaconForwarder {
  return new BeaconForwarder({
    sites: forwardSites(config),
    clock,
    record(event, upstream) {
      // told once in the answers' file: a client that saw it finds it on its event after a restart
      log.add(event, upstream).then(
        () => bus.emit({ type: 'upstream', data: { eventId: event.id, upstream } }),
        (err: Error) =>
          console.error(
            `search-sandbox: could not store the real service's answer: ${err.message}`,
          ),
      );
      timelines.upstreamAnswered(event);
    },
  });
}

/** Sites whose beacons are forwarded to the real service (`accounts[i].tracking.forward`). */
function forwardSites(config: SandboxConfig): Map<string, ForwardSite> {
  const sites = new Map<string, ForwardSite>();
  for (const a of config.accounts)
    if (a.tracking?.forward)
      sites.set(a.siteId, {
        base: a.tracking.forward,
        timeoutMs: a.tracking.forwardTimeoutMs,
        queue: a.tracking.forwardQueue,
      });
  return sites;
}
