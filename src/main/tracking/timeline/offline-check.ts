// The timeline rules over traffic read from files (`search-sandbox check`, the sample sessions, the fault
// corpus): every event applied in order, the issued search responses as provenance, then the input counts
// as complete (idle), so rules that wait for the page to settle decide.
import { SandboxClock } from '../../clock';
import { defaultTimelineSettings } from '../timeline-settings';
import type { RecordedEvent } from '../../../shared/events';
import type { PageTimelineDto, PageVerdictDto } from '../../../shared/timeline';
import type { OrderDto } from '../../../shared/visits';
import type { LevelSource } from '../../../shared/rule-levels';
import type { IssuedResponse } from '../../search/responses';
import { TimelineEngine, type OfflineLimits } from './engine';
import { pageDto } from './dto';
import type { Page } from './page';
import { offlineProvenance, type RecordedSite } from './offline-provenance';
import type { ProvenanceCatalog, ProvenanceSource } from './rules/utils/provenance';
import {
  servedBy,
  type Asked,
  type CreditedOrder,
  type ReadinessInputs,
  type Served,
} from './readiness';
import { recordedCatalogViews, type RecordedCatalog } from '../../search/catalog-view';
import { isResponseKind } from '../../../shared/kinds';
import type { UnverifiedDto } from '../../../shared/readiness';
import { unjudgedWithoutIssued } from './unjudged';
import { grouped, plural } from '../../../shared/text';

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

/** Pages kept open at most while offline input streams in (`check`): beyond it the oldest settled go. */
const MAX_OPEN_PAGES = 5_000;
/** a page that got an event among this many last applied is never released (it is still being sent) */
const RECENT_EVENTS = 20_000;
/** release is looked at once per this many events */
const RELEASE_EVERY = 1_024;
/** visits kept while offline input streams in (the visit rules read their pages, cart and orders): beyond it the oldest go */
const MAX_VISITS = 50_000;
/** responseIds whose first page is kept (responseid-reused, -cross-kind): beyond it the oldest go */
const MAX_RESPONSES = 250_000;
/** released pages remembered, so that an event for one is noted: beyond it the oldest go */
const MAX_RELEASED = 250_000;

const NONE: readonly never[] = [];

/** Every ceiling of `check`: the open pages, and the cross-page state (`TimelineEngine.bound`). */
export interface OfflineJudgeLimits extends OfflineLimits {
  /** pages kept open at most (beyond it the oldest settled are judged and go) */
  maxOpen: number;
  /** a page that got an event among this many last applied is never released */
  recent: number;
}

/** The ceilings `check` runs with. */
export const CHECK_LIMITS: Readonly<OfflineJudgeLimits> = {
  maxOpen: MAX_OPEN_PAGES,
  recent: RECENT_EVENTS,
  maxVisits: MAX_VISITS,
  maxResponses: MAX_RESPONSES,
  maxReleased: MAX_RELEASED,
};

/**
 * The timeline rules over input too big to hold (`check` on a million events): events are applied as
 * they are read; pages are handed over judged as soon as they have settled, and forgotten.
 * Up to MAX_OPEN_PAGES pages it judges exactly as `checkOffline`, page for page, in the same order.
 */
/** What to do when the input is an export whose search section holds no response. */
const EXPORT_WITHOUT_RESPONSES =
  "the export's search section holds no response, so the storefront's searches did not go through the sandbox that recorded it: point its search, autocomplete and recommend requests at the sandbox (accounts[].search.companion), record the journey again and export it";

export class OfflineJudge<P extends PageVerdictDto = PageTimelineDto> {
  private readonly clock: SandboxClock;
  /** what a judged page is handed over as: whole, or its verdict alone (a report that writes no events) */
  private readonly dtoOf: (page: Page) => P;
  private readonly engine: TimelineEngine;
  private readonly responses: IssuedResponse[] = [];
  /** sites given a catalog (`setCatalogs`) whose events have not come yet */
  private readonly catalogsUnused = new Set<string>();
  private readonly sites: RecordedSite[] = [];
  /** from when the recording's responses are all its sandbox issued (an export says; else the earliest) */
  private rememberedSince: number | undefined;
  /** catalogs a recording carried, and those given beside it (`check --catalog`), which win */
  private readonly recordedCatalogs = new Map<string, ProvenanceCatalog>();
  private givenCatalogs: ReadonlyMap<string, ProvenanceCatalog> = new Map();
  /** the issued responses, sites and catalogs the rules judge against (none before a recording gives them) */
  private provenance: ProvenanceSource | undefined;
  /** siteId → `kind responseId` a HAR's search requests asked for with the tracker's context */
  private readonly askedIds = new Map<string, Set<string>>();
  private count = 0;
  /** an event of a response kind (search, category, …) was read: the provenance rules had one to judge */
  private responseEvents = false;
  /** an export's search section was read (its sites or its memory's start), though it may hold no response */
  private exportSearch = false;

