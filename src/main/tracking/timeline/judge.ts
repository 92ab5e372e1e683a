// The judge: runs the declared rules over a page — its responses' rules, its page rules and its visit
// rules — and keeps the page's findings and severity counts. It knows no rule by name: it dispatches from
// each rule's meta (which kinds it is exempt for, which events it listens to, what it needs: a rule sees
// only the needs it declares, and one that judges at the page's end runs once the page has ended).
import type { TimelineSettings } from '../timeline-settings';
import type { Severity } from '../../../shared/timeline';
import { RESPONSE_KINDS, isResponseKind, type ResponseKind } from '../../../shared/kinds';
import { levelled, type LevelSource } from '../../../shared/rule-levels';
import { keptFindings } from './model';
import type { Finding } from '../finding';
import type { Page } from './page';
import type { Response } from './response';
import { ALL_HEARD, eventBit } from './heard';
import { RULES } from './rule-list';
import { CATEGORY_OF } from '../client-model';
import { judging, type Judging } from '../rule';
import type { ShownOnPage, SkuOwners } from '../visits/rules';
import type { ResponseOrigin, ResponseRuleContext } from './rules/types';
import { needsMask, RuleViews, type FullContext } from './rule-context';
import type { ResponseOrigins } from './response-origins';
import type { ProvenanceSource } from './rules/utils/provenance';
import type { VerdictIndex } from './verdict-index';
import type { VisitBook } from '../visits/book';
import { visitFindings } from '../visits/rules';

// Beyond this many events in one response, its rules re-run only as the response grows by an eighth
// (reads always see exact findings): a storefront stuck in a tracking loop cannot make ingest quadratic.
const EAGER_RESPONSE_SIZE = 256;
// Beyond this many, not even that while live (a change report, the visits list): judging 100,000 events of
// one response at once held every answer up to a second. An exact read judges it.
const LIVE_RESPONSE_MAX = 16_384;

export interface JudgeDeps {
  settings: TimelineSettings;
  levels: LevelSource | undefined;
  origins: ResponseOrigins;
  book: VisitBook;
  provenance(): ProvenanceSource | undefined;
  index: VerdictIndex | undefined;
  /** what a page of the timelines showed (its events read back if it let them go), by page key */
  shownOn(pageKey: string): ShownOnPage | undefined;
}

export class Judge {
  /**
   * What the rules read, one context for the page rules and one for a response's, each set for the page
   * (and response) being judged, with their views: judging makes no context, view or closure of its own.
   */
  private readonly pageCtx: RunContext;
  private readonly pageViews: RuleViews;
  private readonly responseCtx: ResponseRunContext;
  private readonly responseViews: RuleViews;
  /** the rules as this judge dispatches them, read from their metas when it is made */
  private readonly responseRules = rulesOfKind();
  private readonly pageRules = PAGE_RULES.map(dispatch);

  constructor(private readonly deps: JudgeDeps) {
    this.pageCtx = new RunContext(deps.settings, deps.origins);
    this.pageViews = new RuleViews(this.pageCtx);
    this.responseCtx = new ResponseRunContext(deps.settings, deps.origins);
    this.responseViews = new RuleViews(this.responseCtx);
  }

  /**
   * Run the rules of the page's dirty responses (all of them when `exact`) and count its page rules;
   * `exact` also builds the page rules' findings. `visits` false: the visit's findings are left to be
   * built when the page is next judged (the replay at start judges a page before its visit has all its
   * pages).
   */
  run(page: Page, exact: boolean, visits = true): void {
    // the provenance is read once a run, when a rule runs: a page read again unchanged reads nothing
    let provenance: ProvenanceSource | undefined | null = null;
    for (const r of page.responses.values()) {
      if (!r.dirty) continue;
      const n = r.events.length;
      if (
        !exact &&
        n > EAGER_RESPONSE_SIZE &&
        (n < r.evaluatedSize * 1.125 || n > LIVE_RESPONSE_MAX)
      )
        continue;
      if (provenance === null) provenance = this.deps.provenance();
      this.response(page, r, provenance);
    }
    this.responseCtx.endPage();
    // Page-scope rules are counted from the tallies, which change only with the page's events (and the
    // real service's answers): a page read again unchanged is not counted again.
    const countDue = page.countDue();
    if (countDue || exact) {
      const ctx = this.pageCtx;
      ctx.start(page, provenance === null ? this.deps.provenance() : provenance);
      if (countDue) this.countPageRules(page);
      if (exact) {
        const findings: Finding[] = [];
        for (const d of this.pageRules) {
          const found = d.rule.page(page, this.pageViews.ofMask(d.mask, d.id));
          for (const f of found) findings.push(f);
        }
        page.setPageFindings(keptFindings(levelled(findings, page.siteId, this.deps.levels)));
      }
      ctx.end();
    }
    if (visits && page.visitDirty) this.visit(page);
    // the rules have read what they need: a page kept for hours holds its events, not their sorting
    for (const r of page.responses.values()) r.dropFacts();
    this.deps.index?.judged(page, page.verdict, exact && visits);
  }

