// What a rule may read beyond its response and page is what its meta declares (`needs`): the issued
// responses (`provenance`), the site's catalog (`catalog`), where else a responseId was seen (`origins`).
// The judge hands each rule a view of the page's context that holds only those. A rule reading what it did
// not declare gets nothing; under test it throws, so the rule fails its own cases instead of being
// scheduled wrong (a rule the engine thinks reads no provenance is not re-judged when provenance changes).
import type { RuleNeeds } from '../rule-meta';
import type { Page } from './page';
import type { Response } from './response';
import type { CatalogSource, ResponseOrigin, ResponseRuleContext } from './rules/types';
import type { ProvenanceSource } from './rules/utils/provenance';
import type { TimelineSettings } from '../timeline-settings';

/** Everything a page offers its rules; a rule sees the part its `needs` declare. */
export interface FullContext {
  settings: TimelineSettings;
  page: Page;
  origin(responseId: string): ResponseOrigin | undefined;
  kindOrigin(responseId: string): ResponseOrigin | undefined;
  provenance: ProvenanceSource | undefined;
  /** the memo the rules of one response share while it is judged (response rules only) */
  shared?<T>(find: (r: Response, ctx: ResponseRuleContext) => T, ctx: ResponseRuleContext): T;
  /** the memo the responses of one page share while they are judged (response rules only) */
  pageShared?<T>(find: (page: Page) => T): T;
}

/** Under test reading an undeclared need throws; a live sandbox gives the rule nothing. */
const strict = typeof process !== 'undefined' && process.env.VITEST !== undefined;

type Gated = 'provenance' | 'catalog' | 'origins';

const PROVENANCE = 1;
const CATALOG = 2;
const ORIGINS = 4;
const BIT: Record<Gated, number> = { provenance: PROVENANCE, catalog: CATALOG, origins: ORIGINS };

/** The needs that gate what a rule sees, as bits (one view per combination). */
export function needsMask(needs: RuleNeeds | undefined): number {
  if (!needs) return 0;
  return (
    (needs.provenance ? PROVENANCE : 0) |
    (needs.catalog ? CATALOG : 0) |
    (needs.origins ? ORIGINS : 0)
  );
}

/**
 * A rule's view of the page's context. `rule` names the rule now reading it (the judge sets it before
 * each check, so one view serves every rule with the same needs).
 */
export class RuleView implements ResponseRuleContext {
  rule = '';
  constructor(
    private readonly full: FullContext,
    private readonly mask: number,
  ) {}

  get settings(): TimelineSettings {
    return this.full.settings;
  }
  get page(): Page {
    return this.full.page;
  }
  get provenance(): ProvenanceSource | undefined {
    return this.allows('provenance') ? this.full.provenance : undefined;
  }
  get catalog(): CatalogSource | undefined {
    return this.allows('catalog') ? this.full.provenance : undefined;
  }
  origin(responseId: string): ResponseOrigin | undefined {
    return this.allows('origins') ? this.full.origin(responseId) : undefined;
  }
  kindOrigin(responseId: string): ResponseOrigin | undefined {
    return this.allows('origins') ? this.full.kindOrigin(responseId) : undefined;
  }
  shared<T>(find: (r: Response, ctx: ResponseRuleContext) => T): T {
    if (!this.full.shared) throw new Error(`rule ${this.rule}: shared() is for response rules`);
    return this.full.shared(find, this);
  }
  pageShared<T>(find: (page: Page) => T): T {
    if (!this.full.pageShared)
      throw new Error(`rule ${this.rule}: pageShared() is for response rules`);
    return this.full.pageShared(find);
  }

  private allows(flag: Gated): boolean {
    if ((this.mask & BIT[flag]) !== 0) return true;
    if (strict)
      throw new Error(
        `rule ${this.rule} reads ${flag} but its meta does not declare needs.${flag}`,
      );
    return false;
  }
}

/** each declaration's mask, computed once (keyed by the needs object a meta holds) */
const MASKS = new WeakMap<RuleNeeds, number>();

/** The views of one context, made as rules ask for them (a few per page or response). */
export class RuleViews {
  /** by mask: 3 bits, so at most 8 */
  private readonly views: Array<RuleView | undefined> = [];
  constructor(private readonly full: FullContext) {}

  for(meta: { id: string; needs?: RuleNeeds }): RuleView {
    const needs = meta.needs;
    let mask = needs ? MASKS.get(needs) : 0;
    if (mask === undefined) MASKS.set(needs!, (mask = needsMask(needs)));
    return this.ofMask(mask, meta.id);
  }

  /** The view for a rule whose `needsMask` the caller holds (the judge's tables): no lookup of its needs. */
  ofMask(mask: number, rule: string): RuleView {
    const view = (this.views[mask] ??= new RuleView(this.full, mask));
    view.rule = rule;
    return view;
  }
}
