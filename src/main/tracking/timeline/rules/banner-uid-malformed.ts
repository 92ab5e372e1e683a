// `banner-uid-malformed` (error): a merchandising banner in data.banners whose uid is not the digits of a
// data-banner-id.
//
// Why it is certain: the provider's client reads a slot banner's uid from `data-banner-id="<digits>"` in
// the banner's HTML and sends nothing for a banner without it (SC, snap-preact's banner impression), so
// every uid it puts in data.banners is a string of digits. Anything else (a banner's name, its slot, an
// index, an inline banner's `ss-ib-<index>`, an empty string) was made by the storefront, and the provider
// cannot tie it to the banner it served. What it exempts: a response the sandbox issued, whose banners
// banner-not-in-response and inline-banner-in-banners judge against what it served (one bug, one
// finding); inline banners in data.results, whose uid may be their `ss-ib-<index>`.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { Offenders, bannerUid, issuedFor, itemEvents } from './utils/provenance';

/** The uid the client reads from a banner's `data-banner-id="<digits>"`. */
const BANNER_UID = /^\d+$/;
/** The uid the client's store gives an inline banner without a data-banner-id. */
const INLINE_UID = /^ss-ib-\d+$/;

const meta: RuleMeta<'response'> = {
  id: 'banner-uid-malformed',
  judges: ['response'],
  title: 'Banner uid that is no data-banner-id',
  description:
    'A banner in data.banners whose uid is not digits (a name, a slot, an inline banner’s ss-ib-<index>, ""): the provider’s client sends a merchandising banner’s data-banner-id="<digits>" and nothing for a banner without one. Not judged for a response the sandbox issued (banner-not-in-response and inline-banner-in-banners judge it against what it served), nor for inline banners in data.results.',
  expects:
    'data.banners holds each merchandising banner’s uid as its HTML’s data-banner-id, a string of digits.',
  ...judgedIn(RESPONSE_KINDS, ['search.banners']),
  defaultSeverity: 'error',
  messages: {
    malformed:
      '{{count}} of responseId "{{responseId}}" {{were}} sent in data.banners with a uid that is no data-banner-id: {{offenders}}. The provider’s client reads a merchandising banner’s uid from data-banner-id="<digits>" in the banner’s HTML and sends nothing for a banner without it, so the provider cannot tie {{them}} to a banner it served.',
  },
  fix: 'Send each merchandising banner’s data-banner-id (its digits) as its uid in data.banners; an inline banner goes in data.results as {type: "banner", uid}.',
  fixes: {
    malformed:
      'send the data-banner-id (its digits) of the banner’s HTML as its uid in data.banners; an inline banner goes in data.results as {type: "banner", uid}.',
  },
  listens: ['impression', 'clickthrough'],
  needs: { provenance: true },
};

function note(uid: string): string {
  if (uid === '') return 'empty';
  if (INLINE_UID.test(uid)) return 'an inline banner’s id: inline banners go in data.results';
  return 'not digits';
}

export const bannerUidMalformed = defineRule({
  meta,
  response(r, ctx) {
    if (issuedFor(r, ctx)) return [];
    const bad = new Offenders();
    for (const e of itemEvents(r))
      for (const entry of e.banners) {
        const uid = bannerUid(entry);
        if (!BANNER_UID.test(uid)) bad.add(uid, e.id, () => note(uid));
      }
    if (bad.size === 0) return [];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'malformed',
        noun: 'banner',
        words: { were: bad.size === 1 ? 'was' : 'were' },
        after: { them: bad.size === 1 ? 'it' : 'them' },
      }),
    ];
  },
});
