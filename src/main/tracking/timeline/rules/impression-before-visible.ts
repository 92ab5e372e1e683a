// `impression-before-visible` (warning): an impression created less than a second after the render of its
// response: the tile cannot have been seen for the second the provider's client waits for.
//
// Why it is certain: the client renders a response right after its store is updated, before the tiles are
// drawn, and impresses a tile once 70% of it has been visible for 1 s (an IntersectionObserver and a 1 s
// timer), so every impression of a rendered response is created at least a second after that render, a
// cached response rendered again included (its flags are reset with the render). Exempt: responses
// without a render (infinite-scroll backfill pages, a lost render), impressions created before the render
// (`order` names those), and a margin of MARGIN_MS for timer and clock granularity. Autocomplete is not
// judged: the dropdown's impressions were not read in the client's source with the same certainty.
import type { TimelineEvent } from '../model';
import { endpointOf } from '../../../../shared/kinds';
import { finding, list, defineRule, type RuleMeta, judgedIn } from './types';

export const VISIBLE_MS = 1_000;
const MARGIN_MS = 100;

const meta: RuleMeta<'response'> = {
  id: 'impression-before-visible',
  judges: ['response'],
  title: 'Impression before its tile could be seen',
  description:
    'An impression created less than a second after the render of its response: the provider’s client impresses a tile only after 70% of it has been visible for 1 s.',
  expects:
    'An impression when a tile has been visible for a second (70% of it), at least a second after its response’s render.',
  ...judgedIn(['search', 'category', 'recommendations', 'bundles'], ['search.impression']),
  explainedBy: ['impression-burst'],
  defaultSeverity: 'warning',
  messages: {
    early:
      '{{count}} of responseId "{{responseId}}"{{tag}} {{were}} created less than a second after its render: {{shown}}. The provider\'s client impresses a tile only once 70% of it has been visible for 1 s, so its impressions come at least a second after the render; these say tiles were seen that the shopper may never have seen.',
  },
  fix: 'Impress a tile when it has been visible for a second (IntersectionObserver, threshold 0.7, then 1 s), not when it is drawn.',
  fixes: {
    early:
      'send {{impression}} when a tile has been visible for a second (IntersectionObserver with threshold 0.7, then 1 s), not when it is drawn.',
  },
  listens: ['render', 'impression'],
  notJudged: {
    autocomplete:
      'the dropdown’s impression timing was not read in the client’s source with the same certainty',
  },
};

export const impressionBeforeVisible = defineRule({
  meta,
  response(r) {
    if (r.facts.renders.length === 0 || r.facts.impressions.length === 0) return [];
    const early: Array<[TimelineEvent, TimelineEvent]> = [];
    // both lists are in time order (an event's time is its timestamp when it has one): the render each
    // impression follows only moves on, one walk over the renders for all the impressions
    const renders = r.facts.renders;
    let next = 0;
    let render: TimelineEvent | undefined;
    for (const imp of r.facts.impressions) {
      if (imp.tsMs === null) continue;
      // the render it follows: the latest not after it (renders without a timestamp are not placed)
      for (; next < renders.length && renders[next]!.time <= imp.tsMs; next++)
        if (renders[next]!.tsMs !== null) render = renders[next];
      if (render && imp.tsMs - render.tsMs! < VISIBLE_MS - MARGIN_MS) early.push([render, imp]);
    }
    if (early.length === 0) return [];
    const shown = early.map(
      ([render, imp]) => `${imp.id} ${imp.tsMs! - render.tsMs!} ms after ${render.id}`,
    );
    return [
      finding(
        meta,
        r.responseId,
        {
          messageId: 'early',
          data: {
            count: early.length === 1 ? 'an impression' : `${early.length} impressions`,
            responseId: r.responseId,
            tag: r.tag ? ` (tag "${r.tag}")` : '',
            were: early.length === 1 ? 'was' : 'were',
            shown: list(shown, 3),
            impression: endpointOf(r.kind, 'impression'),
          },
        },
        early.flatMap(([render, imp]) => [render.id, imp.id]),
        { responseId: r.responseId },
      ),
    ];
  },
});
