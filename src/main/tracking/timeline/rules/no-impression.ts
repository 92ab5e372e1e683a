// `no-impression`: a rendered (not redirected) responseId without any impression once the page went idle.
// Info: a response with zero results legitimately sends none. When the sandbox issued the search response
// it knows: results or banners shown and none impressed is a rule of its own (a warning); a response with
// nothing to show (the no-results page, which the provider's client renders and never impresses) is silent,
// and so is a listing response replaced by another search before its tiles could be a second in view
// (`unimpressedRender`: the client's impression observer never fired for them).
import { finding, defineRule, type RuleMeta, judgedIn } from './types';
import { IMPRESSION_FIX, NONE_IMPRESSED, unimpressedRender } from './utils/unimpressed-render';
const meta: RuleMeta<'response'> = {
  id: 'no-impression',
  judges: ['response'],
  title: 'Render without any impression',
  description:
    'A rendered responseId (not redirected) with no impression once the page has ended (idle for timelines.noImpressionIdleMs, or judged as finished by a report), where the sandbox does not know what the response showed. Silent for a widget whose responseId the page impressed under another widget’s tag: those are its impressions, and missing-render names the wrong tag; and for a search or category response the listing replaced with another search’s (told by the page URLs, or by query and page when the sandbox issued both) less than 1.25 s after each of its renders that no impression followed: the provider’s client impresses a tile after 1 s in view, and never once it is removed sooner.',
  expects:
    'Impressions of the tiles on screen after a render (a search with zero results legitimately sends none).',
  ...judgedIn(
    ['search', 'category', 'recommendations', 'bundles'],
    ['search.impression', 'search.zero-results', 'search.single-result-redirect'],
  ),
  defaultSeverity: 'info',
  messages: { noImpression: NONE_IMPRESSED },
  fix: 'Send search/impression for tiles as they scroll into view.',
  fixes: { noImpression: IMPRESSION_FIX },
  listens: ['render', 'redirect', 'impression'],
  // the page's other responses: a render of the listing's next search that replaced this one
  needs: { pageEnd: true, provenance: true, pageResponses: true },
  notJudged: {
    autocomplete:
      'the dropdown changes with every keystroke: a response shown for less than the 1 s an impression needs is legitimately never impressed',
  },
};

export const noImpression = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unimpressedRender);
    return found && found.shown < 0
      ? [
          finding(meta, r.responseId, { messageId: 'noImpression', data: found.data }, found.ids, {
            responseId: r.responseId,
          }),
        ]
      : [];
  },
});
