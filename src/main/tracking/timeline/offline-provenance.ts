// The search-provenance rules offline: a sandbox export carries the responses the companion search API
// issued (its `search` section), so `check` and the fault corpus judge beacons against what each responseId
// really contained, as the running sandbox does. No catalog travels in an export: `item-not-in-catalog` stays silent.
import type { IssuedResponse } from '../../search/responses';
import type { ProvenanceSource } from './rules/provenance';

/** The issued responses of an export's `search` section; a message naming the entry when one is malformed. */
export function readIssuedResponses(section: unknown, where: string): IssuedResponse[] | string {
  const list = (section as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(list)) return `${where}: "search.responses" is not a list`;
  for (let i = 0; i < list.length; i++) {
    const v = list[i] as Partial<IssuedResponse> | null;
    if (
      !v ||
      typeof v.responseId !== 'string' ||
      typeof v.siteId !== 'string' ||
      typeof v.issuedAt !== 'number' ||
      !Array.isArray(v.results) ||
      !Array.isArray(v.inline) ||
      typeof v.slots !== 'object'
    )
      return `${where}: search.responses[${i}] is not an issued search response (it needs responseId, siteId, issuedAt, results, inline and slots, as GET /_sandbox/export writes them)`;
  }
  return list as IssuedResponse[];
}

/**
 * A provenance source over recorded responses. A site with responses in the input counts as a companion
 * site from its earliest recorded response on, so a responseId the input's search never issued after that
 * is `responseid-unknown`, exactly as live.
 */
export function offlineProvenance(responses: readonly IssuedResponse[]): ProvenanceSource {
  const byId = new Map<string, IssuedResponse>();
  const sites = new Set<string>();
  // the widget tags the recorded recommend API served, per site: their widgets are judged as live
  const tags = new Map<string, Set<string>>();
  let since = Infinity;
  for (const r of [...responses].sort((a, b) => a.issuedAt - b.issuedAt)) {
    byId.set(`${r.siteId}\u0000${r.responseId}`, r);
    sites.add(r.siteId);
    if (r.tag !== undefined) tags.set(r.siteId, (tags.get(r.siteId) ?? new Set()).add(r.tag));
    since = Math.min(since, r.issuedAt);
  }
  const ordered = [...byId.values()];
  return {
    site: (siteId) =>
      sites.has(siteId)
        ? {
            companion: true,
            catalogCheck: false,
            recommendationTags: [...(tags.get(siteId) ?? [])],
          }
        : undefined,
    issued: (siteId, responseId) => byId.get(`${siteId}\u0000${responseId}`),
    rememberedSince: () => since,
    *recent(siteId) {
      for (let i = ordered.length - 1; i >= 0; i--)
        if (ordered[i]!.siteId === siteId) yield ordered[i]!;
    },
    catalog: () => undefined,
  };
}
