// `responseid-empty` (error): impressions, clicks, quick adds or redirects sent with an empty
// data.responseId. The service accepts "" (the schema asks only for a string), but no response has it, so
// the events count for no search, dropdown or widget: reports, the click's credit and the order's.
//
// Why it is certain: the provider's controllers send each impression, click, add and redirect with the
// responseId of the response that delivered the item (snap-client transforms/searchResponse.ts keeps it on
// every result; RecommendationController the widget's), never an empty one. A storefront that reads the id
// from the wrong field and falls back to "" (the search API answers `responseId`, the Snap client's
// response `tracking.responseId`) sends every event like this, and every other rule stays silent on it:
// there is no response to compare them with. What it exempts: a render with an empty responseId (a render
// fired before the response arrived), which `missing-render` names beside the events it left without a
// render; and events whose responseId is missing or not a string (`schema` rejects them).
import type { RecordedEvent } from '../../../../shared/events';
import { isTimelineEndpoint } from '../../../../shared/kinds';
import type { Page } from '../page';
import { dataOf } from './utils/request-context';
import {
  finding,
  list,
  plural,
  type RuleMeta,
  defineRule,
  judgedIn,
  RESPONSE_KINDS,
} from './types';
import { addCapped, capped, type Capped } from '../model';
import { tallySlot } from './utils/tally-slot';

const meta: RuleMeta<'page'> = {
  id: 'responseid-empty',
  judges: ['page'],
  title: 'Events with an empty responseId',
  description:
    'Impressions, clickthroughs, addtocarts or redirects sent with data.responseId "": the service accepts them, but they belong to no response.',
  expects:
    'Each event carries the responseId of the response that delivered its item (the search response’s tracking.responseId, the widget’s own).',
  ...judgedIn(RESPONSE_KINDS, ['search.tile-response']),
  defaultSeverity: 'error',
  messages: {
    empty:
      "{{count}} ({{kinds}}: {{ids}}) {{carry}} an empty data.responseId. The service accepts it, but no response has that id, so {{these}} for no search, dropdown or widget: not in its reports, and no click or order is credited to it. The provider's client sends each of them with the responseId of the response that delivered the item.",
  },
  fix: 'Take data.responseId from the response that delivered the item (the search API’s responseId, requested with beacon=true; the Snap client’s response.tracking.responseId) and send the events only once it has arrived.',
  listens: ['impression', 'clickthrough', 'addtocart', 'redirect'],
};

interface EmptyTally {
  ids: Capped;
  /** the endpoints they were sent to, in the order first seen */
  endpoints: string[];
}

const emptyIds = tallySlot<EmptyTally>();

const JUDGED = new Set(['impression', 'clickthrough', 'addtocart', 'redirect']);

/** the behaviour each kind's events show (readiness: the row of the controller that sent them) */
const BEHAVIOUR: Record<string, string> = {
  search: 'search.tile-response',
  category: 'category.events',
  autocomplete: 'autocomplete.events',
  recommendations: 'recommendations.events',
  bundles: 'bundles.widget',
};

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted || !JUDGED.has(rec.event) || !isTimelineEndpoint(rec.category, rec.event))
    return false;
  if (dataOf(rec).responseId !== '') return false;
  const t = emptyIds.make(page, () => ({ ids: capped(), endpoints: [] }));
  addCapped(t.ids, rec.id);
  const endpoint = `${rec.category}/${rec.event}`;
  if (!t.endpoints.includes(endpoint)) t.endpoints.push(endpoint);
  // the message names every event it holds (and how many): each one changes it
  return true;
}

export const responseIdEmpty = defineRule({
  meta,
  tally,
  count: (page) => (emptyIds.of(page) ? 1 : 0),
  page(page) {
    const t = emptyIds.of(page);
    if (!t) return [];
    const n = t.ids.count;
    const behaviour = BEHAVIOUR[t.endpoints[0]!.split('/')[0]!] ?? 'search.tile-response';
    return [
      finding(
        meta,
        'empty',
        {
          messageId: 'empty',
          data: {
            count: plural(n, 'event'),
            kinds: list(t.endpoints),
            ids: list(t.ids.ids),
            carry: n === 1 ? 'carries' : 'carry',
            these: n === 1 ? 'it counts' : 'they count',
          },
        },
        t.ids.ids,
        { eventCount: n, behaviour },
      ),
    ];
  },
});
