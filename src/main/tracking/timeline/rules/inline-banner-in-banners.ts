// `inline-banner-in-banners`: an inline banner (one that sits among the results) reported in data.banners
// instead of data.results — the identifier mapping keeps data.banners for the merchandising slots.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import {
  Offenders,
  bannerUid,
  describeResponse,
  inlineBanner,
  issuedFor,
  itemEvents,
} from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'inline-banner-in-banners',
  judges: ['response'],
  title: 'Inline banner reported in banners',
  description:
    'An inline banner (merchandising.content.inline) reported in data.banners instead of data.results.',
  expects: 'Inline banners sit among the results: data.results with {type: "banner", uid}.',
  ...judgedIn(RESPONSE_KINDS, ['search.banners']),
  defaultSeverity: 'error',
  messages: {
    inBanners:
      '{{count}} of responseId "{{responseId}}" ({{response}}) {{were}} reported in data.banners: {{offenders}}. Inline banners come from merchandising.content.inline and sit among the result tiles, so they are reported in data.results as {type: "banner", uid}; data.banners is for the header, banner, footer and left slots.',
  },
  fix: 'Move inline banners to data.results with type "banner".',
  fixes: { inBanners: 'move {{them}} to data.results with type "banner".' },
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const inlineBannerInBanners = defineRule({
  meta,
  response(r, ctx) {
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
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'inBanners',
        noun: 'inline banner',
        words: { response: describeResponse(issued), were: bad.size === 1 ? 'was' : 'were' },
        after: { them: bad.size === 1 ? 'it' : 'them' },
      }),
    ];
  },
});
