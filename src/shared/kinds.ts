// The kinds of response a storefront tracks (the beacon v2 category of their events), which events each
// kind's controller sends, and where a timeline rule does not hold for a kind (with why). One place for
// the engine, the UI, the reports and docs/timelines.md.
import type { TimelineFindingDto, TimelineRuleId } from './timeline';

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

const NO_REDIRECT = 'its controller sends no redirect';

/**
 * Where a rule is silent for a kind, and why. A rule not listed here applies to every kind with the
 * controller semantics the catalogue describes; `KIND_NOTES` says where those differ from search.
 */
export const RULE_KIND_EXEMPTIONS: Partial<
  Record<TimelineRuleId, Partial<Record<ResponseKind, string>>>
> = {
  'after-redirect': { recommendations: NO_REDIRECT, bundles: NO_REDIRECT },
  'redirect-mismatch': { recommendations: NO_REDIRECT, bundles: NO_REDIRECT },
  'no-impression': {
    autocomplete:
      'the dropdown changes with every keystroke: a response shown for less than the 1 s an impression needs is legitimately never impressed',
  },
  'responseid-stale': {
    category: 'a category page’s URL carries no search query to compare with',
    autocomplete: 'the page URL does not follow what the shopper types',
    recommendations: 'the page URL says nothing about which widget response is shown',
    bundles: 'the page URL says nothing about which widget response is shown',
  },
};

/** Where a rule holds for a kind with semantics of its own (the catalogue's per-kind column says so). */
export const KIND_NOTES: Partial<Record<TimelineRuleId, Partial<Record<ResponseKind, string>>>> = {
  'missing-render': {
    autocomplete: 'always an error (no infinite scroll, so no backfill)',
    recommendations: 'per widget (tag + responseId); always an error',
    bundles: 'per widget (tag + responseId); always an error',
  },
  'duplicate-render': {
    autocomplete:
      'a render of the responseId already shown (no other autocomplete render between): the controller skips the render of a repeated search, even after impressions',
    recommendations: 'per widget (tag + responseId)',
    bundles: 'per widget (tag + responseId)',
  },
  'after-redirect': { autocomplete: 'autocomplete/redirect (a submitted term or product)' },
};

/**
 * ` (category response "r1")`, ` (recommendations "similar" response "r2")` — what a finding is about, for
 * kinds other than search (search findings read as they always did, so scripts matching them keep working).
 */
export function findingSubject(f: TimelineFindingDto): string {
  if (f.responseId === undefined || f.kind === undefined || f.kind === 'search') return '';
  return ` (${f.kind}${f.tag ? ` "${f.tag}"` : ''} response "${f.responseId}")`;
}

export function ruleAppliesTo(rule: TimelineRuleId, kind: string): boolean {
  return !(RULE_KIND_EXEMPTIONS[rule] as Record<string, string> | undefined)?.[kind];
}
