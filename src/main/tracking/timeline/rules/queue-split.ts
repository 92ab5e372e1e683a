// `queue-split` (warning): two impression (or addtocart) requests of one response on one page load whose
// events were created less than the client's queue debounce apart: the provider's client would have sent
// them as one request.
//
// Why it is certain: the beacon client queues impressions and addtocarts behind a 300 ms debounce that
// every queued event restarts, and merges the events of one endpoint, page load, session and responseId
// into one request carrying the first event's context. A second request of the same key can only hold an
// event created after the first was flushed, at least the debounce after the first request's first event.
// Exempt: requests the service rejected, requests with no RFC 3339 timestamp, requests of different
// endpoints (impressions and addtocarts queue apart), and requests of different sessionIds (the client's
// merge key holds the sessionId: a page whose events change sessionId is context-drift's, and its queue
// splits them too).
import type { TimelineEvent } from '../model';
import { endpointOf } from '../../../../shared/kinds';
import { finding, list, defineRule, type RuleMeta, judgedIn, RESPONSE_KINDS } from './types';
import { timedInOrder } from './utils/time-order';

/** The client's debounce, less a few ms for timestamps rounded to the millisecond. */
export const QUEUE_DEBOUNCE_MS = 300;
const ROUNDING_MS = 5;

const meta: RuleMeta<'response'> = {
  id: 'queue-split',
  judges: ['response'],
  title: 'Queued events sent apart',
  description:
    'Two impression (or addtocart) requests of one response on one page load created less than 300 ms apart: the provider’s client queues them behind a 300 ms debounce and sends them as one request.',
  expects:
    'Impressions and addtocarts of one response merged into one request while they come less than 300 ms apart, with the first event’s context.',
  ...judgedIn(RESPONSE_KINDS, ['search.impression-queue']),
  defaultSeverity: 'warning',
  messages: {
    split:
      '{{requests}} of responseId "{{responseId}}"{{tag}} on this page were created less than {{debounce}} ms apart: {{pairs}}. The provider\'s beacon client queues {{event}}s behind a {{debounce}} ms debounce and sends those of one response as one request, so these were not sent by its queue (one request per tile, or a queue of the storefront\'s own).',
  },
  fix: 'Send impressions and adds through the provider’s beacon client (its queue merges them), not one request per tile.',
  fixes: {
    split:
      "send {{endpoint}} through the provider's beacon client, which merges what comes within the debounce.",
  },
  listens: ['impression', 'addtocart'],
};

/** Requests of one merge key (B processRequests: endpoint, page load, session and responseId) sent apart. */
function splits(events: readonly TimelineEvent[]): Array<[TimelineEvent, TimelineEvent]> {
  const timed = timedInOrder(events);
  const pairs: Array<[TimelineEvent, TimelineEvent]> = [];
  // the previous request of each sessionId (nearly always one)
  const last = new Map<string, TimelineEvent>();
  for (const b of timed) {
    const a = last.get(b.sessionId);
    last.set(b.sessionId, b);
    if (a && b.tsMs! - a.tsMs! < QUEUE_DEBOUNCE_MS - ROUNDING_MS) pairs.push([a, b]);
  }
  return pairs;
}

export const queueSplit = defineRule({
  meta,
  response(r) {
    const out = [];
    for (const [event, events] of [
      ['impression', r.facts.impressions],
      ['addtocart', r.facts.carts],
    ] as const) {
      if (events.length < 2) continue;
      const pairs = splits(events);
      if (pairs.length === 0) continue;
      const endpoint = endpointOf(r.kind, event);
      const shown = pairs.map(([a, b]) => `${b.id} ${b.tsMs! - a.tsMs!} ms after ${a.id}`);
      out.push(
        finding(
          meta,
          `${r.responseId}:${event}`,
          {
            messageId: 'split',
            data: {
              requests:
                pairs.length + 1 > 2
                  ? `${pairs.length + 1} ${endpoint} requests`
                  : `two ${endpoint} requests`,
              responseId: r.responseId,
              tag: r.tag ? ` (tag "${r.tag}")` : '',
              debounce: QUEUE_DEBOUNCE_MS,
              pairs: list(shown, 3),
              event,
              endpoint,
            },
          },
          pairs.flat().map((e) => e.id),
          { responseId: r.responseId },
        ),
      );
    }
    return out;
  },
});