  /** Every rule of every response of the page runs when it is next judged, and its visit's. */
  touchAll(page: Page): void {
    this.deps.index?.touched(page);
    page.touchAll();
  }

  private countPageRules(page: Page): void {
    for (const { rule, id, mask } of this.pageRules) {
      const set = this.deps.levels?.level(page.siteId, id);
      const now = set?.level === 'off' ? 0 : rule.count(page, this.pageViews.ofMask(mask, id));
      page.setPageRuleCount(
        id,
        now,
        (set?.level as Severity | undefined) ?? rule.meta.defaultSeverity,
        rule.meta.defaultSeverity,
      );
    }
  }

  private visit(page: Page): void {
    const found = visitFindings(
      VISIT_RULES,
      {
        key: page.key,
        siteId: page.siteId,
        pageLoadId: page.pageLoadId,
        sessionId: page.sessionId,
        userId: page.userId,
        pageUrl: page.pageUrl,
        accepted: page.accepted,
        notDev: page.tallies.notDev,
        visitEvents: page.visitEvents,
      },
      this.deps.book,
      this.visitCatalog(page.siteId),
      this.servedSkus(page.siteId),
      this.deps.shownOn,
    );
    page.setVisitFindings(keptFindings(levelled(found, page.siteId, this.deps.levels)));
  }

  /** The skus of the responses the companion issued for the site, looked up only when a rule asks. */
  private servedSkus(siteId: string): SkuOwners | undefined {
    const p = this.deps.provenance();
    if (!p) return undefined;
    return {
      uidOfSku: (sku) => servedBy(p, siteId, (r) => (r.sku === sku ? r.uid : undefined)),
      parentOf: (uid) =>
        servedBy(p, siteId, (r) => (r.uid === uid && r.parent !== r.uid ? r.parent : undefined)),
      priceOf: (uid) => servedBy(p, siteId, (r) => (r.uid === uid ? r.price : undefined)),
    };
  }

  /** The site's catalog for the visit rules: when it has one and its account checks ids against it. */
  private visitCatalog(siteId: string) {
    const p = this.deps.provenance();
    if (!p || p.site(siteId)?.catalogCheck === false) return undefined;
    return p.catalog(siteId);
  }

  /**
   * The response's rules: those exempt for its kind never run; of the others, those that listen to an
   * event heard since they last ran (all of them after a change beyond its events) run, and the rest
   * keep the findings they returned then.
   */
  private response(page: Page, r: Response, provenance: ProvenanceSource | undefined): void {
    const ctx = this.responseCtx;
    ctx.startResponse(page, r, provenance);
    const views = this.responseViews;
    const raw: Finding[] = [];
    try {
      const heard = r.heard;
      for (const d of this.responseRules.get(r.kind)!) {
        // a rule that judges at the page's end has nothing to say before (going idle touches every response)
        if (d.pageEnd && !page.idle) continue;
        if (heard === ALL_HEARD || (heard & d.listens) !== 0) {
          const found = d.rule.response(r, views.ofMask(d.mask, d.id));
          for (const f of found) raw.push(ofResponse(f, r));
        } else for (const f of r.raw) if (f.rule === d.id) raw.push(f);
      }
    } finally {
      ctx.end();
    }
    // kept until its rules run again: a list of its exact length (one grown by push keeps room for 17)
    const ran = keptFindings(raw);
    r.ran(ran);
    // A stale responseId (or one of another kind) explains everything else about it on this page (no
    // render here, items not impressed here): report the cause once, with the findings whose rules declare
    // they follow from it (`explainedBy`), which causes.ts lists under it.
    const findings = ran.some((f) => SUPERSEDING.has(f.rule)) ? superseded(ran) : ran;
    const shown = levelled(findings, page.siteId, this.deps.levels);
    // what it ran is what it shows when no level or superseding rule changed it: one list, not a copy
    const kept = shown === ran ? ran : keptFindings(shown);
    page.setResponseFindings(
      r,
      kept,
      kept.some((f) => WATCHING.has(f.rule)),
    );
  }
}

/**
 * The page's context for its rules, set for each page judged (one object for every page: no context or
 * closure is made per run). `end` lets the page go, so the judge holds none between runs.
 */
