// Integration readiness: what a site's traffic shows of each behaviour of the client model. A read over the
// timelines' own judgement, never a second set of rules: a behaviour is seen when an accepted event of one
// of its `seenBy` endpoints arrived (client-model.ts; finer tests: EXERCISED, VISIT_SHOWN), broken when a
// warning or error finding names it or flags an event it sent (`againstSender`), and
// `ok` unverified when none of the rules that guard it could judge the site's traffic (each lacked what its
// meta's `judgesOnlyWith` names, or is off). The tally takes the site's pages one at a time, live (Page) or
// offline (the DTOs `check` writes).
import type {
  PageEventDto,
  PageTimelineDto,
  TimelineEventDto,
  TimelineFindingDto,
  TimelineResponseDto,
} from '../../../shared/timeline';
import {
  LACK_HOW,
  ROW_OWN,
  RULE_INPUTS,
  SEEN_ON,
  type ReadinessDto,
  type ReadinessLack,
  type ReadinessRowDto,
  type RuleInput,
  type UnverifiedDto,
} from '../../../shared/readiness';
import type { Severity } from '../../../shared/verdict';
import type { OrderCredit } from '../visits/order-book';
import type { LevelSource } from '../../../shared/rule-levels';
import { endpointOf, isResponseKind, isWidgetKind } from '../../../shared/kinds';
import { isRefusedPreflight } from '../../../shared/events';
import { BEHAVIOURS, behaviour, sendingBehaviour, type Behaviour } from '../client-model';
import { RULE_IDS, ruleMeta } from './rule-list';
import { rulesGuarding } from './behaviour-list';
import { eventBit } from './heard';
import { eventTime, responseKey } from './model';
import type { Page } from './page';
import { issuedKind } from '../../search/responses';
import { originOf } from '../page-url';
import type { ProvenanceSource } from './rules/utils/provenance';
import { findingDto, type Finding } from '../finding';
import { VISIT_SHOWN, VisitEvidence, type VisitSightedEvent } from './readiness-visits';
import { ExamplePages, areaKey, type Sighting, type Slot } from './readiness-examples';
import { devFlag } from './rules/dev-flag';

/** The rule whose finding says a page sent events in production mode (mode.development's finer test). */
const DEV_FLAG = devFlag.meta.id;

/** What a site declares that readiness reads: its widget tags and what it means to implement. */
export interface ReadinessSite {
  siteId: string;
  /**
   * an account of the config is this site (false: beacons of a site no account names, or `check` without
   * --config): what it declares is then nothing, and its rows say why
   */
  configured: boolean;
  /** `accounts[].search.recommendations`: a `default` profile is a recommendations widget, `bundle` a bundle */
  widgets: readonly { tag: string; type: 'default' | 'bundle' }[];
  /** `accounts[].readiness.expect`: behaviour ids or areas */
  expect: readonly string[];
}

/** Why a widget area's rows do not apply to a site: it declares no such widget, or no account names it. */
function noWidget(area: string, site: ReadinessSite): string {
  const [widget, type] = area === 'bundles' ? ['bundle', 'bundle'] : ['recommendations', 'default'];
  const where = `accounts[].search.recommendations, type "${type}"`;
  return site.configured
    ? `site ${site.siteId} declares no ${widget} widget (${where}) and sent none`
    : `site ${site.siteId} sent no ${widget} widget's events, and no account of the config names it, so none is declared (${where}; \`check\` reads a config with --config FILE)`;
}

/**
 * Behaviours that the events of their `seenBy` endpoints do not show by themselves. `order.credit` is the
 * sandbox's attribution model, not a call: it is seen when an order line was credited to a click or add.
 * `identity.attribution` is kept by the beacon client from a landing URL, with nothing for a storefront to
 * add, and whether a session should carry it is not in the traffic.
 */
export const SEEN_OTHERWISE: Readonly<Record<string, { sighting: 'credited' } | { why: string }>> =
  {
    'order.credit': { sighting: 'credited' },
    'identity.attribution': {
      why: 'the beacon client keeps it by itself from an `athos_attribution` landing URL (e-mail recommendations): there is nothing for the storefront to add (a session that lost it is a finding)',
    },
  };

/** A response of a page as the finer tests of being exercised read it. */
export interface SightedResponse {
  kind: string;
  responseId: string;
  /** its accepted renders */
  renders: number;
  /** its accepted impressions, clickthroughs and addtocarts */
  interactions: number;
  /** its accepted redirects (none: absent) */
  redirects?: number;
  /** an accepted impression or clickthrough of it named a banner in data.banners */
  banners?: boolean;
  /** a search/redirect of a response the companion search issued for a category page (category.json) */
  category?: boolean;
  /**
   * a recording's own search request asked for it with the tracker's context (a HAR: `Asked`), where no
   * issued response says so
   */
  askedInRecording?: boolean;
  /** its latest accepted render is the latest accepted event of its page: the page sent nothing after it */
  renderedLast?: boolean;
  /**
   * the findings about it, of any severity: a warning or an error flags its events, the behaviour an info
   * finding names says the client's own way was seen (the list as its page keeps it: nothing is copied)
   */
  findings?: readonly AboutIt[];
  /**
   * what it served, when the companion search issued it: its results and banners, whether its request
   * carried the tracker's context (userId and pageLoadId: `asked`), and its query and page
   */
  served?: {
    results: number;
    shown: number;
    /** its slot and inline banners */
    banners?: number;
    asked?: boolean;
    query?: string;
    page?: number;
  };
}

/** What the finer tests read of a finding about a response. */
type AboutIt = Pick<TimelineFindingDto, 'rule' | 'severity' | 'behaviour'>;

/** A finding about the response names the behaviour. */
const names = (r: SightedResponse, id: string) =>
  r.findings?.some((f) => f.behaviour === id) === true;

/** A page as the finer tests read it: its responses and whether it has ended. */
export interface SightedPage {
  responses: readonly SightedResponse[];
  /** idle, or judged as finished (`check`): nothing more of it will come */
  ended: boolean;
  /** the responseIds of search responses rendered on earlier pages of the site (kept by the tally) */
  renderedBefore: ReadonlySet<string>;
  /**
   * the page load changed its URL without a new pageLoadId: two of its accepted requests (each response's
   * first event, each visit event) were created at different addresses of one origin (`routedUrls`)
   */
  routed?: boolean;
  /**
   * every accepted event of the page carried context.dev: true: `dev-flag` found none sent in production
   * mode (live, the page's tally of them; from a DTO, that it has no `dev-flag` finding)
   */
  dev?: boolean;
}

/**
 * A response of the search page, the only one a search row's finer test reads: a category page runs the
 * same controller with page type category, but it sends category/*, and its responses count on the
 * category rows (client-model.ts CATEGORY_OF: the same finer tests, of category responses), each page kind
 * on its own behaviour.
 */
const ofSearch = (r: SightedResponse) => r.kind === 'search';

/** A search response rendered and followed by nothing on an ended page. */
const renderedAlone = (p: SightedPage, r: SightedResponse) =>
  ofSearch(r) && r.renders > 0 && r.interactions === 0 && p.ended;

/**
 * A no-results search as the client makes it (SC search(): the render is sent after every completed search,
 * no tiles follow): a response the companion search issued with nothing to show. A responseId it never issued
 * (one typed by hand, a search that went elsewhere) may have served anything, so it shows nothing of this.
 */
const NO_RESULTS_SHOWN: Exercised = {
  shows:
    'a search response the companion search issued with nothing to show, rendered and followed by nothing on an ended page',
  test: (p, clean) =>
    p.responses.some((r) => clean(r) && renderedAlone(p, r) && r.served?.shown === 0),
};

/**
 * How a page shows a behaviour exercised (`shows`, the test). The test is handed `clean`: a response whose
 * events a warning or an error of one of the behaviour's own rules flags is not evidence of it (a render
 * again that `duplicate-render` flags is no cached render), and it reads the response as the client makes
 * the behaviour, never from what the sandbox does not know (a response it did not issue served nothing
 * that it knows of).
 */
interface Exercised {
  shows: string;
  test: (p: SightedPage, clean: (r: SightedResponse) => boolean) => boolean;
  /**
   * the rule whose judgement the test reads (a page's DTO says it by that rule's finding): where the rule
   * is off nothing tells, so the behaviour is seen as its `seenBy` says
   */
  reads?: string;
}