  constructor(
    private readonly now: number,
    private readonly levels?: LevelSource,
    private readonly limits: OfflineJudgeLimits = CHECK_LIMITS,
    {
      credit = false,
      pages,
    }: {
      /**
       * keep the clicks that credit orders (readiness reads order.credit); else a click is kept only while
       * a page left to judge can read it, a quick add not at all
       */
      credit?: boolean;
      /** each judged page as it is handed over (default: the whole page, `pageDto`) */
      pages?: (page: Page) => P;
    } = {},
  ) {
    // the default is the whole page, which a P of the default type is
    this.dtoOf = pages ?? (pageDto as unknown as (page: Page) => P);
    this.clock = new SandboxClock({ frozen: true, start: now });
    this.engine = new TimelineEngine({
      clock: this.clock,
      settings: defaultTimelineSettings(),
      offline: true,
      // the report is pages only: a recording's clicks are not kept for order credit nobody reads, only
      // for the page rules that read them
      credit,
      ...(levels && { levels }),
    });
  }

  /**
   * An export's issued search responses, its sites' settings and the catalogs it checked their ids
   * against: the provenance and catalog rules judge the events read from now on.
   */
  addRecorded(
    list: readonly IssuedResponse[],
    sites: readonly RecordedSite[] = [],
    catalogs: readonly RecordedCatalog[] = [],
    rememberedSince?: number,
  ): void {
    for (const r of list) this.responses.push(r);
    if (sites.length > 0 || rememberedSince !== undefined) this.exportSearch = true;
    if (rememberedSince !== undefined)
      this.rememberedSince = Math.min(this.rememberedSince ?? Infinity, rememberedSince);
    for (const s of sites) this.sites.push(s);
    if (catalogs.length > 0)
      for (const [siteId, view] of recordedCatalogViews(catalogs, new Date(this.now).toISOString()))
        this.recordedCatalogs.set(siteId, view);
    this.provenanceChanged();
  }

  /**
   * The sites' catalogs given beside the recording (by siteId, `check --catalog`): the catalog rules judge
   * those sites' events read from now on, against these rather than any the recording carries.
   */
  setCatalogs(catalogs: ReadonlyMap<string, ProvenanceCatalog>): void {
    this.givenCatalogs = catalogs;
    for (const siteId of catalogs.keys()) this.catalogsUnused.add(siteId);
    this.provenanceChanged();
  }

  private provenanceChanged(): void {
    const catalogs = new Map([...this.recordedCatalogs, ...this.givenCatalogs]);
    this.provenance = offlineProvenance(this.responses, this.sites, catalogs, this.rememberedSince);
    this.engine.setProvenance(this.provenance);
  }

  /** A HAR's search requests that carried the tracker's context (readiness: search.request-context). */
  addAsked(list: readonly { siteId: string; kind: string; responseId: string }[]): void {
    for (const a of list) {
      let ids = this.askedIds.get(a.siteId);
      if (!ids) this.askedIds.set(a.siteId, (ids = new Set()));
      ids.add(`${a.kind} ${a.responseId}`);
    }
  }

  /** Whether a recording's own search request asked for a site's response with the tracker's context. */
  asked(siteId: string): Asked {
    const ids = this.askedIds.get(siteId);
    return (kind, responseId) => ids?.has(`${kind} ${responseId}`) === true;
  }

  /** The sites' settings as the recording's sandbox had them, in the order exports gave them. */
  recordedSites(): readonly RecordedSite[] {
    return this.sites;
  }

  /** What the issued responses read so far say a site's responses served (readiness, as live reads it). */
  served(siteId: string): Served {
    return servedBy(this.provenance, siteId);
  }

  /**
   * Apply one event; the pages that settled meanwhile, judged. Pages are released once every RELEASE_EVERY
   * events: the other events return an empty list, not a generator made for each.
   */
  apply(ev: RecordedEvent): Iterable<P> {
    if (this.catalogsUnused.size > 0) this.catalogsUnused.delete(ev.siteId);
    if (!this.responseEvents && isResponseKind(ev.category)) this.responseEvents = true;
    this.engine.apply(ev);
    return ++this.count % RELEASE_EVERY === 0 ? this.release() : NONE;
  }