class RunContext implements FullContext {
  page!: Page;
  provenance: ProvenanceSource | undefined;
  /** the kind whose responseId origins `origin` reads (the page rules: search) */
  protected kind: ResponseKind = 'search';

  constructor(
    readonly settings: TimelineSettings,
    private readonly origins: ResponseOrigins,
  ) {}

  start(page: Page, provenance: ProvenanceSource | undefined): void {
    this.page = page;
    this.provenance = provenance;
  }

  end(): void {
    this.page = undefined as unknown as Page;
    this.provenance = undefined;
  }

  origin(responseId: string): ResponseOrigin | undefined {
    return this.origins.ofKind(this.page.siteId, responseId, this.kind);
  }

  kindOrigin(responseId: string): ResponseOrigin | undefined {
    return this.origins.first(this.page.siteId, responseId);
  }
}

/**
 * A response's context: its kind's origins (responseid-reused compares with the first page of the
 * responseId among responses of the same kind), and the memo its rules share for one run.
 */
class ResponseRunContext extends RunContext {
  private response: Response | undefined;
  /** `shared`'s answers of this run, by the function that found them (cleared only when one was kept) */
  private readonly found = new Map<unknown, unknown>();

  startResponse(page: Page, r: Response, provenance: ProvenanceSource | undefined): void {
    this.start(page, provenance);
    this.kind = r.kind;
    this.response = r;
  }

  override end(): void {
    super.end();
    this.response = undefined;
    if (this.found.size > 0) this.found.clear();
  }

  shared<T>(find: (r: Response, ctx: ResponseRuleContext) => T, ctx: ResponseRuleContext): T {
    const found = this.found;
    if (found.has(find)) return found.get(find) as T;
    const value = find(this.response!, ctx);
    found.set(find, value);
    return value;
  }

  /** `pageShared`'s answers, for the page they were found on, until its run ends */
  private readonly pageFound = new Map<unknown, unknown>();
  private pageFoundOn: Page | undefined;

  pageShared<T>(find: (page: Page) => T): T {
    if (this.pageFoundOn !== this.page) this.endPage();
    if (this.pageFound.has(find)) return this.pageFound.get(find) as T;
    const value = find(this.page);
    this.pageFound.set(find, value);
    this.pageFoundOn = this.page;
    return value;
  }

  /** The page's run is over (its responses may change before the next): what was shared goes. */
  endPage(): void {
    if (this.pageFound.size > 0) this.pageFound.clear();
    this.pageFoundOn = undefined;
  }
}

/**
 * A response rule's finding as its page lists it: its kind (and tag), which its id names for kinds other
 * than search (`findingId`), and the behaviour of its kind. Set once, on the finding its rule has just made
 * (a fresh object of the rule's own): a finding kept from an earlier run (the response's `raw`) has them
 * already, and is neither copied nor changed again.
 */
function ofResponse(f: Finding, r: Response): Finding {
  if (f.kind !== undefined) return f;
  f.kind = r.kind;
  if (r.tag) f.tag = r.tag;
  if (f.behaviour !== undefined) f.behaviour = behaviourOfKind(f.rule, r.kind, f.behaviour);
  return f;
}

// The dispatch tables, built once from the one list by what each meta judges (rule-meta.ts RuleMeta): the
// judge knows no rule by its id.
const RESPONSE_RULES = judging(RULES, 'response');
const PAGE_RULES = judging(RULES, 'page');
const VISIT_RULES = judging(RULES, 'visit');
/**
 * What the judge reads of a rule's meta on every run, read from it once, when the judge is made: its id,
 * its view's `needsMask`, and whether it judges at the page's end only.
 */
interface Dispatch<S extends 'response' | 'page'> {
  rule: Judging<S>;
  id: string;
  mask: number;
  pageEnd: boolean;
}
function dispatch<S extends 'response' | 'page'>(rule: Judging<S>): Dispatch<S> {
  const { id, needs } = rule.meta;
  return { rule, id, mask: needsMask(needs), pageEnd: needs?.pageEnd === true };
}
const SUPERSEDING = new Set<string>(
  RESPONSE_RULES.filter((r) => r.meta.needs?.supersedes).map((r) => r.meta.id),
);
/** rule id → the superseding rules its meta says its findings may follow from (`explainedBy`) */
const FOLLOWS_SUPERSEDING = new Map<string, ReadonlySet<string>>(
  RESPONSE_RULES.flatMap((r) => {
    const causes = (r.meta.explainedBy ?? []).filter((id) => SUPERSEDING.has(id));
    return causes.length > 0 ? [[r.meta.id, new Set(causes)] as const] : [];
  }),
);
/**
 * A response's findings when a superseding rule reported: its findings, and those of the rules that declare
 * they follow from one of them that reported.
 */