/** A search or category listing (SC runs one controller for both, with its page type) as a page shows it. */
type Listing = 'search' | 'category';

// SC search() with infinite backfill: one render, page 1's; the restored pages' tiles are impressed with
// their own responseIds and have no render. `missing-render-backfill` tells such a page from one fetched
// by scrolling (its info names the behaviour); the pages' numbers are what the companion search issued.
function backfillOf(kind: Listing): Exercised {
  const id = `${kind}.backfill`;
  return {
    shows: `a page on which infinite scroll restored several pages under one render: page 1 of a ${kind === 'search' ? 'search' : 'category listing'} rendered, a later page of the same ${kind === 'search' ? 'search' : 'listing'} (both issued by the companion search) impressed without a render of its own`,
    test: (p, clean) =>
      p.responses.some(
        (later) =>
          later.kind === kind &&
          later.renders === 0 &&
          later.interactions > 0 &&
          names(later, id) &&
          (later.served?.page ?? 0) > 1 &&
          clean(later) &&
          p.responses.some(
            (first) =>
              first.kind === later.kind &&
              first.renders > 0 &&
              first.served?.page === 1 &&
              first.served.query === later.served!.query &&
              clean(first),
          ),
      ),
  };
}

// SC: slot banners go in an impression's `banners`, inline ones in its results typed banner. Every
// impression carries `banners` (the schema asks for the field), so one shows banners only when its
// response served some (the companion search issued it with slot or inline banners) or it named one
function bannersOf(kind: Listing): Exercised {
  return {
    shows: `a ${kind} response impressed or clicked that named a banner in data.banners, or that the companion search issued with slot or inline banners`,
    test: (p, clean) =>
      p.responses.some(
        (r) =>
          r.kind === kind &&
          r.interactions > 0 &&
          (r.banners === true || (r.served?.banners ?? 0) > 0) &&
          clean(r),
      ),
  };
}

// SC: pagination, filters and sort in an SPA run a new search on the page (a new responseId, a render,
// the same pageLoadId); only then can events name the older response while the newer one shows. A page
// of one search shows nothing of it: each listing a page load of its own keeps one response by itself
function oneResponseShownOf(kind: Listing): Exercised {
  return {
    shows: `a page load on which two ${kind} responses were rendered (a page, filter or sort change without loading a page), one of them impressed, clicked or added, none flagged by the behaviour’s rules`,
    test: (p, clean) => {
      let rendered = 0;
      let used = false;
      for (const r of p.responses) {
        if (r.kind !== kind || r.renders === 0) continue;
        if (!clean(r)) return false;
        rendered++;
        if (r.interactions > 0) used = true;
      }
      return rendered > 1 && used;
    },
  };
}

// a HAR's search requests show the context sent, not what the response served: its rules still lack the
// issued responses, and the row says so (unverified)
function requestContextOf(kind: Listing): Exercised {
  return {
    shows: `a rendered ${kind} response whose request carried the tracker’s context (userId and pageLoadId): one the companion search issued, or one a HAR’s ${kind === 'search' ? 'search' : 'category'} request asked for`,
    test: (p, clean) =>
      p.responses.some(
        (r) =>
          r.kind === kind &&
          r.renders > 0 &&
          (r.served?.asked === true || r.askedInRecording === true) &&
          clean(r),
      ),
  };
}

/**
 * Whose page a response's search/redirect was sent from (SC afterSearch() sends a category page's there
 * too): a category page's when the companion search issued it for one (category.json) or its page sent
 * category/* events, else a search page's; undefined when it sent no redirect.
 */
function redirectPage(p: SightedPage, r: SightedResponse): Listing | undefined {
  if (r.kind !== 'search' || (r.redirects ?? 0) === 0) return undefined;
  return r.category === true || p.responses.some((o) => o.kind === 'category')
    ? 'category'
    : 'search';
}

/**
 * Behaviours whose `seenBy` endpoint (search/render) arrives after every search, so that it arrived says
 * nothing of them: each is seen only on a page that shows it exercised (`shows`, the test), and reads as
 * unseen otherwise: a store without infinite scroll is not ready for its backfill.
 */
export const EXERCISED: Readonly<Record<string, Exercised>> = {
  'search.backfill': backfillOf('search'),
  'search.zero-results': NO_RESULTS_SHOWN,
  // the page that shows a no-results search silent after its render shows that it was rendered
  'search.zero-results-render': NO_RESULTS_SHOWN,
  // SC afterStore(): the render is queued once, then the page leaves for the product: nothing of the page
  // (no impression, no event of another response under any responseId) comes after it
  'search.single-result-redirect': {
    shows:
      'a response the companion search issued with one result, rendered once, whose render is the last thing its ended page sent',
    test: (p, clean) =>
      p.responses.some(
        (r) =>
          clean(r) &&
          renderedAlone(p, r) &&
          r.renders === 1 &&
          r.served?.results === 1 &&
          r.renderedLast === true,
      ),
  },
  'search.banners': bannersOf('search'),
  // SC afterSearch(): search/redirect, then window.location.replace(url). The endpoint is a category page's
  // redirect too, so a search page's redirect shows search.redirect: one of a response not issued for a
  // category page, on a page that sent no category/* events (category.redirect's test, turned round)
  'search.redirect': {
    shows:
      'a search/redirect of a search page’s response: not one the companion search issued for a category page (category.json), on a page that sent no category/* events',
    test: (p, clean) => p.responses.some((r) => redirectPage(p, r) === 'search' && clean(r)),
  },
  'search.one-response-shown': oneResponseShownOf('search'),
  // Snap.tsx: in development every beacon carries context.dev: true, so a page load all of whose events
  // carry it shows the mode; traffic all sent in production mode is a live storefront's, not one under
  // development (`dev-flag` says so on its pages)
  'mode.development': {
    shows: 'a page load whose every accepted event carried context.dev: true (development mode)',
    test: (p) => p.dev === true,
    reads: DEV_FLAG,
  },
  // SC afterSearch(): a category page's redirect goes to search/redirect like a search page's, so the
  // endpoint does not tell them apart: a category response's redirect is one of a response the companion
  // search issued for a category page, or one sent by a page that sent category/* events. A search page's
  // redirect shows search.redirect only.
  'category.redirect': {
    shows:
      'a search/redirect of a category response: one the companion search issued for a category page (category.json), or one sent by a page that sent category/* events',
    test: (p, clean) => p.responses.some((r) => redirectPage(p, r) === 'category' && clean(r)),
  },
  // SC with page type category: the search page's controller on category/*, read by the same tests
  'category.backfill': backfillOf('category'),
  'category.banners': bannersOf('category'),
  'category.one-response-shown': oneResponseShownOf('category'),
  'category.request-context': requestContextOf('category'),
  // B: the pageLoadId is made in the constructor and renewed only by pageLoad(); Snap makes one tracker per
  // page load and never calls it per route. An SPA route changes window.location.href (pushState), which
  // each later event carries as pageUrl. A page load whose requests name two addresses of one origin routed
  // and kept its pageLoadId: no rule can tell a storefront that renews it per route (the beacon package's
  // advice) from one without routes, so only that is evidence
  'identity.page-load-spa': {
    shows:
      'a page load whose requests were created at two addresses of one origin (an SPA route: a re-search, a filter or a product opened without loading a page) under one pageLoadId',
    test: (p) => p.routed === true,
  },
  'search.request-context': requestContextOf('search'),
  // SC search(): no search while the store holds the same params, so the cache serves a response again only
  // after another search of the listing (or on a later page: a reload, a route back); its tiles are then
  // impressed again. `duplicate-render` and `responseid-reused` say where the cache could not have served it.
  'search.render-cached': {
    shows:
      'a search response rendered again: on a later page than its first, or on its page after it was shown and another search response was rendered',
    test: (p, clean) =>
      p.responses.some(
        (r) =>
          ofSearch(r) &&
          r.renders > 0 &&
          clean(r) &&
          (p.renderedBefore.has(r.responseId) ||
            (r.renders > 1 &&
              r.interactions > 0 &&
              p.responses.some((o) => o !== r && o.kind === r.kind && o.renders > 0))),
      ),
  },
};

/**
 * Each finer behaviour with its test and what is evidence of it: a response no warning or error of the
 * behaviour's own rules (those that guard it) flags.
 */
