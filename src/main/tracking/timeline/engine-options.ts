// What a timeline engine is given (TimelineEngineOptions), what `apply` is told about an event, and the
// ceiling of what offline input keeps (`bound`).
import type { Clock } from '../../clock';
import type { TimelineSettings } from '../timeline-settings';
import type { PageTimelineSummaryDto } from '../../../shared/timeline';
import type { LevelSource } from '../../../shared/rule-levels';
import type { PageRecords } from './quiet-pages';

export interface TimelineEngineOptions {
  clock: Clock;
  settings: TimelineSettings;
  /** called with the page's summary whenever a page changes (the core forwards it to the bus) */
  onChange?: (summary: PageTimelineSummaryDto) => void;
  /**
   * Whether anyone takes change reports now (default: always). Changed pages are judged either way (in
   * batches, so reads stay quick); while nobody listens, their summaries are neither built nor sent (the
   * core asks the bus whether a UI, a stream client or notifications listen).
   */
  reportChanges?: () => boolean;
  /**
   * Keep at most this many events (over all pages): the oldest pages are forgotten first, as the event
   * store's retention forgets their events. The page an event lands on is never dropped for it.
   */
  maxEvents?: number;
  /** keep at most this many pages (oldest forgotten first) */
  maxPages?: number;
  /**
   * Report changes at most every this many ms of real time (a page changed by a burst of events is
   * reported once, with its latest state; its rules run once) instead of after every event.
   * The sandbox batches; unit tests get every change at once.
   */
  batchChangesMs?: number;
  /** attribution window of order-line credit (config `attribution.windowHours`), default 24 h */
  attributionWindowMs?: number;
  /**
   * The user's per-rule severity (config `rules`, `accounts[].rules`; `check --rule`): findings carry
   * the effective severity and where it was set; `off` removes the rule. Rules never decide it.
   */
  levels?: LevelSource;
  /**
   * Offline input (`check`, imports of recordings): no idle timers; pages are judged as finished when
   * they are released or when the input ends.
   */
  offline?: boolean;
  /**
   * Keep the page index (live default; offline engines never do): lists by verdict, site, rule and kind
   * cost what they return, and reads skip pages judged exactly since they last changed. false: every read
   * judges every page (the reference the index is tested against).
   */
  pageIndex?: boolean;
  /**
   * Keep every click and quick add for the credit of order lines (default). false: `check`'s streamed
   * report has pages only, no orders, and no rule reads credit: a quick add moves the visit's cart on
   * (cart-inconsistent's exemption) and notes its prices (price-unit-mismatch) but is not kept, a click is
   * kept only while a page left to judge can read it (pageview-not-clicked; a long recording's clicks were
   * most of what check held), and `orders()` of such an engine has no credit on any line.
   */
  credit?: boolean;
  /**
   * The store's events of one page (its siteId and body `context.pageLoadId`), oldest first. Given (the
   * live sandbox), a quiet page lets go of its events, and they are read back from here
   * whenever something reads them (its rules run again, its DTO, a free-text or event filter): a store of
   * a million events holds each once, not also as the rules' copy. A page whose events the store cannot
   * give back as they were applied (a body kept as text, an event retention already dropped) keeps them.
   */
  pageRecords?: PageRecords;
}

export interface ApplyOptions {
  /** do not call onChange (replaying the store at start) */
  quiet?: boolean;
}

/** What `check` keeps of cross-page state at most (`bound`). */
export interface OfflineLimits {
  maxVisits: number;
  maxResponses: number;
  /** keys of released pages remembered (an event for one of them is noted as judging it in parts) */
  maxReleased: number;
}
