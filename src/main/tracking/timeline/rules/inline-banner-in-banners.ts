// `inline-banner-in-banners`: an inline banner (one that sits among the results) reported in data.banners
// instead of data.results — the identifier mapping keeps data.banners for the merchandising slots.
import { finding, plural, type ResponseRule } from './types';
import {
  Offenders,
  bannerUid,
  describeResponse,
  inlineBanner,
  issuedFor,
  itemEvents,
} from './provenance';

export const inlineBannerInBanners: ResponseRule = {
  id: 'inline-banner-in-banners',
  scope: 'response',
  check(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued || issued.inline.length === 0) return [];
    const bad = new Offenders();
    for (const e of itemEvents(r)) {
      for (const entry of e.banners) {
        const uid = bannerUid(entry);
        const banner = inlineBanner(issued, uid);
        if (banner) bad.add(uid, e.id, `inline at position ${banner.index}`);
      }
    }
    if (bad.size === 0) return [];
    const message =
      `${plural(bad.size, 'inline banner')} of responseId "${r.responseId}" (${describeResponse(issued)}) ${bad.size === 1 ? 'was' : 'were'} reported in data.banners: ${bad.describe()}. ` +
      `Inline banners come from merchandising.content.inline and sit among the result tiles, so they are reported in data.results as {type: "banner", uid}; data.banners is for the header, banner, footer and left slots. ` +
      `Fix: move ${bad.size === 1 ? 'it' : 'them'} to data.results with type "banner".`;
    return [
      finding('inline-banner-in-banners', 'error', r.responseId, message, bad.eventIds(), {
        responseId: r.responseId,
      }),
    ];
  },
};