const EXERCISE = Object.entries(EXERCISED).map(([id, { test }]) => {
  const own = new Set(rulesGuarding(id));
  return {
    id,
    area: areaKey(behaviour(id)!.area, ''),
    test,
    clean: (r: SightedResponse) =>
      r.findings?.some((f) => f.severity !== 'info' && own.has(f.rule)) !== true,
  };
});

interface Worst {
  rule: string;
  severity: Severity;
  pageLoadId: string;
  /** on a page without a pageLoadId: the request its first event was (`requestOf`) */
  request?: string;
  /** the finding itself: its words are written for the row's answer only (`wordsOf`) */
  finding: Judged;
}

/** A message longer than this is cut for a row (its page holds it whole)… */
const SHORT = 160;
/** …at the end of its first sentence when that ends within this, else at a word before SHORT */
const SENTENCE = 300;

/** A finding's message and fix as a row says them: a live finding's words are written here, once. */
function wordsOf(f: Judged): { message: string; fix: string } {
  const { message, fix } = wholeWordsOf(f);
  return { message: shortened(message), fix };
}

/** A finding's message and fix, whole. */
function wholeWordsOf(f: Judged): { message: string; fix: string } {
  const { message, fix } = 'texts' in f ? findingDto(f as unknown as Finding) : f;
  return { message: message ?? '', fix: fix ?? '' };
}

function shortened(text: string): string {
  if (text.length <= SHORT) return text;
  // a first sentence read whole says what is wrong; one cut in its middle often stops before the why
  const end = firstSentenceEnd(text);
  if (end !== -1 && end <= SENTENCE) return `${text.slice(0, end)} …`;
  const cut = text.lastIndexOf(' ', SHORT - 1);
  return `${text.slice(0, cut > SHORT / 2 ? cut : SHORT - 1)}…`;
}

/** Where a message's first sentence ends (after its full stop), past a few words; -1 when it has none. */
function firstSentenceEnd(text: string): number {
  // a full stop that ends a sentence is followed by a space and a capital (not "e.g. x", not "1.3 s")
  const sentence = /\.\s+(?=[A-Z])/g;
  sentence.lastIndex = SHORT / 4;
  const m = sentence.exec(text);
  return m ? m.index + 1 : -1;
}

const WEIGHT: Record<Severity, number> = { error: 2, warning: 1, info: 0 };

/** a rule's place in the rule list: the order a page lists its findings of one severity in */
const RULE_ORDER = new Map(RULE_IDS.map((id, i) => [id, i]));

/** Does a finding of `c` on page `pageLoadId`, counted after `held`, take its place as the row's worst? */
function worse(c: Counted, pageLoadId: string, held: Worst): boolean {
  const by = WEIGHT[c.severity] - WEIGHT[held.severity];
  if (by !== 0) return by > 0;
  if (pageLoadId !== held.pageLoadId) return true;
  return (RULE_ORDER.get(c.rule) ?? Infinity) < (RULE_ORDER.get(held.rule) ?? Infinity);
}

/** A response event's place in a kind's sightings: its bit's index (render 0, redirect 1, …). */
const EVENT_INDEX = new Map<string, number>(
  ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'].map((e) => [
    e,
    Math.log2(eventBit(e)),
  ]),
);

/** What shows a behaviour: any accepted event, an event of a kind, a visit endpoint, or a credited order. */
type Shows =
  | { any: true }
  | { kind: string; index: number }
  | { endpoint: string }
  | { credited: true }
  | { exercised: string }
  | { visit: string };

function showsOf(b: Behaviour): Shows[] {
  const otherwise = SEEN_OTHERWISE[b.id];
  if (otherwise && 'sighting' in otherwise) return [{ credited: true }];
  if (EXERCISED[b.id]) return [{ exercised: b.id }];
  if (VISIT_SHOWN[b.id] !== undefined) return [{ visit: b.id }];
  return seenByShows(b);
}

/** What shows a behaviour by its `seenBy` endpoints alone. */
function seenByShows(b: Behaviour): Shows[] {
  return b.seenBy.map((e): Shows => {
    if (e === '*') return { any: true };
    const [kind, event] = e.split('/') as [string, string];
    const index = EVENT_INDEX.get(event);
    return isResponseKind(kind) && index !== undefined ? { kind, index } : { endpoint: e };
  });
}
const SHOWS = new Map(BEHAVIOURS.map((b) => [b.id, showsOf(b)]));

/** What shows a behaviour for a site: its `seenBy` where the rule its finer test reads is off. */
function showsFor(b: Behaviour, inputs: ReadinessInputs): readonly Shows[] {
  const reads = EXERCISED[b.id]?.reads;
  return reads !== undefined && inputs.off(reads) ? seenByShows(b) : SHOWS.get(b.id)!;
}

/**
 * The behaviour a finding counts against: the one it names (its rule decides which of those it guards the
 * finding is about: a cart event's contradiction is `cart.ledger`'s, unless it is about what a quick add put
 * in the cart), else its rule's first; whether its row is a widget's (one per tag).
 */
function behaviourOf(
  f: Pick<TimelineFindingDto, 'rule' | 'behaviour'>,
): { id: string; widget: boolean } | undefined {
  const id = f.behaviour ?? ruleMeta(f.rule)?.guards[0];
  if (id === undefined) return undefined;
  return { id, widget: isWidgetKind(behaviour(id)?.area ?? '') };
}

const rowKey = (id: string, tag: string) => `${id}\u0000${tag}`;

/** A row's area (`areaKey`): its behaviour's area and its tag. */
function rowArea(row: string): string {
  const at = row.indexOf('\u0000');
  return areaKey(behaviour(row.slice(0, at))?.area ?? '', row.slice(at + 1));
}

/** The area whose findings keep a page from being the example of what any event shows (identity's rows). */
const ANY_AREA = areaKey('identity', '');
/** The area of a credited order's rows. */
const CREDIT_AREA = areaKey('order', '');
/** A visit endpoint's area: its behaviour's (`shopper/login` is login's), else its category. */
function endpointArea(endpoint: string): string {
  let area = ENDPOINT_AREAS.get(endpoint);
  if (area === undefined) {
    const sender = sendingBehaviour(endpoint);
    area = areaKey((sender && behaviour(sender)?.area) ?? endpoint.split('/')[0]!, '');
    ENDPOINT_AREAS.set(endpoint, area);
  }
  return area;
}
const ENDPOINT_AREAS = new Map<string, string>();

/**
 * What a site's rules had beyond its traffic, for readiness to tell which of a behaviour's rules could judge
 * it (the responses the companion search issued are read from the pages, by the tally). Read from the same
 * provenance, levels and recorded answers live and by `check` of the sandbox's export: one judgement.
 */
export interface ReadinessInputs {
  /**
   * the site has a catalog its ids are checked against (accounts[].search.catalogCheck not off): the visit
   * rules read it, and the listings' rules too unless the site uses the companion search
   */
  catalog: boolean;
  /** the site searches through the sandbox (accounts[].search.companion) */
  companion: boolean;
  /** the real service answered some of its events (forwarding on, or an export that recorded answers) */
  upstream: boolean;
  /** the rule is off for the site */
  off(rule: string): boolean;
}

/** No catalog, no companion, no upstream answers, every rule on (unit tests; `check` of bare traffic). */
export const NO_INPUTS: ReadinessInputs = {
  catalog: false,
  companion: false,
  upstream: false,
  off: () => false,
};

/** A site's inputs from what its rules read: the provenance (settings and catalogs) and its rule levels. */
export function readinessInputs(
  provenance: ProvenanceSource | undefined,
  siteId: string,
  levels: LevelSource | undefined,
  upstream: boolean,
): ReadinessInputs {
  const site = provenance?.site(siteId);
  return {
    catalog: site?.catalogCheck !== false && provenance?.catalog(siteId) !== undefined,
    companion: site?.companion === true,
    upstream,
    off: (rule) => levels?.level(siteId, rule)?.level === 'off',
  };
}

/** A behaviour's guarding rules with what each has nothing to judge without (none: the traffic is enough). */
const GUARDS = new Map(
  BEHAVIOURS.map((b) => [
    b.id,
    rulesGuarding(b.id).map((rule) => ({ rule, needs: ruleMeta(rule)?.judgesOnlyWith })),
  ]),
);

