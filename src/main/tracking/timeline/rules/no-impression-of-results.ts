// `no-impression-of-results`: the sandbox issued the search response, it showed results or banners, it was
// rendered, and the page ended without any impression of it: impressions were certainly due.
import { finding, type ResponseRule, type RuleMeta } from './types';
import { unimpressedRender } from './no-impression';

const meta: RuleMeta = {
  id: 'no-impression-of-results',
  title: 'Results shown, none impressed',
  description:
    'A rendered search response the sandbox issued with results or banners, and no impression of it once the page has ended.',
  expects: 'Impressions of the tiles on screen after a render of a response with results.',
  appliesTo: ['search'],
  defaultSeverity: 'warning',
  fix: 'Send search/impression for tiles as they scroll into view.',
  listens: ['render', 'redirect', 'impression'],
  needs: { pageEnd: true, provenance: true },
};

export const noImpressionOfResults: ResponseRule = {
  meta,
  judges: 'response',
  check(r, ctx) {
    const found = ctx.once(unimpressedRender);
    return found && found.shown > 0
      ? [finding(meta, r.responseId, found.message, found.ids, { responseId: r.responseId })]
      : [];
  },
};
