// The search-provenance rules offline: a sandbox export carries the responses the companion search API
// issued (its `search` section), so `check` and the fault corpus judge beacons against what each responseId
// really contained, as the running sandbox does. The catalogs it checked sites' ids against travel in it too
// (`search.catalogs`); `check --catalog` gives a site's feed beside any recording, and wins.
import { IssuedIndex, type IssuedResponse } from '../../search/responses';
import { requesterProblem } from '../../search/requester';
import type { ProvenanceCatalog, ProvenanceSource } from './rules/utils/provenance';
import type { RecordedCatalog } from '../../search/catalog-view';

/**
 * The list an export's `search` section holds under `key`, each entry checked by `problemOf` (given the
 * entry and where it is, it answers what is wrong, naming the entry); [] for a list that older exports
 * lack (`optional`) when it is absent.
 */
function sectionList<T>(
  section: unknown,
  key: string,
  where: string,
  optional: boolean,
  problemOf: (entry: unknown, at: string) => string | undefined,
): T[] | string {
  const list = (section as Record<string, unknown> | null | undefined)?.[key];
  if (list === undefined && optional) return [];
  if (!Array.isArray(list)) return `${where}: "search.${key}" is not a list`;
  for (let i = 0; i < list.length; i++) {
    const problem = problemOf(list[i], `${where}: search.${key}[${i}]`);
    if (problem) return problem;
  }
  return list as T[];
}

/** The issued responses of an export's `search` section; a message naming the entry when one is malformed. */
export function readIssuedResponses(section: unknown, where: string): IssuedResponse[] | string {
  return sectionList(section, 'responses', where, false, (entry, at) => {
    const v = entry as Partial<IssuedResponse> | null;
    if (
      !v ||
      typeof v.responseId !== 'string' ||
      typeof v.siteId !== 'string' ||
      typeof v.issuedAt !== 'number' ||
      !Array.isArray(v.results) ||
      !Array.isArray(v.inline) ||
      typeof v.slots !== 'object'
    )
      return `${at} is not an issued search response (it needs responseId, siteId, issuedAt, results, inline and slots, as GET /_sandbox/export writes them)`;
    const problem = requesterProblem(v.requester);
    return problem ? `${at}.${problem}` : undefined;
  });
}

/**
 * A site's settings as the sandbox that recorded it had them (an export's `search.sites`): its search
 * settings, and what readiness held it to.
 */
export interface RecordedSite {
  siteId: string;
  companion: boolean;
  catalogCheck: boolean;
  /** every widget profile's tag (absent in older exports) */
  recommendationTags?: string[];
  /** of those, the bundle profiles' (absent in older exports: their widgets read as recommendations) */
  bundleTags?: string[];
  /** its account's `readiness.expect` (absent in older exports: nothing expected) */
  readiness?: { expect: string[] };
}

const isTags = (v: unknown) =>
  v === undefined || (Array.isArray(v) && v.every((t) => typeof t === 'string'));

const isReadiness = (v: unknown) =>
  v === undefined ||
  (typeof v === 'object' && v !== null && isTags((v as { expect?: unknown }).expect));

/** The recorded site settings of an export's `search` section ([] when it has none: older exports). */
export function readRecordedSites(section: unknown, where: string): RecordedSite[] | string {
  return sectionList(section, 'sites', where, true, (entry, at) => {
    const v = entry as Partial<RecordedSite> | null;
    if (
      !v ||
      typeof v.siteId !== 'string' ||
      typeof v.companion !== 'boolean' ||
      typeof v.catalogCheck !== 'boolean' ||
      !isTags(v.recommendationTags) ||
      !isTags(v.bundleTags)
    )
      return `${at} is not a site's search settings (it needs siteId, companion and catalogCheck, as GET /_sandbox/export writes them)`;
    if (!isReadiness(v.readiness))
      return `${at}.readiness is not what readiness held the site to: it must be {"expect": [behaviour ids or areas]}, as GET /_sandbox/export writes it (leave it out when nothing was expected)`;
    return undefined;
  });
}

/**
 * The catalogs an export recorded (its `search.catalogs`: of each feed the sandbox checked a site's ids
 * against, each product's uid, parent id, sku, price and page URL); [] when it has none (older exports, or
 * no site checked against a catalog). A message naming the entry and field when one is malformed.
 */
