// The companion recommend API's domain: `GET /api/personalized-recommendations/profile.json` (a widget's
// profile) and `POST /v1/recommend` (the batched answer, one entry per widget in the order asked), over the
// site's last indexed catalog and its recorded traffic. Each widget answered issues a responseId (kind
// `recommendations`, or `bundles` for a bundle profile, with its tag), remembered with the search
// responses, so the provenance rules judge widget beacons against what was served.
import type { Clock } from '../clock';
import type { FeedCatalog } from '../indexing/catalog';
import { SLOTS, type SearchConfig } from './config';
import { groupedInSlices, issuedResult, resultJson, type SearchItem } from './items';
import { Slicer } from '../slices';
import type { RecommendationProfile } from './recommend-config';
import { parseRecommendRequest, type RecommendRequest } from './recommend-request';
import type { IssuedResponse, IssuedResponses } from './responses';
import { recommend } from './strategies';
import type { RecordedTraffic } from './traffic';
import { MissingParameter, ProfileNotFound } from './errors';
import { oneParam } from './params';

/** An answer's body; a refused request throws a SearchRefused (errors.ts) instead. */
export type RecommendAnswer = unknown;

export interface RecommendDeps {
  /** the site's search settings (its widget profiles): throws UnknownSite */
  config(siteId: string): SearchConfig;
  /** the site's search settings and its last indexed catalog; throws UnknownSite or NoCatalog */
  site(siteId: string): { config: SearchConfig; catalog: FeedCatalog };
  responses: IssuedResponses;
  traffic: RecordedTraffic;
  clock: Clock;
  newResponseId: () => string;
}

/** Core fields of a recommend result (`mappings.core`), as the provider's Snap client maps them. */
const CORE = [
  'uid',
  'parentId',
  'sku',
  'name',
  'url',
  'addToCartUrl',
  'price',
  'msrp',
  'imageUrl',
  'secureImageUrl',
  'thumbnailImageUrl',
  'secureThumbnailImageUrl',
  'rating',
  'ratingCount',
  'description',
  'stockMessage',
  'brand',
  'popularity',
  'caption',
];

/** Where the real service places a profile of this strategy (the widget's `placement`). */
const PLACEMENT: Record<RecommendationProfile['strategy'], string> = {
  similar: 'product-page',
  'also-bought': 'product-page',
  trending: 'home-page',
  'recently-viewed': 'other',
};

export class RecommendService {
  constructor(private readonly deps: RecommendDeps) {}

  /**
   * `GET /api/personalized-recommendations/profile.json?siteId&tag`: how the widget is displayed. It comes
   * from the config alone, so it answers before any feed is indexed (the widget's products then do not).
   */
  profile(params: URLSearchParams): RecommendAnswer {
    const siteId = oneParam(params, 'siteId') ?? '';
    const tag = oneParam(params, 'tag') ?? '';
    if (!siteId) throw new MissingParameter('siteId is missing: add ?siteId=<your site id>');
    if (!tag) throw new MissingParameter("tag is missing: add &tag=<the widget's profile tag>");
    const profile = this.profileOf(this.deps.config(siteId), siteId, tag);
    return { profile: profileJson(profile) };
  }

  /** `POST /v1/recommend` (the JSON text as sent): one entry per widget asked for, in the order asked. */
  async recommend(text: string): Promise<RecommendAnswer> {
    const req = parseRecommendRequest(text);
    const { config, catalog } = this.deps.site(req.siteId);
    const { items } = await groupedInSlices(catalog, new Slicer());
    const body: unknown[] = [];
    for (const w of req.profiles) {
      const profile = config.recommendations.find((p) => p.tag === w.tag);
      // a tag the site does not declare: its entry is empty and issues nothing (its profile.json
      // answers 404, which fails that widget in the client); the page's other widgets are served
      if (!profile) {
        body.push({ profile: { tag: w.tag }, results: [] });
        continue;
      }
      const served = await recommend(profile.strategy, {
        siteId: req.siteId,
        items,
        traffic: this.deps.traffic,
        products: req.products,
        cart: req.cart,
        lastViewed: req.lastViewed,
        shopper: req.shopper,
        blocked: [...req.blockedItems, ...w.blockedItems],
        narrowing: {
          filters: [...req.filters, ...w.filters],
          categories: w.categories,
          brands: w.brands,
        },
        limit: w.limit ?? profile.limit,
      });
      const responseId = this.deps.newResponseId();
      await this.deps.responses.add(this.record(responseId, req, profile, served));
      body.push({
        profile: { tag: profile.tag },
        responseId,
        results: served.map(recommendJson),
      });
    }
    return body;
  }

  private profileOf(config: SearchConfig, siteId: string, tag: string): RecommendationProfile {
    const profile = config.recommendations.find((p) => p.tag === tag);
    if (profile) return profile;
    const known = config.recommendations.map((p) => p.tag);
    throw new ProfileNotFound(
      `Profile not found: site ${siteId} has no recommendation profile with tag ${JSON.stringify(tag)} (${known.length ? `its tags: ${known.join(', ')}` : 'it declares none'}). Fix: add {"tag": ${JSON.stringify(tag)}, "strategy": "similar"} to accounts[].search.recommendations in the config file, or ask for a declared tag`,
    );
  }

  private record(
    responseId: string,
    req: RecommendRequest,
    profile: RecommendationProfile,
    served: SearchItem[],
  ): IssuedResponse {
    return {
      responseId,
      siteId: req.siteId,
      kind: profile.type === 'bundle' ? 'bundles' : 'recommendations',
      tag: profile.tag,
      query: '',
      page: 1,
      perPage: served.length,
      issuedAt: this.deps.clock.now(),
      results: served.map(issuedResult),
      inline: [],
      slots: Object.fromEntries(SLOTS.map((s) => [s, [] as string[]])) as IssuedResponse['slots'],
      redirect: null,
      test: req.test,
    };
  }
}

/** The profile as the provider's Snap client reads it (a bundle profile says so with `isBundle`). */
function profileJson(p: RecommendationProfile): Record<string, unknown> {
  return {
    tag: p.tag,
    placement: PLACEMENT[p.strategy],
    ...(p.type === 'bundle' && { isBundle: true }),
    display: {
      threshold: 1,
      template: {
        name: p.tag,
        uuid: `sandbox-${p.tag}`,
        component: p.type === 'bundle' ? 'RecommendationBundle' : 'Recommendation',
        ...(p.type === 'bundle' && { type: 'bundle' }),
      },
      templateParameters: {},
    },
  };
}

/**
 * A recommend result: `{id, mappings: {core}, attributes, children}`, the shape the recommend service
 * answers in (not search.json's flat one); prices are numbers there.
 */
function recommendJson(item: SearchItem): Record<string, unknown> {
  const flat = resultJson(item);
  const core: Record<string, unknown> = {};
  const attributes: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    if (k === 'children') continue;
    if (CORE.includes(k)) core[k] = k === 'price' || k === 'msrp' ? Number(v) : v;
    else attributes[k] = v;
  }
  const children = Array.isArray(flat.children)
    ? (flat.children as Array<Record<string, string>>).map((c) => ({ attributes: c }))
    : [];
  return {
    id: item.uid,
    mappings: { core },
    attributes,
    ...(children.length > 0 && { children }),
  };
}
