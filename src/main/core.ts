// The sandbox's domain as the HTTP layer and the shells see it: the core's interface, apart from
// sandbox.ts (which builds it and starts the HTTP listener), so routes never import the composition root.
import type { SandboxClock } from './clock';
import type { Bus } from './bus';
import type { SandboxConfig } from './config';
import type { EventStore } from './store/types';
import type { ExportSection } from './store/export-format';
import type { TrackingIngest } from './tracking/ingest';
import type { TimelineEngine } from './tracking/timeline/engine';
import type { IndexingService } from './indexing/service';
import type { SearchService } from './search/service';
import type { SearchUpstream } from './search/upstream';
import type { BeaconForwarder } from './tracking/forward';
import type { AreaRoutes } from './areas/area';

/** What `core.reset` forgets: events (and their timelines), or everything incl. feeds and outbox; one site or all. */
export type { ResetScope } from '../shared/stream';
import type { ResetScope } from '../shared/stream';

/** The sandbox's domain, without HTTP: what routers and tests talk to. */
export interface SandboxCore {
  readonly config: SandboxConfig;
  readonly clock: SandboxClock;
  readonly bus: Bus;
  readonly version: string;
  /** every recorded tracking request (journaled when config.dataDir is set) */
  readonly events: EventStore;
  /** beacon v2 ingest: validates, records every request in `events`, answers like the real service */
  readonly tracking: TrackingIngest;
  /** beacon timelines (session → page → responseId → events) with the rules' findings, fed by `events` */
  readonly timelines: TimelineEngine;
  /** bulk indexing: feeds (state machine, scheduler), catalogs, outbox */
  readonly indexing: IndexingService;
  /** companion search API over the indexed catalogs; remembers what each issued responseId contained */
  readonly search: SearchService;
  /** search pass-through to the real service for sites with `search.upstream` */
  readonly searchUpstream: SearchUpstream;
  /** beacon forwarding to the real service for sites with `tracking.forward` (answers land on events) */
  readonly forwarding: BeaconForwarder;
  /**
   * Forget events (and, with what: 'all', feeds and outbox) of one site or all; runs the onReset handlers,
   * then emits `reset`; one sent while an import runs waits for the import to end (and then forgets its
   * events too). `importId`: the reset is a replacing import's, in that import's turn (undone with it if
   * it never completes).
   */
  reset(scope: ResetScope, importId?: string): Promise<void>;
  /** Areas that keep derived or mutable state (timelines, feeds, outbox) register here to be reset too. */
  onReset(handler: (scope: ResetScope) => void | Promise<void>): () => void;
  /** Areas add their state (feeds, outbox, …) to `GET /_sandbox/export` under `name`; `import` restores it. */
  addExportSection(name: string, section: ExportSection): void;
  exportSections(): ReadonlyMap<string, ExportSection>;
  /** each area's routers over this sandbox, in the areas' order: what the HTTP app mounts */
  routes(): AreaRoutes[];
  /** problems found at start-up that did not stop it (e.g. a torn journal line), for health and the UI */
  warnings(): string[];
  /** why the data directory cannot take a write now (a full disk, no permission), null when it can or there is none */
  storageProblem(): Promise<string | null>;
  close(): Promise<void>;
}