export function readRecordedCatalogs(section: unknown, where: string): RecordedCatalog[] | string {
  return sectionList(section, 'catalogs', where, true, (entry, at) => {
    const c = entry as Partial<RecordedCatalog> | null;
    if (!c || typeof c.siteId !== 'string' || !Array.isArray(c.products))
      return `${at} is not a recorded catalog (it needs siteId and products, as GET /_sandbox/export writes them)`;
    for (let j = 0; j < c.products.length; j++) {
      const problem = productProblem(c.products[j]);
      if (problem) return `${at}.products[${j}]: ${problem}`;
    }
    return undefined;
  });
}

const PRODUCT_TEXTS = ['parentId', 'sku', 'url'] as const;

/** What is wrong with a recorded product, if anything. */
function productProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null)
    return 'is not a product ({uid, parentId?, sku?, price?, url?})';
  const p = v as Record<string, unknown>;
  if (typeof p.uid !== 'string' || p.uid === '') return 'uid must be a non-empty string';
  for (const key of PRODUCT_TEXTS)
    if (p[key] !== undefined && typeof p[key] !== 'string') return `${key} must be a string`;
  if (p.price !== undefined && (typeof p.price !== 'number' || !Number.isFinite(p.price)))
    return 'price must be a number';
  return undefined;
}

/**
 * A provenance source over recorded responses. A site whose settings the export recorded is judged with
 * them, as the sandbox that recorded it judged it; any other site with responses in the input counts as a
 * companion site. A site with responses in the input counts as a companion
 * site from its earliest recorded response on (or from when the export says its sandbox remembered every
 * response, when it says so), so a responseId the input's search never issued after that is
 * `responseid-unknown`, exactly as live.
 */
export function offlineProvenance(
  responses: readonly IssuedResponse[],
  recorded: readonly RecordedSite[] = [],
  /** the sites' catalogs given beside the recording (`check --catalog SITE=FILE`) */
  catalogs: ReadonlyMap<string, ProvenanceCatalog> = new Map(),
  /** from when the export's sandbox remembered every response it issued (its `search.rememberedSince`) */
  rememberedSince = Infinity,
): ProvenanceSource {
  const settings = new Map(recorded.map((s) => [s.siteId, s]));
  const byId = new Map<string, IssuedResponse>();
  /** the site of each responseId (the first issued, when two sites' responses share one) */
  const siteOf = new Map<string, string>();
  const sites = new Set<string>();
  // the widget tags the recorded recommend API served, per site: their widgets are judged as live
  const tags = new Map<string, Set<string>>();
  let since = rememberedSince;
  for (const r of [...responses].sort((a, b) => a.issuedAt - b.issuedAt)) {
    byId.set(`${r.siteId}\u0000${r.responseId}`, r);
    if (!siteOf.has(r.responseId)) siteOf.set(r.responseId, r.siteId);
    sites.add(r.siteId);
    if (r.tag !== undefined) tags.set(r.siteId, (tags.get(r.siteId) ?? new Set()).add(r.tag));
    since = Math.min(since, r.issuedAt);
  }
  const ordered = [...byId.values()];
  const asked = new IssuedIndex();
  for (const r of ordered) asked.add(r);
  return {
    site: (siteId) => {
      const known = settings.get(siteId);
      if (known)
        return {
          companion: known.companion,
          // a site is checked against a catalog the export recorded or one given beside it
          catalogCheck: catalogs.has(siteId),
          recommendationTags: [
            ...new Set([...(known.recommendationTags ?? []), ...(tags.get(siteId) ?? [])]),
          ],
        };
      if (sites.has(siteId))
        return {
          companion: true,
          catalogCheck: catalogs.has(siteId),
          recommendationTags: [...(tags.get(siteId) ?? [])],
        };
      // a site known only by the catalog given for it: its searches did not come from the sandbox
      return catalogs.has(siteId) ? { companion: false, catalogCheck: true } : undefined;
    },
    issued: (siteId, responseId) => byId.get(`${siteId}\u0000${responseId}`),
    siteOf: (responseId) => siteOf.get(responseId),
    issuedTo: (siteId, pageLoadId) => asked.issuedTo(siteId, pageLoadId),
    redirectsTo: (siteId, sessionId) => asked.redirectsTo(siteId, sessionId),
    rememberedSince: () => since,
    *recent(siteId) {
      for (let i = ordered.length - 1; i >= 0; i--)
        if (ordered[i]!.siteId === siteId) yield ordered[i]!;
    },
    catalog: (siteId) => catalogs.get(siteId),
  };
}
