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
