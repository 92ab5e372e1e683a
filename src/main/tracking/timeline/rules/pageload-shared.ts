// `pageload-shared` (error): one pageLoadId whose events were created at two origins (scheme, host and
// port of context.pageUrl): two documents, so two page loads, sent one pageLoadId.
//
// Why it is certain: the provider's client makes the pageLoadId once per Beacon, when the page loads
// (B constructor → getPageLoadId), and puts window.location.href at the moment each event is created in
// context.pageUrl (B getContext). A document never changes its origin (history.pushState refuses another
// one), so every event of one page load has one origin; B reuses a stored pageLoadId only for the same
// href within 10 s, which is the same origin too. What it exempts: events whose pageUrl is no absolute
// hierarchical URL (`pageurl-not-href` names those), and a pageLoadId shared across paths of one origin
// (an SPA route keeps its pageLoadId under Snap, which never calls the beacon's pageLoad() per route).
import type { RecordedEvent } from '../../../../shared/events';
import type { Page } from '../page';
import { pageUrlOf, timeOf } from './utils/request-context';
import { originOf } from '../../page-url';
import { finding, type RuleMeta, EVERY_PAGE_KIND, defineRule } from './types';
import type { TallyMark } from '../model';
import { tallySlot } from './utils/tally-slot';

const meta: RuleMeta<'page'> = {
  id: 'pageload-shared',
  judges: ['page'],
  title: 'One pageLoadId at two origins',
  description:
    'Events of one pageLoadId whose context.pageUrl is at two origins: two page loads (a checkout on another domain, another site) sent the same pageLoadId.',
  expects:
    'A new pageLoadId per page load; context.pageUrl is window.location.href, whose origin a page never changes.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.page-load-one-page', 'identity.page-url'],
  defaultSeverity: 'error',
  messages: {
    origins:
      '{{second}} was created at "{{secondUrl}}", on origin {{secondOrigin}}, but {{first}} of the same page load "{{pageLoadId}}" at "{{firstUrl}}", on origin {{firstOrigin}}. The provider\'s client makes a pageLoadId per page load and sends window.location.href as pageUrl; a page never changes its origin, so two documents shared one pageLoadId and the provider merges their events into one page.',
  },
  fix: 'Let the provider’s client make the pageLoadId on every page load; do not pass one on to another domain (a checkout) or share a stored one between sites.',
  listens: ['request'],
};

/**
 * What the page load's pageUrls said of it: its first accepted event with an origin (the event and its
 * URL, and the origin), and the first event at another origin. Made with that first origin, its mark
 * written out in it, not an object of its own: every page has one, and the finding reads no time of it.
 */
interface OneLoadTally {
  originId: string;
  originUrl: string;
  originKey: string;
  otherOrigin: TallyMark | undefined;
}

const oneLoad = tallySlot<OneLoadTally>();

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted) return false;
  const t = oneLoad.of(page);
  if (t?.otherOrigin) return false;
  const url = pageUrlOf(rec) ?? '';
  // the page's own origin, as most of its requests carry it, is told without reading the URL again
  if (t !== undefined && sameOrigin(url, t.originKey)) return false;
  const origin = originOf(url);
  if (origin === '') return false;
  if (t === undefined) {
    oneLoad.make(page, () => ({
      originId: rec.id,
      originUrl: url,
      originKey: origin,
      otherOrigin: undefined,
    }));
    return false;
  }
  if (t.originKey === origin) return false;
  t.otherOrigin = { id: rec.id, time: timeOf(rec), value: url };
  return true;
}

/** `url` begins with `origin` (as written, lower-case) and then its path, query or fragment */
function sameOrigin(url: string, origin: string): boolean {
  if (!url.startsWith(origin)) return false;
  const next = url.charCodeAt(origin.length);
  // end, '/', '?', '#'
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35;
}

export const pageloadShared = defineRule({
  meta,
  tally,
  count: (page) => (oneLoad.of(page)?.otherOrigin ? 1 : 0),
  page(page) {
    const t = oneLoad.of(page);
    if (!t?.otherOrigin) return [];
    const a = { id: t.originId, value: t.originUrl };
    const b = t.otherOrigin;
    return [
      finding(
        meta,
        'origins',
        {
          messageId: 'origins',
          data: {
            first: a.id,
            second: b.id,
            firstUrl: a.value,
            secondUrl: b.value,
            firstOrigin: originOf(a.value),
            secondOrigin: originOf(b.value),
            pageLoadId: page.pageLoadId,
          },
        },
        [a.id, b.id],
      ),
    ];
  },
});
