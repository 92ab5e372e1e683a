// `inline-banner-not-impressed` (warning): an inline banner of a response the sandbox issued never
// impressed, while the tiles right before and after it in the results were.
//
// Why it is certain enough to warn: the provider's client places each inline banner among the result tiles
// of its page (snap-store-mobx addBannersToResults: at its index, less the page's first) and impresses it
// like a tile, with its data-banner-id or `ss-ib-<index>` as the uid, once 70% of it has been visible for a
// second (createImpressionObserver; b8e8c31 fixed storefronts whose inline banners were never impressed).
// The tiles on both sides of it were each visible that long, and the banner sits between them. What it
// exempts: banners with no tile on one side (first or last of the page: the shopper may have stopped before
// it), neighbours not both impressed, a banner reported in any form (in results as a banner or a product,
// or in data.banners: other rules name the form), and responses the sandbox did not issue. It does not wait
// for the page's end: the banner comes into view with its neighbours, and its impression goes out in the
// same merged request or the next.
import { describeResponse, inlineBanner, issuedFor, itemEvents } from './utils/provenance';
import type { IssuedResponse } from '../../../search/responses';
import { finding, list, defineRule, type RuleMeta, judgedIn } from './types';

const meta: RuleMeta<'response'> = {
  id: 'inline-banner-not-impressed',
  judges: ['response'],
  title: 'Inline banner never impressed',
  description:
    'An inline banner of a response the sandbox issued that no impression names, while the tiles right before and after it on the page were impressed.',
  expects:
    'Inline banners impressed like tiles once visible: in data.results as {type: "banner", uid}.',
  ...judgedIn(['search', 'category'], ['search.banners', 'search.impression']),
  defaultSeverity: 'warning',
  messages: {
    notImpressed:
      'inline banner {{banners}} of responseId "{{responseId}}" ({{response}}) {{was}} never impressed, though the tiles on both sides were ({{neighbours}}). The provider\'s client places an inline banner among the tiles and impresses it like one once 70% of it is visible for a second, so the campaign\'s banner gets no impressions.',
  },
  fixes: {
    notImpressed:
      'observe inline banners like tiles and send them in the impression\'s data.results as {type: "banner", uid} (its data-banner-id).',
  },
  fix: 'Send inline banners in the impression’s data.results as {type: "banner", uid} once visible.',
  listens: ['render', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    autocomplete:
      'the dropdown changes with every keystroke: a banner shown for less than the second an impression needs is never impressed',
    recommendations: 'a widget’s responses carry no inline banners',
    bundles: 'a widget’s responses carry no inline banners',
  },
};

/** The page's tiles in the client's order: its results, with the inline banners of the page spliced in. */
function tiles(issued: IssuedResponse): Array<{ uid: string; banner: boolean; index: number }> {
  const first = (issued.page - 1) * issued.perPage;
  const out = issued.results.map((r) => ({ uid: r.uid, banner: false, index: -1 }));
  for (const b of issued.inline)
    if (b.index >= first && b.index < first + issued.perPage && b.index - first <= out.length)
      out.splice(b.index - first, 0, { uid: b.uid, banner: true, index: b.index });
  return out;
}

export const inlineBannerNotImpressed = defineRule({
  meta,
  response(r, ctx) {
    if (r.facts.renders.length === 0 || r.facts.impressions.length === 0) return [];
    const issued = issuedFor(r, ctx);
    if (!issued || issued.inline.length === 0) return [];
    const seen = new Set<string>();
    const reported = new Set<number>();
    for (const e of itemEvents(r))
      for (const item of [...e.results, ...e.banners]) {
        const uid = item.uid;
        const b = inlineBanner(issued, uid);
        if (b) reported.add(b.index);
        if (e.event === 'impression') seen.add(uid);
      }
    const impressed = (uid: string) =>
      seen.has(uid) ||
      issued.results.some((x) => x.uid === uid && x.children.some((c) => seen.has(c.uid)));
    const page = tiles(issued);
    const missed: Array<{ uid: string; before: string; after: string }> = [];
    for (let i = 1; i < page.length - 1; i++) {
      const t = page[i]!;
      const before = page[i - 1]!;
      const after = page[i + 1]!;
      if (!t.banner || reported.has(t.index) || before.banner || after.banner) continue;
      if (impressed(before.uid) && impressed(after.uid))
        missed.push({ uid: t.uid, before: before.uid, after: after.uid });
    }
    if (missed.length === 0) return [];
    const data = {
      banners: list(missed.map((m) => `"${m.uid}"`)),
      responseId: r.responseId,
      response: describeResponse(issued),
      was: missed.length === 1 ? 'was' : 'were',
      neighbours: list(missed.map((m) => `"${m.before}" and "${m.after}"`)),
    };
    const ids = r.facts.impressions.map((e) => e.id);
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'notImpressed', data },
        [r.facts.renders[0]!.id, ...ids],
        {
          responseId: r.responseId,
        },
      ),
    ];
  },
});
