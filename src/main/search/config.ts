// An account's `search` settings: merchandising campaigns (query → redirect, query → banners per slot)
// and whether the storefront gets its search responses from this sandbox. Errors name the key and the fix.
import { ConfigError } from '../config-error';
import {
  configBaseUrl,
  configBool as bool,
  configObject as object,
  configString as str,
  configWhole,
  refuseQuotedNumber,
} from '../config-values';
import { parseRecommendations, type RecommendationProfile } from './recommend-config';

export const SLOTS = ['header', 'banner', 'footer', 'left'] as const;
export type Slot = (typeof SLOTS)[number];

export interface BannerConfig {
  /** what beacons send as the banner's uid; the HTML carries it as data-banner-id */
  id: string;
  slot: Slot | 'inline';
  /** inline banners: 0-based index in the whole result list (not per page) */
  position: number | null;
  html: string;
}

export interface CampaignConfig {
  id: string;
  title: string;
  /** normalised queries (lowercase, single spaces) that trigger the campaign */
  queries: string[];
  redirect: string | null;
  banners: BannerConfig[];
}

export interface SearchConfig {
  /** the storefront's search client points at this sandbox: beacons must carry responseIds it issued */
  companion: boolean;
  /** check beacon uids against the site's indexed catalog (when it does not use the companion API) */
  catalogCheck: boolean;
  /** results per page when the request gives none */
  resultsPerPage: number;
  /** catalog fields offered as facets; null = detected from the catalog */
  facets: string[] | null;
  campaigns: CampaignConfig[];
  /**
   * Pass-through: the origin the search endpoints forward to (the site's real search host for `true`),
   * or null when the sandbox answers from its own catalog.
   */
  upstream: string | null;
  /** how long to wait for the upstream's answer before a 504 */
  upstreamTimeoutMs: number;
  /** the recommendation widget profiles the companion recommend API serves, by tag */
  recommendations: RecommendationProfile[];
}

export const DEFAULT_SEARCH_CONFIG: SearchConfig = {
  companion: false,
  catalogCheck: true,
  resultsPerPage: 24,
  facets: null,
  campaigns: [],
  upstream: null,
  upstreamTimeoutMs: 10_000,
  recommendations: [],
};

/** The site's search host exactly as the Snap client derives it (snap-client Abstract.ts createFetchParams). */
export function realSearchOrigin(siteId: string): string {
  return `https://${siteId}.a.searchspring.io`;
}

/** "  Running   SHOES " → "running shoes": how queries are compared with campaign queries. */
export function normalizeQuery(q: string): string {
  return q.trim().toLowerCase().replace(/\s+/g, ' ');
}

export function parseSearchConfig(
  raw: unknown,
  key: string,
  file: string,
  siteId = '',
): SearchConfig {
  if (raw === undefined) return { ...DEFAULT_SEARCH_CONFIG };
  const s = object(raw, key, file, [
    'companion',
    'catalogCheck',
    'resultsPerPage',
    'facets',
    'campaigns',
    'upstream',
    'upstreamTimeoutMs',
    'recommendations',
  ]);
  // read in this order, so a config with several mistakes is told of the same one first
  const resultsPerPage = parseResultsPerPage(s.resultsPerPage, `${key}.resultsPerPage`, file);
  const facets = parseFacets(s.facets, `${key}.facets`, file);
  const campaigns = parseCampaigns(s.campaigns, `${key}.campaigns`, file);
  return {
    companion: s.companion === undefined ? false : bool(s.companion, `${key}.companion`, file),
    catalogCheck:
      s.catalogCheck === undefined ? true : bool(s.catalogCheck, `${key}.catalogCheck`, file),
    resultsPerPage,
    facets,
    campaigns,
    upstream: parseUpstream(s.upstream, `${key}.upstream`, file, siteId),
    upstreamTimeoutMs:
      s.upstreamTimeoutMs === undefined
        ? DEFAULT_SEARCH_CONFIG.upstreamTimeoutMs
        : configWhole(
            s.upstreamTimeoutMs,
            `${key}.upstreamTimeoutMs`,
            file,
            100,
            120_000,
            'milliseconds',
          ),
    recommendations: parseRecommendations(s.recommendations, `${key}.recommendations`, file),
  };
}

function parseResultsPerPage(v: unknown, key: string, file: string): number {
  const resultsPerPage = v === undefined ? 24 : v;
  refuseQuotedNumber(resultsPerPage, key, file, 'a whole number from 1 to 250');
  if (
    typeof resultsPerPage !== 'number' ||
    !Number.isInteger(resultsPerPage) ||
    resultsPerPage < 1 ||
    resultsPerPage > 250
  )
    throw new ConfigError(
      key,
      `${JSON.stringify(resultsPerPage)} must be a whole number from 1 to 250`,
      file,
    );
  return resultsPerPage;
}

/** The catalog fields offered as facets; null (none given): detected from the catalog. */
function parseFacets(v: unknown, key: string, file: string): string[] | null {
  if (v === undefined) return null;
  if (!Array.isArray(v) || v.some((f) => typeof f !== 'string' || f === ''))
    throw new ConfigError(
      key,
      'must be an array of catalog field names, e.g. ["brand", "color", "price"]',
      file,
    );
  return v as string[];
}

