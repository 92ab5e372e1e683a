// What a search answer in the provider's shape contained, read into the same record the companion keeps for
// its own responses, so the search-provenance rules judge later beacons against it: an answer forwarded from
// the real service, or one of the companion's own that a browser's HAR recorded (`check`).
import { SLOTS, type Slot } from './config';
import { askedSearch, type IssuedResponse, type IssuedResult, type SearchKind } from './responses';
import { isObject } from '../../shared/values';
import { requesterOf } from './requester';

/** Ids arrive as strings or numbers; anything else is not an id. */
function id(v: unknown): string | null {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function whole(v: unknown, fallback: number): number {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

// The provider's Snap client reads a merchandising banner's uid from data-banner-id="<digits>" in its HTML
// (the provider's client); a banner without it is never reported by the client, so it is not remembered either.
const BANNER_ID = /data-banner-id\s*=\s*["']?(\d+)/gi;

function bannerIds(html: unknown): string[] {
  if (typeof html !== 'string') return [];
  return [...html.matchAll(BANNER_ID)].map((m) => m[1]!);
}

function result(raw: Record<string, unknown>): IssuedResult | null {
  const uid = id(raw.uid);
  if (uid === null) return null;
  const children = variants(raw.children, (c) => c);
  const core = isObject(raw.mappings) && isObject(raw.mappings.core) ? raw.mappings.core : {};
  return issuedItem(uid, raw.sku, raw.parentId, children, price(raw.price) ?? price(core.price));
}

/** A result's variants, each `fields(c)` holding its uid, sku and price; those without a uid left out. */
function variants(
  list: unknown,
  fields: (c: Record<string, unknown>) => Record<string, unknown>,
): IssuedResult['children'] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).flatMap((c) => {
    const f = fields(c);
    const cuid = id(f.uid);
    if (cuid === null) return [];
    const cprice = price(f.price);
    return [{ uid: cuid, sku: id(f.sku), ...(cprice !== null && { price: cprice }) }];
  });
}

function issuedItem(
  uid: string,
  sku: unknown,
  parentId: unknown,
  children: IssuedResult['children'],
  own: number | null,
): IssuedResult {
  return {
    uid,
    sku: id(sku),
    parentId: id(parentId),
    children,
    ...(own !== null && { price: own }),
  };
}

/** A result's price as the service sends it (a string, or a number), when above 0. */
function price(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}

export interface UpstreamSearch {
  siteId: string;
  /** the endpoint that answered (absent: search) */
  kind?: SearchKind;
  /** the request's query parameters (q, page, test, …) */
  params: URLSearchParams;
  /** the upstream's JSON body */
  body: Record<string, unknown>;
  /** the origin it came from, when it came from the real service (absent: the companion's own answer) */
  upstream?: string;
  /** sandbox time it was received */
  now: number;
}

/** The response as the provenance rules need it, or null when it carries no responseId (nothing to check). */
export function issuedFromUpstream(s: UpstreamSearch): IssuedResponse | null {
  const responseId = id(s.body.responseId);
  if (responseId === null) return null;
  const pagination = isObject(s.body.pagination) ? s.body.pagination : {};
  const merch = isObject(s.body.merchandising) ? s.body.merchandising : {};
  const content = isObject(merch.content) ? merch.content : {};
  const slots = Object.fromEntries(
    SLOTS.map((slot) => [
      slot,
      Array.isArray(content[slot]) ? (content[slot] as unknown[]).flatMap(bannerIds) : [],
    ]),
  ) as Record<Slot, string[]>;
  // Inline banners: `{value: html, config: {position: {index}}}`; the Snap store names one without a
  // data-banner-id `ss-ib-<index>`, which the rules accept as well.
  const inline = Array.isArray(content.inline)
    ? content.inline.filter(isObject).map((b, i) => {
        const config = isObject(b.config) ? b.config : {};
        const position = isObject(config.position) ? config.position : {};
        const index = whole(position.index, i);
        return { uid: bannerIds(b.value)[0] ?? `ss-ib-${index}`, index };
      })
    : [];
  const results = Array.isArray(s.body.results)
    ? s.body.results.filter(isObject).flatMap((r) => result(r) ?? [])
    : [];
  const query = isObject(s.body.query) ? s.body.query : {};
  const redirect = typeof merch.redirect === 'string' && merch.redirect ? merch.redirect : null;
  const test = s.params.get('test');
  const requester = requesterOf(s.params);
  const bgfilters = [...s.params]
    .filter(([k]) => k.startsWith('bgfilter.'))
    .map(([k, v]) => `${k}=${v}`);
  return {
    responseId,
    siteId: s.siteId,
    ...(s.kind !== undefined && { kind: s.kind }),
    query: typeof query.original === 'string' ? query.original : (s.params.get('q') ?? ''),
    page: whole(pagination.currentPage, whole(s.params.get('page'), 1)) || 1,
    perPage: whole(pagination.perPage, results.length),
    issuedAt: s.now,
    results,
    inline,
    slots,
    redirect,
    test: test === 'true' || test === '1',
    ...(s.upstream !== undefined && { upstream: s.upstream }),
    ...(s.params.get('redirectResponse') === 'full' && { full: true as const }),
    ...([...s.params.keys()].some((k) => k.startsWith('filter.')) && { filtered: true as const }),
    ...(bgfilters.length > 0 && { bgfilters }),
    ...(requester && { requester }),
    asked: askedSearch(s.params),
  };
}

/** A recommend answer in the provider's shape, one entry per widget asked, as the companion answered it. */
export interface RecommendAnswerRead {
  siteId: string;
  /** the answer's JSON body: `[{profile: {tag}, responseId, results}]` */
  body: unknown;
  /** the request carried test=true (development traffic) */
  test: boolean;
  /** sandbox time it was received */
  now: number;
  /** whether a widget's profile is a bundle, by tag, as its profile.json said: undefined when not known */
  bundle(tag: string): boolean | undefined;
}

/**
 * The widgets a recommend answer served, as the records the companion keeps for them (kind `bundles` for a
 * bundle profile). A widget whose profile's type is not known is left out: read as a widget of the other
 * type, its own beacons would be called another widget's (responseid-cross-kind).
 */
export function issuedFromRecommend(a: RecommendAnswerRead): IssuedResponse[] {
  if (!Array.isArray(a.body)) return [];
  return a.body.filter(isObject).flatMap((widget): IssuedResponse[] => {
    const responseId = id(widget.responseId);
    const tag = isObject(widget.profile) ? id(widget.profile.tag) : null;
    const bundle = tag === null ? undefined : a.bundle(tag);
    if (responseId === null || tag === null || bundle === undefined) return [];
    const results = Array.isArray(widget.results)
      ? widget.results.filter(isObject).flatMap((r) => recommended(r) ?? [])
      : [];
    const slots = Object.fromEntries(SLOTS.map((slot) => [slot, [] as string[]]));
    return [
      {
        responseId,
        siteId: a.siteId,
        kind: bundle ? 'bundles' : 'recommendations',
        tag,
        query: '',
        page: 1,
        perPage: results.length,
        issuedAt: a.now,
        results,
        inline: [],
        slots: slots as Record<Slot, string[]>,
        redirect: null,
        test: a.test,
      },
    ];
  });
}

/** A recommend result, `{id, mappings: {core}, children: [{attributes}]}`: the recommend service's shape. */
function recommended(raw: Record<string, unknown>): IssuedResult | null {
  const core = isObject(raw.mappings) && isObject(raw.mappings.core) ? raw.mappings.core : {};
  const uid = id(raw.id) ?? id(core.uid);
  if (uid === null) return null;
  const children = variants(raw.children, (c) => (isObject(c.attributes) ? c.attributes : c));
  return issuedItem(uid, core.sku, core.parentId, children, price(core.price));
}
