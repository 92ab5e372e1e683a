// `missing-render`: impressions, clicks or carts for a response (kind + responseId + tag) the page never rendered.
import { finding, defineRule, type RuleMeta } from './types';
import {
  OTHER_TAG_FIX,
  UNISSUED_FIX,
  UNRENDERED_FIX,
  UNRENDERED_MESSAGES,
  unrenderedEvents,
} from './utils/unrendered';

const meta: RuleMeta<'response'> = {
  id: 'missing-render',
  judges: ['response'],
  title: 'Events without a render',
  description:
    'Impressions, clickthroughs or addtocarts for a responseId that was never rendered on the page (a widget’s: with their tag; events of a widget sent with another widget’s tag are named as that).',
  expects: 'search/render with the responseId as soon as the results of that response are shown.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: [
    'search.render',
    'category.events',
    'autocomplete.render',
    'recommendations.widget',
    'bundles.widget',
  ],
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'error',
  messages: {
    unrendered: UNRENDERED_MESSAGES.unrendered,
    newSearch: UNRENDERED_MESSAGES.newSearch,
    firstPage: UNRENDERED_MESSAGES.firstPage,
    scrolled: UNRENDERED_MESSAGES.scrolled,
    unissued: UNRENDERED_MESSAGES.unissued,
    onlyPage: UNRENDERED_MESSAGES.onlyPage,
    otherTag: UNRENDERED_MESSAGES.otherTag,
  },
  fix: 'Send search/render with data.responseId = the search response’s responseId when the results are displayed.',
  fixes: {
    unrendered: UNRENDERED_FIX,
    newSearch: UNRENDERED_FIX,
    firstPage: UNRENDERED_FIX,
    scrolled: UNRENDERED_FIX,
    unissued: UNISSUED_FIX,
    onlyPage: UNISSUED_FIX,
    otherTag: OTHER_TAG_FIX,
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  // whether the sandbox issued the response as page 1 of its search (or the page's rendered responses but
  // not this one); where else its responseId was seen
  needs: { provenance: true, origins: true },
  kindNotes: {
    autocomplete: 'always an error (no infinite scroll, so no backfill)',
    recommendations:
      'per widget (tag + responseId); always an error. Events whose responseId the page rendered with another widget’s tag are that widget’s, sent with the wrong tag: the finding says so (otherTag)',
    bundles:
      'per widget (tag + responseId); always an error. Events whose responseId the page rendered with another widget’s tag are that widget’s, sent with the wrong tag: the finding says so (otherTag)',
  },
};

export const missingRender = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unrenderedEvents);
    return found && !found.backfill
      ? [
          finding(meta, r.responseId, { messageId: found.messageId, data: found.data }, found.ids, {
            responseId: r.responseId,
          }),
        ]
      : [];
  },
});
