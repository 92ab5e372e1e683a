// The companion search API's domain: answers search.json, category.json, autocomplete.json (with its query
// suggestions) and meta.json over the last catalog indexed for a site, issues and remembers responseIds
// (with the endpoint that issued them), and tells the timeline rules what each response contained.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { CatalogReader, FeedCatalog } from '../indexing/catalog';
import type { ProvenanceCatalog, ProvenanceSource } from './provenance';
import { DEFAULT_SEARCH_CONFIG, SLOTS, type SearchConfig } from './config';
import { issuedResult, resultJson, type SearchItem } from './items';
import { catalogFields, catalogIndex } from './catalog-index';
import { Slicer } from '../slices';
import { catalogView, recordedCatalogEntries } from './catalog-view';
import { merchandise, merchandisingJson } from './merchandising';
import { countParam, parseSearchRequest, queryText, siteIdOf, type SearchRequest } from './params';
import {
  facetFields,
  facetsJson,
  filterSummaryJson,
  metaJson,
  paginationJson,
  sortOptionsJson,
} from './response-json';
import { filterNotes, passingAll, refuseUnknownSort, runQuery, sortResults } from './query';
import {
  RESPONSE_MEMORY,
  askedSearch,
  type IssuedResponse,
  type IssuedResponses,
  type SearchKind,
} from './responses';
import { trending } from './trending';
import { RecommendService } from './recommend';
import { suggest } from './suggest';
import type { RecordedTraffic } from './traffic';
import { NoCatalog, UnknownSite } from './errors';

/** An answer's body; a refused request throws a SearchRefused (errors.ts) instead. */
export type SearchAnswer = Record<string, unknown>;

export interface SearchServiceDeps {
  /** the accounts with their search settings (the config's SandboxAccount, or any with these two) */
  accounts: readonly { siteId: string; search?: SearchConfig }[];
  catalogs: CatalogReader;
  responses: IssuedResponses;
  clock: Clock;
  newResponseId?: () => string;
  /** the traffic the sandbox recorded (clicks, orders, product pages): what some recommendation strategies read */
  traffic?: RecordedTraffic;
}

const NO_TRAFFIC: RecordedTraffic = { bodies: () => [] };

export class SearchService {
  private readonly sites: Map<string, SearchConfig>;
  private readonly newResponseId: () => string;
  /** the companion recommend API (profile.json, /v1/recommend), over the same catalogs and memory */
  readonly recommendations: RecommendService;

  constructor(private readonly deps: SearchServiceDeps) {
    this.sites = new Map(deps.accounts.map((a) => [a.siteId, a.search ?? DEFAULT_SEARCH_CONFIG]));
    this.newResponseId = deps.newResponseId ?? randomUUID;
    // a site that searches through the sandbox has its catalog's index built once a feed is indexed (and
    // for the catalogs the sandbox starts with), in slices in the background: its storefront's first search
    // answers at once instead of waiting the seconds a large catalog's index takes
    deps.catalogs.onChange((siteId) => this.prepare(siteId));
    for (const siteId of this.sites.keys()) this.prepare(siteId);
    this.recommendations = new RecommendService({
      config: (siteId) => this.siteConfig(siteId),
      site: (siteId) => this.siteCatalog(siteId),
      responses: deps.responses,
      traffic: deps.traffic ?? NO_TRAFFIC,
      clock: deps.clock,
      newResponseId: this.newResponseId,
    });
  }

  get responses(): IssuedResponses {
    return this.deps.responses;
  }

  /**
   * `GET /api/search/search.json` (or category.json, autocomplete.json: `kind`); a bad request throws the
   * SearchRefused that names the parameter.
   */
  async search(params: URLSearchParams, kind: SearchKind = 'search'): Promise<SearchAnswer> {
    const req = parseSearchRequest(params, this.siteIds());
    const { config, catalog } = this.siteCatalog(req.siteId);
    return await this.answer(req, config, catalog, kind);
  }

  /** The configured siteIds, in config order: a refusal's example names one of them. */
  private siteIds(): string[] {
    return [...this.sites.keys()];
  }

  /**
   * `GET /api/suggest/query?siteId&query&suggestionCount`: what the Snap client asks before autocomplete.json
   * (it then searches the suggested text). Each suggestion finds something (suggest.ts says how).
   */
  async suggest(params: URLSearchParams): Promise<SearchAnswer> {
    const { config, catalog } = this.siteCatalog(siteIdOf(params, this.siteIds()));
    const query = queryText(params, params.has('query') ? 'query' : 'q');
    const count = countParam(params, 'suggestionCount');
    const slicer = new Slicer();
    const index = await catalogIndex(catalog, slicer);
    return { ...(await suggest(index, config.campaigns, query, count, slicer)) };
  }

