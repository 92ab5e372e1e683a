// A visit rule's view of its page's visit: the book and the visit only when its meta declares
// `needs.visit`, the catalog only with `needs.catalog`. Reading what it did not declare gives nothing, and
// throws under test, so a rule fails its own cases rather than reading what the engine does not know it
// reads.
import type { Visit, VisitBook } from '../../book';
import type { VisitEvent } from '../../events';
import type { VisitCatalog, VisitContext } from '../types';

const strict = typeof process !== 'undefined' && process.env.VITEST !== undefined;

function refuse(rule: string, flag: string): undefined {
  if (strict)
    throw new Error(`rule ${rule} reads ${flag} but its meta does not declare needs.${flag}`);
  return undefined;
}

export function visitView(
  rule: string,
  accepted: readonly VisitEvent[],
  visit: { book: VisitBook; visit: Visit | undefined } | undefined,
  catalog: VisitCatalog | undefined | false,
): VisitContext {
  return {
    accepted,
    get book() {
      return visit ? visit.book : (refuse(rule, 'visit') as unknown as VisitBook);
    },
    get visit() {
      return visit ? visit.visit : refuse(rule, 'visit');
    },
    get catalog() {
      return catalog !== false ? catalog || undefined : refuse(rule, 'catalog');
    },
  };
}