/** The response kinds whose events show a behaviour (none: a visit's, or any event's). */
const ROW_KINDS = new Map(
  BEHAVIOURS.map((b) => [
    b.id,
    [...new Set(b.seenBy.map((e) => e.split('/')[0]!).filter(isResponseKind))],
  ]),
);

const LACK_ORDER: readonly ReadinessLack[] = [...RULE_INPUTS, 'off'];

/** What readiness reads of a finding (as the engine keeps it or as a report gives it). */
type Judged = Pick<
  TimelineFindingDto,
  'rule' | 'behaviour' | 'severity' | 'causedBy' | 'kind' | 'tag' | 'responseId' | 'eventIds'
> &
  Partial<Pick<TimelineFindingDto, 'message' | 'fix'>>;

/**
 * A finding as it counts against one row: the row (`rowKey`), its rule and severity; or, with `interaction`,
 * a finding of a click or quick add of the page, which an order credited to it reads (`creditedOrder`).
 */
export interface Counted {
  row: string;
  /** the accepted clickthrough or addtocart it is against (its row is then '') */
  interaction?: string;
  rule: string;
  severity: Severity;
  /** on a page without a pageLoadId: the request its first event was */
  request?: string;
  /** the finding (a row's worst says its words) */
  finding: Judged;
  /** an info finding: it counts against nothing, but an unseen row of its behaviour says it (`notes`) */
  note?: true;
}

/** What the count reads of the page its findings are on, live or as `check` hands it over. */
interface CountedPage {
  pageLoadId: string;
  /** what the page's event `id` was, as a request (`requestOf`) */
  request(id: string): string;
  /** the page's widget responses sent with another widget's tag (`ownersOf`) */
  owners: Owners | undefined;
  /** the page's accepted event `id`: its endpoint and tag ('' for kinds without), else undefined */
  accepted(id: string): { endpoint: string; tag: string } | undefined;
  /** the tag of the page's event `id`, accepted or not ('' for kinds without), else undefined */
  tagOf(id: string): string | undefined;
}

/**
 * A page's widget responses whose events carry another widget's tag: `responseKey` → the tag whose render
 * carried their responseId on the page. The provider's client runs one controller per widget, each
 * sending its own tag with its own response's responseId, so events with no render of their own whose
 * responseId the page rendered with another tag are that widget's (`missing-render` names the wrong tag).
 */
type Owners = ReadonlyMap<string, string>;

/** A page's response as `ownersOf` reads it. */
interface TaggedResponse {
  kind: string;
  tag: string;
  responseId: string;
  /** its accepted renders */
  renders: number;
  /** its accepted events (live: their types as `eventBit`s): none, nothing of it was sent */
  sent: number;
}

/**
 * Owners of a page's responses (undefined when none is another widget's). Of two tags that rendered the
 * responseId, the first in order of tags, so that live and `check` name the same.
 */
function ownersOf(responses: Iterable<TaggedResponse>): Owners | undefined {
  let rendered: Map<string, string[]> | undefined;
  let unrendered: TaggedResponse[] | undefined;
  for (const r of responses) {
    if (!isWidgetKind(r.kind) || r.responseId === '') continue;
    if (r.renders === 0) {
      if (r.sent !== 0) (unrendered ??= []).push(r);
    } else {
      const key = `${r.kind} ${r.responseId}`;
      const tags = (rendered ??= new Map()).get(key);
      if (tags) tags.push(r.tag);
      else rendered.set(key, [r.tag]);
    }
  }
  if (!rendered || !unrendered) return undefined;
  let owners: Map<string, string> | undefined;
  for (const r of unrendered) {
    const tags = rendered.get(`${r.kind} ${r.responseId}`)?.filter((t) => t !== r.tag);
    if (tags && tags.length > 0)
      (owners ??= new Map()).set(responseKey(r.kind, r.tag, r.responseId), tags.sort()[0]!);
  }
  return owners;
}

/**
 * The row of a widget area that a widget's events show, and that a finding about its events sent with
 * another widget's tag counts against: the one whose endpoints are its impressions
 * (`recommendations.events`, `bundles.widget`).
 */
const EVENTS_ROW = new Map(
  BEHAVIOURS.filter((b) => isWidgetKind(b.area) && b.seenBy.includes(`${b.area}/impression`)).map(
    (b) => [b.area as string, b.id],
  ),
);

/**
 * The rows the findings count against: a warning or an error counts against the behaviour it names (a
 * widget's row is its tag's); one that follows from another (`causedBy`) is the cause's, counted instead.
 * A page without a pageLoadId gathers requests that carried none: each finding there says which request.
 * A finding against an accepted event also counts against the behaviour that sent it, when its rule guards
 * that one (`againstSender`), a finding that follows from another too.
 */
function counted(list: Iterable<Judged>, page: CountedPage): Counted[] {
  const out: Counted[] = [];
  for (const f of list) {
    const named = behaviourOf(f);
    if (!named) continue;
    // an info finding changes no row's status; a row still unseen says it (a checkout seen on another
    // domain without the storefront's ids is identity.cross-domain not done, not nothing seen)
    if (f.severity === 'info') {
      if (!named.widget && f.causedBy === undefined)
        out.push({
          row: rowKey(named.id, ''),
          rule: f.rule,
          severity: f.severity,
          finding: f,
          note: true,
        });
      continue;
    }
    // about a widget's events sent with another widget's tag: what is wrong is the tag its events carry
    const owner =
      page.owners && f.kind !== undefined && f.responseId !== undefined
        ? page.owners.get(responseKey(f.kind, f.tag ?? '', f.responseId))
        : undefined;
    // a page's finding about a widget's events (`schema`: its rejected impressions) names no response: it
    // counts against the row of each tag those events carried, a widget's row being its tag's
    const own =
      owner !== undefined
        ? [rowKey(EVENTS_ROW.get(f.kind!)!, owner)]
        : named.widget && f.tag === undefined
          ? tagsOfEvents(f, page).map((t) => rowKey(named.id, t))
          : [rowKey(named.id, named.widget ? (f.tag ?? '') : '')];
    for (const id of f.eventIds) {
      const ev = page.accepted(id);
      if (ev && INTERACTION_ENDPOINT.test(ev.endpoint))
        out.push({ row: '', interaction: id, rule: f.rule, severity: f.severity, finding: f });
    }
    const rows = againstSender(f, page, owner);
    if (f.causedBy === undefined) for (const r of own) rows.add(r);
    for (const r of rows) {
      const c: Counted = { row: r, rule: f.rule, severity: f.severity, finding: f };
      if (page.pageLoadId === '' && f.eventIds.length > 0) c.request = page.request(f.eventIds[0]!);
      out.push(c);
    }
  }
  return out;
}

/**
 * The row of the behaviour that sent the finding's accepted events (the model's `sends`: a search/clickthrough
 * is search.clickthrough's), when the finding's rule guards it: an event a rule of its own behaviour flags is
 * not that behaviour done, so its row is not `ok` on it, though the finding names another behaviour (a click
 * under another response than its tile's is search.tile-response's) or follows from another (a click that
 * kept a stale responseId). Exempt: a rule that names another behaviour where its first is the sender's has
 * told the event was not the sender's fault (duplicate-render: a render again the cache could serve is the
 * cached render's; cart-inconsistent: a cart/add that lacks a quick-added item is the quick add's, not the
 * ledger's). Rejected events are not the behaviour done either, and count as named.
 */
function againstSender(f: Judged, page: CountedPage, owner: string | undefined): Set<string> {
  const rows = new Set<string>();
  const first = ruleMeta(f.rule)?.guards[0];
  for (const id of f.eventIds) {
    const ev = page.accepted(id);
    const sender = ev && sendingBehaviour(ev.endpoint);
    if (sender === undefined || !GUARDED_BY_RULE.get(sender)!.has(f.rule)) continue;
    if (f.behaviour !== sender && first === sender) continue;
    const widget = isWidgetKind(behaviour(sender)!.area);
    rows.add(rowKey(sender, widget ? (owner ?? ev!.tag) : ''));
  }
  return rows;
}

/** The tags the finding's events carried, each once (`['']` when none carried one). */
function tagsOfEvents(f: Judged, page: CountedPage): string[] {
  const tags = new Set<string>();
  for (const id of f.eventIds) {
    const tag = page.tagOf(id);
    if (tag) tags.add(tag);
  }
  return tags.size > 0 ? [...tags] : [''];
}

