// A visit rule's view of its page's visit: the book and the visit only when its meta declares
// `needs.visit`, the catalog only with `needs.catalog`, what the companion served with `needs.provenance`.
// Reading what it did not declare gives nothing, and throws under test, so a rule fails its own cases
// rather than reading what the engine does not know it reads.
import type { Visit, VisitBook } from '../../book';
import type { VisitEvent } from '../../events';
import type { ShownOnPage, SkuOwners, VisitCatalog, VisitContext } from '../types';

/** the visit a rule that declares `needs.visit` reads, and what the timelines' pages showed */
export interface WholeVisit {
  book: VisitBook;
  visit: Visit | undefined;
  shown(pageKey: string): ShownOnPage | undefined;
}

const strict = typeof process !== 'undefined' && process.env.VITEST !== undefined;

/** One view per combination of needs; `rule` names the rule now reading it (set before each check). */
export class VisitView implements VisitContext {
  rule = '';
  constructor(
    readonly accepted: readonly VisitEvent[],
    private readonly whole: WholeVisit | undefined,
    /** false: not declared; undefined: declared, and the site has none */
    private readonly siteCatalog: VisitCatalog | undefined | false,
    /** false: not declared (`needs.provenance`); undefined: declared, and nothing was issued */
    private readonly issued: SkuOwners | undefined | false,
  ) {}

  get book(): VisitBook {
    return this.whole ? this.whole.book : (this.refuse('visit') as unknown as VisitBook);
  }
  get visit(): Visit | undefined {
    return this.whole ? this.whole.visit : this.refuse('visit');
  }
  shown(pageKey: string): ShownOnPage | undefined {
    const whole = this.whole;
    if (!whole) return this.refuse('visit');
    // a page `check` let go of left what it showed with the visit
    return whole.shown(pageKey) ?? whole.visit?.pages.get(pageKey)?.shown;
  }
  get catalog(): VisitCatalog | undefined {
    return this.siteCatalog !== false ? this.siteCatalog : this.refuse('catalog');
  }
  /** the skus the companion's issued responses served, by product */
  get served(): SkuOwners | undefined {
    return this.issued !== false ? this.issued : this.refuse('provenance');
  }

  private refuse(flag: string): undefined {
    if (strict)
      throw new Error(
        `rule ${this.rule} reads ${flag} but its meta does not declare needs.${flag}`,
      );
    return undefined;
  }
}

export function visitView(
  rule: string,
  accepted: readonly VisitEvent[],
  whole: WholeVisit | undefined,
  catalog: VisitCatalog | undefined | false,
): VisitView {
  const view = new VisitView(accepted, whole, catalog, false);
  view.rule = rule;
  return view;
}