/** The campaigns, each banner id used once across all of them (beacons report it as the banner's uid). */
function parseCampaigns(v: unknown, key: string, file: string): CampaignConfig[] {
  const campaignsRaw = v ?? [];
  if (!Array.isArray(campaignsRaw))
    throw new ConfigError(
      key,
      'must be an array, e.g. [{"queries": ["sale"], "banners": [...]}]',
      file,
    );
  const campaigns = campaignsRaw.map((c, i) => parseCampaign(c, `${key}[${i}]`, file, i));
  const bannerIds = new Set<string>();
  campaigns.forEach((c, i) =>
    c.banners.forEach((b, j) => {
      if (bannerIds.has(b.id))
        throw new ConfigError(
          `${key}[${i}].banners[${j}].id`,
          `banner id ${JSON.stringify(b.id)} is used twice: each banner needs its own id (beacons report it as uid)`,
          file,
        );
      bannerIds.add(b.id);
    }),
  );
  return campaigns;
}

function parseUpstream(v: unknown, key: string, file: string, siteId: string): string | null {
  if (v === undefined || v === false) return null;
  if (v === true) return realSearchOrigin(siteId);
  if (typeof v !== 'string')
    throw new ConfigError(
      key,
      `${JSON.stringify(v)} must be true (the site's real search host, ${realSearchOrigin(siteId || '{siteId}')}), false, or an origin like "http://127.0.0.1:9000"`,
      file,
    );
  return configBaseUrl(v, key, file, 'http://127.0.0.1:9000');
}

function parseCampaign(raw: unknown, key: string, file: string, index: number): CampaignConfig {
  const c = object(raw, key, file, ['id', 'title', 'queries', 'redirect', 'banners']);
  if (
    !Array.isArray(c.queries) ||
    c.queries.length === 0 ||
    c.queries.some((q) => typeof q !== 'string' || normalizeQuery(q) === '')
  )
    throw new ConfigError(
      `${key}.queries`,
      'must be a non-empty array of queries that trigger the campaign, e.g. ["sale", "summer sale"]',
      file,
    );
  let redirect: string | null = null;
  if (c.redirect !== undefined) {
    redirect = str(c.redirect, `${key}.redirect`, file);
    try {
      // relative URLs ("/pages/gift-cards") are what merchandisers usually enter
      new URL(redirect, 'https://storefront.invalid/');
    } catch {
      throw new ConfigError(
        `${key}.redirect`,
        `${JSON.stringify(redirect)} is not a URL: use an absolute URL or a path like "/pages/gift-cards"`,
        file,
      );
    }
  }
  const bannersRaw = c.banners ?? [];
  if (!Array.isArray(bannersRaw))
    throw new ConfigError(`${key}.banners`, 'must be an array of banners', file);
  if (redirect === null && bannersRaw.length === 0)
    throw new ConfigError(key, 'a campaign needs a "redirect" or at least one banner', file);
  const id = c.id === undefined ? `campaign-${index + 1}` : str(c.id, `${key}.id`, file);
  return {
    id,
    title: c.title === undefined ? id : str(c.title, `${key}.title`, file),
    queries: (c.queries as string[]).map(normalizeQuery),
    redirect,
    banners: bannersRaw.map((b, j) => parseBanner(b, `${key}.banners[${j}]`, file)),
  };
}

function parseBanner(raw: unknown, key: string, file: string): BannerConfig {
  const b = object(raw, key, file, ['id', 'slot', 'position', 'html']);
  // The real service's banner ids are numbers, and the provider's Snap client only reads
  // data-banner-id="<digits>" from a slot's HTML: another id would never reach a beacon from it.
  const id = typeof b.id === 'number' && Number.isInteger(b.id) && b.id >= 0 ? String(b.id) : b.id;
  if (typeof id !== 'string' || !/^\d+$/.test(id))
    throw new ConfigError(
      `${key}.id`,
      `${JSON.stringify(b.id)} is not a banner id: banner ids are numbers, as the real service's are (the Snap client reads data-banner-id="<digits>"), e.g. "81001"`,
      file,
    );
  const slot = b.slot;
  if (slot !== 'inline' && !(SLOTS as readonly unknown[]).includes(slot))
    throw new ConfigError(
      `${key}.slot`,
      `${JSON.stringify(slot)} is not a slot: use one of ${[...SLOTS, 'inline'].join(', ')}`,
      file,
    );
  let position: number | null = null;
  if (slot === 'inline') {
    refuseQuotedNumber(b.position, `${key}.position`, file, 'a 0-based index among the results');
    if (typeof b.position !== 'number' || !Number.isInteger(b.position) || b.position < 0)
      throw new ConfigError(
        `${key}.position`,
        `${JSON.stringify(b.position)}: an inline banner needs "position", its 0-based index among the results (e.g. 2 = third tile)`,
        file,
      );
    position = b.position;
  } else if (b.position !== undefined) {
    throw new ConfigError(
      `${key}.position`,
      `only inline banners have a position; a ${String(slot)} banner shows in its slot`,
      file,
    );
  }
  const html =
    b.html === undefined
      ? `<div class="ss-banner">${escapeHtml(id)}</div>`
      : str(b.html, `${key}.html`, file);
  return { id, slot: slot as Slot | 'inline', position, html };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