  /**
   * `GET /api/suggest/trending?siteId&limit`: the terms the Snap client's autocomplete offers before the
   * shopper types (trending.ts says where they come from).
   */
  async trending(params: URLSearchParams): Promise<SearchAnswer> {
    const siteId = siteIdOf(params, this.siteIds());
    const { config, catalog } = this.siteCatalog(siteId);
    const limit = countParam(params, 'limit');
    const slicer = new Slicer();
    const index = await catalogIndex(catalog, slicer);
    const issued = this.deps.responses.recent(siteId, RESPONSE_MEMORY);
    return { ...(await trending(index, config.campaigns, issued, limit, slicer)) };
  }

  /** `GET /api/meta/meta.json`: facets, sort options and the default page size of a site. */
  async meta(params: URLSearchParams): Promise<SearchAnswer> {
    const { config, catalog } = this.siteCatalog(siteIdOf(params, this.siteIds()));
    return metaJson(config, await catalogIndex(catalog));
  }

  /**
   * The index of a companion site's newest catalog, begun now rather than by its first search. Sites that
   * do not search through the sandbox (only their ids checked, or passed through to the real service) build
   * none: the index is as large as the catalog again.
   */
  private prepare(siteId: string): void {
    const config = this.sites.get(siteId);
    if (!config?.companion || config.upstream !== null) return;
    const catalog = this.deps.catalogs.served(siteId);
    // a build that fails is built again by the search that needs it, which says why
    if (catalog) catalogIndex(catalog).catch(() => undefined);
  }

  /** A configured site's search settings; an unknown siteId throws UnknownSite, naming the accounts. */
  private siteConfig(siteId: string): SearchConfig {
    const config = this.sites.get(siteId);
    if (config) return config;
    const known = [...this.sites.keys()];
    throw new UnknownSite(
      `siteId ${siteId} is not an account of this sandbox${known.length ? ` (accounts: ${known.join(', ')})` : ''}: add it to "accounts" in the config file`,
    );
  }

  private siteCatalog(siteId: string): { config: SearchConfig; catalog: FeedCatalog } {
    const config = this.siteConfig(siteId);
    const catalog = this.deps.catalogs.served(siteId);
    if (!catalog)
      throw new NoCatalog(
        `site ${siteId} has no indexed catalog yet: index a feed first (POST /api/index/feed?feedId=… with a feedFile, or PUT for a cart feed), then search again`,
      );
    return { config, catalog };
  }

  private async answer(
    req: SearchRequest,
    config: SearchConfig,
    catalog: FeedCatalog,
    kind: SearchKind,
  ): Promise<Record<string, unknown>> {
    const perPage = req.resultsPerPage ?? config.resultsPerPage;
    // one slicer for the whole answer: its work gives the event loop back every few milliseconds
    const slicer = new Slicer();
    const index = await catalogIndex(catalog, slicer);
    const catalogHas = await catalogFields(index, slicer);
    refuseUnknownSort(req.sort, catalogHas);
    const notes = [...req.notes, ...filterNotes(req.filters, catalogHas, index.hasPrice)];
    const fields = facetFields(config, index.items, index.hasPrice);
    const run = await runQuery(index, req.q, req.filters, slicer);
    const filtered = await sortResults(run, await passingAll(run, slicer), req.sort, slicer);
    const merch = merchandise(config, req.q);
    const minimalRedirect = merch.redirect !== null && req.redirectResponse === 'minimal';
    const pageItems =
      minimalRedirect || perPage === 0
        ? []
        : filtered.slice((req.page - 1) * perPage, req.page * perPage);
    const total = minimalRedirect ? 0 : filtered.length;

    const facets = minimalRedirect ? [] : await facetsJson(fields, run, slicer);
    const body: Record<string, unknown> = {
      pagination: paginationJson(total, req.page, perPage, config.resultsPerPage, pageItems.length),
      sorting: { options: sortOptionsJson(req.sort) },
      resultLayoutPredicted: 'grid',
      results: pageItems.map(resultJson),
      filterSummary: filterSummaryJson(req.filters),
      facets,
      merchandising: merchandisingJson(merch, !minimalRedirect),
      query: { original: req.q },
    };
    // the sandbox's own field (the real service sends none): what was asked that cannot be what was meant
    if (notes.length > 0) body.notes = notes;
    if (req.beacon) {
      const responseId = this.newResponseId();
      body.responseId = responseId;
      await this.deps.responses.add(
        this.record(
          responseId,
          kind,
          req,
          perPage,
          pageItems,
          minimalRedirect ? null : merch,
          merch.redirect,
        ),
      );
    }
    return body;
  }