/** A click's or a quick add's endpoint: what an order's credit rests on. */
const INTERACTION_ENDPOINT = /\/(clickthrough|addtocart)$/;

/** Each behaviour's guarding rules, as a set. */
const GUARDED_BY_RULE = new Map(BEHAVIOURS.map((b) => [b.id, new Set(rulesGuarding(b.id))]));

/** An event of a page as `requestOf` reads it (a response's event or a visit's, live or a DTO). */
interface SentEvent {
  id: string;
  /** `search/render`, `cart/add` */
  endpoint: string;
  status: number;
  errors: readonly string[];
  accepted: boolean;
  /** a widget's tag ('' for other kinds and visit events) */
  tag?: string;
}

/**
 * A page's events by id (`CountedPage.accepted`: the accepted ones; `tagOf`: any one's tag), read once
 * either is first asked.
 */
function eventsOf(events: () => Iterable<SentEvent>): Pick<CountedPage, 'accepted' | 'tagOf'> {
  let byId: Map<string, { endpoint: string; tag: string; accepted: boolean }> | undefined;
  const read = (id: string) => {
    if (!byId) {
      byId = new Map();
      for (const e of events())
        byId.set(e.id, { endpoint: e.endpoint, tag: e.tag ?? '', accepted: e.accepted });
    }
    return byId.get(id);
  };
  return {
    accepted: (id) => {
      const e = read(id);
      return e?.accepted ? e : undefined;
    },
    tagOf: (id) => read(id)?.tag,
  };
}

/**
 * An event of a page without a pageLoadId, as the request it was: `ev_3, a refused CORS preflight to
 * /beacon/v2/demo42/search/render`, `ev_5, a request to /beacon/v2/demo42/search/impression answered 400`,
 * or its id alone when the page does not hold it (a path that names no endpoint). Live and `check` say
 * the same: the path is the one the event's endpoint and site make.
 */
function requestOf(id: string, siteId: string, events: Iterable<SentEvent>): string {
  for (const e of events) {
    if (e.id !== id) continue;
    const path = `/beacon/v2/${siteId}/${e.endpoint}`;
    return isRefusedPreflight(e.status, e.errors[0])
      ? `${id}, a refused CORS preflight to ${path}`
      : `${id}, a request to ${path} answered ${e.status}`;
  }
  return id;
}

/** A live page's events as `requestOf` reads them. */
function* liveEvents(page: Page): Generator<SentEvent> {
  for (const r of page.responses.values())
    for (const e of r.events)
      yield {
        id: e.id,
        endpoint: endpointOf(e.kind, e.event),
        status: e.status,
        errors: e.errors,
        accepted: e.accepted,
        tag: e.tag,
      };
  for (const v of page.visitEvents) yield { ...v.base, endpoint: v.endpoint };
}

/** A page's DTO events as `requestOf` reads them. */
function* dtoEvents(page: PageTimelineDto): Generator<SentEvent> {
  for (const r of page.responses)
    for (const e of r.events) yield { ...e, endpoint: endpointOf(e.kind, e.event) };
  for (const v of page.visitEvents ?? []) yield v;
}

/**
 * What each live page's findings count against, kept while its findings are the same lists: the judge
 * replaces a list when it judges again, so the same lists are the same findings. A read of 10,000 judged
 * pages then costs a look at each, not a pass over every finding.
 */
export class ReadinessMemo {
  private readonly pages = new WeakMap<
    Page,
    { lists: Array<readonly Judged[]>; counted: Counted[] }
  >();

  counted(page: Page, findings: () => Iterable<Judged>, owners?: Owners): readonly Counted[] {
    const held = this.pages.get(page);
    if (held && sameLists(held.lists, page)) return held.counted;
    const lists = [page.pageFindings, page.visitFindings];
    for (const r of page.responses.values()) lists.push(r.findings);
    const read: CountedPage = {
      pageLoadId: page.pageLoadId,
      request: (id) => requestOf(id, page.siteId, liveEvents(page)),
      owners,
      ...eventsOf(() => liveEvents(page)),
    };
    const fresh = { lists, counted: counted(findings(), read) };
    this.pages.set(page, fresh);
    return fresh.counted;
  }
}

/** The page holds the very finding lists it held (no allocation: every page is asked on every read). */
function sameLists(lists: ReadonlyArray<readonly Judged[]>, page: Page): boolean {
  if (lists.length !== page.responses.size + 2) return false;
  if (lists[0] !== page.pageFindings || lists[1] !== page.visitFindings) return false;
  let i = 2;
  for (const r of page.responses.values()) if (lists[i++] !== r.findings) return false;
  return true;
}

export class ReadinessTally {
  /** kind → tag ('' for kinds without) → the newest pages per event (by EVENT_INDEX) */
  private readonly byKind = new Map<string, Map<string, Array<Slot | undefined>>>();
  /** visit endpoints (`cart/add`) and other sightings: any accepted event, a credited order */
  private readonly byEndpoint = new Map<string, Slot>();
  private anySent: Slot | undefined;
  private creditedOn: Slot | undefined;
  /** EXERCISED behaviour id → the newest pages that showed it */
  private readonly exercised = new Map<string, Slot>();
  /**
   * recommendations widget tag → what its rendered responses the companion search issued served: nothing
   * (each empty), or something to impress
   */
  private readonly servedWidgets = new Map<string, 'nothing' | 'something'>();
  /** the pages a warning or an error of an area is on: an `ok` row's example is one without */
  private readonly examples = new ExamplePages();
  /** the responseIds of the search responses rendered so far (search.render-cached) */
  private readonly rendered = new Set<string>();
  /** the response kinds of which the traffic showed one the companion search issued */
  private readonly issuedKinds = new Set<string>();
  /** `rowKey(behaviour id, tag)` ('' but for widgets) → its worst finding */
  private readonly worst = new Map<string, Worst>();
  /** `rowKey` → an info finding of its behaviour, the newest page's (`Counted.note`) */
  private readonly notes = new Map<string, Worst>();
  /** `pageLoadId \u0000 eventId` of a click or quick add → its worst finding (order.credit reads it) */
  private readonly onInteractions = new Map<string, Judged>();
  /** `rowKey(kind, tag)` of a widget → the other tags its events were sent with (`Owners`) */
  private readonly wrongTags = new Map<string, Set<string>>();
  /** what a shopper's pages show together: a quick add then a cart/add, a checkout at another origin */
  private readonly visits = new VisitEvidence();
  private count = 0;

  /** Next page: its sightings are newer than all before. */
  private next(pageLoadId: string): Sighting {
    return { pageLoadId, at: ++this.count };
  }

  /** The accepted event types (`eventBit`s) of a response of `kind` and `tag` on the page. */
  sentResponse(kind: string, tag: string, sent: number, page: Sighting): void {
    let byTag = this.byKind.get(kind);
    if (!byTag) this.byKind.set(kind, (byTag = new Map()));
    let slots = byTag.get(tag);
    if (!slots) byTag.set(tag, (slots = []));
    const area = areaKey(kind, isWidgetKind(kind) ? tag : '');
    for (let i = 0; sent >> i !== 0; i++)
      if ((sent >> i) & 1) slots[i] = this.examples.put(slots[i], page, area);
  }

  /** An accepted event of `endpoint` (`search/render`, `cart/add`), with its widget tag ('' for others). */
  sent(endpoint: string, tag: string, pageLoadId: string): void {
    const page = this.next(pageLoadId);
    this.anySent = this.examples.put(this.anySent, page, ANY_AREA);
    const [kind, event] = endpoint.split('/') as [string, string];
    if (isResponseKind(kind) && EVENT_INDEX.has(event))
      this.sentResponse(kind, tag, eventBit(event), page);
    else this.sentVisit(endpoint, page);
  }

  /** An accepted visit event (`cart/add`) of the page. */
  private sentVisit(endpoint: string, page: Sighting): void {
    this.byEndpoint.set(
      endpoint,
      this.examples.put(this.byEndpoint.get(endpoint), page, endpointArea(endpoint)),
    );
  }

