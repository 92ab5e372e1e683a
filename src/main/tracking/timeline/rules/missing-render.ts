// `missing-render`: impressions, clicks or carts for a response (kind + responseId + tag) the page never rendered.
// Exempt (reported by `missing-render-at-exit`, as info): a response whose only events are clicks that each
// ended the page and arrived within 2 s of the sandbox issuing it, the time a render waits in the provider's
// client's 300 ms queue after the response arrives; that client sends a click at once and has no unload
// flush, so such a click leaves with the render still queued (utils/queued-render.ts). Clicks like that of a
// response the sandbox did not issue stay an error, whose message names the queued render as a possibility:
// with no time to judge by, they look exactly like a storefront that never renders. So does a click on the only
// result of a single-result search (singleResult): the client navigates there by itself, so no shopper
// clicked it.
// A responseId first seen on an earlier page load, beside this page's own rendered responses, is no
// infinite-scroll backfill when the client's cache could not have restored it here (another session,
// development mode, past its minutes) or the page only clicked or added it (a restored page's tiles are
// impressed with their own responseId): a stale responseId (carriedOver), not `missing-render-backfill`'s.
// A responseId rendered on another page load of the session that holds nothing but that render, at the same
// URL, at most 10 s before, with no page load elsewhere between (the engine's `renderedOn`), on a page that
// renders nothing of its kind itself, is the same document's render under another pageLoadId (otherLoad): the
// client keeps one pageLoadId per document, and a new document at that URL within 10 s would get the stored
// one back (B getPageLoadId). Still an error: the service sees the render on another page.
import { finding, defineRule, type RuleMeta } from './types';
import {
  CARRIED_OVER_FIX,
  OTHER_LOAD_FIX,
  OTHER_TAG_FIX,
  SINGLE_RESULT_FIX,
  UNISSUED_FIX,
  UNRENDERED_FIX,
  UNRENDERED_MESSAGES,
  unrenderedEvents,
  RENDER_BEHAVIOURS,
} from './utils/unrendered';

const meta: RuleMeta<'response'> = {
  id: 'missing-render',
  judges: ['response'],
  title: 'Events without a render',
  description:
    'Impressions, clickthroughs or addtocarts for a responseId that was never rendered on the page (a widget’s: with their tag; events of a widget sent with another widget’s tag are named as that; an earlier page load’s responseId beside the page’s own rendered responses, which no infinite scroll could have restored there, is named as a stale responseId). Not when the only events are clicks that each ended the page within 2 s of the sandbox issuing the response (missing-render-at-exit’s: the render may have left with the page in the client’s queue); such clicks on a response the sandbox did not issue stay an error that names that possibility, and a click on the only result of a single-result search stays one (the client navigates there by itself).',
  expects: 'search/render with the responseId as soon as the results of that response are shown.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  // an earlier search's responseId carried over to this page is the response's binding; its render sent
  // under another pageLoadId by the same document, the page load's
  guards: [...RENDER_BEHAVIOURS, 'search.response-bound', 'identity.page-load'],
  // a response never rendered whose only events are clicks of tiles impressed under another response: the
  // click carried a responseId not its tile's, which click-under-other-response names with its fix; where
  // the responseId is an earlier search's (carriedOver), this finding says so itself, and leads
  explainedBy: ['responseid-stale', 'response-replaced', 'click-under-other-response'],
  explainedWholly: ['click-under-other-response'],
  whollyMessages: [
    'unrendered',
    'newSearch',
    'firstPage',
    'scrolled',
    'unissued',
    'onlyPage',
    'otherTag',
    'singleResult',
  ],
  defaultSeverity: 'error',
  messages: {
    unrendered: UNRENDERED_MESSAGES.unrendered,
    newSearch: UNRENDERED_MESSAGES.newSearch,
    firstPage: UNRENDERED_MESSAGES.firstPage,
    scrolled: UNRENDERED_MESSAGES.scrolled,
    unissued: UNRENDERED_MESSAGES.unissued,
    onlyPage: UNRENDERED_MESSAGES.onlyPage,
    otherTag: UNRENDERED_MESSAGES.otherTag,
    singleResult: UNRENDERED_MESSAGES.singleResult,
    carriedOver: UNRENDERED_MESSAGES.carriedOver,
    otherLoad: UNRENDERED_MESSAGES.otherLoad,
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
    singleResult: SINGLE_RESULT_FIX,
    carriedOver: CARRIED_OVER_FIX,
    otherLoad: OTHER_LOAD_FIX,
  },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  // whether the sandbox issued the response as page 1 of its search (or the page's rendered responses but
  // not this one); where else its responseId was seen
  // laterEvents: a click that ended the page is judged again when the page goes on after it
  needs: { provenance: true, origins: true, laterEvents: true },
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
    return found && !found.backfill && !found.atExit?.timed
      ? [
          finding(meta, r.responseId, { messageId: found.messageId, data: found.data }, found.ids, {
            responseId: r.responseId,
            ...(found.messageId === 'carriedOver' && { behaviour: 'search.response-bound' }),
            // the render came under another pageLoadId of the same document
            ...(found.messageId === 'otherLoad' && { behaviour: 'identity.page-load' }),
            // sent with another widget's tag: about the widget that rendered the responseId
            ...(found.messageId === 'otherTag' && { widget: String(found.data.ownTag) }),
          }),
        ]
      : [];
  },
});
