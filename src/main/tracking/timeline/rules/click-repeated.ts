// `click-repeated`: the same item clicked twice on one response within 1 s. The provider's client drops a
// repeat click on one item within 1 s, so the pair is a storefront sending each click twice (two
// listeners, a click handler and a link handler), which doubles the click-through rate the provider
// reports. Exempt: clicks 1 s or more apart (the shopper came back to the list and clicked again).
// Which fix leads: two clicks with one timestamp are one request sent twice (the client makes each event's
// timestamp when it creates it, and never sends a request again: B posts with `.catch(noop)`), a retry of
// the storefront's own, not two listeners.
import { endpointOf } from '../../../../shared/kinds';
import { finding, plural, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';

/** the provider's client drops a repeat click on one item within this long */
const REPEAT_MS = 1000;

const meta: RuleMeta<'response'> = {
  id: 'click-repeated',
  judges: ['response'],
  title: 'The same click sent twice',
  description:
    'Two clickthroughs of the same item of one response less than 1 s apart: the provider’s client drops a repeat click within 1 s, so the storefront sends each click twice. Clicks 1 s or more apart (a shopper who came back) are not findings.',
  expects: 'One clickthrough per click; a repeat click on one item within 1 s is dropped.',
  ...judgedIn(RESPONSE_KINDS, ['search.clickthrough']),
  defaultSeverity: 'warning',
  messages: {
    resent:
      "{{count}} sent twice on responseId \"{{responseId}}\" with the same timestamp: {{pairs}}. The provider's client makes an event's timestamp when it creates it and never sends a request again (a failed beacon is dropped), so these are one click posted twice, by a retry of the storefront's own, and counted twice in the click-through rate.",
    repeated:
      '{{count}} sent twice on responseId "{{responseId}}": {{pairs}}. The provider\'s client drops a repeat click on one item within 1 s, so each of these is one click counted twice in the click-through rate.',
  },
  fix: 'Send the clickthrough from one handler only (not from both the tile’s click and its link), or drop a repeat within 1 s as the provider’s client does.',
  fixes: {
    resent:
      'do not retry beacon requests (the provider’s client drops a failed one); send each click once, at once.',
    repeated:
      "send {{clickthrough}} from one handler only (not from both the tile's click and its link).",
  },
  listens: ['clickthrough'],
};

const clicked = (e: { results: readonly { uid: string }[]; banners: readonly { uid: string }[] }) =>
  e.results[0]?.uid ?? e.banners[0]?.uid ?? '';

export const clickRepeated = defineRule({
  meta,
  response(r) {
    const clicks = r.facts.clicks;
    if (clicks.length < 2) return [];
    const last = new Map<string, { id: string; time: number }>();
    const pairs: Array<[string, string, string, number]> = [];
    for (const e of clicks) {
      const uid = clicked(e);
      const before = last.get(uid);
      if (uid !== '' && before && e.time - before.time < REPEAT_MS)
        pairs.push([uid, before.id, e.id, e.time - before.time]);
      last.set(uid, { id: e.id, time: e.time });
    }
    if (pairs.length === 0) return [];
    const shown = pairs
      .slice(0, 3)
      .map(([uid, a, b, ms]) => `uid "${uid}" in ${a} and ${b} ${ms} ms apart`)
      .join(', ');
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: pairs.every(([, , , ms]) => ms === 0) ? 'resent' : 'repeated',
          data: {
            count: plural(pairs.length, 'click was', 'clicks were'),
            responseId: r.responseId,
            pairs: `${shown}${pairs.length > 3 ? ` and ${pairs.length - 3} more` : ''}`,
            clickthrough: endpointOf(r.kind, 'clickthrough'),
          },
        },
        pairs.flatMap(([, a, b]) => [a, b]),
        { responseId: r.responseId },
      ),
    ];
  },
});
