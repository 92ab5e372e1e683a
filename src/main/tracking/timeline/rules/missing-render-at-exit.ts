// `missing-render-at-exit`: a response whose only events are clicks that each ended the page soon after the
// sandbox issued it, with no render. The provider's client holds a render in its 300 ms queue and sends a
// click at once, with no flush when the page is left: a shopper who clicks that fast leaves with the render
// still queued. Info, with why (the window and what it exempts: utils/queued-render.ts).
import { finding, defineRule, type RuleMeta } from './types';
import {
  AT_EXIT_FIX,
  RENDER_BEHAVIOURS,
  UNRENDERED_MESSAGES,
  unrenderedEvents,
} from './utils/unrendered';

const meta: RuleMeta<'response'> = {
  id: 'missing-render-at-exit',
  judges: ['response'],
  title: 'Click that left the page before its render',
  description:
    'A response never rendered whose only events are clickthroughs, each the last event of its page and received within 2 s of the sandbox issuing the response: the render may have left with the page in the client’s 300 ms queue.',
  expects:
    'A render 300 ms after the results appear; a click that leaves sooner legitimately goes out alone.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: RENDER_BEHAVIOURS,
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'info',
  messages: { atExit: UNRENDERED_MESSAGES.atExit },
  fix: 'Nothing if shoppers click that fast; in a test, wait for the render before clicking.',
  fixes: { atExit: AT_EXIT_FIX },
  listens: ['render', 'redirect', 'impression', 'clickthrough', 'addtocart'],
  needs: { provenance: true, origins: true, laterEvents: true },
  judgesOnlyWith: ['issued'],
};

export const missingRenderAtExit = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unrenderedEvents);
    return found?.atExit?.timed
      ? [
          finding(meta, r.responseId, { messageId: 'atExit', data: found.data }, found.ids, {
            responseId: r.responseId,
          }),
        ]
      : [];
  },
});
