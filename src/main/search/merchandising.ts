// Merchandising of one search: the campaigns its query triggers (from the account's config) turned into the
// redirect, slot banners and the inline banners that fall on the requested page.
import {
  SLOTS,
  escapeHtml,
  normalizeQuery,
  type CampaignConfig,
  type SearchConfig,
  type Slot,
} from './config';

export interface Merchandising {
  campaigns: CampaignConfig[];
  redirect: string | null;
  slots: Record<Slot, Array<{ uid: string; html: string }>>;
  /** inline banners, by their index among the whole result list */
  inline: Array<{ uid: string; index: number; html: string }>;
}

/** Campaigns whose queries equal the (normalised) query: an exact match, so results stay predictable. */
export function triggered(
  config: { campaigns: readonly CampaignConfig[] },
  q: string,
): CampaignConfig[] {
  const query = normalizeQuery(q);
  if (!query) return [];
  return config.campaigns.filter((c) => c.queries.includes(query));
}

/** The banner as its slot's HTML: the storefront reads the banner's uid from data-banner-id. */
export function bannerHtml(uid: string, slot: Slot | 'inline', html: string): string {
  return `<div class="ss-merchandising-banner" data-banner-id="${escapeHtml(uid)}" data-banner-slot="${slot}">${html}</div>`;
}

/**
 * Like the real service, every inline banner of the triggered campaigns comes with every page: the index is
 * a position in the whole result list and the client places those that fall on its page (or at the end).
 */
export function merchandise(config: SearchConfig, q: string): Merchandising {
  const campaigns = triggered(config, q);
  const slots = Object.fromEntries(
    SLOTS.map((s) => [s, [] as Array<{ uid: string; html: string }>]),
  ) as Merchandising['slots'];
  const inline: Merchandising['inline'] = [];
  for (const c of campaigns) {
    for (const b of c.banners) {
      if (b.slot === 'inline') {
        inline.push({ uid: b.id, index: b.position!, html: bannerHtml(b.id, 'inline', b.html) });
      } else {
        slots[b.slot].push({ uid: b.id, html: bannerHtml(b.id, b.slot, b.html) });
      }
    }
  }
  inline.sort((a, b) => a.index - b.index);
  return {
    campaigns,
    redirect: campaigns.find((c) => c.redirect !== null)?.redirect ?? null,
    slots,
    inline,
  };
}

/** `merchandising` in the shape of the provider's search.json. */
export function merchandisingJson(m: Merchandising, withContent: boolean): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (withContent) {
    for (const s of SLOTS) if (m.slots[s].length > 0) content[s] = m.slots[s].map((b) => b.html);
    if (m.inline.length > 0)
      content.inline = m.inline.map((b) => ({
        value: b.html,
        config: { position: { index: b.index } },
      }));
  }
  return {
    redirect: m.redirect ?? '',
    is_elevated: [],
    elevated: [],
    removed: [],
    content,
    facets: [],
    facetsHide: [],
    experiments: [],
    triggeredCampaigns: m.campaigns.map((c) => ({
      id: c.id,
      title: c.title,
      type: c.redirect !== null ? 'redirect' : 'banner',
    })),
  };
}
