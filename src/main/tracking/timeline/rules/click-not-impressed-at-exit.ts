// `click-not-impressed-at-exit`: the clicks on never-impressed items were the page's last events, or came
// within 1 s of their response's render. The provider's client impresses a tile after 1 s of visibility
// and holds impressions 300 ms more, so a click that leaves the page within about 1.3 s of the tile
// appearing never has its impression, and one within 1 s of the render came before the tile could be
// impressed (on a page that goes on, the impression comes later or never): info, with why.
import { finding, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import {
  NOT_IMPRESSED_AT_EXIT,
  NOT_IMPRESSED_FIX,
  NOT_IMPRESSED_QUICK,
  unimpressedClicks,
} from './utils/unimpressed-clicks';

const meta: RuleMeta<'response'> = {
  id: 'click-not-impressed-at-exit',
  judges: ['response'],
  title: 'Click before its impression was due',
  description:
    'A clickthrough of a uid no impression of that responseId reported, where every such click was the last event of its page or came within 1 s of the response’s render: the shopper may have clicked within the 1.3 s the client needs to impress a tile.',
  expects:
    'An impression once a tile has been visible for 1 s; a click that leaves sooner legitimately has none.',
  ...judgedIn(RESPONSE_KINDS, ['search.clickthrough']),
  // an impression of the clicked tile the service rejected: its `schema` finding is the cause
  explainedBy: ['click-under-other-response', 'responseid-stale', 'response-replaced', 'schema'],
  defaultSeverity: 'info',
  messages: { atExit: NOT_IMPRESSED_AT_EXIT, quick: NOT_IMPRESSED_QUICK },
  fix: 'Nothing if shoppers click that fast; otherwise send the impression when the tile becomes visible, with the uid the click uses.',
  fixes: { atExit: NOT_IMPRESSED_FIX, quick: NOT_IMPRESSED_FIX },
  listens: ['render', 'impression', 'clickthrough'],
  needs: { laterEvents: true },
};

export const clickNotImpressedAtExit = defineRule({
  meta,
  response(r, ctx) {
    const found = ctx.shared(unimpressedClicks);
    return found?.exempt
      ? [
          finding(
            meta,
            r.responseId,
            { messageId: found.exempt === 'endedPage' ? 'atExit' : 'quick', data: found.data },
            found.ids,
            {
              responseId: r.responseId,
            },
          ),
        ]
      : [];
  },
});