  /**
   * A live page: its responses' accepted event types (a widget's sent with another widget's tag, under
   * its own: `owners`) and its accepted visit events.
   */
  sentPage(page: Page, owners?: Owners): void {
    if (page.accepted === 0) return;
    const seen = this.next(page.pageLoadId);
    this.anySent = this.examples.put(this.anySent, seen, ANY_AREA);
    for (const r of page.responses.values()) {
      if (r.sent === 0) continue;
      this.sentResponse(r.kind, this.ownerOf(r, owners) ?? r.tag, r.sent, seen);
      // the visit evidence reads a response's first accepted event (its origin), its clicks and quick adds
      let first = true;
      for (const e of r.events) {
        if (!e.accepted || (!first && e.event !== 'addtocart' && e.event !== 'clickthrough'))
          continue;
        first = false;
        this.visitEvent(liveTimed(e), `${e.kind}/${e.event}`, page.pageLoadId);
      }
    }
    for (const v of page.visitEvents)
      if (v.base.accepted) {
        this.sentVisit(v.endpoint, seen);
        this.visitEvent(liveTimed(v.base), v.endpoint, page.pageLoadId);
      }
  }

  /**
   * An accepted event of page `pageLoadId`, for what a shopper's pages show together (readiness-visits.ts):
   * sighted with the page's latest sighting (the page's events are told right after it).
   */
  visitEvent(e: VisitSightedEvent, endpoint: string, pageLoadId: string): void {
    this.visits.event(endpoint, e, pageLoadId, this.count);
  }

  /**
   * The tag a widget's events sent with another widget's tag count under: that of the widget whose
   * responseId they carry, which hears the tag they carried (undefined: they count under their own).
   */
  ownerOf(
    r: Pick<TaggedResponse, 'kind' | 'tag' | 'responseId'>,
    owners: Owners | undefined,
  ): string | undefined {
    const owner = owners?.get(responseKey(r.kind, r.tag, r.responseId));
    if (owner === undefined) return undefined;
    const key = rowKey(r.kind, owner);
    const tags = this.wrongTags.get(key);
    if (tags) tags.add(r.tag);
    else this.wrongTags.set(key, new Set([r.tag]));
    return owner;
  }

  /** The page's responses, for the behaviours an endpoint alone does not show (EXERCISED). */
  exercise(pageLoadId: string, page: Omit<SightedPage, 'renderedBefore'>): void {
    const sighted = { ...page, renderedBefore: this.rendered };
    let seen: Sighting | undefined;
    for (const { id, area, test, clean } of EXERCISE)
      if (test(sighted, clean)) {
        seen ??= { pageLoadId, at: this.count };
        this.exercised.set(id, this.examples.put(this.exercised.get(id), seen, area));
      }
    for (const r of page.responses)
      if (ofSearch(r) && r.renders > 0) this.rendered.add(r.responseId);
  }

  /**
   * A rendered recommendations widget response the companion search issued (`served` is read only for a
   * rendered one): whether what it served had anything to impress, per tag (`emptyWidgets`).
   */
  widgetServed(kind: string, tag: string, served: NonNullable<SightedResponse['served']>): void {
    if (kind !== 'recommendations') return;
    const held = this.servedWidgets.get(tag);
    if (held !== 'something')
      this.servedWidgets.set(tag, served.shown > 0 ? 'something' : 'nothing');
  }

  /** The companion search issued a response of `kind` whose events the site sent. */
  issued(kind: string): void {
    this.issuedKinds.add(kind);
  }

  /** A response of `kind` the companion search issued was seen already (the rest need not be looked up). */
  hasIssued(kind: string): boolean {
    return this.issuedKinds.has(kind);
  }

  /** An order line of the page was credited to an earlier click or add. */
  credited(pageLoadId: string): void {
    this.creditedOn = this.examples.put(this.creditedOn, this.next(pageLoadId), CREDIT_AREA);
  }

  /**
   * An order with a credited line: it shows order.credit, and a warning or an error of a click or quick add
   * its credit rests on counts against it, so the row is not `ok` where the Orders view says "credit in
   * doubt" (the same findings: those of the interaction's page that name its event).
   */
  creditedOrder(order: CreditedOrder): void {
    this.credited(order.pageLoadId);
    for (const credit of order.credits) {
      const f = this.onInteractions.get(`${credit.pageLoadId}\u0000${credit.eventId}`);
      if (!f) continue;
      const { message, fix } = wholeWordsOf(f);
      const finding: Judged = {
        rule: f.rule,
        severity: f.severity,
        behaviour: 'order.credit',
        eventIds: [credit.eventId],
        message: `order "${order.orderId()}" is credited to ${credit.event} ${credit.eventId}, whose finding puts the credit in doubt: ${message}`,
        fix,
      };
      const row = rowKey('order.credit', '');
      this.counts({ row, rule: f.rule, severity: f.severity, finding }, credit.pageLoadId);
    }
  }

  /**
   * The page's findings as the timelines judged them: a warning or an error counts against the
   * behaviours it names; one that follows from another (`causedBy`) is the cause's, which is counted.
   */
  findings(list: Iterable<Judged>, page: CountedPage): void {
    for (const c of counted(list, page)) this.counts(c, page.pageLoadId);
  }

  /**
   * One finding counted against one row, on the page. The row's worst is the most severe; of equal
   * severity, the one on the newest page (pages come oldest first); on one page, the one the page lists
   * first (its rule first in the rule list, the order of `GET /_sandbox/rules`). That is an order of the
   * findings, not of how they were handed over: a live page gives its page rules' findings before its
   * responses', `check` gives them as the page lists them, and both name the same one.
   */
  counts(c: Counted, pageLoadId: string): void {
    if (c.note) {
      // pages come oldest first: the newest page's
      this.notes.set(c.row, worstOf(c, pageLoadId));
      return;
    }
    if (c.interaction !== undefined) {
      const key = `${pageLoadId}\u0000${c.interaction}`;
      const held = this.onInteractions.get(key);
      if (!held || WEIGHT[c.severity] > WEIGHT[held.severity])
        this.onInteractions.set(key, c.finding);
      return;
    }
    this.examples.flag(pageLoadId, rowArea(c.row));
    const held = this.worst.get(c.row);
    if (!held) this.worst.set(c.row, worstOf(c, pageLoadId));
    else if (worse(c, pageLoadId, held)) this.worst.set(c.row, worstOf(c, pageLoadId));
  }

  /** Each behaviour's row; `inputs`: what the site's rules had beyond its traffic (none by default). */
  result(site: ReadinessSite, inputs: ReadinessInputs = NO_INPUTS): ReadinessDto {
    const behaviours: ReadinessRowDto[] = [];
    for (const b of BEHAVIOURS) {
      if (!isWidgetKind(b.area)) {
        behaviours.push(this.row(b, '', inputs));
        continue;
      }
      const tags = this.tagsOf(b.area, site);
      if (tags.length > 0) for (const tag of tags) behaviours.push(this.row(b, tag, inputs));
      else behaviours.push({ ...head(b), status: 'not-applicable', why: noWidget(b.area, site) });
    }
    const summary = { ok: 0, findings: 0, unseen: 0, notApplicable: 0, unverified: 0 };
    for (const r of behaviours) {
      if (r.status === 'not-applicable') summary.notApplicable++;
      else summary[r.status]++;
      if (r.unverified) summary.unverified++;
    }
    return { siteId: site.siteId, expect: [...site.expect], behaviours, summary };
  }

  /**
   * What kept every rule that guards the behaviour from judging the site's traffic, by what each lacked;
   * undefined when one of them could judge it, or when none exists (the model says why none can be
   * certain: seen is all such a row can say).
   */
  private unverified(b: Behaviour, inputs: ReadinessInputs): UnverifiedDto[] | undefined {
    const guards = GUARDS.get(b.id)!;
    if (guards.length === 0) return undefined;
    const lacked = new Map<ReadinessLack, string[]>();
    const lack = (what: ReadinessLack, rule: string) => {
      const rules = lacked.get(what);
      if (rules) rules.push(rule);
      else lacked.set(what, [rule]);
    };
    for (const { rule, needs } of guards) {
      if (inputs.off(rule)) {
        lack('off', rule);
        continue;
      }
      if (needs === undefined || needs.some((n) => this.has(n, b, inputs))) return undefined;
      for (const n of needs) lack(n, rule);
    }
    return LACK_ORDER.filter((l) => lacked.has(l)).map((l) => ({
      lacks: l,
      rules: lacked.get(l)!,
      how: LACK_HOW[l],
    }));
  }

