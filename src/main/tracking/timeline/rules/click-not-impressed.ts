// `click-not-impressed`: a clickthrough of a uid that no impression of that responseId reported.
import { finding, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { NOT_IMPRESSED, NOT_IMPRESSED_FIX, unimpressedClicks } from './utils/unimpressed-clicks';

const meta: RuleMeta<'response'> = {
  id: 'click-not-impressed',
  judges: ['response'],
  title: 'Click on an item never impressed',
  description:
    'A clickthrough of a uid that no impression of that responseId reported, on a page that went on after the click, 1 s or more after the response’s render (a click that ended the page, or came sooner, is reported apart: the client may still have held its impression, or not made it yet). A widget’s item impressed with that responseId under another widget’s tag was impressed: missing-render names the wrong tag.',
  expects: 'An impression when the tile scrolls into view, before the shopper can click it.',
  // a widget's or the dropdown's click names its own area's behaviour (a widget's row is its tag's): their
  // controllers track the tile and the click, not the search's (category pages run the search's)
  ...judgedIn(RESPONSE_KINDS, ['search.clickthrough']),
  // an impression of the clicked tile the service rejected: its `schema` finding is the cause
  explainedBy: ['click-under-other-response', 'responseid-stale', 'response-replaced', 'schema'],
  defaultSeverity: 'warning',
  messages: { notImpressed: NOT_IMPRESSED },
  fix: 'Send search/impression for each tile when it becomes visible (IntersectionObserver), with the same uid the click uses.',
  fixes: { notImpressed: NOT_IMPRESSED_FIX },
  listens: ['render', 'impression', 'clickthrough'],
  needs: { laterEvents: true },
};

export const clickNotImpressed = defineRule({
  meta,
  // a click stops being the page's last event when a later one arrives: it moves here from the exit rule
  response(r, ctx) {
    const found = ctx.shared(unimpressedClicks);
    return found && !found.exempt
      ? [
          finding(meta, r.responseId, { messageId: 'notImpressed', data: found.data }, found.ids, {
            responseId: r.responseId,
          }),
        ]
      : [];
  },
});
