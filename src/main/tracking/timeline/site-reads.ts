// Reads across a site's pages and its visit book: visits, orders with the findings of their order pages,
// the revenue summary, and integration readiness, each from the pages as judged now.
import type {
  OrderDto,
  OrderFilter,
  OrdersSummaryDto,
  VisitDto,
  VisitFilter,
} from '../../../shared/visits';
import type { ReadinessDto } from '../../../shared/readiness';
import type { VisitBook, PageInfo, RefusedPage } from '../visits/book';
import { orderJson, ordersJson } from '../visits/order-findings';
import { summarizeOrders, summed } from '../visits/order-summary';
import { allFindings, judgedOf } from './dto';
import type { HeldPages } from './held-pages';
import type { PageReads } from './page-reads';
import {
  ReadinessMemo,
  ReadinessTally,
  type CreditedOrder,
  servedBy,
  sightPage,
  sightPageDto,
  type ReadinessInputs,
  type ReadinessSite,
} from './readiness';
import { ruleMeta } from './rule-list';
import type { ProvenanceSource } from './rules/utils/provenance';

export class SiteReads {
  /** what each page's findings count against in readiness, while they are the same (readiness.ts) */
  private readonly readinessMemo = new ReadinessMemo();

  constructor(
    private readonly pages: HeldPages,
    private readonly book: VisitBook,
    private readonly reads: PageReads,
    /** what the companion search issued (readiness asks how many results a response served) */
    private readonly provenance: () => ProvenanceSource | undefined,
    /** what a site's rules had beyond its traffic (readiness: what no rule could judge) */
    private readonly inputs: (siteId: string) => ReadinessInputs,
  ) {}

  /**
   * Integration readiness of a site (readiness.ts), from its pages as judged now and its orders' credit:
   * one step per page judged or read (a caller gives the loop back between slices), then the answer.
   * `finished`: a page still open is read as `check` reads it, judged as if it has ended (an idle page
   * already is), so that the answer is the one `check --readiness` gives of the sandbox's export.
   */
  *readinessSteps(site: ReadinessSite, finished = false): Generator<void, ReadinessDto> {
    for (const _ of this.reads.settle()) yield;
    const tally = new ReadinessTally();
    const served = servedBy(this.provenance(), site.siteId);
    let read = 0;
    for (const page of this.pages.values()) {
      if (page.siteId !== site.siteId) continue;
      if (finished && !page.idle) sightPageDto(tally, this.reads.finishedDto(page), served);
      else {
        this.reads.exactly(page);
        sightPage(tally, page, this.readinessMemo, () => judgedOf(page), served);
      }
      if (++read % 64 === 0) yield;
    }
    for (const order of this.creditedOrders(site.siteId)) {
      tally.creditedOrder(order);
      if (++read % 64 === 0) yield;
    }
    return tally.result(site, this.inputs(site.siteId));
  }

  /** The site's orders that have a credited line, oldest first: each with its page and its credits. */
  *creditedOrders(siteId: string): Generator<CreditedOrder> {
    for (const entry of this.book.orders.list({ siteId })) {
      // an order's JSON says "credit": null for a line without one
      if (!entry.json.includes('"credit":{')) continue;
      // the page from its key; the orderId, read from the order's JSON, only for a credit in doubt (rare)
      const json = entry.json;
      yield {
        pageLoadId: entry.pageKey.slice(siteId.length + 1), // its key is `${siteId}\u0000${pageLoadId}`
        orderId: () => (JSON.parse(json) as OrderDto).orderId,
        credits: entry.credits,
      };
    }
  }

  /** Visits (README, "The whole visit and its credit"), newest last. */
  visits(filter: VisitFilter = {}): VisitDto[] {
    return [...this.visitJson(filter)].map((j) => JSON.parse(j) as VisitDto);
  }

  /** One entry per order/transaction, newest last, each line with its credit. */
  orders(filter: OrderFilter = {}): OrderDto[] {
    return [...this.orderJson(filter)].map((j) => JSON.parse(j) as OrderDto);
  }

  /**
   * The same visits as JSON, each built when it is read and kept until the visit or its pages change
   * (the admin API streams them in slices: 10,000 visits must not hold the event loop).
   */
  visitJson(filter: VisitFilter = {}): Iterable<string> {
    return this.book.listVisits(filter, this.pageInfo, this.refusedPages);
  }

  /** The orders as JSON, each with the findings that concern it (read from its order page as judged now). */
  orderJson(filter: OrderFilter = {}): Iterable<string> {
    return ordersJson(this.book.orders.list(filter), this.pageFindings);
  }

  /** One order by the eventId of its order/transaction, as JSON; undefined when there is none. */
  orderJsonOf(eventId: string): string | undefined {
    const entry = this.book.orders.get(eventId);
    return entry && orderJson(entry, this.pageFindings);
  }

  /** What a revenue report would show of the orders (`breathe` gives the event loop back now and then). */
  ordersSummary(
    filter: OrderFilter,
    breathe?: () => Promise<void> | void,
  ): Promise<OrdersSummaryDto> {
    return summarizeOrders(summed(this.book.orders.list(filter), this.pageFindings), breathe);
  }

  private readonly pageFindings = (key: string) => {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.reads.exactly(page);
    return allFindings(page).map((f) => {
      const meta = ruleMeta(f.rule);
      return { ...f, wholeVisit: meta?.appliesTo.includes('visit') };
    });
  };

  /** The pages of a site's session whose every event was refused, judged now, in page order. */
  private readonly refusedPages = (siteId: string, sessionId: string): RefusedPage[] => {
    const out: RefusedPage[] = [];
    for (const page of this.pages.byId.candidates({ sessionId }) ?? []) {
      if (page.siteId !== siteId || page.accepted > 0 || page.arrivals === 0) continue;
      this.reads.evaluate(page, false);
      out.push({
        pageLoadId: page.pageLoadId,
        pageUrl: page.pageUrl,
        kind: page.pageKind,
        verdict: page.verdict,
        // its events' time (a page of one event mostly), as the visit's pages are placed by theirs
        first: Number.isFinite(page.maxTime) ? page.maxTime : (page.firstSeenMs ?? Infinity),
      });
    }
    return out;
  };

  private readonly pageInfo = (key: string): PageInfo | undefined => {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.reads.evaluate(page, false);
    return { kind: page.pageKind, verdict: page.verdict, pageUrl: page.pageUrl };
  };
}