  /** The rules of behaviour `b` had `input` on this site's traffic. */
  private has(input: RuleInput, b: Behaviour, inputs: ReadinessInputs): boolean {
    const kinds = ROW_KINDS.get(b.id)!;
    switch (input) {
      case 'issued':
        return kinds.length === 0
          ? this.issuedKinds.size > 0
          : kinds.some((k) => this.issuedKinds.has(k));
      case 'catalog':
        // a companion site's listings are checked against what it issued, not the catalog
        return inputs.catalog && (kinds.length === 0 || !inputs.companion);
      case 'companion':
        return inputs.companion;
      case 'upstream':
        return inputs.upstream;
    }
  }

  /** A widget area's tags: those the site declares for it, then any other its traffic or findings name. */
  private tagsOf(area: string, site: ReadinessSite): string[] {
    const type = area === 'bundles' ? 'bundle' : 'default';
    const tags = [...new Set(site.widgets.filter((w) => w.type === type).map((w) => w.tag))];
    const more = new Set<string>(this.byKind.get(area)?.keys());
    for (const row of this.worst.keys()) {
      const [id, tag] = row.split('\u0000') as [string, string];
      if (behaviour(id)?.area === area) more.add(tag);
    }
    more.delete('');
    return [...tags, ...[...more].filter((t) => !tags.includes(t)).sort()];
  }

  private sighting(shows: Shows, tag: string): Slot | undefined {
    if ('any' in shows) return this.anySent;
    if ('credited' in shows) return this.creditedOn;
    if ('exercised' in shows) return this.exercised.get(shows.exercised);
    if ('visit' in shows) {
      const newest = this.visits.sighting(shows.visit);
      return newest && { newest };
    }
    if ('endpoint' in shows) return this.byEndpoint.get(shows.endpoint);
    return this.byKind.get(shows.kind)?.get(tag)?.[shows.index];
  }

  private row(b: Behaviour, tag: string, inputs: ReadinessInputs): ReadinessRowDto {
    const wrong =
      EVENTS_ROW.get(b.area) === b.id ? this.wrongTags.get(rowKey(b.area, tag)) : undefined;
    const base = {
      ...head(b),
      ...(isWidgetKind(b.area) && { tag }),
      ...(wrong && { wrongTags: [...wrong].sort() }),
    };
    // findings show even where nothing of the storefront's shows it (an attribution the session lost)
    const worst = this.worst.get(rowKey(b.id, tag));
    if (worst) return { ...base, status: 'findings', worst: worstDto(worst) };
    const otherwise = SEEN_OTHERWISE[b.id];
    if (otherwise && 'why' in otherwise)
      return { ...base, status: 'not-applicable', why: otherwise.why };
    const example = this.examples.example(
      showsFor(b, inputs).map((shows) => this.sighting(shows, tag)),
      areaKey(b.area, isWidgetKind(b.area) ? tag : ''),
    );
    if (example) {
      const unverified = this.unverified(b, inputs);
      return {
        ...base,
        status: 'ok',
        example: { pageLoadId: example.pageLoadId },
        ...(unverified && { unverified }),
      };
    }
    // a behaviour its endpoint's arrival says nothing of says what shows it (EXERCISED): a storefront that
    // sends what `next` names, and sees the row stay unseen, learns what the sandbox needs to see (a response
    // its companion search issued, an ended page)
    const shows = EXERCISED[b.id]?.shows;
    const next =
      (b.id === 'order.credit' && this.visits.creditLack()) ||
      (b.id === EMPTY_WIDGET_ROW && this.servedWidgets.get(tag) === 'nothing' && EMPTY_WIDGET) ||
      (shows ? `${b.next}${SEEN_ON}${shows}` : b.next);
    const note = this.notes.get(rowKey(b.id, tag));
    const noted = note
      ? `${NOTED}page ${note.pageLoadId} has ${note.rule} (info): ${wordsOf(note.finding).message}`
      : '';
    return { ...base, status: 'unseen', next: `${next}${tag ? ` (tag "${tag}")` : ''}${noted}` };
  }
}

const head = (b: Behaviour) => ({ id: b.id, title: b.title, area: b.area });

/** Before an info finding an unseen row says (a row's own words: an area's summary leaves it out). */
const NOTED = `${ROW_OWN}not seen done: `;

/**
 * RC renders every recommend response, an empty one too, and impresses its tiles: a widget whose every
 * rendered response the companion search issued empty had nothing to impress, click or add, so its events
 * row is unseen for want of results, not of tracking, and says so (an also-bought widget before any order).
 */
const EMPTY_WIDGET_ROW = 'recommendations.events';
const EMPTY_WIDGET = `its rendered responses served nothing to impress (the companion search issued each one empty: an also-bought widget before any order, say): give the widget something to serve (an order of the product, for also-bought), then ${behaviour(EMPTY_WIDGET_ROW)!.next}`;

/** A row's worst finding: its rule and severity, its page, and which request on a page without an id. */
function worstOf(c: Counted, pageLoadId: string): Worst {
  const w: Worst = { rule: c.rule, severity: c.severity, pageLoadId, finding: c.finding };
  if (c.request !== undefined) w.request = c.request;
  return w;
}

/** A row's worst as its answer gives it: with the finding's message (short) and its fix. */
function worstDto({ finding, ...w }: Worst): NonNullable<ReadinessRowDto['worst']> {
  return { ...w, ...wordsOf(finding) };
}

/** An order with a credited line: its page, its id and the clicks and quick adds its lines are credited to. */
export interface CreditedOrder {
  pageLoadId: string;
  /** read when a credit of it is in doubt: most orders' never is */
  orderId: () => string;
  credits: readonly OrderCredit[];
}

/** A live page: what it sent (its responses' accepted event types, its visit events) and its findings. */
export function sightPage(
  tally: ReadinessTally,
  page: Page,
  memo: ReadinessMemo,
  findings: () => Iterable<Judged>,
  served?: Served,
): void {
  const owners = ownersOf(page.responses.values());
  tally.sentPage(page, owners);
  if (page.accepted > 0) {
    const responses: SightedResponse[] = [];
    const urls: string[] = [];
    for (const v of page.visitEvents) if (v.base.accepted) urls.push(v.base.pageUrl);
    for (const r of page.responses.values()) {
      if (r.sent === 0) continue;
      urls.push(r.pageUrl);
      const interactions = r.impressions + (r.sent & CLICK_OR_ADD ? 1 : 0);
      const sighted: SightedResponse = {
        kind: r.kind,
        responseId: r.responseId,
        renders: r.renders,
        interactions,
      };
      if (r.findings.length > 0) sighted.findings = r.findings;
      if (r.bannered) sighted.banners = true;
      redirected(sighted, r.redirects, served);
      servedOf(tally, sighted, r.tag, served);
      if (r.renders > 0 && r.lastRenderAt >= page.maxAcceptedTime) sighted.renderedLast = true;
      responses.push(sighted);
    }
    tally.exercise(page.pageLoadId, {
      responses,
      ended: page.idle,
      routed: routedUrls(urls),
      dev: page.tallies.notDev.count === 0,
    });
  }
  // a page with info findings only has notes for rows still unseen (`Counted.note`)
  if (page.errors + page.warnings + page.infos === 0) return;
  for (const c of memo.counted(page, findings, owners)) tally.counts(c, page.pageLoadId);
}

const CLICK_OR_ADD = eventBit('clickthrough') | eventBit('addtocart');

/** A response's accepted redirects, and whether the companion search issued it for a category page. */
function redirected(r: SightedResponse, redirects: number, served: Served | undefined): void {
  if (redirects === 0) return;
  r.redirects = redirects;
  if (r.kind === 'search' && served?.('category', r.responseId)) r.category = true;
}

/**
 * What the companion search issued a response of the page with, looked up where a finer test reads it (a
 * rendered response, an unrendered one a backfill finding names) and for the first of its kind (the rules
 * that need it had something to judge); the tally hears that one was issued.
 */
function issuedOf(
  tally: ReadinessTally,
  r: SightedResponse,
  served: Served | undefined,
): SightedResponse['served'] {
  if (r.responseId === '' || !served) return undefined;
  const read = r.renders > 0 || names(r, 'search.backfill') || names(r, 'category.backfill');
  if (!read && tally.hasIssued(r.kind)) return undefined;
  const known = served(r.kind, r.responseId);
  if (known) tally.issued(r.kind);
  return read ? known : undefined;
}