function superseded(ran: readonly Finding[]): Finding[] {
  const leading = new Set(ran.filter((f) => SUPERSEDING.has(f.rule)).map((f) => f.rule));
  return ran.filter((f) => {
    if (leading.has(f.rule)) return true;
    const causes = FOLLOWS_SUPERSEDING.get(f.rule);
    return causes !== undefined && [...causes].some((c) => leading.has(c));
  });
}
const WATCHING = new Set<string>(
  RESPONSE_RULES.filter((r) => r.meta.needs?.laterEvents).map((r) => r.meta.id),
);
/** rule id → kind → the behaviour of that kind's area it guards, where it names one (missing-render: bundles.widget) */
const KIND_BEHAVIOUR = new Map<string, Map<string, string>>(
  RESPONSE_RULES.map((r) => [
    r.meta.id,
    new Map(
      RESPONSE_KINDS.flatMap((k) => {
        const g = r.meta.guards.find((id) => id.startsWith(`${k}.`));
        return g ? [[k, g] as const] : [];
      }),
    ),
  ]),
);
/** rule id → the category rows it guards (client-model.ts CATEGORY_OF) */
const CATEGORY_GUARDS = new Map<string, ReadonlySet<string>>(
  RESPONSE_RULES.map((r) => [
    r.meta.id,
    new Set(r.meta.guards.filter((id) => id.startsWith('category.'))),
  ]),
);
/**
 * The behaviour a response's finding names: the rule's own choice when it is of the response's area, or of
 * no response kind's (identity, mode); one of another kind's area (a rule's search behaviour on a category
 * response) becomes the one the rule guards in the response's area, when it guards one: on a category page
 * the search behaviour's category row (a banner's finding is category.banners'), else the area's first.
 */
function behaviourOfKind(rule: string, kind: string, chosen: string): string {
  const area = chosen.slice(0, chosen.indexOf('.'));
  if (area === kind || !isResponseKind(area)) return chosen;
  const onCategory = kind === 'category' ? CATEGORY_OF[chosen] : undefined;
  if (onCategory !== undefined && CATEGORY_GUARDS.get(rule)?.has(onCategory)) return onCategory;
  return KIND_BEHAVIOUR.get(rule)?.get(kind) ?? chosen;
}
/** A response rule as the judge reads it, with the events it listens to as `eventBit`s. */
interface ResponseDispatch extends Dispatch<'response'> {
  listens: number;
}
/** The response rules that judge each kind (those whose `appliesTo` names it), as the judge reads them. */
function rulesOfKind(): Map<string, readonly ResponseDispatch[]> {
  return new Map(
    RESPONSE_KINDS.map((k) => [
      k,
      RESPONSE_RULES.filter((r) => r.meta.appliesTo.includes(k)).map((rule) => ({
        ...dispatch(rule),
        listens: rule.meta.listens.reduce((bits, e) => bits | eventBit(e), 0),
      })),
    ]),
  );
}
/**
 * The events a response's sibling (another response of its kind on the page) hears: those the rules that
 * read the page's other responses (`needs.pageResponses`) listen to.
 */
export const SIBLING_EVENTS: ReadonlySet<string> = new Set(
  RESPONSE_RULES.filter((r) => r.meta.needs?.pageResponses).flatMap((r) => r.meta.listens),
);
/** the page rules that count what a request says beyond its events (the real service's answer) */
export const TALLYING = PAGE_RULES.filter((r) => r.tally);

/**
 * the newest issued responses a sku or price lookup reads (a product page asks once or twice; a cart event
 * priced 100× off its quick add, once per such item)
 */
const SERVED_LOOKUP = 500;

/**
 * The first answer `pick` gives for a result or variant of the site's newest issued responses (`parent`:
 * the result it belongs to).
 */
function servedBy<T>(
  p: ProvenanceSource,
  siteId: string,
  pick: (r: {
    uid: string;
    sku: string | null;
    parent: string;
    /** what it was served at: a variant's own price, else its result's (absent: kept without prices) */
    price: number | undefined;
  }) => T | undefined,
): T | undefined {
  let n = 0;
  for (const issued of p.recent(siteId)) {
    if (++n > SERVED_LOOKUP) break;
    for (const res of issued.results) {
      const found = pick({ uid: res.uid, sku: res.sku, parent: res.uid, price: res.price });
      if (found !== undefined) return found;
      for (const c of res.children) {
        const child = pick({
          uid: c.uid,
          sku: c.sku,
          parent: res.uid,
          price: c.price ?? res.price,
        });
        if (child !== undefined) return child;
      }
    }
  }
  return undefined;
}
