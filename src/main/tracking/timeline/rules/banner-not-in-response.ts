// `banner-not-in-response`: a banner uid (in data.banners, or a {type: "banner"} result) that the search
// response did not contain where it was reported. Inline banners in data.banners have their own rule.
import { defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import {
  Offenders,
  allResultUids,
  bannerUid,
  describeResponse,
  inlineBanner,
  issuedFor,
  itemEvents,
  itemType,
  slotOf,
} from './utils/provenance';

const meta: RuleMeta<'response'> = {
  id: 'banner-not-in-response',
  judges: ['response'],
  title: 'Banner not in its search response',
  description:
    'A banner uid in data.banners (or a {type: "banner"} result) that the response did not return there.',
  expects:
    'data.banners holds the merchandising banners (header, banner, footer, left) of the response; inline banners are results.',
  ...judgedIn(RESPONSE_KINDS, ['search.banners']),
  defaultSeverity: 'error',
  messages: {
    misplaced:
      '{{count}} reported with responseId "{{responseId}}" {{are}} not where that response ({{response}}) put {{them}}: {{offenders}}. The response returned {{returned}}. Merchandising banners (header, banner, footer, left) are reported in data.banners; inline banners in data.results with type "banner".',
  },
  fix: 'Read the uid from the banner’s data-banner-id and report it in the array of its kind.',
  fixes: {
    misplaced:
      'Read the banner uid from the data-banner-id of the banner the response returned and report it in the array of its kind.',
  },
  listens: ['impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
};

export const bannerNotInResponse = defineRule({
  meta,
  response(r, ctx) {
    const issued = issuedFor(r, ctx);
    if (!issued) return [];
    const products = allResultUids(issued);
    const bad = new Offenders();
    for (const e of itemEvents(r)) {
      for (const entry of e.banners) {
        const uid = bannerUid(entry);
        if (slotOf(issued, uid) !== undefined || inlineBanner(issued, uid)) continue;
        bad.add(
          uid,
          e.id,
          products.has(uid)
            ? 'a product of this response: products go in data.results'
            : 'in data.banners',
        );
      }
      for (const item of e.results) {
        if (itemType(item) !== 'banner' || inlineBanner(issued, item.uid)) continue;
        const slot = slotOf(issued, item.uid);
        bad.add(
          item.uid,
          e.id,
          slot !== undefined
            ? `a ${slot} banner sent in data.results: merchandising banners outside the results go in data.banners`
            : products.has(item.uid)
              ? 'a product of this response sent with type "banner": use type "product"'
              : 'sent in data.results as type "banner"',
        );
      }
    }
    if (bad.size === 0) return [];
    const slots = Object.entries(issued.slots)
      .filter(([, uids]) => uids.length > 0)
      .map(([slot, uids]) => `${slot}: ${uids.map((u) => `"${u}"`).join(', ')}`);
    const returned = [
      ...slots,
      ...(issued.inline.length
        ? [`inline: ${issued.inline.map((b) => `"${b.uid}"`).join(', ')}`]
        : []),
    ];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'misplaced',
        noun: 'banner',
        words: {
          are: bad.size === 1 ? 'is' : 'are',
          response: describeResponse(issued),
          them: bad.size === 1 ? 'it' : 'them',
        },
        after: { returned: returned.length ? `banners ${returned.join('; ')}` : 'no banners' },
      }),
    ];
  },
});