/** What the companion search issued a response with, kept on it (`issuedOf`) and told per widget tag. */
function servedOf(
  tally: ReadinessTally,
  r: SightedResponse,
  tag: string,
  served: Served | undefined,
): SightedResponse['served'] {
  const known = issuedOf(tally, r, served);
  if (known) {
    r.served = known;
    tally.widgetServed(r.kind, tag, known);
  }
  return known;
}

const INTERACTIONS = new Set(['impression', 'clickthrough', 'addtocart']);

/**
 * Whether a recording's own search request (a HAR's search.json, category.json or autocomplete.json) asked
 * for a site's response with the tracker's context: `check` of a HAR, which carries no issued responses.
 */
export type Asked = (kind: string, responseId: string) => boolean;

/** What the companion search issued a site's responses with, as readiness reads it (live and `check` alike). */
export type Served = (kind: string, responseId: string) => SightedResponse['served'];

/**
 * `Served` of a site from the issued responses (the running sandbox's, or those an export carries): how
 * many results and banners a response served, whether its request carried the tracker's context, and the
 * query and page it answered.
 */
export function servedBy(provenance: ProvenanceSource | undefined, siteId: string): Served {
  return (kind, responseId) => {
    const issued = provenance?.issued(siteId, responseId);
    if (!issued || issuedKind(issued) !== kind) return undefined;
    const slots = Object.values(issued.slots).reduce((n, uids) => n + uids.length, 0);
    return {
      results: issued.results.length,
      shown: issued.results.length + issued.inline.length + slots,
      banners: issued.inline.length + slots,
      asked: issued.requester?.userId !== undefined && issued.requester.pageLoadId !== undefined,
      query: issued.query,
      page: issued.page,
    };
  };
}

/**
 * A page as `check` hands it over (judged as finished), with what an export says its responses served
 * (`served`): the behaviours only a served response shows (request context, single result, zero results,
 * backfill) read as the running sandbox reads them.
 */
export function sightPageDto(
  tally: ReadinessTally,
  page: PageTimelineDto,
  served?: Served,
  asked?: Asked,
): void {
  const id = page.pageLoadId;
  const responses: SightedResponse[] = [];
  const about = findingsByResponse(page.findings);
  const owners = ownersOf(page.responses.filter((r) => isWidgetKind(r.kind)).map(taggedDto));
  let latest: number | undefined;
  const urls: string[] = [];
  for (const v of page.visitEvents ?? []) if (v.accepted) urls.push(v.pageUrl);
  for (const r of page.responses) {
    let renders = 0;
    let interactions = 0;
    let redirects = 0;
    let banners = false;
    let lastRender: TimelineEventDto | undefined;
    const owner = owners
      ? tally.ownerOf({ kind: r.kind, tag: r.tag ?? '', responseId: r.responseId }, owners)
      : undefined;
    let first = true;
    for (const e of r.events) {
      if (!e.accepted) continue;
      const endpoint = endpointOf(e.kind, e.event);
      tally.sent(endpoint, owner ?? e.tag ?? '', id);
      // the visit evidence reads a response's first accepted event (its origin), its clicks and quick adds
      if (first || e.event === 'addtocart' || e.event === 'clickthrough')
        tally.visitEvent(timed(e), endpoint, id);
      first = false;
      if (e.event === 'render') {
        renders++;
        lastRender = e;
      } else if (e.event === 'redirect') redirects++;
      else if (INTERACTIONS.has(e.event)) {
        interactions++;
        if (e.event !== 'addtocart' && (e.bannerUids?.length ?? 0) > 0) banners = true;
      }
    }
    if (renders + interactions + redirects === 0) continue;
    urls.push(firstArrived(r.events).pageUrl);
    const sighted: SightedResponse = {
      kind: r.kind,
      responseId: r.responseId,
      renders,
      interactions,
    };
    const findings = about?.get(responseKey(r.kind, r.tag ?? '', r.responseId));
    if (findings) sighted.findings = findings;
    if (banners) sighted.banners = true;
    redirected(sighted, redirects, served);
    const known = servedOf(tally, sighted, r.tag ?? '', served);
    if (renders > 0 && asked?.(r.kind, r.responseId)) sighted.askedInRecording = true;
    // read only where a test may ask it (a page's every event time is parsed for it)
    if (lastRender && known?.results === 1 && interactions === 0) {
      latest ??= latestAccepted(page);
      if (maxRenderTime(r.events) >= latest) sighted.renderedLast = true;
    }
    responses.push(sighted);
  }
  for (const v of page.visitEvents ?? [])
    if (v.accepted) {
      tally.sent(v.endpoint, '', id);
      tally.visitEvent(timed(v), v.endpoint, id);
    }
  tally.exercise(id, {
    responses,
    ended: true,
    routed: routedUrls(urls),
    dev: !page.findings.some((f) => f.rule === DEV_FLAG),
  });
  tally.findings(page.findings, {
    pageLoadId: id,
    request: (eventId) => requestOf(eventId, page.siteId, dtoEvents(page)),
    owners,
    ...eventsOf(() => dtoEvents(page)),
  });
}

/**
 * Two of a page load's addresses differ at one origin (the fragment aside: the client reads the href with
 * it, a hash link is no route). A response counts by its first event's pageUrl, as the live page keeps it.
 */
function routedUrls(urls: readonly string[]): boolean {
  let first: string | undefined;
  let origin = '';
  for (const url of urls) {
    const hash = url.indexOf('#');
    const address = hash < 0 ? url : url.slice(0, hash);
    if (first === undefined) {
      first = address;
      origin = originOf(address);
    } else if (address !== first && origin !== '' && originOf(address) === origin) return true;
  }
  return false;
}

/** A DTO event with the time the engine orders it by (its timestamp, else its receive time). */
function timed(e: PageEventDto): VisitSightedEvent {
  return { userId: e.userId, pageUrl: e.pageUrl, time: () => eventTime(e.timestamp, e.receivedAt) };
}

/** A live event with the time the engine ordered it by. */
function liveTimed(e: PageEventDto & { time: number }): VisitSightedEvent {
  return { userId: e.userId, pageUrl: e.pageUrl, time: () => e.time };
}

/** A response's first event on its page (the one the live page took its pageUrl from). */
function firstArrived(events: readonly TimelineEventDto[]): TimelineEventDto {
  let first = events[0]!;
  for (const e of events) if (e.arrival < first.arrival) first = e;
  return first;
}

/** A response of a page's DTO as `ownersOf` reads it: its accepted events and renders counted. */
function taggedDto(r: TimelineResponseDto): TaggedResponse {
  let renders = 0;
  let sent = 0;
  for (const e of r.events)
    if (e.accepted) {
      sent++;
      if (e.event === 'render') renders++;
    }
  return { kind: r.kind, tag: r.tag ?? '', responseId: r.responseId, renders, sent };
}

/** The findings of a page's DTO about each of its responses (by `responseKey`); undefined when none is. */
function findingsByResponse(
  findings: readonly TimelineFindingDto[],
): Map<string, TimelineFindingDto[]> | undefined {
  let by: Map<string, TimelineFindingDto[]> | undefined;
  for (const f of findings) {
    if (f.kind === undefined || f.responseId === undefined) continue;
    const key = responseKey(f.kind, f.tag ?? '', f.responseId);
    const list = (by ??= new Map()).get(key);
    if (list) list.push(f);
    else by.set(key, [f]);
  }
  return by;
}

/** The time of a page's latest accepted event, as the engine orders them (`Page.maxAcceptedTime`). */
function latestAccepted(page: PageTimelineDto): number {
  let latest = -Infinity;
  for (const r of page.responses) latest = Math.max(latest, maxTime(r.events));
  return Math.max(latest, maxTime(page.visitEvents ?? []));
}

function maxTime(events: readonly PageEventDto[]): number {
  let latest = -Infinity;
  for (const e of events)
    if (e.accepted) latest = Math.max(latest, eventTime(e.timestamp, e.receivedAt));
  return latest;
}

function maxRenderTime(events: readonly TimelineEventDto[]): number {
  return maxTime(events.filter((e) => e.event === 'render'));
}