  private *release(): Generator<P> {
    yield* this.engine.release(this.limits.maxOpen, this.limits.recent, this.dtoOf);
    this.engine.bound(this.limits);
  }

  /** The input ended: every page still open, judged as finished. */
  *end(): Generator<P> {
    yield* this.engine.releaseAll(this.dtoOf);
  }

  /** What the site's rules had beyond its traffic, as the running sandbox reads it (readiness). */
  inputs(siteId: string): ReadinessInputs {
    return this.engine.readinessInputs(siteId);
  }

  /** The pages of the site's orders with a credited line (readiness's order.credit; needs `credit`). */
  creditedOrders(siteId: string): Iterable<CreditedOrder> {
    return this.engine.creditedOrders(siteId);
  }

  /**
   * The rules that did not judge the input for lack of what they judge with: those that need the issued
   * responses, when the input had events of responses and carried none. Empty when nothing lacked.
   */
  unjudged(): UnverifiedDto[] {
    if (!this.responseEvents || this.responses.length > 0) return [];
    const u = unjudgedWithoutIssued((rule) => this.levels?.level('', rule)?.level === 'off');
    if (u.rules.length === 0) return [];
    // an export's search section with no response: the sandbox that recorded it issued none, so an export
    // is no way to give them (the general advice says to check one)
    return [this.exportSearch ? { ...u, how: EXPORT_WITHOUT_RESPONSES } : u];
  }

  /** What the judgement could not hold (forgotten state, pages judged in parts): said once each. */
  notes(): string[] {
    const notes: string[] = [];
    // a catalog given for a site the input never names judged nothing: most often a mistyped siteId
    for (const siteId of this.catalogsUnused)
      notes.push(
        `--catalog ${siteId}: the input holds no event of site ${siteId}, so its catalog checked nothing (is the siteId the one in the beacons' path, /beacon/v2/SITE/…?)`,
      );
    const { visits, responses, released, late } = this.engine.forgottenState();
    if (visits > 0)
      notes.push(
        `${grouped(visits)} of the oldest visits were forgotten while the input streamed in (more than ${grouped(this.limits.maxVisits)} were open): a later event of a forgotten visit begins it again, so its pages are not compared with the visit's first identity and mode (visit-user-changed, visit-dev-mixed) nor its cart events with the cart before (cart-inconsistent). Check such long recordings in parts, by day or by session`,
      );
    if (responses > 0)
      notes.push(
        `the first pages of ${grouped(responses)} of the oldest responseIds were forgotten (more than ${grouped(this.limits.maxResponses)} were seen): a responseId reused that much later is not reported (responseid-reused)`,
      );
    if (released > 0)
      notes.push(
        `${grouped(released)} of the pages judged first while the input streamed in are no longer remembered (more than ${grouped(this.limits.maxReleased)} were judged before the input ended): an event for one of them makes a new page of it, without the note on pages judged in parts`,
      );
    if (late > 0)
      notes.push(
        `${plural(late, 'event')} came more than a minute (in ${late === 1 ? 'its' : 'their'} visit's time) behind the events of ${late === 1 ? 'its' : 'their'} visit before ${late === 1 ? 'it' : 'them'}, after check had let go of the clicks and pages that only such an event reads: ${late === 1 ? 'it was' : 'they were'} judged without them (pageview-not-clicked). Sort the input by time, or check such sessions on their own`,
      );
    const reopened = this.engine.reopenedPages();
    return reopened.count === 0 ? notes : [...notes, this.inPartsNote(reopened)];
  }

  /**
   * Pages that got events after they were released: said once, plainly, with what of the judgement the
   * split can change (each part is judged on its own; the later part stays in the visit of the earlier).
   */
  private inPartsNote({ count, first }: { count: number; first: string[] }): string {
    const { maxOpen, recent } = this.limits;
    const why = `sent nothing while ${grouped(recent)} other events were read, with more than ${grouped(maxOpen)} pages open`;
    const what =
      count === 1
        ? `page ${first[0]} was judged in two parts: it ${why}, so check judged it and let it go, and the events it sent later were judged as a second part, in the same visit`
        : `${count} times a page sent events after check had judged it and let it go (it ${why}), so these pages were judged in parts: ${first.join(', ')}${count > first.length ? ', …' : ''}; each later part was judged in the same visit as the earlier`;
    return `${what}. A finding that needs both parts may be one the running sandbox does not report: a render in one part and its response's impressions or clicks in the other (missing-render), a tile impressed in one and clicked in the other (click-not-impressed), impressions sent only in the later part (no-impression). Check such sessions on their own to judge each page whole`;
  }

  dispose(): void {
    this.engine.dispose();
    this.clock.dispose();
  }
}
