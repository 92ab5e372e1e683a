// The kinds of response a storefront tracks (the beacon v2 category of their events), which events each
// kind's controller sends (where a rule does not hold for a kind, its meta says why). One place for
// the engine, the UI, the reports and docs/timelines.md.

export const RESPONSE_KINDS = [
  'search',
  'category',
  'autocomplete',
  'recommendations',
  'bundles',
] as const;
export type ResponseKind = (typeof RESPONSE_KINDS)[number];

/** The events each kind's controller sends (category's redirect goes to search/redirect). */
export const KIND_EVENTS: Record<ResponseKind, readonly string[]> = {
  search: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  category: ['render', 'impression', 'clickthrough', 'addtocart'],
  autocomplete: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  recommendations: ['render', 'impression', 'clickthrough', 'addtocart'],
  bundles: ['render', 'impression', 'clickthrough', 'addtocart'],
};

export function isResponseKind(v: string): v is ResponseKind {
  return (RESPONSE_KINDS as readonly string[]).includes(v);
}

/** Is `category/event` one of the events timelines check? */
export function isTimelineEndpoint(category: string, event: string): boolean {
  return isResponseKind(category) && KIND_EVENTS[category].includes(event);
}

/** Kinds whose responses are one per widget, told apart by `data.tag` (the recommendation profile). */
export function isWidgetKind(kind: string): boolean {
  return kind === 'recommendations' || kind === 'bundles';
}

/** The endpoint a kind sends an event to: `category/render`; a category page's redirect goes to search. */
export function endpointOf(kind: string, event: string): string {
  return `${event === 'redirect' && kind === 'category' ? 'search' : kind}/${event}`;
}

/**
 * What a search, category or autocomplete response answered, as messages and the page view name it:
 * `search "boots"`, `autocomplete "jack"`; a category listing by the category its request named
 * (`bgfilter.category…`, its usual request has no q): `category "Jackets"`, `category "Jackets" (query
 * "rain")`, `category (bgfilter.brand=Northfold)`, or `category (no filter)` when it named neither.
 */
export function listingName(r: {
  kind?: string;
  query: string;
  bgfilters?: readonly string[];
}): string {
  const kind = r.kind ?? 'search';
  const filters = r.bgfilters ?? [];
  if (kind !== 'category' || filters.length === 0)
    return kind === 'category' && r.query === ''
      ? 'category (no filter)'
      : `${kind} ${JSON.stringify(r.query)}`;
  const named = filters.find((f) => /^bgfilter\.categor[^=]*=./.test(f));
  const rest = filters.filter((f) => f !== named);
  const notes = [...(r.query !== '' ? [`query ${JSON.stringify(r.query)}`] : []), ...rest];
  const head = named
    ? `category ${JSON.stringify(named.slice(named.indexOf('=') + 1))}`
    : 'category';
  return notes.length > 0 ? `${head} (${notes.join(', ')})` : head;
}