  private record(
    responseId: string,
    kind: SearchKind,
    req: SearchRequest,
    perPage: number,
    items: SearchItem[],
    merch: ReturnType<typeof merchandise> | null,
    redirect: string | null,
  ): IssuedResponse {
    const slots = Object.fromEntries(
      SLOTS.map((s) => [s, merch ? merch.slots[s].map((b) => b.uid) : []]),
    ) as IssuedResponse['slots'];
    const background = req.filters
      .filter((f) => f.background)
      .flatMap((f) =>
        f.kind === 'value'
          ? f.values.map((v) => `bgfilter.${f.field}=${v}`)
          : [
              ...(f.low !== null ? [`bgfilter.${f.field}.low=${f.low}`] : []),
              ...(f.high !== null ? [`bgfilter.${f.field}.high=${f.high}`] : []),
            ],
      );
    return {
      responseId,
      siteId: req.siteId,
      kind,
      query: req.q,
      page: req.page,
      perPage,
      issuedAt: this.deps.clock.now(),
      results: items.map(issuedResult),
      inline: merch ? merch.inline.map((b) => ({ uid: b.uid, index: b.index })) : [],
      slots,
      redirect,
      test: req.test,
      ...(req.redirectResponse === 'full' && { full: true as const }),
      ...(req.filters.some((f) => !f.background) && { filtered: true as const }),
      ...(background.length > 0 && { bgfilters: background }),
      ...(req.requester && { requester: req.requester }),
      asked: askedSearch([
        ['q', req.q],
        ['page', String(req.page)],
        ...(req.resultsPerPage !== null
          ? [['resultsPerPage', String(req.resultsPerPage)] as const]
          : []),
        ...req.filters.flatMap((f) => {
          const name = `${f.background ? 'bgfilter' : 'filter'}.${f.field}`;
          return f.kind === 'value'
            ? f.values.map((v) => [name, v] as const)
            : [
                ...(f.low !== null ? [[`${name}.low`, String(f.low)] as const] : []),
                ...(f.high !== null ? [[`${name}.high`, String(f.high)] as const] : []),
              ];
        }),
        ...(req.sort ? [[`sort.${req.sort.field}`, req.sort.direction] as const] : []),
      ]),
    };
  }

  /**
   * Each account's search settings the timelines judge with, as an export records them for `check`: with
   * its widgets' tags (`bundleTags`: those of bundle profiles), which readiness has a row of each for.
   */
  siteSettings(): Array<{
    siteId: string;
    companion: boolean;
    catalogCheck: boolean;
    recommendationTags: string[];
    bundleTags: string[];
  }> {
    return [...this.sites].map(([siteId, c]) => ({
      siteId,
      companion: c.companion,
      catalogCheck: c.catalogCheck,
      recommendationTags: c.recommendations.map((p) => p.tag),
      bundleTags: c.recommendations.filter((p) => p.type === 'bundle').map((p) => p.tag),
    }));
  }

  /**
   * The JSON of the indexed catalogs of the accounts whose ids the timelines check (`catalogCheck`), as an
   * export records them (`RecordedCatalog`s, the elements of a list), in pieces made as they are read:
   * `check` of the export then judges those sites against them, as this sandbox does.
   */
  *recordedCatalogJson(): Generator<string> {
    let first = true;
    for (const [siteId, c] of this.sites) {
      if (!c.catalogCheck) continue;
      for (const entry of recordedCatalogEntries(siteId, this.deps.catalogs.site(siteId))) {
        if (!first) yield ',';
        first = false;
        yield* entry;
      }
    }
  }

  /** What the timeline's search-provenance rules read. */
  provenance(): ProvenanceSource {
    return {
      site: (siteId) => {
        const c = this.sites.get(siteId);
        return c
          ? {
              companion: c.companion,
              catalogCheck: c.catalogCheck,
              recommendationTags: c.recommendations.map((p) => p.tag),
            }
          : undefined;
      },
      issued: (siteId, responseId) => {
        const r = this.deps.responses.get(responseId);
        return r && r.siteId === siteId ? r : undefined;
      },
      siteOf: (responseId) => this.deps.responses.get(responseId)?.siteId,
      issuedTo: (siteId, pageLoadId) => this.deps.responses.issuedTo(siteId, pageLoadId),
      redirectsTo: (siteId, sessionId) => this.deps.responses.redirectsTo(siteId, sessionId),
      rememberedSince: () => this.deps.responses.rememberedSince,
      recent: (siteId) => this.deps.responses.recent(siteId),
      catalog: (siteId) => this.catalogCheck(siteId),
    };
  }

  private catalogCheck(siteId: string): ProvenanceCatalog | undefined {
    return catalogView(this.deps.catalogs.site(siteId));
  }
}
