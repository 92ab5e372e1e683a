// The search area: the companion search API over the indexed catalogs, its memory of issued responses
// (which the tracking area's provenance rules read), and the pass-through to the real service for sites
// with `search.upstream`.
import { JsonPieces } from '../store/json-pieces';
import type { SandboxConfig } from '../config';
import { IssuedResponses } from '../search/responses';
import { SearchService } from '../search/service';
import { SearchUpstream, type UpstreamSite } from '../search/upstream';
import { searchAdminRouter, searchRouter } from '../http/routes/search';
import { searchUpstreamRouter } from '../http/routes/search-upstream';
import type { Area } from './area';

export interface SearchArea {
  readonly search: SearchService;
  /** search pass-through to the real service for sites with `search.upstream` */
  readonly upstream: SearchUpstream;
}

export const searchArea: Area<'search', 'recordings' | 'indexing'> = {
  name: 'search',
  needs: ['recordings', 'indexing'],
  async open({ config, clock, onClose }, { recordings: { events }, indexing }) {
    const { responses, warnings } = await IssuedResponses.open(config.dataDir, clock.now());
    onClose(() => responses.close());
    const search = new SearchService({
      accounts: config.accounts,
      catalogs: indexing.catalog,
      responses,
      clock,
      // what the recommendation strategies read: accepted beacons of one endpoint, each read when reached
      traffic: {
        *bodies(siteId, category, event, max) {
          for (const e of events.select({ siteId, category, event, accepted: true, limit: max }))
            yield e.body;
        },
      },
    });
    const upstream = new SearchUpstream({ sites: upstreamSites(config), responses, clock });
    return {
      service: { search, upstream },
      warnings,
      // pass-through sites first: their search requests go to the real service, the rest to the companion
      routes: () => ({
        provider: [searchUpstreamRouter(upstream), searchRouter(search)],
        admin: [searchAdminRouter(search)],
      }),
      // the responses issued to the site(s) reset are judged with their events: a reset of events forgets
      // them too, or a page load reused after it would be told about searches made before it. A replacing
      // import's reset keeps them: its section restored the export's responses before its reset ran
      prepareReset: async (scope, importId, resetId) =>
        importId === undefined ? responses.prepareClear(scope.siteId, resetId) : null,
      // what each responseId contained travels with exports, and comes back on import (sections are
      // imported before events), so imported beacons are checked against the responses they name; with
      // the sites' settings and the catalogs their ids are checked against, so that `check` of the export
      // judges as the sandbox did (an import keeps the catalogs this sandbox indexed)
      exportSection: {
        export: ({ siteId }) => ({
          responses: responses.list(),
          // from when the list holds every response the sandbox issued: a responseId none of them is, used
          // after it, was never issued (responseid-unknown), as live judges it
          rememberedSince: responses.rememberedSince,
          sites: recordedSites(search, config, siteId),
          // written in pieces as the export streams: a catalog may hold a million products
          catalogs: new JsonPieces(function* () {
            yield '[';
            yield* search.recordedCatalogJson();
            yield ']';
          }),
        }),
        import: async (data) => void (await responses.importAll(data)),
      },
    };
  },
};

/**
 * The sites' settings as an export records them for `check`: their search settings, and what readiness
 * holds each to (`readiness.expect`), so that `check --readiness` of the export gates as the live sandbox
 * does. An export of one site's events records that site's only: the others sent nothing in it.
 */
function recordedSites(search: SearchService, config: SandboxConfig, siteId: string | undefined) {
  return search
    .siteSettings()
    .filter((s) => siteId === undefined || s.siteId === siteId)
    .map((s) => ({
      ...s,
      readiness: {
        expect: [...(config.accounts.find((a) => a.siteId === s.siteId)?.readiness.expect ?? [])],
      },
    }));
}

/** Sites whose search requests go to the real service (`accounts[i].search.upstream`). */
function upstreamSites(config: SandboxConfig): Map<string, UpstreamSite> {
  const sites = new Map<string, UpstreamSite>();
  config.accounts.forEach((a, i) => {
    if (a.search?.upstream)
      sites.set(a.siteId, {
        origin: a.search.upstream,
        timeoutMs: a.search.upstreamTimeoutMs,
        key: `accounts[${i}].search.upstream`,
      });
  });
  return sites;
}
