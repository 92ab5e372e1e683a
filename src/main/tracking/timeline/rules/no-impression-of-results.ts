// `no-impression-of-results`: the sandbox issued the search response, it showed results or banners, it was
// rendered, and the page ended without any impression of it: impressions were certainly due.
import { finding, defineRule, type RuleMeta } from './types';
import {
  IMPRESSION_FIX,
  NOT_IMPRESSED_AGAIN,
  RESULTS_NOT_IMPRESSED,
  unimpressedRender,
} from './utils/unimpressed-render';

const meta: RuleMeta<'response'> = {
  id: 'no-impression-of-results',
  judges: ['response'],
  title: 'Results shown, none impressed',
  description:
    'A rendered search response the sandbox issued with results or banners, and no impression of it once the page has ended; or, rendered again after its impressions (a cached response shown again, whose tiles the client impresses again), none since. Impressions sent before a response’s only render are order’s: it was shown once.',
  expects: 'Impressions of the tiles on screen after a render of a response with results.',
  appliesTo: ['search'],
  guards: ['search.impression', 'search.zero-results', 'search.render-cached'],
  defaultSeverity: 'warning',
  messages: { resultsNotImpressed: RESULTS_NOT_IMPRESSED, notImpressedAgain: NOT_IMPRESSED_AGAIN },
  fix: 'Send search/impression for tiles as they scroll into view.',
  fixes: {
    resultsNotImpressed: IMPRESSION_FIX,
    notImpressedAgain:
      'impress the tiles again each time the response is shown (reset the per-response impression flags on every render, not only on a new responseId).',
  },
  listens: ['render', 'redirect', 'impression'],
  needs: { pageEnd: true, provenance: true },
  judgesOnlyWith: ['issued'],
  notJudged: {
    category:
      'the sandbox knows what it issued only for search.json responses it can match to the page',
    autocomplete:
      'the dropdown changes with every keystroke: a response shown for less than the 1 s an impression needs is legitimately never impressed',
    recommendations: 'a widget the shopper never scrolled to is legitimately never impressed',
    bundles: 'a widget the shopper never scrolled to is legitimately never impressed',
  },
};

export const noImpressionOfResults = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unimpressedRender);
    return found && found.shown > 0
      ? [
          finding(
            meta,
            r.responseId,
            {
              messageId: found.again ? 'notImpressedAgain' : 'resultsNotImpressed',
              data: found.data,
            },
            found.ids,
            // shown again and not impressed again: the cached response's (the client resets its flags)
            {
              responseId: r.responseId,
              ...(found.again && { behaviour: 'search.render-cached' }),
            },
          ),
        ]
      : [];
  },
});
