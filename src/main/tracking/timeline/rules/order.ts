// `order`: an impression, clickthrough or addtocart timestamped before the render of its responseId.
import {
  describe,
  finding,
  INTERACTIONS,
  list,
  plural,
  duration,
  defineRule,
  type RuleMeta,
} from './types';

const meta: RuleMeta<'response'> = {
  id: 'order',
  judges: ['response'],
  title: 'Event before its render',
  description:
    'An impression, clickthrough or addtocart timestamped before the render of its responseId (beyond the tolerance).',
  expects: 'render → redirect → impression → clickthrough | addtocart, by context.timestamp.',
  appliesTo: ['search', 'category', 'autocomplete', 'recommendations', 'bundles'],
  guards: [
    'search.render',
    'category.events',
    'autocomplete.events',
    'recommendations.widget',
    'bundles.widget',
  ],
  explainedBy: ['responseid-stale', 'response-replaced'],
  defaultSeverity: 'error',
  messages: {
    beforeRender:
      '{{count}} of responseId "{{responseId}}" {{are}} timestamped before its render {{renderId}} ({{timestamp}}): {{events}}; the earliest is {{early}} early ({{tolerance}}). The spec orders render → redirect → impression → clickthrough | addtocart.',
  },
  fix: 'Call render when results are displayed, before tracking impressions or clicks on them.',
  fixes: {
    beforeRender:
      'call render when the results are displayed, before tracking impressions, clicks or quick adds on them.',
  },
  listens: ['render', 'impression', 'clickthrough', 'addtocart'],
};

export const order = defineRule({
  meta,
  response(r, ctx) {
    const tolerance = ctx.settings.orderToleranceMs;
    // events are sorted by timestamp: the first accepted render with a real timestamp is the earliest
    const render = r.facts.renders.find((e) => e.tsMs !== null);
    if (!render) return [];
    // sorted: if the first event is not earlier than the render, none is
    const first = r.events[0]!;
    if (first.time >= render.tsMs!) return [];
    // Within the tolerance a gap is client clock jitter or batching — unless the arrival order says the
    // same as the timestamps (the event also reached the sandbox before the render): then the order is
    // unambiguous and the tolerance hides nothing.
    const early = r.events.filter(
      (e) =>
        e.accepted &&
        INTERACTIONS.has(e.event) &&
        e.tsMs !== null &&
        (e.tsMs < render.tsMs! - tolerance || (e.tsMs < render.tsMs! && e.seq < render.seq)),
    );
    if (early.length === 0) return [];
    const earliest = early[0]!;
    const data = {
      count: plural(early.length, 'event'),
      responseId: r.responseId,
      are: early.length === 1 ? 'is' : 'are',
      renderId: render.id,
      timestamp: render.timestamp ?? '',
      events: list(early.map(describe), 3),
      early: duration(render.tsMs! - earliest.tsMs!),
      tolerance:
        render.tsMs! - earliest.tsMs! > tolerance
          ? `beyond the tolerance of ${duration(tolerance)}`
          : `within the tolerance of ${duration(tolerance)}, but it also arrived before the render`,
    };
    return [
      finding(
        meta,
        r.responseId,
        { messageId: 'beforeRender', data },
        [render.id, ...early.map((e) => e.id)],
        { responseId: r.responseId },
      ),
    ];
  },
});
