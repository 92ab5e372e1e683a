// The beacon v2 endpoints (`category/event`) the provider's OAS declares: the names an event filter
// (`category`, `event`) of the admin API and of the package's events() and waitForEvents() may take. The
// list is written by the schema generator beside the schemas the tracking side reads, on its own so that
// the package's client and the renderer need not load those.
//
// A request to another path is recorded too, rejected (404), under the category and event of the path it
// was posted to (`/beacon/v2/demo42/search/rendr` is search/rendr): a filter that says it looks for
// rejected requests (accepted false) may name anything. Any other filter naming no beacon v2 endpoint is
// a typo that would match nothing (a wait would time out as if the storefront had sent nothing): refused.
import { BEACON_V2_ENDPOINTS } from './beacon-endpoints.generated';
import { didYouMean } from './nearest';
import { shown } from './text';

export { BEACON_V2_ENDPOINTS };

const split = BEACON_V2_ENDPOINTS.map((e) => e.split('/') as [string, string]);
const unique = (names: string[]) => [...new Set(names)].sort();

/** Every beacon v2 category, alphabetically. */
export const BEACON_V2_CATEGORIES: readonly string[] = unique(split.map(([c]) => c));
/** Every event name of any category, alphabetically. */
export const BEACON_V2_EVENTS: readonly string[] = unique(split.map(([, e]) => e));

/** The events of one category (none for a name that is not a category). */
export function eventsOfCategory(category: string): string[] {
  return split.filter(([c]) => c === category).map(([, e]) => e);
}

/** The filter's names the rule below reads: `category` (or the `kind` it stands for), `event`, `accepted`. */
export interface EventNames {
  category?: string;
  event?: string;
  /** false: rejected requests only, which may carry any name */
  accepted?: boolean;
}

/**
 * The filter's name that no beacon v2 endpoint has, and why, with the nearest names and all of them (`event
 * "transactions" is not a beacon v2 event; did you mean transaction? …`); undefined when each is one, or
 * when the filter asks for rejected requests. `acceptedFalse` is how the caller spells that filter
 * (`accepted=false` for a query, `accepted: false` for the package).
 */
export function eventNameProblem(
  filter: EventNames,
  acceptedFalse: string,
): { parameter: 'category' | 'event'; problem: string; allowed: readonly string[] } | undefined {
  if (filter.accepted === false) return undefined;
  const { category, event } = filter;
  const another = `only a rejected request is recorded under another name (the path it was posted to): add ${acceptedFalse} to look for one`;
  if (category !== undefined && !BEACON_V2_CATEGORIES.includes(category))
    return {
      parameter: 'category',
      allowed: BEACON_V2_CATEGORIES,
      problem: `category ${shown(category)} is not a beacon v2 category; ${didYouMean(category, BEACON_V2_CATEGORIES)}the categories are ${BEACON_V2_CATEGORIES.join(', ')}; ${another}`,
    };
  if (event === undefined) return undefined;
  if (category === undefined) {
    if (BEACON_V2_EVENTS.includes(event)) return undefined;
    return {
      parameter: 'event',
      allowed: BEACON_V2_EVENTS,
      problem: `event ${shown(event)} is not a beacon v2 event; ${didYouMean(event, BEACON_V2_EVENTS)}the events are ${BEACON_V2_EVENTS.join(', ')}; ${another}`,
    };
  }
  const events = eventsOfCategory(category);
  if (events.includes(event)) return undefined;
  return {
    parameter: 'event',
    allowed: events,
    problem: `event ${shown(event)} is not an event of category ${category}; ${didYouMean(event, events)}its events are ${events.join(', ')}; ${another}`,
  };
}
